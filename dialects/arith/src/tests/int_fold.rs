use super::h;
use crate::names::*;

#[test]
fn arithmetic_wraps_at_width() {
    let mut h = h();
    assert_eq!(h.fold_ints(ADDI, &[3, 4], "i32"), Some(7));
    assert_eq!(h.fold_ints(ADDI, &[127, 1], "i8"), Some(-128));
    assert_eq!(h.fold_ints(ADDI, &[i64::MAX, 1], "i64"), Some(i64::MIN));
    assert_eq!(h.fold_ints(ADDI, &[1, 1], "i1"), Some(0));
    assert_eq!(h.fold_ints(SUBI, &[0, 1], "i8"), Some(-1));
    assert_eq!(h.fold_ints(SUBI, &[-128, 1], "i8"), Some(127));
    assert_eq!(h.fold_ints(MULI, &[16, 16], "i8"), Some(0));
    assert_eq!(h.fold_ints(MULI, &[-3, 5], "index"), Some(-15));
    assert_eq!(h.fold_ints(MULI, &[1 << 40, 1 << 30], "i64"), Some(0));
}

#[test]
fn division_and_remainder() {
    let mut h = h();
    assert_eq!(h.fold_ints(DIVSI, &[-7, 2], "i32"), Some(-3));
    assert_eq!(h.fold_ints(DIVUI, &[-2, 2], "i8"), Some(127));
    assert_eq!(h.fold_ints(REMSI, &[-7, 2], "i32"), Some(-1));
    assert_eq!(h.fold_ints(REMUI, &[-1, 10], "i8"), Some(5));
    // INT_MIN rem -1 is 0 (defined), INT_MIN / -1 overflows (not folded).
    assert_eq!(h.fold_ints(REMSI, &[i64::MIN, -1], "i64"), Some(0));
    assert_eq!(h.fold_ints(REMSI, &[-128, -1], "i8"), Some(0));
    assert_eq!(h.fold_ints(DIVSI, &[-128, -1], "i8"), None);
    assert_eq!(h.fold_ints(DIVSI, &[i64::MIN, -1], "i64"), None);
    assert_eq!(h.fold_ints(DIVSI, &[i64::MIN, -1], "index"), None);
    // Division by zero does not fold.
    for op in [DIVSI, DIVUI, REMSI, REMUI] {
        assert_eq!(h.fold_ints(op, &[5, 0], "i32"), None, "{op}");
    }
}

#[test]
fn min_max_bitwise_shifts() {
    let mut h = h();
    assert_eq!(h.fold_ints(MINSI, &[-1, 1], "i8"), Some(-1));
    assert_eq!(h.fold_ints(MAXSI, &[-1, 1], "i8"), Some(1));
    assert_eq!(h.fold_ints(ANDI, &[0b1100, 0b1010], "i32"), Some(0b1000));
    assert_eq!(h.fold_ints(ORI, &[0b1100, 0b1010], "i32"), Some(0b1110));
    assert_eq!(h.fold_ints(XORI, &[0b1100, 0b1010], "i32"), Some(0b0110));
    assert_eq!(h.fold_ints(XORI, &[1, 1], "i1"), Some(0));
    assert_eq!(h.fold_ints(SHLI, &[1, 7], "i8"), Some(-128));
    assert_eq!(h.fold_ints(SHRSI, &[-128, 7], "i8"), Some(-1));
    assert_eq!(h.fold_ints(SHRUI, &[-128, 7], "i8"), Some(1));
    assert_eq!(h.fold_ints(SHLI, &[1, 63], "i64"), Some(i64::MIN));
    // Shifts by the width or more (or by a "negative" amount) do not fold.
    for op in [SHLI, SHRSI, SHRUI] {
        assert_eq!(h.fold_ints(op, &[1, 8], "i8"), None, "{op}");
        assert_eq!(h.fold_ints(op, &[1, -1], "i8"), None, "{op}");
        assert_eq!(h.fold_ints(op, &[1, 64], "i64"), None, "{op}");
    }
}

