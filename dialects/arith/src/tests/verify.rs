use super::h;
use crate::flags::FlagKind;
use crate::names::*;
use crate::testing::Harness;
use qd_ir::{OpId, OperationState, Type, Value};

/// A generic op: exactly the given operands, result types and properties.
fn raw(h: &mut Harness, name: &str, operands: &[Value], results: &[Type]) -> OpId {
    let state = OperationState::new(name, h.loc)
        .operands(operands)
        .results(results);
    h.insert(state)
}

fn err(h: &Harness, op: OpId) -> String {
    h.verify(op).expect_err("expected a verifier error")
}

#[test]
fn same_type_ops() {
    let mut h = h();
    let (i32t, i64t, f32t) = (h.ty("i32"), h.ty("i64"), h.ty("f32"));
    let (a, b, x) = (h.arg("i32"), h.arg("i64"), h.arg("f32"));
    let op = raw(&mut h, ADDI, &[a, b], &[i32t]);
    assert_eq!(
        err(&h, op),
        "'arith.addi' op requires the same type for all operands and results"
    );
    let op = raw(&mut h, ADDI, &[a, a], &[i64t]);
    assert_eq!(
        err(&h, op),
        "'arith.addi' op requires the same type for all operands and results"
    );
    let op = raw(&mut h, ADDI, &[x, x], &[f32t]);
    assert_eq!(
        err(&h, op),
        "'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'"
    );
    let op = raw(&mut h, SHLI, &[a, x], &[i32t]);
    assert_eq!(
        err(&h, op),
        "'arith.shli' op operand #1 must be signless-integer-like, but got 'f32'"
    );
    let op = raw(&mut h, ADDF, &[a, a], &[i32t]);
    assert_eq!(
        err(&h, op),
        "'arith.addf' op operand #0 must be floating-point-like, but got 'i32'"
    );
    let op = raw(&mut h, ADDF, &[x, x], &[i32t]);
    assert_eq!(
        err(&h, op),
        "'arith.addf' op result #0 must be floating-point-like, but got 'i32'"
    );
    let op = raw(&mut h, NEGF, &[a], &[i32t]);
    assert_eq!(
        err(&h, op),
        "'arith.negf' op operand #0 must be floating-point-like, but got 'i32'"
    );
    let ui = h.ctx.intern_type(qd_ir::TypeData::Integer {
        width: 32,
        signedness: qd_ir::Signedness::Unsigned,
    });
    let u = h.ctx.add_block_arg(h.block, ui, h.loc);
    let op = raw(&mut h, ADDI, &[u, u], &[ui]);
    assert_eq!(
        err(&h, op),
        "'arith.addi' op operand #0 must be signless-integer-like, but got 'ui32'"
    );
    // index is integer-like.
    let i = h.arg("index");
    let it = h.ty("index");
    let op = raw(&mut h, MULI, &[i, i], &[it]);
    assert_eq!(h.verify(op), Ok(()));
    // The overflow property may be absent in generic input.
    let op = raw(&mut h, ADDI, &[a, a], &[i32t]);
    assert_eq!(h.verify(op), Ok(()));
}

#[test]
fn counts_regions_and_successors() {
    let mut h = h();
    let (i32t, f32t) = (h.ty("i32"), h.ty("f32"));
    let (a, x) = (h.arg("i32"), h.arg("f32"));
    let op = raw(&mut h, ADDI, &[a], &[i32t]);
    assert_eq!(
        err(&h, op),
        "'arith.addi' op expected 2 operands, but found 1"
    );
    let op = raw(&mut h, ADDI, &[a, a], &[]);
    assert_eq!(err(&h, op), "'arith.addi' op requires one result");
    let op = raw(&mut h, ADDI, &[a, a], &[i32t, i32t]);
    assert_eq!(err(&h, op), "'arith.addi' op requires one result");
    let op = raw(&mut h, NEGF, &[], &[f32t]);
    assert_eq!(err(&h, op), "'arith.negf' op requires a single operand");
    let op = raw(&mut h, SITOFP, &[a, a], &[f32t]);
    assert_eq!(err(&h, op), "'arith.sitofp' op requires a single operand");
    let op = raw(&mut h, SELECT, &[x, x], &[f32t]);
    assert_eq!(
        err(&h, op),
        "'arith.select' op expected 3 operands, but found 2"
    );
    let op = raw(&mut h, CONSTANT, &[a], &[i32t]);
    assert_eq!(err(&h, op), "'arith.constant' op requires zero operands");
    let op = raw(&mut h, CMPI, &[a, a, a], &[]);
    assert_eq!(
        err(&h, op),
        "'arith.cmpi' op expected 2 operands, but found 3"
    );
    let r = h.ctx.create_region();
    let state = OperationState::new(ADDI, h.loc)
        .operands(&[a, a])
        .results(&[i32t])
        .region(r);
    let op = h.insert(state);
    assert_eq!(err(&h, op), "'arith.addi' op requires zero regions");
    let blk = h.block;
    let state = OperationState::new(MULF, h.loc)
        .operands(&[x, x])
        .results(&[f32t])
        .successor(blk);
    let op = h.insert(state);
    assert_eq!(err(&h, op), "'arith.mulf' op requires zero successors");
}

