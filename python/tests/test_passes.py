"""qd.passes: pipelines in MLIR's grammar, the pass list, failures."""

import pytest

import qd
from conftest import example_path


def test_run_a_bare_pipeline_on_the_module():
    m = qd.ir.Module.load(example_path("ndarray_bound.mlir"))
    changed = qd.passes.run(m, "reverse-mode-ad,determine-ad-stack-size")
    assert changed
    assert m.kernels == ["compute", "compute_grad"]
    assert "size_expr" in m.print() or "qd_adstack" in m.print() or "adstack" in m.print()
    m.verify()


def test_run_an_anchored_nested_pipeline_with_options():
    m = qd.ir.Module.load(example_path("dynamic_loop.mlir"))
    qd.passes.run(m, "builtin.module(qd.kernel(canonicalize{max-iterations=4}),cse,symbol-dce)")
    m.verify()


def test_unknown_pass_is_a_pipeline_error():
    m = qd.ir.Module.parse("module {}")
    with pytest.raises(qd.PipelineError) as e:
        qd.passes.run(m, "cse,no-such-pass")
    assert "no-such-pass" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_malformed_pipeline_is_a_pipeline_error():
    with pytest.raises(qd.PipelineError):
        qd.passes.run(qd.ir.Module.parse("module {}"), "builtin.module(cse")


def test_pass_failure_raises_located_diagnostics():
    # reverse-mode-ad refuses a kernel that overwrites a value its gradient needs.
    text = """module {
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
    m = qd.ir.Module.parse(text, filename="rule.mlir")
    with pytest.raises(qd.DiagnosticError) as e:
        qd.passes.run(m, "reverse-mode-ad")
    assert e.value.file == "rule.mlir" and e.value.line == 7
    assert "reverse-mode-ad" in str(e.value)


def test_list_names_every_pass_with_options():
    names = qd.passes.names()
    for p in ["canonicalize", "cse", "reverse-mode-ad", "determine-ad-stack-size", "convert-qd-to-lowered"]:
        assert p in names
    canon = next(p for p in qd.passes.list() if p["name"] == "canonicalize")
    assert any(o["name"] == "max-iterations" for o in canon["options"])
    assert "reverse-mode-ad" in qd.passes.describe()
