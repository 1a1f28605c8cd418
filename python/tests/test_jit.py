"""@qd.jit_compile: tracing NumPy functions into the fusion JIT, caching, gradients, fallback to
NumPy, and register_primitive."""

import itertools

import numpy as np
import pytest

import qd
from conftest import DEVICES

_ids = itertools.count()


def fresh(name):
    # The primitive registry is process-wide: each registration gets its own name.
    return f"{name}_{next(_ids)}"


def inputs(dtype=np.float32, n=8):
    x = np.linspace(-1, 1, n).astype(dtype)
    w = np.linspace(0.5, 2, n).astype(dtype)
    b = np.full(n, 0.25, dtype=dtype)
    return x, w, b


@pytest.mark.parametrize("device", [d for d in DEVICES if d != "vulkan"])
def test_forward_and_gradient_of_a_fused_chain(device):
    @qd.jit_compile(device=device)
    def loss(x, w, b):
        return np.sum(np.tanh(x * w + b) * x)

    x, w, b = inputs()
    t = np.tanh(x * w + b)
    assert loss(x, w, b) == pytest.approx(float(np.sum(t * x)), rel=1e-5)
    y, (gx, gw, gb) = loss.value_and_grad(x, w, b)
    dt = 1 - t * t
    np.testing.assert_allclose(gx, dt * w * x + t, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gw, dt * x * x, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gb, dt * x, rtol=1e-5, atol=1e-6)


def test_gradient_matches_central_differences_in_f64():
    @qd.jit_compile
    def f(x, w):
        return np.mean(np.exp(-x * x) * w + np.sqrt(np.abs(w) + 1.0))

    x, w, _ = inputs(np.float64, 6)
    _, (gx, gw) = f.value_and_grad(x, w)
    h = 1e-6
    for arr, g in ((x, gx), (w, gw)):
        for i in range(arr.size):
            p, m = arr.copy(), arr.copy()
            p[i] += h
            m[i] -= h
            args_p = (p, w) if arr is x else (x, p)
            args_m = (m, w) if arr is x else (x, m)
            fd = (f(*args_p) - f(*args_m)) / (2 * h)
            assert g[i] == pytest.approx(float(fd), rel=1e-6, abs=1e-9)


def test_cache_by_shapes_dtypes_and_keywords():
    @qd.jit_compile
    def scaled(x, scale=1.0):
        return x * scale + 1.0

    x, _, _ = inputs()
    np.testing.assert_allclose(scaled(x), x + 1)
    scaled(x)
    assert scaled.stats["misses"] == 1 and scaled.stats["hits"] >= 1
    np.testing.assert_allclose(scaled(x, scale=3.0), 3 * x + 1, rtol=1e-6)
    scaled(np.zeros(4, dtype=np.float32))
    scaled(x.astype(np.float64))
    s = scaled.stats
    assert s["signatures"] == 4 and s["misses"] == 4 and s["fallbacks"] == 0


def test_multiple_outputs_and_seeds():
    @qd.jit_compile
    def two(x, y):
        return x * y, np.maximum(x, y)

    x, w, _ = inputs()
    p, m = two(x, w)
    np.testing.assert_allclose(p, x * w, rtol=1e-6)
    np.testing.assert_allclose(m, np.maximum(x, w))
    seeds = [np.ones(8, np.float32), np.zeros(8, np.float32)]
    _, (gx, gy) = two.value_and_grad(x, w, seeds=seeds)
    np.testing.assert_allclose(gx, w, rtol=1e-6)
    np.testing.assert_allclose(gy, x, rtol=1e-6)


def test_unsupported_operations_fall_back_to_numpy():
    @qd.jit_compile
    def spectral(x):
        return np.abs(np.fft.fft(x)) * 2.0

    x, _, _ = inputs()
    np.testing.assert_allclose(spectral(x), np.abs(np.fft.fft(x)) * 2.0)
    assert "np.fft" in spectral.fallback_reason(x) or "fft" in spectral.fallback_reason(x)
    assert spectral.stats["fallbacks"] == 1
    with pytest.raises(qd.QdError) as e:
        spectral.value_and_grad(x)
    assert "plain NumPy" in str(e.value)

    @qd.jit_compile
    def branchy(x):
        return x * 2 if x.sum() > 0 else x

    np.testing.assert_allclose(branchy(x + 5), (x + 5) * 2)
    assert "branch" in branchy.fallback_reason(x)

    @qd.jit_compile
    def ints(a):
        return a + 1

    np.testing.assert_array_equal(ints(np.arange(3)), [1, 2, 3])
    assert "float32 or float64" in ints.fallback_reason(np.arange(3))


def test_broadcasting_errors_fall_back_to_numpy_error():
    @qd.jit_compile
    def add(a, b):
        return a + b

    with pytest.raises(ValueError):
        add(np.zeros(3, np.float32), np.zeros(4, np.float32))  # NumPy's own error


