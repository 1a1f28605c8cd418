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
