"""qd.Program: fields and ndarrays as NumPy arrays without copies, launches, gradients, the
adstack report, overflow at sync, tapes, on every device."""

import gc

import numpy as np
import pytest

import qd
from conftest import example_path

SCALE = """module {
  qd.field @x : !qd.field<8xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @compute(%w: !qd.ndarray<?xf32>, %limit: f32) {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %a = qd.ndarray_load %w[%i] : !qd.ndarray<?xf32>
      %p = arith.mulf %v, %a : f32
      %m = arith.minimumf %p, %limit : f32
      qd.atomic_add %m, @y[] : f32
      %d = arith.addf %a, %limit : f32
      qd.ndarray_store %d, %w[%i] : !qd.ndarray<?xf32>
    }
  }
  qd.kernel @weighted(%w: !qd.ndarray<?xf32>, %limit: f32) {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %a = qd.ndarray_load %w[%i] : !qd.ndarray<?xf32>
      %p = arith.mulf %v, %a : f32
      %m = arith.minimumf %p, %limit : f32
      qd.atomic_add %m, @y[] : f32
    }
  }
}
"""


def scale_prog(device="cpu"):
    return qd.Program(qd.ir.Module.parse(SCALE, filename="scale.mlir"), device=device)


def test_fields_are_numpy_arrays_shared_with_the_kernel(device):
    prog = scale_prog(device)
    x = prog["x"]
    assert isinstance(x, np.ndarray) and x.dtype == np.float32 and x.shape == (8,)
    assert prog.field("x") is x  # the same array every time: the field's memory
    x[:] = np.arange(8)  # written in place, no set() needed
    w = np.ones(8, dtype=np.float32)
    prog.kernel("compute")(w, 100.0)
    prog.sync()
    assert float(prog["y"]) == pytest.approx(28.0)
    assert prog["y"].shape == ()


def test_ndarray_arguments_are_used_in_place(device):
    prog = scale_prog(device)
    prog["x"] = 1.0
    w = np.arange(8, dtype=np.float32)
    k = prog.kernel("compute")
    k(w=w, limit=2.0)
    prog.sync()
    # The kernel stored w + limit into the very array passed.
    np.testing.assert_array_equal(w, np.arange(8) + 2.0)
    assert float(prog["y"]) == pytest.approx(sum(min(v, 2.0) for v in range(8)))
    k(w=w, limit=2.0)  # the array is found again, not registered twice
    prog.sync()
    assert prog.bound_arrays == 1
    np.testing.assert_array_equal(w, np.arange(8) + 4.0)


def test_no_copy_on_cpu():
    prog = scale_prog("cpu")
    w = np.zeros(8, dtype=np.float32)
    base = w.__array_interface__["data"][0]
    prog.kernel("compute")(w=w, limit=1.0)
    # On cpu the kernel runs on the array's memory: the store is visible before any sync.
    np.testing.assert_array_equal(w, np.ones(8))
    assert w.__array_interface__["data"][0] == base
    x = prog["x"]
    prog.kernel("compute")(w=w, limit=1.0)
    assert prog["x"].__array_interface__["data"] == x.__array_interface__["data"]


def test_gradient_returns_adjoint_arrays(device):
    prog = scale_prog(device)
    prog["x"] = np.linspace(0, 1, 8)
    w = np.full(8, 3.0, dtype=np.float32)
    k = prog.kernel("weighted")
    k(w=w, limit=2.0)
    prog["y.grad"] = 1.0
    adj = k.grad(w=w, limit=2.0)
    prog.sync()
    xs = np.linspace(0, 1, 8).astype(np.float32)
    below = xs * 3.0 < 2.0
    np.testing.assert_allclose(prog["x.grad"], np.where(below, 3.0, 0.0))
    assert set(adj) == {"w"}
    assert adj["w"].shape == (8,) and adj["w"].dtype == np.float32
    np.testing.assert_allclose(adj["w"], np.where(below, xs, 0.0))


def test_gradient_into_given_arrays():
    prog = scale_prog()
    prog["x"] = 1.0
    prog["y.grad"] = 1.0
    w = np.full(8, 0.5, dtype=np.float32)
    mine = np.zeros(8, dtype=np.float32)
    mine[:] = 10.0
    out = prog.kernel("weighted").grad(w=w, limit=2.0, grads={"w": mine})
    prog.sync()
    assert out["w"] is mine
    np.testing.assert_allclose(mine, 11.0)  # accumulated into the given array


