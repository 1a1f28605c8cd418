use super::h;
use crate::names::*;
use qd_ir::{AttrData, Value};

fn cast(
    h: &mut crate::testing::Harness,
    name: &str,
    x: Value,
    to: &str,
) -> Option<qd_ir::Attribute> {
    let op = h.op(name, &[x], to);
    h.fold_attr(op)
}

fn as_f(h: &crate::testing::Harness, a: Option<qd_ir::Attribute>) -> Option<f64> {
    h.ctx.attr_data(a?).as_float()
}

fn as_i(h: &crate::testing::Harness, a: Option<qd_ir::Attribute>) -> Option<i64> {
    crate::consts::IntVal::from_attr(&h.ctx, a?).map(|v| v.sext())
}

#[test]
fn int_to_float() {
    let mut h = h();
    let m1 = h.int(-1, "i8");
    let r = cast(&mut h, SITOFP, m1, "f32");
    assert_eq!(as_f(&h, r), Some(-1.0));
    let r = cast(&mut h, UITOFP, m1, "f32");
    assert_eq!(as_f(&h, r), Some(255.0));
    let t = h.int(1, "i1");
    let r = cast(&mut h, SITOFP, t, "f64");
    assert_eq!(as_f(&h, r), Some(-1.0));
    // 2^24 + 1 rounds to nearest even in f32.
    let big = h.int((1 << 24) + 1, "i32");
    let r = cast(&mut h, SITOFP, big, "f32");
    assert_eq!(as_f(&h, r), Some(16777216.0));
    let umax = h.int(-1, "i64");
    let r = cast(&mut h, UITOFP, umax, "f64");
    assert_eq!(as_f(&h, r), Some(18446744073709551616.0));
    // f16: exact through f64 when small enough, not folded when that could round twice.
    let k = h.int(70000, "i32");
    let r = cast(&mut h, SITOFP, k, "f16");
    assert_eq!(as_f(&h, r), Some(f64::INFINITY));
    let huge = h.int(i64::MAX, "i64");
    assert_eq!(cast(&mut h, SITOFP, huge, "bf16"), None);
}

#[test]
fn float_to_int() {
    let mut h = h();
    let x = h.float(-2.7, "f32");
    let r = cast(&mut h, FPTOSI, x, "i32");
    assert_eq!(as_i(&h, r), Some(-2));
    let y = h.float(255.9, "f64");
    let r = cast(&mut h, FPTOUI, y, "i8");
    assert_eq!(as_i(&h, r), Some(-1)); // 255 as i8 bits
    let small_neg = h.float(-0.5, "f32");
    let r = cast(&mut h, FPTOUI, small_neg, "i8");
    assert_eq!(as_i(&h, r), Some(0));
    let edge = h.float(-128.0, "f32");
    let r = cast(&mut h, FPTOSI, edge, "i8");
    assert_eq!(as_i(&h, r), Some(-128));
    // Out of range, negative to unsigned, NaN and infinity do not fold.
    for (v, name, to) in [
        (128.0, FPTOSI, "i8"),
        (-129.0, FPTOSI, "i8"),
        (256.0, FPTOUI, "i8"),
        (-1.0, FPTOUI, "i32"),
        (f64::NAN, FPTOSI, "i32"),
        (f64::INFINITY, FPTOSI, "i64"),
        (9.3e18, FPTOSI, "i64"),
        (1.0, FPTOSI, "i1"),
    ] {
        let c = h.float(v, "f64");
        assert_eq!(cast(&mut h, name, c, to), None, "{name} {v} to {to}");
    }
    let m1 = h.float(-1.0, "f64");
    let r = cast(&mut h, FPTOSI, m1, "i1");
    assert_eq!(h.ctx.attr_data(r.unwrap()), &AttrData::Bool(true));
}

