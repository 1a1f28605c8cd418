"""qd from Python: parse or build MLIR modules of the qd, arith and math dialects, run pass
pipelines, and compile, run and differentiate kernels on NumPy arrays.

    import numpy as np, qd
    m = qd.ir.Module.load("examples/ndarray_bound.mlir")
    prog = qd.Program(m, device="cpu")
    prog["x"] = np.linspace(0.1, 0.8, 8)
    a = np.array([0, 3, 7, 1, 12, 5, 0, 9], dtype=np.int32)
    prog.kernel("compute")(a=a)
    prog["y.grad"] = 1.0
    prog.kernel("compute").grad(a=a)
    prog.sync()
    print(prog["y"], prog["x.grad"])
"""

from . import errors, ir, jit, passes
from ._qd import Kernel, Program, Tape, devices
from .jit import jit_compile, register_primitive
from .errors import (
    AdstackOverflowError,
    ArgumentError,
    BuilderError,
    DeviceError,
    DiagnosticError,
    DTypeError,
    KernelError,
    PipelineError,
    ProgramFailedError,
    QdError,
    ShapeError,
    UnknownNameError,
)

__all__ = [
    "AdstackOverflowError",
    "ArgumentError",
    "BuilderError",
    "DeviceError",
    "DiagnosticError",
    "DTypeError",
    "Kernel",
    "KernelError",
    "PipelineError",
    "Program",
    "ProgramFailedError",
    "QdError",
    "ShapeError",
    "Tape",
    "UnknownNameError",
    "devices",
    "errors",
    "ir",
    "jit",
    "jit_compile",
    "passes",
    "register_primitive",
]