def test_register_primitive_with_reverse_mode_backward():
    name = fresh("softplus")
    qd.register_primitive(name, lambda v: qd.jit.smath.log(1.0 + qd.jit.smath.exp(v)))
    assert name in qd.jit.primitives()

    @qd.jit_compile
    def f(x):
        return qd.jit.call(name, x).sum()

    x, _, _ = inputs()
    y, (g,) = f.value_and_grad(x)
    assert y == pytest.approx(float(np.sum(np.log1p(np.exp(x)))), rel=1e-5)
    np.testing.assert_allclose(g, 1 / (1 + np.exp(-x)), rtol=1e-5)


def test_register_primitive_with_its_own_backward_unfused():
    name = fresh("twice_grad_identity")
    # A backward that is not the derivative shows it replaces reverse-mode-ad.
    qd.register_primitive(name, lambda v: v * 1.0, backward=lambda v, r, a: (a * 2.0,), fusible=False)

    @qd.jit_compile
    def f(x, y):
        return (qd.jit.call(name, x) * y).sum()

    x, w, _ = inputs()
    _, (gx, gy) = f.value_and_grad(x, w)
    np.testing.assert_allclose(gx, 2 * w, rtol=1e-6)
    np.testing.assert_allclose(gy, x, rtol=1e-6)


def test_register_primitive_refusals():
    with pytest.raises(qd.QdError):
        qd.register_primitive("add", lambda v: v)  # a built-in name
    with pytest.raises(qd.QdError):
        qd.register_primitive("9bad", lambda v: v)
    with pytest.raises(qd.QdError):
        qd.register_primitive(fresh("const"), lambda v: 3.0)  # not computed from its operand


def _f32_ulps(got, want):
    """ulps of f32 between got and the exact (f64) want: the f32 spacing at want, subnormals'
    below 2^-126."""
    _, e = np.frexp(want)
    return np.abs(got.astype(np.float64) - want) / np.ldexp(1.0, np.maximum(e - 1, -126) - 23)


def _exp_inputs():
    # Every 9973rd f32 from -104 to 88.7: subnormal results up to FLT_MAX.
    pos = np.arange(0, np.float32(88.7).view(np.uint32), 9973, dtype=np.uint32)
    neg = np.arange(0x8000_0000, np.float32(-104.0).view(np.uint32), 9973, dtype=np.uint32)
    return np.concatenate([pos, neg]).view(np.float32)


def test_approx_functions_exp_is_within_one_ulp_and_reaches_the_kernel():
    @qd.jit_compile(approx_functions=True)
    def approx(x):
        return np.exp(x)

    @qd.jit_compile
    def exact(x):
        return np.exp(x)

    assert approx.approx_functions and not exact.approx_functions
    x = _exp_inputs()
    want = np.exp(x.astype(np.float64))
    a, e = approx(x), exact(x)
    assert a.dtype == np.float32 and a.shape == x.shape
    assert _f32_ulps(a, want).max() <= 1.0
    assert _f32_ulps(e, want).max() <= 0.501
    # The flag reaches the kernel: some approximate results are not the correctly rounded ones.
    assert np.count_nonzero(a != e) > x.size // 1000
    assert "fastmath<afn>" in approx.ir(x)
    assert "afn" not in exact.ir(x)


def test_approx_functions_are_part_of_the_cache_key():
    def graph():
        g = qd._qd.JitGraph()
        x = g.input([64], "float32")
        g.output(g.apply("exp", [x]))
        return g

    plain = qd._qd.JitEngine("cpu")
    afn = qd._qd.JitEngine("cpu", True, True)
    k_plain, k_afn = plain.compile(graph()), afn.compile(graph())
    assert k_plain != k_afn and "approx-functions" in k_afn
    # Neither engine's key names the other's executable.
    with pytest.raises(qd.UnknownNameError):
        plain.ir(k_afn)
    with pytest.raises(qd.UnknownNameError):
        afn.ir(k_plain)
    assert "fastmath<afn>" in afn.ir(k_afn) and "afn" not in plain.ir(k_plain)
    # The same options give the same key: a cache hit, not a second compile.
    assert afn.compile(graph()) == k_afn and afn.stats()["misses"] == 1


def test_approx_functions_gradient_matches_the_exact_one():
    @qd.jit_compile(approx_functions=True)
    def f(x, w):
        return np.sum(1.0 / (1.0 + np.exp(-(np.maximum(x * w + 0.5, 0.0) - x * 0.25))))

    x = np.linspace(-3, 3, 512).astype(np.float32)
    w = (3 * np.cos(np.arange(512))).astype(np.float32)
    _, (gx, gw) = f.value_and_grad(x, w)
    xd, wd = x.astype(np.float64), w.astype(np.float64)
    z = xd * wd + 0.5
    s = 1 / (1 + np.exp(-(np.maximum(z, 0) - xd * 0.25)))
    ds = s * (1 - s)
    relu = (z > 0).astype(np.float64)
    away = np.abs(z) > 1e-3  # the kink of relu
    np.testing.assert_allclose(gx[away], (ds * (relu * wd - 0.25))[away], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(gw[away], (ds * relu * xd)[away], rtol=1e-5, atol=1e-7)