#[test]
fn properties() {
    let mut h = h();
    let (i32t, f32t) = (h.ty("i32"), h.ty("f32"));
    let (a, x) = (h.arg("i32"), h.arg("f32"));
    let one = h.ctx.integer_attr(1, i32t);
    let op = raw(&mut h, ADDF, &[x, x], &[f32t]);
    h.ctx.set_prop(op, "fastmath", one);
    assert_eq!(
        err(&h, op),
        "invalid properties {fastmath = 1 : i32} for op arith.addf: Invalid attribute `fastmath` in property conversion: 1 : i32"
    );
    let ov = FlagKind::Overflow.attr(&mut h.ctx, 1);
    h.ctx.set_prop(op, "fastmath", ov);
    assert!(err(&h, op)
        .contains("Invalid attribute `fastmath` in property conversion: #arith.overflow<nsw>"));
    let op = raw(&mut h, MULI, &[a, a], &[i32t]);
    let fm = FlagKind::FastMath.attr(&mut h.ctx, 0);
    h.ctx.set_prop(op, "overflowFlags", fm);
    assert_eq!(
        err(&h, op),
        "invalid properties {overflowFlags = #arith.fastmath<none>} for op arith.muli: Invalid attribute `overflowFlags` in property conversion: #arith.fastmath<none>"
    );
    let op = raw(&mut h, DIVSI, &[a, a], &[i32t]);
    h.ctx.set_prop(op, "foo", one);
    assert_eq!(
        err(&h, op),
        "invalid properties {foo = 1 : i32} for op arith.divsi: this operation does not support properties"
    );
    // Unknown properties beside known ones.
    let op = raw(&mut h, ADDI, &[a, a], &[i32t]);
    h.ctx.set_prop(op, "foo", one);
    assert_eq!(
        err(&h, op),
        "'arith.addi' op does not have a property named 'foo'"
    );
    // A discardable attribute is fine.
    let op = raw(&mut h, DIVSI, &[a, a], &[i32t]);
    h.ctx.set_attr(op, "foo", one);
    assert_eq!(h.verify(op), Ok(()));
    // An inherent attribute given as a discardable one is still checked.
    let op = raw(&mut h, ADDI, &[a, a], &[i32t]);
    h.ctx.set_attr(op, "overflowFlags", one);
    assert_eq!(
        err(&h, op),
        "invalid properties {overflowFlags = 1 : i32} for op arith.addi: Invalid attribute `overflowFlags` in property conversion: 1 : i32"
    );
    // truncf's rounding mode.
    let d = h.arg("f64");
    let op = raw(&mut h, TRUNCF, &[d], &[f32t]);
    h.ctx.set_prop(op, "roundingmode", one);
    assert_eq!(h.verify(op), Ok(()));
    let seven = h.ctx.integer_attr(7, i32t);
    h.ctx.set_prop(op, "roundingmode", seven);
    assert_eq!(
        err(&h, op),
        "invalid properties {roundingmode = 7 : i32} for op arith.truncf: Invalid attribute `roundingmode` in property conversion: 7 : i32"
    );
}

