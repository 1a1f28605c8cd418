//! `Select`: text, binary form, evaluation, intervals and folding.

use super::tests::{env, ev, p, perr};
use super::*;

#[test]
fn selects_round_trip_in_text_and_binary() {
    for s in [
        "select(@n[]:i32 < 3, arg0.shape[0], 7)",
        "select(v0 <= @n[]:i32 - 1, v0, 2) * 2",
        "sum(select(arg1[v0]:i32 == 1, v0, 0) for v0 in range(0, 2))",
        "select(arg3:i32 != 15, 1, select(@n[]:i32 < 0, 2, 3))",
    ] {
        let s = if s.contains("v0") && !s.starts_with("sum(") {
            format!("max({s} for v0 in range(0, 3))")
        } else {
            s.to_string()
        };
        let e = p(&s);
        assert_eq!(e.to_string(), s, "print(parse(s)) != s");
        let b = e.to_bytes();
        let d = SizeExpr::from_bytes(&b).unwrap_or_else(|m| panic!("{s}: {m}"));
        assert_eq!(d, e);
        assert_eq!(d.to_bytes(), b);
    }
    assert!(perr("select(1, 2, 3)").contains("expected a comparison"));
    assert!(perr("select(1 > 2, 2, 3)").contains("expected a comparison"));
    // An unknown comparison code in the binary form is an error, not a panic.
    let mut b = p("select(@n[]:i32 < 3, 1, 2)").to_bytes();
    // Nodes: @n, 3, 1, 2, the select (record 4, its value at byte 24 of the record).
    let at = 20 + 4 * 32 + 24;
    b[at..at + 8].copy_from_slice(&9i64.to_le_bytes());
    assert!(SizeExpr::from_bytes(&b)
        .unwrap_err()
        .contains("unknown comparison"));
}

#[test]
fn selects_evaluate_the_chosen_side_only() {
    assert_eq!(ev("select(@n[]:i32 < 13, 1, 2)"), 1);
    assert_eq!(ev("select(@n[]:i32 <= 11, 1, 2)"), 2);
    assert_eq!(ev("select(arg3:i32 == 15, 1, 2)"), 1);
    assert_eq!(ev("select(arg3:i32 != 15, 1, 2)"), 2);
    // The side not chosen is not read (index 9 is out of bounds).
    assert_eq!(ev("select(0 < 1, 5, @starts[9]:i32)"), 5);
    assert!(p("select(1 < 0, 5, @starts[9]:i32)").eval(&env()).is_err());
    // A local set to v0, then to 4 when @n < 12 (it is not): the triangle stays exact.
    assert_eq!(
        ev("sum(select(@n[]:i32 < 12, 4, v0) for v0 in range(0, 5))"),
        10
    );
}

#[test]
fn selects_have_intervals_and_fold_where_they_are_decided() {
    assert_eq!(
        p("select(@n[]:i32 < 3, @u[]:ui8, -2)").interval(),
        Interval::new(-2, 255)
    );
    assert_eq!(
        p("select(@u[]:ui8 < 0, @n[]:i32, 7)").interval(),
        Interval::point(7)
    );
    let n = p("@n[]:i32");
    let u = p("@u[]:ui8");
    let seven = SizeExpr::constant(7);
    assert_eq!(
        SizeExpr::select(CmpPred::Lt, &u, &SizeExpr::constant(0), &n, &seven),
        seven
    );
    assert_eq!(
        SizeExpr::select(CmpPred::Le, &SizeExpr::constant(0), &u, &n, &seven),
        n
    );
    assert_eq!(SizeExpr::select(CmpPred::Eq, &n, &u, &n, &n), n);
    let kept = SizeExpr::select(CmpPred::Ne, &n, &u, &n, &seven);
    assert_eq!(
        kept.to_string(),
        "select(@n[]:i32 != @u[]:ui8, @n[]:i32, 7)"
    );
    assert_eq!(
        p("max(select(v0 < 10, v0, 99) for v0 in range(0, 4))")
            .tidy()
            .to_string(),
        "max(v0 for v0 in range(0, 4))"
    );
}
