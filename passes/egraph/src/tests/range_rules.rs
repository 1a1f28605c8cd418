//! The MaxOverRange rules: each proves its equality, and refuses where its side condition is
//! not proved (a range that may be empty, a body that may fail, a factor that may be negative).

use super::env::{Array, Env};
use super::{p, proves, simp};

#[test]
fn empty_ranges_are_zero() {
    assert_eq!(simp("max(v0 for v0 in range(5, 2))"), "0");
    assert_eq!(simp("max(@n[]:i32 for v0 in range(@g[0]:ui8, -1))"), "0");
    // A body at most 0 gives 0 whatever the range.
    assert_eq!(simp("max(-3 - v0 for v0 in range(0, @n[]:i32))"), "0");
}

#[test]
fn a_body_free_of_its_variable_needs_a_non_empty_range() {
    assert!(proves(
        "max(@n[]:i32 for v0 in range(0, 4))",
        "max(@n[]:i32, 0)",
        &["range-free-body"]
    ));
    assert_eq!(
        simp("max(@n[]:i32 for v0 in range(0, 4))"),
        "max(0, @n[]:i32)"
    );
    assert_eq!(
        simp("max(arg0.shape[0] + 2 for v0 in range(1, 3))"),
        "arg0.shape[0] + 2"
    );
    // range(0, k) may be empty: then the value is 0, not max(n, 0).
    assert!(!proves(
        "max(@n[]:i32 for v0 in range(0, @k[]:i32))",
        "max(@n[]:i32, 0)",
        &[]
    ));
}

#[test]
fn a_monotone_body_is_evaluated_at_the_end_of_its_range() {
    let mono = &["range-monotone"];
    // Non-decreasing: at v = e - 1.
    assert!(proves("max(v0 * 2 + 1 for v0 in range(0, 10))", "19", mono));
    assert!(proves(
        "max(v0 + @n[]:i32 for v0 in range(0, 10))",
        "max(10 + -1 + @n[]:i32, 0)",
        mono
    ));
    // Non-increasing: at v = b.
    assert!(proves(
        "max(@n[]:i32 - v0 for v0 in range(2, 10))",
        "max(@n[]:i32 - 2, 0)",
        mono
    ));
    assert_eq!(
        simp("max(@n[]:i32 - v0 for v0 in range(2, 10))"),
        "@n[]:i32 - 2"
    );
    // Through nested ranges: the inner range grows with v0.
    assert_eq!(
        simp("max(max(v1 for v1 in range(0, v0)) for v0 in range(0, @n[]:i32))"),
        "@n[]:i32 - 2"
    );
    // Not monotone: v0 * v0 over negative values, reads at v0.
    assert_eq!(
        simp("max(v0 * v0 for v0 in range(-3, 8))"),
        "max(v0 * v0 for v0 in range(-3, 8))"
    );
    assert_eq!(simp("max(v0 * v0 for v0 in range(0, 8))"), "49");
    assert_eq!(
        simp("max(arg0[v0]:i8 for v0 in range(0, 4))"),
        "max(arg0[v0]:i8 for v0 in range(0, 4))"
    );
}

#[test]
fn a_possibly_empty_range_keeps_its_emptiness() {
    // min(e - b, 1) is 0 exactly when the range is empty.
    assert!(proves(
        "max(v0 for v0 in range(0, @n[]:i32))",
        "min(@n[]:i32 - 0, 1) * max(@n[]:i32 + -1, 0)",
        &["range-monotone"]
    ));
    assert_eq!(simp("max(v0 for v0 in range(0, @n[]:i32))"), "@n[]:i32 - 1");
    assert_eq!(
        simp("max(@n[]:i32 - v0 for v0 in range(0, @n[]:i32))"),
        "@n[]:i32 - 0"
    );
    assert_eq!(
        simp("max(arg0.shape[0] - v0 for v0 in range(0, arg0.shape[0]))"),
        "arg0.shape[0]"
    );
    assert_eq!(
        simp("(@m[]:i32 - 0) * max(1 + v1 for v1 in range(0, @m[]:i32))"),
        "(@m[]:i32 - 0) * (@m[]:i32 - 0)"
    );
}