#[test]
fn casts() {
    let mut h = h();
    let [i1t, i32t, i64t, f16t, bf16t, f32t, f64t, it] =
        ["i1", "i32", "i64", "f16", "bf16", "f32", "f64", "index"].map(|t| h.ty(t));
    let (a, b, x, d, i, hf, bf) = (
        h.arg("i32"),
        h.arg("i64"),
        h.arg("f32"),
        h.arg("f64"),
        h.arg("index"),
        h.arg("f16"),
        h.arg("bf16"),
    );
    let c = h.arg("i1");
    let incompatible = |h: &mut Harness, name: &str, v: Value, to: Type, msg: &str| {
        let op = raw(h, name, &[v], &[to]);
        assert_eq!(err(h, op), format!("'{name}' op {msg}"));
    };
    incompatible(
        &mut h,
        EXTSI,
        b,
        i32t,
        "operand type 'i64' and result type 'i32' are cast incompatible",
    );
    incompatible(
        &mut h,
        EXTUI,
        a,
        i32t,
        "operand type 'i32' and result type 'i32' are cast incompatible",
    );
    incompatible(
        &mut h,
        TRUNCI,
        a,
        i64t,
        "operand type 'i32' and result type 'i64' are cast incompatible",
    );
    incompatible(
        &mut h,
        EXTF,
        d,
        f32t,
        "operand type 'f64' and result type 'f32' are cast incompatible",
    );
    incompatible(
        &mut h,
        EXTF,
        bf,
        f16t,
        "operand type 'bf16' and result type 'f16' are cast incompatible",
    );
    incompatible(
        &mut h,
        TRUNCF,
        x,
        f64t,
        "operand type 'f32' and result type 'f64' are cast incompatible",
    );
    incompatible(
        &mut h,
        BITCAST,
        a,
        f64t,
        "operand type 'i32' and result type 'f64' are cast incompatible",
    );
    incompatible(
        &mut h,
        INDEX_CAST,
        a,
        i64t,
        "operand type 'i32' and result type 'i64' are cast incompatible",
    );
    incompatible(
        &mut h,
        INDEX_CAST,
        i,
        it,
        "operand type 'index' and result type 'index' are cast incompatible",
    );
    incompatible(
        &mut h,
        SITOFP,
        x,
        f32t,
        "operand #0 must be signless-fixed-width-integer-like, but got 'f32'",
    );
    incompatible(
        &mut h,
        SITOFP,
        i,
        f32t,
        "operand #0 must be signless-fixed-width-integer-like, but got 'index'",
    );
    incompatible(
        &mut h,
        UITOFP,
        a,
        i32t,
        "result #0 must be floating-point-like, but got 'i32'",
    );
    incompatible(
        &mut h,
        FPTOSI,
        x,
        f32t,
        "result #0 must be signless-fixed-width-integer-like, but got 'f32'",
    );
    incompatible(
        &mut h,
        FPTOUI,
        a,
        i32t,
        "operand #0 must be floating-point-like, but got 'i32'",
    );
    incompatible(
        &mut h,
        BITCAST,
        i,
        i64t,
        "operand #0 must be signless-integer-or-float-like or memref of signless-integer or float, but got 'index'",
    );
    // Valid ones.
    for (name, v, to) in [
        (EXTSI, c, i32t),
        (SITOFP, c, f32t),
        (EXTF, hf, f32t),
        (EXTF, bf, f64t),
        (TRUNCF, d, bf16t),
        (BITCAST, hf, bf16t),
        (BITCAST, a, i32t),
        (INDEX_CAST, i, i1t),
        (FPTOUI, d, i1t),
    ] {
        let op = raw(&mut h, name, &[v], &[to]);
        assert_eq!(h.verify(op), Ok(()), "{name}");
    }
}

