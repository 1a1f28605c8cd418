"""Bad input never crashes the interpreter: each mistake raises a qd exception with a clear
message (and the builtin class that fits)."""

import numpy as np
import pytest

import qd
from test_program import SCALE, scale_prog

OOB = """module {
  qd.field @x : !qd.field<4xf32>
  qd.kernel @k(%w: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %c = arith.constant 10 : i32
      %j = arith.addi %i, %c : i32
      %v = qd.ndarray_load %w[%j] : !qd.ndarray<?xf32>
      qd.store %v, @x[%i] : f32
    }
  }
}
"""


def test_wrong_ndarray_dtype():
    k = scale_prog().kernel("compute")
    with pytest.raises(qd.DTypeError) as e:
        k(w=np.zeros(8), limit=1.0)  # float64, not float32
    assert "argument 'w' of kernel 'compute' must be an array of f32 (numpy float32), got float64" in str(e.value)
    assert isinstance(e.value, TypeError)


def test_wrong_rank():
    k = scale_prog().kernel("compute")
    with pytest.raises(qd.ShapeError) as e:
        k(w=np.zeros((2, 4), dtype=np.float32), limit=1.0)
    assert "must have rank 1, got an array of shape [2, 4]" in str(e.value)


def test_scalar_where_an_array_is_expected_and_back():
    k = scale_prog().kernel("compute")
    with pytest.raises(qd.DTypeError) as e:
        k(w=1.0, limit=1.0)
    assert "argument 'w'" in str(e.value) and "NumPy array" in str(e.value)
    with pytest.raises(qd.DTypeError) as e:
        k(w=np.zeros(8, dtype=np.float32), limit=np.zeros(3))
    assert "argument 'limit' of kernel 'compute' is a f32 scalar" in str(e.value)


def test_float_for_an_integer_scalar():
    m = qd.ir.Module.parse("module {\n  qd.field @x : !qd.field<4xi32>\n  qd.kernel @k(%n: i32) {\n"
                           "    qd.struct_for (%i) in @x {\n      qd.store %n, @x[%i] : i32\n    }\n  }\n}\n")
    prog = qd.Program(m, device="interp")
    with pytest.raises(qd.DTypeError) as e:
        prog.kernel("k")(n=1.5)
    assert "is a i32 scalar, got the float 1.5" in str(e.value)
    with pytest.raises(qd.DTypeError) as e:
        prog.kernel("k")(n=2**40)
    assert "i32" in str(e.value)
    prog.kernel("k")(n=np.int64(7))  # NumPy integers are integers
    prog.sync()
    assert list(prog["x"]) == [7, 7, 7, 7]


def test_non_contiguous_and_read_only_arrays():
    k = scale_prog().kernel("compute")
    with pytest.raises(qd.ShapeError) as e:
        k(w=np.zeros(16, dtype=np.float32)[::2], limit=1.0)
    assert "C-contiguous" in str(e.value)
    ro = np.zeros(8, dtype=np.float32)
    ro.setflags(write=False)
    with pytest.raises(qd.DTypeError) as e:
        k(w=ro, limit=1.0)
    assert "read-only" in str(e.value)


def test_unknown_names():
    prog = scale_prog()
    with pytest.raises(qd.UnknownNameError) as e:
        prog.kernel("nope")
    assert "nope" in str(e.value) and "compute" in str(e.value)
    assert isinstance(e.value, KeyError)
    with pytest.raises(qd.UnknownNameError) as e:
        prog["z"]
    assert "'z'" in str(e.value) and "x" in str(e.value)
    with pytest.raises(qd.UnknownNameError) as e:
        prog.kernel("compute")(w=np.zeros(8, dtype=np.float32), limit=1.0, scale=2.0)
    assert "has no parameter 'scale' (parameters: w, limit)" in str(e.value)
    with pytest.raises(qd.UnknownNameError):
        qd.Program(qd.ir.Module.parse(SCALE), device="tpu")
    with pytest.raises(qd.UnknownNameError):
        prog.tape(loss="nope")


def test_adjoint_of_a_field_without_needs_grad():
    prog = qd.Program(qd.ir.Module.parse(
        "module {\n  qd.field @x : !qd.field<4xf32>\n}\n"), device="interp")
    with pytest.raises(qd.UnknownNameError) as e:
        prog["x.grad"]
    assert "needs_grad" in str(e.value) or "adjoint" in str(e.value)


