use super::h;
use crate::names::*;

#[test]
fn computed_in_the_type_precision() {
    let mut h = h();
    let r = h.fold_floats(ADDF, &[0.1, 0.2], "f32").unwrap();
    assert_eq!(r, (0.1f32 + 0.2f32) as f64);
    let r = h.fold_floats(ADDF, &[0.1, 0.2], "f64").unwrap();
    assert_eq!(r, 0.1 + 0.2);
    let r = h.fold_floats(DIVF, &[1.0, 3.0], "f32").unwrap();
    assert_eq!(r, (1.0f32 / 3.0f32) as f64);
    let r = h.fold_floats(MULF, &[1e30, 1e30], "f32").unwrap();
    assert_eq!(r, f64::INFINITY);
    let r = h.fold_floats(SUBF, &[1.0, 0.25], "f16").unwrap();
    assert_eq!(r, 0.75);
    // f16 rounds once: 1 + 2^-11 is a tie that rounds to even (1.0).
    let r = h.fold_floats(ADDF, &[1.0, 2f64.powi(-11)], "f16").unwrap();
    assert_eq!(r, 1.0);
    let r = h.fold_floats(REMF, &[7.5, 2.0], "f32").unwrap();
    assert_eq!(r, 1.5);
    let r = h.fold_floats(REMF, &[-7.5, 2.0], "f64").unwrap();
    assert_eq!(r, -1.5);
    let r = h.fold_floats(NEGF, &[0.0], "f32").unwrap();
    assert!(r == 0.0 && r.is_sign_negative());
    assert!(h.fold_floats(DIVF, &[0.0, 0.0], "f32").unwrap().is_nan());
}

#[test]
fn minimum_and_maximum() {
    let mut h = h();
    assert_eq!(h.fold_floats(MINIMUMF, &[1.0, -2.0], "f32"), Some(-2.0));
    assert_eq!(h.fold_floats(MAXIMUMF, &[1.0, -2.0], "f32"), Some(1.0));
    assert!(h
        .fold_floats(MINIMUMF, &[f64::NAN, 1.0], "f32")
        .unwrap()
        .is_nan());
    assert!(h
        .fold_floats(MAXIMUMF, &[1.0, f64::NAN], "f64")
        .unwrap()
        .is_nan());
    let r = h.fold_floats(MINIMUMF, &[0.0, -0.0], "f32").unwrap();
    assert!(r.is_sign_negative());
    let r = h.fold_floats(MAXIMUMF, &[-0.0, 0.0], "f64").unwrap();
    assert!(r.is_sign_positive());
}

#[test]
fn exact_identities_only() {
    let mut h = h();
    let x = h.arg("f32");
    let neg_zero = h.float(-0.0, "f32");
    let zero = h.float(0.0, "f32");
    let one = h.float(1.0, "f32");
    let mut check = |name: &str, a, b| {
        let op = h.op(name, &[a, b], "f32");
        h.fold_value(op)
    };
    assert_eq!(check(ADDF, x, neg_zero), Some(x));
    assert_eq!(check(ADDF, neg_zero, x), Some(x));
    assert_eq!(check(SUBF, x, zero), Some(x));
    assert_eq!(check(MULF, x, one), Some(x));
    assert_eq!(check(MULF, one, x), Some(x));
    assert_eq!(check(DIVF, x, one), Some(x));
    assert_eq!(check(MINIMUMF, x, x), Some(x));
    assert_eq!(check(MAXIMUMF, x, x), Some(x));
    // x + 0.0 is not x for x = -0.0; x - x is NaN for infinities; x * 0 is not 0 for NaN or -x.
    for (name, a, b) in [
        (ADDF, x, zero),
        (SUBF, x, x),
        (SUBF, x, neg_zero),
        (MULF, x, zero),
        (DIVF, x, x),
    ] {
        let op = h.op(name, &[a, b], "f32");
        assert!(h.fold(op).is_none(), "{name}");
    }
}

#[test]
fn minnum_and_maxnum() {
    let mut h = h();
    assert_eq!(h.fold_floats(MINNUMF, &[1.0, -2.0], "f32"), Some(-2.0));
    assert_eq!(h.fold_floats(MAXNUMF, &[1.0, -2.0], "f32"), Some(1.0));
    assert_eq!(h.fold_floats(MAXNUMF, &[0.5, 0.25], "f16"), Some(0.5));
    // A NaN operand loses to the number, on either side (on the right, the identity
    // `op(x, NaN) = x` answers first, with the operand itself).
    assert_eq!(h.fold_floats(MAXNUMF, &[f64::NAN, 1.0], "f32"), Some(1.0));
    assert_eq!(h.fold_floats(MINNUMF, &[f64::NAN, -3.0], "f64"), Some(-3.0));
    assert_eq!(
        h.fold_floats(MAXNUMF, &[f64::NAN, f64::NEG_INFINITY], "f64"),
        Some(f64::NEG_INFINITY)
    );
    for (name, ty) in [(MAXNUMF, "f64"), (MINNUMF, "f32")] {
        let (k, nan) = (h.float(-3.0, ty), h.float(f64::NAN, ty));
        let op = h.op(name, &[k, nan], ty);
        assert_eq!(h.fold_value(op), Some(k), "{name}");
        let op = h.op(name, &[nan, nan], ty);
        assert_eq!(h.fold_value(op), Some(nan), "{name}");
    }
    assert_eq!(crate::ops::float::maxnum(1.0, f64::NAN), 1.0);
    assert_eq!(crate::ops::float::minnum(-3.0, f64::NAN), -3.0);
    // -0 is below +0 in both orders.
    for (a, b) in [(0.0, -0.0), (-0.0, 0.0)] {
        let r = h.fold_floats(MINNUMF, &[a, b], "f32").unwrap();
        assert!(r == 0.0 && r.is_sign_negative());
        let r = h.fold_floats(MAXNUMF, &[a, b], "f64").unwrap();
        assert!(r == 0.0 && r.is_sign_positive());
    }
    // A signaling NaN gives a quiet NaN (APFloat's maxnum).
    let snan = f64::from_bits(0x7FF0_0000_0000_0001);
    let r = crate::ops::float::maxnum(snan, 1.0);
    assert!(r.is_nan() && r.to_bits() & (1 << 51) != 0);
    let r = crate::ops::float::minnum(1.0, snan);
    assert!(r.is_nan() && r.to_bits() & (1 << 51) != 0);
}

#[test]
fn minnum_and_maxnum_identities() {
    let mut h = h();
    let x = h.arg("f32");
    let nan = h.float(f64::NAN, "f32");
    let one = h.float(1.0, "f32");
    for name in [MINNUMF, MAXNUMF] {
        let op = h.op(name, &[x, x], "f32");
        assert_eq!(h.fold_value(op), Some(x), "{name}");
        let op = h.op(name, &[x, nan], "f32");
        assert_eq!(h.fold_value(op), Some(x), "{name}");
        let op = h.op(name, &[nan, x], "f32");
        assert_eq!(h.fold_value(op), Some(x), "{name}");
        let op = h.op(name, &[x, one], "f32");
        assert!(h.fold(op).is_none(), "{name}");
    }
}