#[test]
fn comparisons() {
    let mut h = h();
    let [i1t, i32t, i64t] = ["i1", "i32", "i64"].map(|t| h.ty(t));
    let (a, b, x) = (h.arg("i32"), h.arg("i64"), h.arg("f32"));
    let op = raw(&mut h, CMPI, &[a, a], &[i1t]);
    assert_eq!(
        err(&h, op),
        "'arith.cmpi' op requires attribute 'predicate'"
    );
    let bad = h.ctx.integer_attr(42, i64t);
    h.ctx.set_prop(op, "predicate", bad);
    assert_eq!(
        err(&h, op),
        "invalid properties {predicate = 42 : i64} for op arith.cmpi: Invalid attribute `predicate` in property conversion: 42 : i64"
    );
    let wrong_ty = h.ctx.integer_attr(1, i32t);
    h.ctx.set_prop(op, "predicate", wrong_ty);
    assert!(err(&h, op).contains("Invalid attribute `predicate` in property conversion: 1 : i32"));
    // In the attribute dictionary, an integer converts and then fails the enum constraint.
    let dict_op = raw(&mut h, CMPI, &[a, a], &[i1t]);
    h.ctx.set_attr(dict_op, "predicate", bad);
    assert_eq!(
        err(&h, dict_op),
        "'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9"
    );
    let p = h.ctx.integer_attr(1, i64t);
    h.ctx.set_prop(op, "predicate", p);
    assert_eq!(h.verify(op), Ok(()));
    let op = raw(&mut h, CMPI, &[a, a], &[i32t]);
    h.ctx.set_prop(op, "predicate", p);
    assert_eq!(
        err(&h, op),
        "'arith.cmpi' op result #0 must be bool-like, but got 'i32'"
    );
    let op = raw(&mut h, CMPI, &[a, b], &[i1t]);
    h.ctx.set_prop(op, "predicate", p);
    assert_eq!(
        err(&h, op),
        "'arith.cmpi' op requires all operands to have the same type"
    );
    let op = raw(&mut h, CMPF, &[a, a], &[i1t]);
    h.ctx.set_prop(op, "predicate", p);
    assert_eq!(
        err(&h, op),
        "'arith.cmpf' op operand #0 must be floating-point-like, but got 'i32'"
    );
    let op = raw(&mut h, CMPF, &[x, x], &[i1t]);
    let p16 = h.ctx.integer_attr(16, i64t);
    h.ctx.set_prop(op, "predicate", p16);
    assert!(err(&h, op).contains("in property conversion: 16 : i64"));
    let p15 = h.ctx.integer_attr(15, i64t);
    h.ctx.set_prop(op, "predicate", p15);
    assert_eq!(h.verify(op), Ok(()));
}

#[test]
fn select() {
    let mut h = h();
    let [f32t, f64t] = ["f32", "f64"].map(|t| h.ty(t));
    let (a, c, x, d) = (h.arg("i32"), h.arg("i1"), h.arg("f32"), h.arg("f64"));
    let op = raw(&mut h, SELECT, &[a, x, x], &[f32t]);
    assert_eq!(
        err(&h, op),
        "'arith.select' op operand #0 must be bool-like, but got 'i32'"
    );
    let op = raw(&mut h, SELECT, &[c, x, d], &[f32t]);
    assert_eq!(
        err(&h, op),
        "'arith.select' op failed to verify that all of {true_value, false_value, result} have same type"
    );
    let op = raw(&mut h, SELECT, &[c, x, x], &[f64t]);
    assert!(err(&h, op).contains("have same type"));
    let op = raw(&mut h, SELECT, &[c, x, x], &[f32t]);
    assert_eq!(h.verify(op), Ok(()));
}

#[test]
fn constant() {
    let mut h = h();
    let [i32t, i64t, f32t, f64t] = ["i32", "i64", "f32", "f64"].map(|t| h.ty(t));
    let op = raw(&mut h, CONSTANT, &[], &[i32t]);
    assert_eq!(
        err(&h, op),
        "'arith.constant' op requires attribute 'value'"
    );
    let v = h.ctx.integer_attr(1, i64t);
    h.ctx.set_prop(op, "value", v);
    assert_eq!(
        err(&h, op),
        "'arith.constant' op failed to verify that all of {value, result} have same type"
    );
    let f = h.ctx.float_attr(1.0, f32t);
    let op = raw(&mut h, CONSTANT, &[], &[f64t]);
    h.ctx.set_prop(op, "value", f);
    assert!(err(&h, op).contains("{value, result} have same type"));
    let s = h.ctx.string_attr("s");
    h.ctx.set_prop(op, "value", s);
    assert!(err(&h, op).contains("{value, result} have same type"));
    let t = h.ctx.bool_attr(true);
    let op = raw(&mut h, CONSTANT, &[], &[i32t]);
    h.ctx.set_prop(op, "value", t);
    assert!(err(&h, op).contains("{value, result} have same type"));
    let ui = h.ctx.intern_type(qd_ir::TypeData::Integer {
        width: 8,
        signedness: qd_ir::Signedness::Unsigned,
    });
    let u = h.ctx.integer_attr(1, ui);
    let op = raw(&mut h, CONSTANT, &[], &[ui]);
    h.ctx.set_prop(op, "value", u);
    assert_eq!(
        err(&h, op),
        "'arith.constant' op integer return type must be signless"
    );
    let op = raw(&mut h, CONSTANT, &[], &[]);
    assert_eq!(err(&h, op), "'arith.constant' op requires one result");
}

