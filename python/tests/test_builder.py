"""qd.ir.Builder: qd, arith and math ops without text, scopes, located diagnostics, misuse."""

import numpy as np
import pytest

import qd


def build_saxpy():
    m = qd.ir.Module()
    b = qd.ir.Builder(m)
    b.field("x", [8], "f32", needs_grad=True)
    b.field("y", [8], "f32", needs_grad=True)
    with b.kernel("saxpy", a="f32", w=qd.ir.ndarray("f32", 1)) as (a, w):
        with b.struct_for("x") as (i,):
            xi = b.load("x", [i])
            wi = b.ndarray_load(w, [i])
            t = b.op("arith.mulf", a, xi)
            b.store(b.op("arith.addf", t, b.op("math.sin", wi)), "y", [i])
    return m


def test_built_module_verifies_and_prints():
    m = build_saxpy()
    m.verify()
    text = m.print()
    assert "qd.kernel @saxpy(%arg0: f32, %arg1: !qd.ndarray<?xf32>)" in text
    assert "math.sin" in text and "qd.ndarray_load" in text
    # The text parses back to the same module.
    assert qd.ir.Module.parse(text).print() == text


def test_built_kernel_runs_with_named_parameters():
    prog = qd.Program(build_saxpy(), device="cpu")
    prog["x"] = np.arange(8)
    w = np.linspace(0, 1, 8, dtype=np.float32)
    prog.kernel("saxpy")(a=2.0, w=w)
    prog.sync()
    np.testing.assert_allclose(prog["y"], 2 * np.arange(8) + np.sin(w), rtol=1e-6)
    assert prog.kernel("saxpy").params == [("a", "f32"), ("w", "ndarray<?xf32>")]


def test_loops_locals_ifs_and_casts():
    m = qd.ir.Module()
    b = qd.ir.Builder(m)
    b.field("x", [4], "f32", needs_grad=True)
    b.field("y", [], "f32", needs_grad=True)
    with b.kernel("k", [("n", "i32")]) as (n,):
        with b.struct_for("x") as (i,):
            v = b.alloca("f32")
            b.local_store(b.load("x", [i]), v)
            zero = b.constant(0, "i32")
            with b.range_for(zero, n) as t:
                cur = b.local_load(v)
                tf = b.cast("arith.sitofp", t, "f32")
                pos = b.cmpf("ogt", cur, b.constant(0.5, "f32"))
                with b.if_(pos, with_else=True):
                    b.local_store(b.op("arith.mulf", cur, b.constant(0.5, "f32")), v)
                    b.else_()
                    b.local_store(b.op("arith.addf", cur, tf), v)
            b.atomic_add(b.local_load(v), "y", [])
    m.verify()
    prog = qd.Program(m, device="interp")
    xs = np.array([0.1, 0.7, 2.0, -1.0], dtype=np.float32)
    prog["x"] = xs
    prog.kernel("k")(n=3)
    prog.sync()

    def ref(v):
        for t in range(3):
            v = v * 0.5 if v > 0.5 else v + t
        return v

    assert float(prog["y"]) == pytest.approx(sum(ref(float(v)) for v in xs), rel=1e-6)
    # And it differentiates: the adstack keeps the branch's operand.
    prog["y.grad"] = 1.0
    prog.kernel("k").grad(n=3)
    prog.sync()
    assert prog["x.grad"].shape == (4,)


def test_type_errors_are_located_at_the_builder_location():
    m = qd.ir.Module()
    b = qd.ir.Builder(m)
    b.field("x", [4], "f32")
    with b.kernel("k"):
        with b.struct_for("x") as (i,):
            b.set_loc("frontend.py", 42, 5)
            b.op("arith.addf", b.load("x", [i]), b.constant(1, "i32"))
    with pytest.raises(qd.DiagnosticError) as e:
        m.verify()
    assert (e.value.file, e.value.line, e.value.column) == ("frontend.py", 42, 5)


def test_misuse_raises_builder_errors():
    m = qd.ir.Module()
    b = qd.ir.Builder(m)
    with pytest.raises(qd.BuilderError):
        b.constant(1.0, "f32")  # outside a kernel
    with pytest.raises(qd.BuilderError):
        b.end()
    with pytest.raises(qd.UnknownNameError):
        with b.kernel("k"):
            b.struct_for("nope")
    assert b.depth == 0
    other = qd.ir.Builder(qd.ir.Module())
    with b.kernel("k2", s="f32") as (s,):
        with other.kernel("k3"):
            with pytest.raises(qd.BuilderError):
                other.op("arith.negf", s)  # a value of another module
        with pytest.raises(qd.BuilderError):
            b.op("qd.load", s)
        with pytest.raises(qd.UnknownNameError):
            b.op("math.nosuch", s)
        with pytest.raises(qd.UnknownNameError, match=r"unknown cmpf predicate 'bigger' \(false, oeq"):
            b.cmpf("bigger", s, s)
        with pytest.raises(qd.UnknownNameError, match=r"unknown cmpi predicate 'bigger' \(eq, ne"):
            b.cmpi("bigger", s, s)
        with pytest.raises(qd.DTypeError):
            b.constant(1.5, "i32")
    with pytest.raises(qd.DTypeError):
        b.field("z", [2], "f16")


def test_types_print_as_mlir():
    assert str(qd.ir.ndarray("f32", 2)) == "!qd.ndarray<?x?xf32>"
    assert str(qd.ir.ptr(qd.ir.array(4, "i32"))) == "!qd.ptr<!qd.array<4xi32>>"
    assert qd.ir.Type.scalar("f64") == qd.ir.Type.scalar("f64")
