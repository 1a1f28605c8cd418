"""qd.ir.Module: parsing, printing in custom and generic form, verification with located
diagnostics."""

import pytest

import qd
from conftest import example_path

KERNEL = """module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @compute(%s: f32) {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %w = arith.mulf %v, %s : f32
      qd.atomic_add %w, @y[] : f32
    }
  }
}
"""


def test_parse_and_print_custom_form_round_trips():
    m = qd.ir.Module.parse(KERNEL)
    text = m.print()
    assert "qd.struct_for" in text and "arith.mulf" in text
    assert qd.ir.Module.parse(text).print() == text
    assert str(m) == text


def test_generic_form_reparses_to_the_same_module():
    m = qd.ir.Module.parse(KERNEL)
    generic = m.print(generic=True)
    assert '"qd.kernel"() <{' in generic
    assert '"arith.mulf"' in generic and "#arith.fastmath<none>" in generic
    assert qd.ir.Module.parse(generic).print() == m.print()


def test_debug_info_prints_locations():
    m = qd.ir.Module.parse(KERNEL, filename="k.mlir")
    assert 'loc("k.mlir":7:' in m.print(debug_info=True)


def test_kernels_and_fields():
    m = qd.ir.Module.parse(KERNEL)
    assert m.kernels == ["compute"]
    assert m.fields == ["x", "y"]
    assert m.num_ops() > 5


def test_parse_error_carries_file_line_column():
    with pytest.raises(qd.DiagnosticError) as e:
        qd.ir.Module.parse("module {\n  %0 = arith.addf %a, %a : f32\n}\n", filename="bad.mlir")
    err = e.value
    assert (err.file, err.line) == ("bad.mlir", 2)
    assert err.column >= 1
    assert "bad.mlir:2:" in str(err)
    assert err.diagnostics[0]["severity"] == "error"


def test_verification_error_is_located_with_source_line():
    text = KERNEL.replace("%w = arith.mulf %v, %s : f32", "%w = arith.mulf %v, %s : f64")
    with pytest.raises(qd.DiagnosticError) as e:
        qd.ir.Module.parse(text, filename="v.mlir")
    assert e.value.file == "v.mlir" and e.value.line == 7
    # Rendered as qd-opt prints it: the source line and a caret.
    assert "arith.mulf" in str(e.value) and "^" in str(e.value)


def test_verify_can_be_deferred():
    bad = "module {\n  qd.kernel @k() {\n    %c = arith.constant 1 : i32\n    qd.store %c, @nope[] : i32\n  }\n}\n"
    m = qd.ir.Module.parse(bad, filename="d.mlir", verify=False)
    with pytest.raises(qd.DiagnosticError) as e:
        m.verify()
    assert e.value.line == 4
    assert "nope" in str(e.value)


def test_load_reads_a_file_and_names_it_in_locations():
    m = qd.ir.Module.load(example_path("dynamic_loop.mlir"))
    assert m.kernels == ["compute"]
    assert "dynamic_loop.mlir" in m.print(debug_info=True)


def test_load_of_a_missing_file_is_an_oserror():
    with pytest.raises(OSError):
        qd.ir.Module.load("/nonexistent/x.mlir")


def test_clone_is_independent():
    m = qd.ir.Module.parse(KERNEL)
    c = m.clone()
    qd.passes.run(c, "reverse-mode-ad")
    assert "compute_grad" in c.kernels
    assert m.kernels == ["compute"]