#[test]
fn float_width_changes() {
    let mut h = h();
    let x = h.float(0.1, "f32");
    let r = cast(&mut h, EXTF, x, "f64");
    assert_eq!(as_f(&h, r), Some(0.1f32 as f64));
    // As MLIR, truncf folds only exact conversions: 0.1 (f64) is not an f32 or an f16.
    let y = h.float(0.1, "f64");
    for ty in ["f32", "f16", "bf16"] {
        let op = h.op(TRUNCF, &[y], ty);
        assert!(h.fold(op).is_none(), "{ty}");
    }
    let half = h.float(0.5, "f64");
    let r = cast(&mut h, TRUNCF, half, "bf16");
    assert_eq!(as_f(&h, r), Some(0.5));
    // Overflow and a signaling NaN stay; a quiet NaN folds.
    let big = h.float(1.0e10, "f32");
    let op = h.op(TRUNCF, &[big], "f16");
    assert!(h.fold(op).is_none());
    let snan = h.float(f64::from_bits(0x7FF0_0000_0000_0001), "f64");
    let op = h.op(TRUNCF, &[snan], "f32");
    assert!(h.fold(op).is_none());
    let qnan = h.float(f64::NAN, "f64");
    let r = cast(&mut h, TRUNCF, qnan, "f32");
    assert!(as_f(&h, r).is_some_and(f64::is_nan));
    // An exact conversion folds whatever the rounding mode (it is the same in every mode).
    let i32t = h.ctx.integer_type(32);
    for m in [0, 3] {
        let op = h.op(TRUNCF, &[half], "f32");
        let mode = h.ctx.integer_attr(m, i32t);
        h.ctx.set_prop(op, "roundingmode", mode);
        assert!(h.fold(op).is_some(), "mode {m}");
        let op = h.op(TRUNCF, &[y], "f32");
        let mode = h.ctx.integer_attr(m, i32t);
        h.ctx.set_prop(op, "roundingmode", mode);
        assert!(h.fold(op).is_none(), "mode {m}");
    }
    // truncf(extf(x)) is x.
    let a = h.arg("f32");
    let e = h.op(EXTF, &[a], "f64");
    let ev = h.ctx.result(e, 0);
    let t = h.op(TRUNCF, &[ev], "f32");
    assert_eq!(h.fold_value(t), Some(a));
    let t16 = h.op(TRUNCF, &[ev], "f16");
    assert!(h.fold(t16).is_none());
}

#[test]
fn int_width_changes() {
    let mut h = h();
    let x = h.int(-1, "i8");
    let r = cast(&mut h, EXTSI, x, "i32");
    assert_eq!(as_i(&h, r), Some(-1));
    let r = cast(&mut h, EXTUI, x, "i32");
    assert_eq!(as_i(&h, r), Some(255));
    let t = h.int(1, "i1");
    let r = cast(&mut h, EXTUI, t, "i64");
    assert_eq!(as_i(&h, r), Some(1));
    let r = cast(&mut h, EXTSI, t, "i64");
    assert_eq!(as_i(&h, r), Some(-1));
    let y = h.int(0x1FF, "i32");
    let r = cast(&mut h, TRUNCI, y, "i8");
    assert_eq!(as_i(&h, r), Some(-1));
    let r = cast(&mut h, TRUNCI, y, "i1");
    assert_eq!(h.ctx.attr_data(r.unwrap()), &AttrData::Bool(true));
}

#[test]
fn index_cast() {
    let mut h = h();
    let x = h.int(-5, "i32");
    let r = cast(&mut h, INDEX_CAST, x, "index");
    assert_eq!(as_i(&h, r), Some(-5));
    let i = h.int(0x1_0000_0005, "index");
    let r = cast(&mut h, INDEX_CAST, i, "i32");
    assert_eq!(as_i(&h, r), Some(5));
    // i32 -> index -> i32 is the identity; index -> i32 -> index is not.
    let a = h.arg("i32");
    let up = h.op(INDEX_CAST, &[a], "index");
    let upv = h.ctx.result(up, 0);
    let down = h.op(INDEX_CAST, &[upv], "i32");
    assert_eq!(h.fold_value(down), Some(a));
    let b = h.arg("index");
    let down = h.op(INDEX_CAST, &[b], "i32");
    let dv = h.ctx.result(down, 0);
    let up = h.op(INDEX_CAST, &[dv], "index");
    assert!(h.fold(up).is_none());
}