#[test]
fn rounding_division_unsigned_min_max_num_and_index_castui() {
    let mut h = h();
    let [i8t, i32t, i64t, f32t, it] = ["i8", "i32", "i64", "f32", "index"].map(|t| h.ty(t));
    let (a, b, x, i) = (h.arg("i32"), h.arg("i64"), h.arg("f32"), h.arg("index"));
    for name in [MINUI, MAXUI, CEILDIVSI, CEILDIVUI, FLOORDIVSI] {
        let op = raw(&mut h, name, &[a, a], &[i32t]);
        assert_eq!(h.verify(op), Ok(()), "{name}");
        let op = raw(&mut h, name, &[i, i], &[it]);
        assert_eq!(h.verify(op), Ok(()), "{name}");
        let op = raw(&mut h, name, &[a, b], &[i32t]);
        assert_eq!(
            err(&h, op),
            format!("'{name}' op requires the same type for all operands and results")
        );
        let op = raw(&mut h, name, &[x, x], &[f32t]);
        assert_eq!(
            err(&h, op),
            format!("'{name}' op operand #0 must be signless-integer-like, but got 'f32'")
        );
        let op = raw(&mut h, name, &[a], &[i32t]);
        assert!(err(&h, op).contains("expected 2 operands"), "{name}");
    }
    for name in [MINNUMF, MAXNUMF] {
        let op = raw(&mut h, name, &[x, x], &[f32t]);
        assert_eq!(h.verify(op), Ok(()), "{name}");
        let op = raw(&mut h, name, &[a, a], &[i32t]);
        assert_eq!(
            err(&h, op),
            format!("'{name}' op operand #0 must be floating-point-like, but got 'i32'")
        );
        // fastmath, not overflowFlags.
        let op = raw(&mut h, name, &[x, x], &[f32t]);
        let ov = FlagKind::Overflow.attr(&mut h.ctx, 1);
        h.ctx.set_prop(op, "fastmath", ov);
        assert!(
            err(&h, op).contains("Invalid attribute `fastmath`"),
            "{name}"
        );
    }
    // The rounding divisions carry no properties (upstream: no overflow flags).
    let op = raw(&mut h, CEILDIVSI, &[a, a], &[i32t]);
    let ov = FlagKind::Overflow.attr(&mut h.ctx, 1);
    h.ctx.set_prop(op, "overflowFlags", ov);
    assert!(err(&h, op).contains("this operation does not support properties"));
    // index_castui: exactly one side is index, both integer-like.
    for (v, to) in [(a, it), (i, i8t), (i, i64t)] {
        let op = raw(&mut h, INDEX_CASTUI, &[v], &[to]);
        assert_eq!(h.verify(op), Ok(()));
    }
    for (v, to, msg) in [
        (
            a,
            i64t,
            "operand type 'i32' and result type 'i64' are cast incompatible",
        ),
        (
            i,
            it,
            "operand type 'index' and result type 'index' are cast incompatible",
        ),
        (
            x,
            it,
            "operand #0 must be signless-integer-like or memref of signless-integer, but got 'f32'",
        ),
        (
            i,
            f32t,
            "result #0 must be signless-integer-like or memref of signless-integer, but got 'f32'",
        ),
    ] {
        let op = raw(&mut h, INDEX_CASTUI, &[v], &[to]);
        assert_eq!(err(&h, op), format!("'{INDEX_CASTUI}' op {msg}"));
    }
}