#[test]
fn identities() {
    let mut h = h();
    let x = h.arg("i32");
    let zero = h.int(0, "i32");
    let one = h.int(1, "i32");
    let ones = h.int(-1, "i32");
    let check = |h: &mut crate::testing::Harness, name: &str, a, b| {
        let op = h.op(name, &[a, b], "i32");
        h.fold_value(op)
    };
    assert_eq!(check(&mut h, ADDI, x, zero), Some(x));
    assert_eq!(check(&mut h, ADDI, zero, x), Some(x));
    assert_eq!(check(&mut h, SUBI, x, zero), Some(x));
    assert_eq!(check(&mut h, MULI, x, one), Some(x));
    assert_eq!(check(&mut h, MULI, one, x), Some(x));
    assert_eq!(check(&mut h, MULI, x, zero), Some(zero));
    assert_eq!(check(&mut h, DIVSI, x, one), Some(x));
    assert_eq!(check(&mut h, DIVUI, x, one), Some(x));
    assert_eq!(check(&mut h, ANDI, x, x), Some(x));
    assert_eq!(check(&mut h, ANDI, x, zero), Some(zero));
    assert_eq!(check(&mut h, ANDI, x, ones), Some(x));
    assert_eq!(check(&mut h, ORI, x, zero), Some(x));
    assert_eq!(check(&mut h, ORI, x, x), Some(x));
    // or(x, -1) gives the constant's attribute (upstream returns it, not the value).
    let op = h.op(ORI, &[x, ones], "i32");
    let a = h.fold_attr(op).unwrap();
    assert_eq!(h.ctx.attr_data(a).as_int(), Some(-1));
    assert_eq!(check(&mut h, XORI, x, zero), Some(x));
    assert_eq!(check(&mut h, MINSI, x, x), Some(x));
    assert_eq!(check(&mut h, MAXSI, x, x), Some(x));
    assert_eq!(check(&mut h, SHLI, x, zero), Some(x));
    assert_eq!(check(&mut h, SHRSI, x, zero), Some(x));
    assert_eq!(check(&mut h, SHRUI, x, zero), Some(x));
    // Subtracting or xor-ing a value with itself gives a zero constant.
    for name in [SUBI, XORI] {
        let op = h.op(name, &[x, x], "i32");
        let a = h.fold_attr(op).expect(name);
        assert_eq!(h.ctx.attr_data(a).as_int(), Some(0));
    }
    // x rem 1 is 0; upstream does not fold x rem -1 (also 0), nor does ours.
    for (name, k) in [(REMSI, one), (REMUI, one)] {
        let op = h.op(name, &[x, k], "i32");
        let a = h.fold_attr(op).expect(name);
        assert_eq!(h.ctx.attr_data(a).as_int(), Some(0));
    }
    let op = h.op(REMSI, &[x, ones], "i32");
    assert_eq!(h.fold(op), None);
    // min/max against the extremes.
    let min = h.int(i32::MIN as i64, "i32");
    let max = h.int(i32::MAX as i64, "i32");
    assert_eq!(check(&mut h, MINSI, x, min), Some(min));
    assert_eq!(check(&mut h, MINSI, x, max), Some(x));
    assert_eq!(check(&mut h, MAXSI, x, max), Some(max));
    assert_eq!(check(&mut h, MAXSI, x, min), Some(x));
}

#[test]
fn no_identity_where_unsound() {
    let mut h = h();
    let x = h.arg("i32");
    let y = h.arg("i32");
    let zero = h.int(0, "i32");
    let two = h.int(2, "i32");
    for (name, a, b) in [
        (SUBI, zero, x), // 0 - x is not x
        (DIVSI, x, x),   // x / x is undefined at 0
        (DIVSI, x, zero),
        (REMUI, x, x),
        (ADDI, x, y),
        (MULI, x, two),
        (SHLI, zero, x), // the amount could be out of range
    ] {
        let op = h.op(name, &[a, b], "i32");
        assert!(h.fold(op).is_none(), "{name}");
    }
}

#[test]
fn i1_results_are_bool_attrs() {
    let mut h = h();
    let a = h.int(1, "i1");
    let b = h.int(0, "i1");
    let op = h.op(ADDI, &[a, a], "i1");
    let r = h.fold_attr(op).unwrap();
    assert_eq!(h.ctx.attr_data(r), &qd_ir::AttrData::Bool(false));
    let op = h.op(ORI, &[a, b], "i1");
    assert_eq!(h.fold_value(op), Some(a));
}

#[test]
fn malformed_ops_do_not_fold() {
    let mut h = h();
    let a = h.int(1, "i32");
    // One operand where two are expected; mismatched widths; no result.
    let op = h.op(ADDI, &[a], "i32");
    assert!(h.fold(op).is_none());
    let b = h.int(1, "i64");
    let op = h.op(ADDI, &[a, b], "i32");
    assert!(h.fold(op).is_none());
    let state = qd_ir::OperationState::new(ADDI, h.loc).operands(&[a, a]);
    let op = h.insert(state);
    assert!(h.fold(op).is_none());
}