#[test]
fn bitcast() {
    let mut h = h();
    let one = h.float(1.0, "f32");
    let r = cast(&mut h, BITCAST, one, "i32");
    assert_eq!(as_i(&h, r), Some(0x3F80_0000));
    let bits = h.int(0x4000_0000, "i32");
    let r = cast(&mut h, BITCAST, bits, "f32");
    assert_eq!(as_f(&h, r), Some(2.0));
    let h1 = h.int(0x3C00, "i16");
    let r = cast(&mut h, BITCAST, h1, "f16");
    assert_eq!(as_f(&h, r), Some(1.0));
    let bf = h.float(-2.0, "bf16");
    let r = cast(&mut h, BITCAST, bf, "i16");
    assert_eq!(as_i(&h, r), Some(0xC000u16 as i16 as i64));
    let r = cast(&mut h, BITCAST, bf, "f16");
    assert_eq!(as_f(&h, r), Some(-2.0)); // 0xC000 as f16
                                         // NaN patterns fold bit for bit, a signaling NaN and its payload included.
    let nan_bits = h.int(0x7F80_0001, "i32");
    let r = cast(&mut h, BITCAST, nan_bits, "f32").unwrap();
    let back = h.ctx.attr_data(r).as_float().unwrap();
    assert_eq!(
        qd_ir::float::f64_to_native(qd_ir::FloatKind::F32, back),
        0x7F80_0001
    );
    let nan = h.float(f64::NAN, "f32");
    let r = cast(&mut h, BITCAST, nan, "i32");
    assert_eq!(as_i(&h, r), Some(0x7FC0_0000));
    // bitcast(bitcast(x)) is x; a same-type bitcast is x.
    let a = h.arg("f32");
    let to_i = h.op(BITCAST, &[a], "i32");
    let iv = h.ctx.result(to_i, 0);
    let back = h.op(BITCAST, &[iv], "f32");
    assert_eq!(h.fold_value(back), Some(a));
    let same = h.op(BITCAST, &[a], "f32");
    assert_eq!(h.fold_value(same), Some(a));
}

#[test]
fn index_castui() {
    let mut h = h();
    // Widening zero-extends (index_cast sign-extends).
    let x = h.int(-5, "i32");
    let r = cast(&mut h, INDEX_CASTUI, x, "index");
    assert_eq!(as_i(&h, r), Some(0xFFFF_FFFB));
    let r = cast(&mut h, INDEX_CAST, x, "index");
    assert_eq!(as_i(&h, r), Some(-5));
    let t = h.int(1, "i1");
    let r = cast(&mut h, INDEX_CASTUI, t, "index");
    assert_eq!(as_i(&h, r), Some(1));
    // Narrowing truncates.
    let i = h.int(0x1_FFFF_FFFF, "index");
    let r = cast(&mut h, INDEX_CASTUI, i, "i32");
    assert_eq!(as_i(&h, r), Some(-1));
    let i = h.int(-1, "index");
    let r = cast(&mut h, INDEX_CASTUI, i, "i64");
    assert_eq!(as_i(&h, r), Some(-1));
    // i32 -> index -> i32 is the identity; index -> i32 -> index is not; a mixed pair is not
    // folded either.
    let a = h.arg("i32");
    let up = h.op(INDEX_CASTUI, &[a], "index");
    let upv = h.ctx.result(up, 0);
    let down = h.op(INDEX_CASTUI, &[upv], "i32");
    assert_eq!(h.fold_value(down), Some(a));
    let b = h.arg("index");
    let down = h.op(INDEX_CASTUI, &[b], "i32");
    let dv = h.ctx.result(down, 0);
    let up = h.op(INDEX_CASTUI, &[dv], "index");
    assert!(h.fold(up).is_none());
    let mixed = h.op(INDEX_CAST, &[upv], "i32");
    let mv = h.ctx.result(mixed, 0);
    let again = h.op(INDEX_CASTUI, &[mv], "index");
    assert!(h.fold(again).is_none());
}