def test_argument_count_errors():
    k = scale_prog().kernel("compute")
    with pytest.raises(qd.ArgumentError) as e:
        k(w=np.zeros(8, dtype=np.float32))
    assert "missing argument 'limit' (f32)" in str(e.value)
    with pytest.raises(qd.ArgumentError):
        k(np.zeros(8, dtype=np.float32), 1.0, 2.0)
    with pytest.raises(qd.ArgumentError) as e:
        k(np.zeros(8, dtype=np.float32), 1.0, limit=1.0)
    assert "given twice" in str(e.value)


def test_field_writes_check_shape_and_dtype_kind():
    prog = scale_prog()
    with pytest.raises(qd.ShapeError) as e:
        prog["x"] = np.zeros(3)
    assert "field 'x' has shape [8], got values of shape [3]" in str(e.value)
    with pytest.raises(qd.DTypeError) as e:
        prog["x"] = np.array([1 + 2j] * 8)
    assert "field 'x' holds float32" in str(e.value)
    prog["x"] = np.arange(8, dtype=np.float64)  # same kind: rounded to float32
    prog["x"] = 2  # a scalar fills the field
    assert prog["x"].sum() == 16


def test_out_of_bounds_raises_at_sync_then_the_program_refuses_calls(device):
    prog = qd.Program(qd.ir.Module.parse(OOB, filename="oob.mlir"), device=device)
    w = np.zeros(8, dtype=np.float32)
    prog.kernel("k")(w=w)
    with pytest.raises(qd.KernelError) as e:
        prog.sync()
    assert "out of bounds" in str(e.value) or "out-of-bounds" in str(e.value)
    assert e.value.errors[0]["kernel"] == "k" and e.value.errors[0]["line"] == 7
    assert prog.failed
    # Calls after a failed sync raise until the failure is acknowledged.
    with pytest.raises(qd.ProgramFailedError) as e:
        prog.kernel("k")(w=w)
    assert "last sync failed" in str(e.value) and "clear_error" in str(e.value)
    with pytest.raises(qd.ProgramFailedError):
        prog.sync()
    with pytest.raises(qd.ProgramFailedError):
        prog.kernel("k").grad(w=w)
    with pytest.raises(qd.ProgramFailedError):
        prog.tape()
    _ = prog["x"]  # reading results stays allowed
    prog.clear_error()
    assert prog.failed is None
    prog.sync()


def test_compile_errors_are_located():
    bad = """module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %w = arith.mulf %v, %v : f32
      qd.store %w, @x[%i] : f32
    }
  }
}
"""
    prog = qd.Program(qd.ir.Module.parse(bad, filename="g.mlir"), device="cpu")
    with pytest.raises(qd.DiagnosticError) as e:
        prog.kernel("k").grad()
    assert (e.value.file, e.value.line) == ("g.mlir", 7)
    assert "global data access rule" in str(e.value)


def test_invalid_module_is_refused_by_the_program():
    m = qd.ir.Module.parse("module {\n  qd.kernel @k() {\n    %c = arith.constant 1 : i32\n"
                           "    qd.store %c, @nope[] : i32\n  }\n}\n", filename="m.mlir", verify=False)
    with pytest.raises(qd.DiagnosticError) as e:
        qd.Program(m, device="interp")
    assert e.value.line == 4


def test_a_differentiated_kernel_refuses_one_array_bound_twice():
    two = """module {
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @k(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>) {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    qd.range_for %i = %c0 to %c4 : i32 {
      %u = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %v = qd.ndarray_load %b[%i] : !qd.ndarray<?xf32>
      %p = arith.mulf %u, %v : f32
      qd.atomic_add %p, @y[] : f32
    }
  }
}
"""
    prog = qd.Program(qd.ir.Module.parse(two), device="cpu")
    a = np.ones(4, dtype=np.float32)
    with pytest.raises(qd.ShapeError) as e:
        prog.kernel("k").grad(a=a, b=a)
    assert "same ndarray" in str(e.value)


def test_bound_arrays_cannot_be_resized_under_the_runtime():
    prog = scale_prog()
    w = np.zeros(8, dtype=np.float32)
    prog.kernel("compute")(w=w, limit=1.0)
    with pytest.raises(ValueError):
        w.resize(1 << 20)  # NumPy refuses: the runtime holds a reference (its buffer export)
    with pytest.raises(ValueError):
        prog["x"].resize(1 << 20)
    prog.sync()
    np.testing.assert_array_equal(w, 1.0)
