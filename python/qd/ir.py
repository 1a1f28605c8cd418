"""The IR: Module (parse, print, verify), and Builder, which emits qd, arith and math ops
without text. Ops with a body are `with` blocks:

    m = qd.ir.Module()
    b = qd.ir.Builder(m)
    b.field("x", [8], "f32", needs_grad=True)
    b.field("y", [], "f32", needs_grad=True)
    with b.kernel("compute", scale="f32") as (scale,):
        with b.struct_for("x") as (i,):
            v = b.load("x", [i])
            b.atomic_add(b.op("arith.mulf", b.op("math.sin", v), scale), "y", [])
    m.verify()
"""

from contextlib import contextmanager

from ._qd import Builder as _Builder
from ._qd import Module, Value
from ._qd import TypeSpec as Type

__all__ = ["Builder", "Module", "Type", "Value", "ndarray", "ptr", "array"]


def ndarray(elem, rank):
    """The type !qd.ndarray<?x...xelem> of rank `rank` (a kernel parameter)."""
    return Type.ndarray(elem, rank)


def ptr(pointee):
    """The type !qd.ptr<pointee> (what alloca returns)."""
    return Type.ptr(pointee)


def array(n, elem):
    """The type !qd.array<n x elem>, a local array."""
    return Type.array(n, elem)


class Builder(_Builder):
    """qd.ir.Builder(module): see the module docstring. Every op method of the extension
    (constant, op, cast, cmpf, cmpi, select, load, store, atomic_add, ndarray_load,
    ndarray_store, ndarray_atomic_add, alloca, local_load, local_store, field, set_loc) is
    available; the scopes below open and close bodies."""

    @contextmanager
    def _scope(self, opened):
        # Called with the scope already open: close it (and anything left open inside it,
        # when the body raised) on the way out.
        depth = self.depth
        try:
            yield opened
        finally:
            while self.depth >= depth:
                self.end()

    def kernel(self, name, params=None, **kw_params):
        """`with b.kernel("k", a=qd.ir.ndarray("f32", 1), s="f32") as (a, s):` opens a kernel;
        parameters in order (a list of (name, type) pairs, or keywords)."""
        ps = list(params or []) + list(kw_params.items())
        return self._scope(self.begin_kernel(name, ps))

    def range_for(self, lower, upper):
        """`with b.range_for(lo, hi) as i:` (values of one integer type)."""
        return self._scope(self.begin_range_for(lower, upper))

    def struct_for(self, field):
        """`with b.struct_for("x") as (i, ...):` every element of a field, in parallel."""
        return self._scope(self.begin_struct_for(field))

    @contextmanager
    def if_(self, cond, with_else=False):
        """`with b.if_(c):` (then block); with `with_else=True`, call `b.else_()` inside to move
        to the else block."""
        depth = self.depth
        self.begin_if(cond, with_else)
        try:
            yield
        finally:
            if self.depth > depth:
                self.end()

    def else_(self):
        """Moves from the then block of the innermost `if_(..., with_else=True)` to its else."""
        self.begin_else()