#[test]
fn rounding_divisions() {
    let mut h = h();
    // Every sign combination, exact and inexact.
    for (a, b, ceil, floor) in [
        (7, 2, 4, 3),
        (-7, 2, -3, -4),
        (7, -2, -3, -4),
        (-7, -2, 4, 3),
        (6, 3, 2, 2),
        (-6, 3, -2, -2),
        (6, -3, -2, -2),
        (0, -5, 0, 0),
        (1, 5, 1, 0),
        (-1, 5, 0, -1),
    ] {
        assert_eq!(
            h.fold_ints(CEILDIVSI, &[a, b], "i32"),
            Some(ceil),
            "{a} {b}"
        );
        assert_eq!(
            h.fold_ints(FLOORDIVSI, &[a, b], "i32"),
            Some(floor),
            "{a} {b}"
        );
    }
    assert_eq!(h.fold_ints(CEILDIVUI, &[7, 2], "i32"), Some(4));
    assert_eq!(h.fold_ints(CEILDIVUI, &[6, 2], "i32"), Some(3));
    assert_eq!(h.fold_ints(CEILDIVUI, &[0, 2], "i32"), Some(0));
    // Unsigned: -1 is 255 in i8, and ceil(255 / 2) = 128 wraps to -128 as i8 bits.
    assert_eq!(h.fold_ints(CEILDIVUI, &[-1, 2], "i8"), Some(-128));
    assert_eq!(h.fold_ints(CEILDIVUI, &[-1, -1], "i8"), Some(1));
    assert_eq!(h.fold_ints(CEILDIVUI, &[5, -1], "i8"), Some(1));
    assert_eq!(h.fold_ints(FLOORDIVSI, &[-128, 3], "i8"), Some(-43));
    assert_eq!(
        h.fold_ints(FLOORDIVSI, &[i64::MIN, 2], "index"),
        Some(i64::MIN / 2)
    );
    assert_eq!(h.fold_ints(CEILDIVSI, &[i64::MAX, 2], "i64"), Some(1 << 62));
    assert_eq!(h.fold_ints(CEILDIVSI, &[127, -128 + 1], "i8"), Some(-1));
    // Division by zero never folds.
    for op in [CEILDIVSI, FLOORDIVSI, CEILDIVUI] {
        assert_eq!(h.fold_ints(op, &[5, 0], "i32"), None, "{op}");
        assert_eq!(h.fold_ints(op, &[0, 0], "i32"), None, "{op}");
    }
    // INT_MIN / -1 overflows: not folded.
    assert_eq!(h.fold_ints(FLOORDIVSI, &[-128, -1], "i8"), None);
    assert_eq!(h.fold_ints(FLOORDIVSI, &[i64::MIN, -1], "i64"), None);
    assert_eq!(h.fold_ints(CEILDIVSI, &[-128, -1], "i8"), None);
    // As upstream, ceildivsi does not fold where its steps would negate INT_MIN.
    assert_eq!(h.fold_ints(CEILDIVSI, &[-128, 3], "i8"), None);
    assert_eq!(h.fold_ints(CEILDIVSI, &[5, -128], "i8"), None);
    assert_eq!(h.fold_ints(CEILDIVSI, &[-5, -128], "i8"), None);
    assert_eq!(h.fold_ints(CEILDIVSI, &[0, -128], "i8"), Some(0));
    // floordivsi has no such steps.
    assert_eq!(h.fold_ints(FLOORDIVSI, &[5, -128], "i8"), Some(-1));
    assert_eq!(h.fold_ints(FLOORDIVSI, &[-128, -128], "i8"), Some(1));
}

#[test]
fn rounding_division_identities() {
    let mut h = h();
    let x = h.arg("i32");
    let one = h.int(1, "i32");
    let zero = h.int(0, "i32");
    for name in [CEILDIVSI, FLOORDIVSI, CEILDIVUI] {
        let op = h.op(name, &[x, one], "i32");
        assert_eq!(h.fold_value(op), Some(x), "{name}");
        let op = h.op(name, &[x, zero], "i32");
        assert!(h.fold(op).is_none(), "{name}");
        // Not commutative: 1 / x is not x.
        let op = h.op(name, &[one, x], "i32");
        assert!(h.fold(op).is_none(), "{name}");
    }
}

#[test]
fn unsigned_min_max() {
    let mut h = h();
    assert_eq!(h.fold_ints(MINUI, &[-1, 1], "i8"), Some(1));
    assert_eq!(h.fold_ints(MAXUI, &[-1, 1], "i8"), Some(-1));
    assert_eq!(h.fold_ints(MINUI, &[-128, 127], "i8"), Some(127));
    assert_eq!(
        h.fold_ints(MAXUI, &[i64::MIN, i64::MAX], "index"),
        Some(i64::MIN)
    );
    let x = h.arg("i16");
    let zero = h.int(0, "i16");
    let ones = h.int(-1, "i16");
    let five = h.int(5, "i16");
    let mut check = |name: &str, a, b| {
        let op = h.op(name, &[a, b], "i16");
        h.fold_value(op)
    };
    assert_eq!(check(MINUI, x, x), Some(x));
    assert_eq!(check(MAXUI, x, x), Some(x));
    assert_eq!(check(MINUI, x, zero), Some(zero));
    assert_eq!(check(MINUI, zero, x), Some(zero));
    assert_eq!(check(MINUI, x, ones), Some(x));
    assert_eq!(check(MAXUI, x, ones), Some(ones));
    assert_eq!(check(MAXUI, ones, x), Some(ones));
    assert_eq!(check(MAXUI, x, zero), Some(x));
    assert_eq!(check(MAXUI, x, five), None);
    assert_eq!(check(MINUI, x, five), None);
}