#[test]
fn a_guarded_body_never_reads_what_the_input_does_not() {
    // When n <= 0 the input reads nothing; arg0[3] may be out of bounds.
    let s = "max(v0 + arg0[3]:i8 for v0 in range(0, @n[]:i32))";
    assert_eq!(simp(s), s);
    let env = Env::default()
        .field("n", Array::new(&[], &[0]))
        .array(0, Array::new(&[2], &[1, 2]));
    assert_eq!(p(s).eval(&env), Ok(0));
    assert_eq!(p(&simp(s)).eval(&env), Ok(0));
    // On a range proved non-empty the input reads it too.
    assert_eq!(
        simp("max(v0 + arg0[3]:i8 for v0 in range(0, 4))"),
        "max(0, 3 + arg0[3]:i8)"
    );
}

#[test]
fn max_splits_across_a_range() {
    assert!(proves(
        "max(max(arg0[v0]:i8, @n[]:i32) for v0 in range(0, @k[]:i32))",
        "max(max(arg0[v0]:i8 for v0 in range(0, @k[]:i32)), max(@n[]:i32 for v0 in range(0, @k[]:i32)))",
        &["range-split-max"]
    ));
    // Splitting lets the free half go: one range either way, so the input's form stays.
    assert_eq!(simp("max(max(v0, 7) for v0 in range(0, 4))"), "7");
}

#[test]
fn non_negative_factors_and_terms_leave_the_range() {
    assert!(proves(
        "max(@m[]:ui16 * arg1[v0]:ui8 for v0 in range(0, 4))",
        "@m[]:ui16 * max(arg1[v0]:ui8 for v0 in range(0, 4))",
        &["range-hoist-factor"]
    ));
    // A literal factor cannot fail, so the range may be empty.
    assert!(proves(
        "max(3 * arg1[v0]:ui8 for v0 in range(0, @n[]:i32))",
        "3 * max(arg1[v0]:ui8 for v0 in range(0, @n[]:i32))",
        &["range-hoist-factor"]
    ));
    // A factor that may be negative does not commute with the max.
    assert!(!proves(
        "max(@n[]:i32 * arg1[v0]:ui8 for v0 in range(0, 4))",
        "@n[]:i32 * max(arg1[v0]:ui8 for v0 in range(0, 4))",
        &[]
    ));
    assert!(proves(
        "max(@m[]:ui16 + arg1[v0]:ui8 for v0 in range(0, 4))",
        "@m[]:ui16 + max(arg1[v0]:ui8 for v0 in range(0, 4))",
        &["range-hoist-term"]
    ));
    // n + max(...) is below 0 for a negative n, the range never is.
    assert!(!proves(
        "max(@n[]:i32 + arg1[v0]:ui8 for v0 in range(0, 4))",
        "@n[]:i32 + max(arg1[v0]:ui8 for v0 in range(0, 4))",
        &[]
    ));
    // An empty range is 0, but m + 0 is m.
    assert!(!proves(
        "max(@m[]:ui16 + arg1[v0]:ui8 for v0 in range(0, @n[]:i32))",
        "@m[]:ui16 + max(arg1[v0]:ui8 for v0 in range(0, @n[]:i32))",
        &[]
    ));
}

#[test]
fn the_six_minus_j_nest_is_not_under_sized() {
    // for j in range(6): for _ in range(6 - j): the trip count is at most 6, for 6 values of j.
    assert_eq!(simp("6 * max(6 - v0 for v0 in range(0, 6))"), "36");
    // A stack per j needs the largest trip, 6 (upstream sized it 0).
    assert_eq!(simp("max(6 - v0 for v0 in range(0, 6))"), "6");
    // The reverse-mode layout with the bound in a field: 6 * (2 + (n - 0)).
    let s = "6 * max(2 + (@n[]:i32 - v1) for v1 in range(0, 6))";
    assert_eq!(simp(s), "6 * (2 + (@n[]:i32 - 0))");
    let env = Env::default().field("n", Array::new(&[], &[6]));
    assert_eq!(p(s).eval(&env), Ok(48));
    assert_eq!(p(&simp(s)).eval(&env), Ok(48));
}
