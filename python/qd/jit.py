"""@qd.jit_compile: a Python function of elementwise NumPy operations, traced into the ndarray
dialect (qd-jit's graph), fused by fuse-elementwise into qd kernels, compiled forward and
backward once per (function, shapes, dtypes, keyword arguments) and cached.

    @qd.jit_compile(device="cpu")
    def loss(x, w, b):
        return np.sum(np.maximum(x * w + b, 0.0))

    y = loss(x, w, b)                       # traces, fuses, compiles; then cache hits
    y, (gx, gw, gb) = loss.value_and_grad(x, w, b)

Supported while tracing: + - * / ** unary -, comparisons, np.maximum/minimum/where/exp/log/
sqrt/tanh/abs/sin/cos/power, np.sum/mean/max (all axes or one), and any primitive added with
`qd.register_primitive`. Anything else (another NumPy function, indexing, a branch on a value)
makes that call run in plain NumPy instead, so decorating a function is always safe;
`f.fallback_reason(*args)` says why, and `value_and_grad` then raises.
"""

import numpy as np

from . import _qd
from .errors import QdError


class _Unsupported(Exception):
    pass


_UFUNCS = {
    "add": "add", "subtract": "sub", "multiply": "mul", "true_divide": "div", "divide": "div",
    "maximum": "maximum", "minimum": "minimum", "power": "pow", "negative": "neg",
    "tanh": "tanh", "exp": "exp", "log": "log", "sqrt": "sqrt", "absolute": "abs",
    "less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge", "equal": "eq",
    "not_equal": "ne", "sin": "sin", "cos": "cos",
}


class Tracer:
    """A symbolic array of a graph being traced."""

    __array_priority__ = 1000

    def __init__(self, g, node):
        self._g, self._n = g, node

    @property
    def shape(self):
        return tuple(self._g.shape(self._n))

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def dtype(self):
        return np.dtype(self._g.dtype(self._n))

    def _operand(self, v):
        if isinstance(v, Tracer):
            if v._g is not self._g:
                raise _Unsupported("an array traced by another call")
            return v._n
        if isinstance(v, (int, float, np.floating, np.integer)) and not isinstance(v, bool):
            return float(v)
        raise _Unsupported(f"an operand of type {type(v).__name__} (only traced arrays and scalars)")

    def _apply(self, name, *operands):
        node = self._g.apply(name, [self._operand(o) for o in operands])
        if self._g.error:
            raise _Unsupported(self._g.error)
        return Tracer(self._g, node)

    def __add__(self, o): return self._apply("add", self, o)
    def __radd__(self, o): return self._apply("add", o, self)
    def __sub__(self, o): return self._apply("sub", self, o)
    def __rsub__(self, o): return self._apply("sub", o, self)
    def __mul__(self, o): return self._apply("mul", self, o)
    def __rmul__(self, o): return self._apply("mul", o, self)
    def __truediv__(self, o): return self._apply("div", self, o)
    def __rtruediv__(self, o): return self._apply("div", o, self)
    def __pow__(self, o): return self._apply("pow", self, o)
    def __rpow__(self, o): return self._apply("pow", o, self)
    def __neg__(self): return self._apply("neg", self)
    def __abs__(self): return self._apply("abs", self)
    def __lt__(self, o): return self._apply("lt", self, o)
    def __le__(self, o): return self._apply("le", self, o)
    def __gt__(self, o): return self._apply("gt", self, o)
    def __ge__(self, o): return self._apply("ge", self, o)

    def __bool__(self):
        raise _Unsupported("a branch on a traced value")

    def __float__(self):
        raise _Unsupported("a traced value converted to a Python number")

    def __getitem__(self, _):
        raise _Unsupported("indexing")

    def _reduce(self, kind, axis=None, **kw):
        if kw.get("keepdims") or kw.get("out") is not None or kw.get("dtype") is not None:
            raise _Unsupported(f"{kind} with {sorted(k for k, v in kw.items() if v)}")
        if axis is not None and axis < 0:
            axis += self.ndim
        node = self._g.reduce(kind, self._n, axis)
        if self._g.error:
            raise _Unsupported(self._g.error)
        return Tracer(self._g, node)

    def sum(self, axis=None, **kw): return self._reduce("sum", axis, **kw)
    def mean(self, axis=None, **kw): return self._reduce("mean", axis, **kw)
    def max(self, axis=None, **kw): return self._reduce("max", axis, **kw)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method != "__call__" or kwargs:
            raise _Unsupported(f"np.{ufunc.__name__}.{method}")
        name = _UFUNCS.get(ufunc.__name__)
        if name is None or name not in _qd.primitive_names():
            raise _Unsupported(f"np.{ufunc.__name__} has no qd primitive")
        return self._apply(name, *inputs)

    def __array_function__(self, func, types, args, kwargs):
        n = func.__name__
        if n in ("sum", "mean", "max", "amax") and isinstance(args[0], Tracer):
            return args[0]._reduce({"amax": "max"}.get(n, n), *args[1:], **kwargs)
        if n == "where" and len(args) == 3 and not kwargs:
            t = next(a for a in args if isinstance(a, Tracer))
            return t._apply("select", *args)
        raise _Unsupported(f"np.{n}")


