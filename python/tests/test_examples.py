"""python/examples: the shared examples from Python against f64 central finite differences,
and the tiny front end."""

import numpy as np
import pytest

import shared_examples
import tiny_frontend
from conftest import DEVICES


@pytest.mark.parametrize("name", sorted(shared_examples.SPECS))
def test_shared_example_gradient_matches_finite_differences(name):
    # Finite differences of the f64 module on the interpreter; the f32 gradient on cpu.
    f64 = shared_examples.Example(name, device="interp", f64=True)
    fd = f64.finite_differences()
    exact64 = f64.gradient()
    g32 = shared_examples.Example(name, device="cpu").gradient()
    for w in fd:
        scale = max(1e-30, np.abs(fd[w]).max())
        rtol = f64.spec.get("fd_rtol", 1e-5)
        np.testing.assert_allclose(exact64[w], fd[w], rtol=rtol, atol=1e-6 * scale)
        np.testing.assert_allclose(g32[w], exact64[w], rtol=2e-3, atol=2e-4 * scale)


@pytest.mark.parametrize("device", DEVICES)
def test_shared_examples_agree_across_devices(device):
    for name in ["ndarray_bound", "control_flow", "triangular"]:
        ref = shared_examples.Example(name, device="interp")
        ex = shared_examples.Example(name, device=device)
        assert ex.forward() == pytest.approx(ref.forward(), rel=1e-5)
        for w, g in ex.gradient().items():
            np.testing.assert_allclose(g, ref.gradient()[w], rtol=1e-4, atol=1e-6)


def test_dynamic_loop_matches_the_main_job():
    ex = shared_examples.Example("dynamic_loop")
    assert ex.forward() == pytest.approx(3.2, rel=1e-5)
    np.testing.assert_allclose(ex.gradient()["x"], 0.95 ** 512, rtol=1e-4)
    assert ex.prog.adstack_report()[0]["elided"]


@pytest.mark.parametrize("device", DEVICES)
def test_tiny_frontend_differentiates_a_traced_kernel(device):
    module, prog, expected = tiny_frontend.demo(device)
    assert "qd.kernel @energy" in module.print()
    np.testing.assert_allclose(prog["x.grad"], expected, rtol=1e-5, atol=1e-6)
    xs = np.linspace(-1.0, 1.0, 16)
    assert float(prog["y"]) == pytest.approx(np.sum(np.sin(xs) * xs + 0.5 * xs * xs), rel=1e-5)
