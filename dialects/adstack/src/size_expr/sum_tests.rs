//! `SumOverRange` and `Div`: text, binary form, evaluation, intervals and folding.

use super::tests::{env, ev, p, perr};
use super::*;

#[test]
fn sums_and_quotients_round_trip_in_text_and_binary() {
    for s in [
        "sum(v0 for v0 in range(0, @n[]:i32))",
        "sum(sum(1 for v1 in range(0, v0)) for v0 in range(0, 12))",
        "max(sum(arg2[v0, v1]:i32 for v1 in range(0, arg2.shape[1])) for v0 in range(0, 2))",
        "(arg0.shape[0] - 1) * arg0.shape[0] / 2",
        "sum(v0 / 3 for v0 in range(-4, arg3:i32))",
        "@n[]:i32 / 2 * 3",
    ] {
        let e = p(s);
        assert_eq!(e.to_string(), s, "print(parse(s)) != s");
        let b = e.to_bytes();
        let d = SizeExpr::from_bytes(&b).unwrap_or_else(|m| panic!("{s}: {m}"));
        assert_eq!(d, e);
        assert_eq!(d.to_bytes(), b);
    }
    // Kinds 12 and 13 in the binary form.
    assert_eq!(
        p("sum(v0 for v0 in range(0, 3))").to_bytes()[20 + 3 * 32],
        12
    );
    assert_eq!(p("@n[]:i32 / 2").to_bytes()[20 + 2 * 32], 13);
}

#[test]
fn bad_sums_and_quotients_are_refused() {
    assert!(perr("sum(1, 2)").contains("expected 'for'"));
    assert!(perr("@n[]:i32 / @n[]:i32").contains("not a positive literal"));
    assert!(perr("@n[]:i32 / 0").contains("not a positive literal"));
    assert!(perr("@n[]:i32 / -2").contains("not a positive literal"));
    assert!(
        perr("sum(sum(v0 for v0 in range(0, 2)) for v0 in range(0, 2))").contains("bound again")
    );
    assert!(
        perr("sum(v0 for v0 in range(0, v0))").contains("not bound")
            || perr("sum(v0 for v0 in range(0, v0))").contains("outer v0")
    );
    // A record of kind 13 dividing by a non-literal decodes to an error, not a panic.
    let mut b = p("@n[]:i32 / 2").to_bytes();
    // Point the divisor at the field read (node 0).
    b[20 + 2 * 32 + 8..20 + 2 * 32 + 12].copy_from_slice(&0u32.to_le_bytes());
    assert!(SizeExpr::from_bytes(&b)
        .unwrap_err()
        .contains("positive literal"));
}

#[test]
fn sums_evaluate_with_saturation_and_caps() {
    // 0 + 1 + ... + 11.
    assert_eq!(ev("sum(v0 for v0 in range(0, @n[]:i32))"), 66);
    assert_eq!(ev("sum(v0 for v0 in range(5, 5))"), 0);
    assert_eq!(ev("sum(v0 for v0 in range(5, 2))"), 0);
    // Negative terms are summed as they are.
    assert_eq!(ev("sum(v0 for v0 in range(-3, 1))"), -6);
    // The triangle of examples/triangular.mlir: sum over j < 12 of (1 + j), plus 1.
    assert_eq!(ev("1 + sum(1 + v0 for v0 in range(0, @n[]:i32))"), 79);
    // Per-row sums of a rank-2 ndarray (arg2 = [[1, 2, 3], [4, 5, 6]]).
    assert_eq!(
        ev("sum(sum(arg2[v0, v1]:i32 for v1 in range(0, arg2.shape[1])) for v0 in range(0, arg2.shape[0]))"),
        21
    );
    // A body free of the variable is multiplied, whatever the range.
    assert_eq!(
        ev("sum(@n[]:i32 for v0 in range(0, 1000000000000))"),
        12_000_000_000_000
    );
    assert_eq!(
        ev("sum(4611686018427387904 for v0 in range(0, 3))"),
        i64::MAX
    );
    assert_eq!(
        ev("sum(-4611686018427387904 for v0 in range(0, 3))"),
        i64::MIN
    );
    // Saturation in order: MAX first, then the negative terms -5 and -10.
    assert_eq!(
        ev("sum(9223372036854775807 * (1 - v0) + v0 * -5 for v0 in range(0, 3))"),
        i64::MAX - 15
    );
    let e = p("sum(v0 for v0 in range(0, 16777217))")
        .eval(&env())
        .unwrap_err();
    assert!(e.to_string().contains("cap of 16777216"), "{e}");
}

#[test]
fn prefix_sums_under_a_max_take_linear_work() {
    // max over k of the prefix sum up to k: quadratic naively (2^13 squared / 2 = 2^25 body
    // visits, over the step cap of 2^28 with the nodes of each visit), linear when a sum
    // continues from its previous value.
    let e = p("max(sum(v1 for v1 in range(0, v0)) + 1 for v0 in range(0, 16384))");
    let n: i64 = 16383;
    assert_eq!(e.eval(&env()), Ok(n * (n - 1) / 2 + 1));
    // The continuation restarts when the begin or an outer variable changes.
    assert_eq!(
        ev("max(sum(v1 + v0 for v1 in range(v0, 6)) for v0 in range(0, 6))"),
        22
    );
    assert_eq!(
        ev("sum(max(sum(v2 * v0 for v2 in range(0, v1)) for v1 in range(0, 4)) for v0 in range(0, 3))"),
        9
    );
}