class _Fallback:
    def __init__(self, reason):
        self.reason = reason


class JitFunction:
    """A function compiled by qd per input signature; see the module docstring."""

    def __init__(self, fn, device="cpu", fuse=True, approx_functions=False):
        self.fn, self.device = fn, device
        self.approx_functions = approx_functions
        self._engine = _qd.JitEngine(device, fuse, approx_functions)
        self._entries = {}
        self.fallbacks = 0
        self.__name__ = getattr(fn, "__name__", "jit")
        self.__doc__ = getattr(fn, "__doc__", None)

    def _signature(self, args, kwargs):
        arrays = [np.asarray(a) for a in args]
        try:
            kw = tuple(sorted(kwargs.items()))
            hash(kw)
        except TypeError:
            return arrays, None
        return arrays, (tuple((a.shape, a.dtype.str) for a in arrays), kw)

    def _entry(self, arrays, sig, kwargs):
        if sig is None:
            return _Fallback("unhashable keyword arguments")
        e = self._entries.get(sig)
        if e is None:
            e = self._trace(arrays, kwargs)
            self._entries[sig] = e
        return e

    def _trace(self, arrays, kwargs):
        if any(a.dtype not in (np.float32, np.float64) for a in arrays):
            return _Fallback("inputs that are not float32 or float64 arrays")
        g = _qd.JitGraph()
        inputs = [Tracer(g, g.input(list(a.shape), a.dtype.name)) for a in arrays]
        try:
            out = self.fn(*inputs, **kwargs)
        except _Unsupported as e:
            return _Fallback(str(e))
        single = not isinstance(out, tuple)
        outs = (out,) if single else out
        if not all(isinstance(o, Tracer) and o._g is g for o in outs):
            return _Fallback("an output that is not computed from the inputs")
        for o in outs:
            g.output(o._n)
        try:
            key = self._engine.compile(g)
        except QdError as e:
            return _Fallback(f"qd cannot compile it: {e}")
        return (key, [o.shape for o in outs], single)

    @staticmethod
    def _inputs(arrays):
        return [np.require(a, requirements=["C", "W", "A"]) for a in arrays]

    def __call__(self, *args, **kwargs):
        arrays, sig = self._signature(args, kwargs)
        e = self._entry(arrays, sig, kwargs)
        if isinstance(e, _Fallback):
            self.fallbacks += 1
            return self.fn(*args, **kwargs)
        key, shapes, single = e
        outs, _ = self._engine.run(key, self._inputs(arrays), [list(s) for s in shapes])
        outs = [o.reshape(s) for o, s in zip(outs, shapes)]
        return outs[0] if single else tuple(outs)

    def value_and_grad(self, *args, seeds=None, **kwargs):
        """(outputs, gradients): d(sum of seed * output) / d input for every input; seeds
        default to ones (so a scalar loss gives its gradient)."""
        arrays, sig = self._signature(args, kwargs)
        e = self._entry(arrays, sig, kwargs)
        if isinstance(e, _Fallback):
            raise QdError(f"{self.__name__} runs in plain NumPy ({e.reason}): no gradient")
        key, shapes, single = e
        if seeds is None:
            seeds = [np.ones(s, dtype=arrays[0].dtype if arrays else np.float32) for s in shapes]
        elif single and not isinstance(seeds, (list, tuple)):
            seeds = [seeds]
        seeds = [np.require(np.asarray(s, dtype=arrays[0].dtype), requirements=["C", "W", "A"])
                 for s in seeds]
        outs, grads = self._engine.run(key, self._inputs(arrays), [list(s) for s in shapes], seeds)
        outs = [o.reshape(s) for o, s in zip(outs, shapes)]
        return (outs[0] if single else tuple(outs)), tuple(grads)

    def grad(self, *args, **kwargs):
        """The gradients of `value_and_grad`."""
        return self.value_and_grad(*args, **kwargs)[1]

    def fallback_reason(self, *args, **kwargs):
        """Why a call with these arguments runs in plain NumPy (None when qd compiles it)."""
        arrays, sig = self._signature(args, kwargs)
        e = self._entry(arrays, sig, kwargs)
        return e.reason if isinstance(e, _Fallback) else None

    def ir(self, *args, **kwargs):
        """The fused function qd compiled for these arguments (the ndarray graph after
        fuse-elementwise, before its kernels were built); None when the call runs in NumPy."""
        arrays, sig = self._signature(args, kwargs)
        e = self._entry(arrays, sig, kwargs)
        return None if isinstance(e, _Fallback) else self._engine.ir(e[0])

    @property
    def stats(self):
        """Compile cache statistics: hits, misses, compile_seconds, signatures, fallbacks."""
        s = dict(self._engine.stats())
        s["signatures"] = len(self._entries)
        s["fallbacks"] = self.fallbacks
        return s