def test_adstack_report_and_overflow_at_sync():
    m = qd.ir.Module.load(example_path("ndarray_bound.mlir"))
    prog = qd.Program(m, device="cpu")
    prog["x"] = np.linspace(0.1, 0.8, 8)
    a = np.array([0, 3, 7, 1, 12, 5, 0, 9], dtype=np.int32)
    k = prog.kernel("compute")
    k(a=a)
    prog["y.grad"] = 1.0
    k.grad(a=a)
    prog.sync()
    report = prog.adstack_report()
    assert len(report) == 1
    s = report[0]
    assert s["kernel"] == "compute_grad" and s["depth"] == 14 and s["source"] == "size_expr"
    assert s["file"].endswith("ndarray_bound.mlir") and s["line"] == 14
    assert not s["elided"] and s["bytes_per_thread"] > 0
    assert prog.adstack_report("compute") == []

    small = qd.Program(m, device="cpu", ad_stack_size=4)
    small["x"] = np.linspace(0.1, 0.8, 8)
    small["y.grad"] = 1.0
    small.kernel("compute").grad(a=a)
    with pytest.raises(qd.AdstackOverflowError) as e:
        small.sync()
    assert "adstack overflow" in str(e.value) and "capacity of 4" in str(e.value)
    assert e.value.errors[0]["line"] == 14


def test_interp_measures_peaks():
    prog = qd.Program(qd.ir.Module.load(example_path("ndarray_bound.mlir")), device="interp")
    a = np.array([0, 3, 7, 1, 12, 5, 0, 9], dtype=np.int32)
    prog["y.grad"] = 1.0
    prog.kernel("compute").grad(a=a)
    prog.sync()
    assert prog.adstack_report()[0]["measured_peak"] == 14


SEQ = """module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @b : !qd.field<4xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}
  qd.kernel @square() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %s = arith.mulf %v, %v : f32
      qd.store %s, @b[%i] : f32
    }
  }
  qd.kernel @reduce(%w: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @b {
      %v = qd.load @b[%i] : f32
      %a = qd.ndarray_load %w[%i] : !qd.ndarray<?xf32>
      %s = math.sin %v : f32
      %p = arith.mulf %s, %a : f32
      qd.atomic_add %p, @loss[] : f32
    }
  }
}
"""


def test_tape_over_several_launches(device):
    prog = qd.Program(qd.ir.Module.parse(SEQ), device=device)
    xs = np.array([0.1, 0.5, -0.7, 1.2], dtype=np.float32)
    w = np.array([1.0, 2.0, 0.5, -1.0], dtype=np.float32)
    prog["x"] = xs
    with prog.tape(loss="loss") as tape:
        prog.kernel("square")()
        prog.kernel("reduce")(w=w)
    assert len(tape) == 2
    np.testing.assert_allclose(float(prog["loss"]), np.sum(np.sin(xs * xs) * w), rtol=1e-5)
    np.testing.assert_allclose(prog["x.grad"], np.cos(xs * xs) * 2 * xs * w, rtol=1e-5)
    np.testing.assert_allclose(tape.grad(w), np.sin(xs * xs), rtol=1e-5)


def test_tape_with_manual_seed_and_backward():
    prog = qd.Program(qd.ir.Module.parse(SEQ), device="cpu")
    xs = np.array([0.3, 0.2, 0.1, 0.4], dtype=np.float32)
    w = np.ones(4, dtype=np.float32)
    prog["x"] = xs
    tape = prog.tape()
    with tape:
        prog.kernel("square")()
        prog.kernel("reduce")(w=w)
    assert float(prog["x.grad"][0]) == 0.0  # no loss given: nothing ran backward yet
    prog["loss.grad"] = 2.0
    tape.backward()
    np.testing.assert_allclose(prog["x.grad"], 2 * np.cos(xs * xs) * 2 * xs, rtol=1e-5)


def test_arrays_are_released_once_python_drops_them():
    prog = scale_prog()
    for _ in range(3):
        w = np.zeros(8, dtype=np.float32)
        prog.kernel("compute")(w=w, limit=1.0)
    prog.sync()
    assert prog.bound_arrays == 1  # only the array `w` still names
    del w
    prog.sync()
    assert prog.bound_arrays == 0


def test_dropping_a_program_releases_numpy_memory():
    gc.collect()
    before = qd._qd._live_foreign_buffers()
    prog = scale_prog()
    w = np.zeros(8, dtype=np.float32)
    prog.kernel("compute")(w=w, limit=1.0)
    x = prog["x"]
    assert qd._qd._live_foreign_buffers() > before
    del prog
    gc.collect()
    assert qd._qd._live_foreign_buffers() == before
    x[:] = 5  # the field's array outlives the program, as NumPy memory
    assert x.sum() == 40


def test_devices_lists_the_registry():
    names = [d[0] for d in qd.devices()]
    assert names[:3] == ["interp", "interp-lowered", "cpu"] and "vulkan" in names
