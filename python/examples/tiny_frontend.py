"""A tiny front end on qd.ir.Builder: Python functions over field elements, traced with operator
overloading into a qd kernel (no MLIR text written), then compiled and differentiated.

    fe = Frontend()
    x = fe.field("x", [16], needs_grad=True)
    y = fe.field("y", [], needs_grad=True)

    @fe.kernel(over=x)
    def energy(i):
        v = x[i]
        y.add(fe.sin(v) * v + 0.5 * v * v)

    prog = fe.program(device="cpu")

    python python/examples/tiny_frontend.py
"""

import inspect

import numpy as np

import qd


class Expr:
    """A traced f32 value; arithmetic builds arith ops, Python numbers become constants."""

    def __init__(self, fe, value):
        self.fe, self.value = fe, value

    def _lift(self, other):
        return other if isinstance(other, Expr) else self.fe.const(other)

    def _bin(self, name, a, b):
        return Expr(self.fe, self.fe.b.op(name, a.value, b.value))

    def __add__(self, o):
        return self._bin("arith.addf", self, self._lift(o))

    def __radd__(self, o):
        return self._bin("arith.addf", self._lift(o), self)

    def __sub__(self, o):
        return self._bin("arith.subf", self, self._lift(o))

    def __rsub__(self, o):
        return self._bin("arith.subf", self._lift(o), self)

    def __mul__(self, o):
        return self._bin("arith.mulf", self, self._lift(o))

    def __rmul__(self, o):
        return self._bin("arith.mulf", self._lift(o), self)

    def __truediv__(self, o):
        return self._bin("arith.divf", self, self._lift(o))

    def __neg__(self):
        return Expr(self.fe, self.fe.b.op("arith.negf", self.value))


class Field:
    def __init__(self, fe, name, shape):
        self.fe, self.name, self.shape = fe, name, shape

    def __getitem__(self, index):
        idx = index if isinstance(index, tuple) else (index,)
        idx = [i.value if isinstance(i, Expr) else i for i in idx if i != ()]
        return Expr(self.fe, self.fe.b.load(self.name, idx))

    def add(self, value, index=()):
        """Atomically adds `value` to an element (the scalar field's only one by default)."""
        idx = index if isinstance(index, tuple) else (index,)
        self.fe.b.atomic_add(self.fe._lift(value).value, self.name, [i.value for i in idx])


class Frontend:
    def __init__(self):
        self.module = qd.ir.Module()
        self.b = qd.ir.Builder(self.module)

    def field(self, name, shape, needs_grad=False):
        self.b.field(name, shape, "f32", needs_grad=needs_grad)
        return Field(self, name, shape)

    def const(self, v):
        return Expr(self, self.b.constant(float(v), "f32"))

    def _lift(self, v):
        return v if isinstance(v, Expr) else self.const(v)

    def sin(self, v):
        return Expr(self, self.b.op("math.sin", self._lift(v).value))

    def cos(self, v):
        return Expr(self, self.b.op("math.cos", self._lift(v).value))

    def exp(self, v):
        return Expr(self, self.b.op("math.exp", self._lift(v).value))

    def kernel(self, over):
        """Traces `fn(i, ...)` once per element of field `over`, in parallel."""

        def trace(fn):
            src = inspect.getsourcefile(fn) or "<python>"
            line = fn.__code__.co_firstlineno
            self.b.set_loc(src, line, 1)
            with self.b.kernel(fn.__name__):
                with self.b.struct_for(over.name) as idx:
                    # Ops point at the Python function, so diagnostics name its line.
                    fn(*[Expr(self, i) for i in idx])
            self.module.verify()
            return fn.__name__

        return trace

    def program(self, device="cpu"):
        return qd.Program(self.module, device=device)


def demo(device="cpu"):
    fe = Frontend()
    x = fe.field("x", [16], needs_grad=True)
    y = fe.field("y", [], needs_grad=True)

    @fe.kernel(over=x)
    def energy(i):
        v = x[i]
        y.add(fe.sin(v) * v + 0.5 * v * v)

    prog = fe.program(device)
    xs = np.linspace(-1.0, 1.0, 16, dtype=np.float32)
    prog["x"] = xs
    prog.kernel(energy)()
    prog["y.grad"] = 1.0
    prog.kernel(energy).grad()
    prog.sync()
    expected = np.cos(xs) * xs + np.sin(xs) + xs
    return fe.module, prog, expected


if __name__ == "__main__":
    module, prog, expected = demo()
    print(module)
    print("y      =", float(prog["y"]))
    print("x.grad =", prog["x.grad"])
    print("max |x.grad - (x cos x + sin x + x)| =", float(np.abs(prog["x.grad"] - expected).max()))