def jit_compile(fn=None, *, device="cpu", fuse=True, approx_functions=False):
    """Decorator: `@qd.jit_compile` or `@qd.jit_compile(device="interp", fuse=False)`.

    approx_functions=True allows approximate functions in the kernels (qd-jit's
    `Jit::approx_functions`, `fastmath<afn>` on their math ops): on the cpu device f32 exp and
    exp2 are within 1 ulp of the exact value instead of 0.5 and about 3x cheaper; the interpreters keep libm's. Gradients use the same functions."""
    if fn is None:
        return lambda f: JitFunction(f, device, fuse, approx_functions)
    return JitFunction(fn, device, fuse, approx_functions)


# ----- register_primitive: scalar recipes -------------------------------------------------


class _Scalar:
    """A traced scalar of a primitive's body: operators and `qd.jit.smath` record steps."""

    def __init__(self, rec, index):
        self._rec, self._i = rec, index

    def _v(self, o):
        if isinstance(o, _Scalar):
            return o._i
        self._rec.append(("const", float(o)))
        return self._rec.base + len(self._rec) - 1

    def _op(self, name, *operands):
        idx = [self._v(o) for o in operands]
        self._rec.append((name, idx))
        return _Scalar(self._rec, self._rec.base + len(self._rec) - 1)

    def __add__(self, o): return self._op("arith.addf", self, o)
    def __radd__(self, o): return self._op("arith.addf", o, self)
    def __sub__(self, o): return self._op("arith.subf", self, o)
    def __rsub__(self, o): return self._op("arith.subf", o, self)
    def __mul__(self, o): return self._op("arith.mulf", self, o)
    def __rmul__(self, o): return self._op("arith.mulf", o, self)
    def __truediv__(self, o): return self._op("arith.divf", self, o)
    def __rtruediv__(self, o): return self._op("arith.divf", o, self)
    def __neg__(self): return self._op("arith.negf", self)


class _Recipe(list):
    def __init__(self, base):
        super().__init__()
        self.base = base


class smath:
    """Scalar math for primitive bodies: each records one math/arith op."""

    @staticmethod
    def _f(name):
        return lambda x: x._op(name, x)

    sin = staticmethod(lambda x: x._op("math.sin", x))
    cos = staticmethod(lambda x: x._op("math.cos", x))
    exp = staticmethod(lambda x: x._op("math.exp", x))
    log = staticmethod(lambda x: x._op("math.log", x))
    sqrt = staticmethod(lambda x: x._op("math.sqrt", x))
    tanh = staticmethod(lambda x: x._op("math.tanh", x))
    abs = staticmethod(lambda x: x._op("math.absf", x))
    maximum = staticmethod(lambda a, b: a._op("arith.maximumf", a, b))
    minimum = staticmethod(lambda a, b: a._op("arith.minimumf", a, b))


def _record(fn, n_inputs):
    rec = _Recipe(n_inputs)
    args = [_Scalar(rec, i) for i in range(n_inputs)]
    out = fn(*args)
    return rec, args, out


def register_primitive(name, forward, backward=None, arity=None, fusible=True):
    """Adds elementwise op `name` to qd from Python. `forward(x, ...)` computes one element
    with + - * / and `qd.jit.smath` functions; `backward(x, ..., result, adjoint)`, when
    given, returns each operand's adjoint contribution (or None) and replaces reverse-mode-ad
    of the body. The op is then usable in traced functions as `qd.jit.call(name, ...)` and, for
    NumPy ufunc names (sin, cos), as the ufunc."""
    if arity is None:
        arity = forward.__code__.co_argcount
    rec, _, out = _record(forward, arity)
    if not isinstance(out, _Scalar):
        raise QdError(f"primitive '{name}': forward must return a value computed from its operands")
    bwd = bwd_outs = None
    if backward is not None:
        brec, _, bout = _record(backward, arity + 2)
        bout = bout if isinstance(bout, tuple) else (bout,)
        bwd = list(brec)
        bwd_outs = [o._i if isinstance(o, _Scalar) else None for o in bout]
    _qd.register_primitive(name, arity, list(rec), out._i, bwd, bwd_outs, fusible)


def call(name, *operands):
    """Applies primitive `name` inside a traced function."""
    t = next((o for o in operands if isinstance(o, Tracer)), None)
    if t is None:
        raise QdError(f"qd.jit.call('{name}'): no traced array operand")
    return t._apply(name, *operands)


def primitives():
    """Every primitive name, built-in and registered."""
    return _qd.primitive_names()


# NumPy's sin and cos trace to qd as primitives registered here (the ndarray dialect's
# built-ins have neither); their derivatives come from reverse-mode-ad of math.sin/math.cos.
for _n, _f in (("sin", smath.sin), ("cos", smath.cos)):
    if _n not in _qd.primitive_names():
        register_primitive(_n, _f)