#[test]
fn quotients_round_up_and_keep_saturation() {
    assert_eq!(ev("7 / 2"), 4);
    assert_eq!(ev("6 / 2"), 3);
    assert_eq!(ev("-7 / 2"), -3);
    assert_eq!(ev("0 / 5"), 0);
    assert_eq!(ev("9223372036854775807 / 2"), i64::MAX);
    assert_eq!(ev("(4611686018427387904 * 4) / 2"), i64::MAX);
    assert_eq!(ev("-9223372036854775808 / 2"), i64::MIN);
    assert_eq!(ev("(12 - 0) * (12 + 0 - 1) / 2"), 66);
}

#[test]
fn intervals_of_sums_and_quotients_hold_every_value() {
    let e = p("sum(v0 for v0 in range(0, @n[]:ui8))");
    assert_eq!(e.interval(), Interval::new(0, 255 * 254));
    assert_eq!(
        p("sum(3 for v0 in range(2, 5))").interval(),
        Interval::new(9, 9)
    );
    assert_eq!(
        p("sum(-2 for v0 in range(0, @u[]:ui8))").interval(),
        Interval::new(-510, 0)
    );
    assert_eq!(p("@u[]:ui8 / 2").interval(), Interval::new(0, 128));
    assert_eq!(p("@s[]:i8 / 4").interval(), Interval::new(-32, 32));
    for s in [
        "sum(v0 for v0 in range(0, @n[]:i32))",
        "sum(v0 for v0 in range(-3, 1))",
        "1 + sum(1 + v0 for v0 in range(0, @n[]:i32))",
        "-7 / 2",
        "sum(sum(arg2[v0, v1]:i32 for v1 in range(0, arg2.shape[1])) for v0 in range(0, arg2.shape[0]))",
    ] {
        assert!(p(s).interval().contains(ev(s)), "{s}");
    }
}

#[test]
fn folding_sums_keeps_values() {
    let n = p("@n[]:i32");
    let zero = SizeExpr::constant(0);
    let v = SizeExpr::bound_var(0);
    let s = SizeExpr::sum_over_range(0, &zero, &n, &v);
    assert_eq!(s.to_string(), "sum(v0 for v0 in range(0, @n[]:i32))");
    // Reading nothing: the value.
    let s = SizeExpr::sum_over_range(0, &zero, &SizeExpr::constant(5), &v);
    assert_eq!(s, SizeExpr::constant(10));
    // A body free of the variable: the count times the body.
    let s = SizeExpr::sum_over_range(0, &SizeExpr::constant(2), &n, &p("@m[]:i32"));
    assert_eq!(s.to_string(), "(@n[]:i32 - 2) * @m[]:i32");
    assert_eq!(s.eval(&env()).ok(), None); // @m is not in the environment
    assert_eq!(
        SizeExpr::sum_over_range(0, &SizeExpr::constant(4), &zero, &v),
        zero
    );
    // An inner binder of the same variable is renamed.
    let inner = SizeExpr::sum_over_range(0, &zero, &n, &v);
    let outer = SizeExpr::sum_over_range(0, &zero, &SizeExpr::constant(2), &inner.add(&v));
    assert_eq!(outer.eval(&env()), Ok(2 * 66 + 1));
    assert!(outer.validate().is_ok());
    assert_eq!(n.div_const(1), n);
    assert_eq!(SizeExpr::constant(9).div_const(2), SizeExpr::constant(5));
    assert_eq!(n.div_const(2).to_string(), "@n[]:i32 / 2");
}

#[test]
fn renaming_a_free_variable_leaves_bound_ones() {
    let v0 = SizeExpr::bound_var(0);
    let v1 = SizeExpr::bound_var(1);
    let body = SizeExpr::max_over_range_raw(
        1,
        &SizeExpr::constant(0),
        &SizeExpr::constant(3),
        &v0.add(&v1),
    );
    let open = SizeExpr::binary(BinOp::Add, &body, &v0);
    let r = open.rename_free_var(0, 5).unwrap();
    assert_eq!(r.to_string(), "max(v5 + v1 for v1 in range(0, 3)) + v5");
    // A binder of the variable itself shadows it: only the free occurrences change.
    let shadow = SizeExpr::binary(
        BinOp::Add,
        &p("max(v0 for v0 in range(0, 3))"),
        &SizeExpr::bound_var(0),
    );
    let r = shadow.rename_free_var(0, 5).unwrap();
    assert_eq!(
        SizeExpr::sum_over_range(5, &SizeExpr::constant(0), &SizeExpr::constant(2), &r)
            .eval(&env()),
        Ok(2 + 2 + 1)
    );
    // A binder of the new name around an occurrence would capture it.
    let capture = SizeExpr::binary(
        BinOp::Add,
        &p("max(v5 for v5 in range(0, 3))"),
        &SizeExpr::bound_var(0),
    );
    assert_eq!(capture.rename_free_var(0, 5), None);
}
