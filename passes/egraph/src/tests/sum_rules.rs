//! The SumOverRange rules: each proves its equality, and refuses where its side condition is
//! not proved (a range that may be empty under a body that may fail, a begin that may be
//! negative, a closed form whose product may saturate, mixed signs that may saturate).

use super::env::{Array, Env};
use super::{exact, p, proves, simp};

#[test]
fn a_body_free_of_its_variable_is_count_times_body() {
    let free = &["sum-free-body"];
    // e - b saturates at 0: exactly the empty range.
    assert!(proves(
        "sum(@n[]:i32 for v0 in range(0, @m[]:i32))",
        "(@m[]:i32 - 0) * @n[]:i32",
        free
    ));
    // A constant body is the special case.
    assert!(proves(
        "sum(7 for v0 in range(2, @m[]:i32))",
        "(@m[]:i32 - 2) * 7",
        free
    ));
    assert_eq!(
        simp("sum(7 for v0 in range(2, @m[]:i32))"),
        "7 * (@m[]:i32 - 2)"
    );
    assert_eq!(simp("sum(3 for v0 in range(5, 2))"), "0");
    // A read that may be out of bounds stays under its (maybe empty) range ...
    let s = "sum(arg0[3]:i8 for v0 in range(0, @m[]:i32))";
    assert_eq!(simp(s), s);
    let env = Env::default()
        .field("m", Array::new(&[], &[0]))
        .array(0, Array::new(&[2], &[1, 2]));
    assert_eq!(p(s).eval(&env), Ok(0));
    // ... unless the range is proved non-empty (the input reads it too).
    assert_eq!(
        simp("sum(arg0[3]:i8 for v0 in range(0, 4))"),
        "4 * arg0[3]:i8"
    );
}

#[test]
fn the_arithmetic_series_has_a_closed_form() {
    let series = &["sum-series"];
    assert!(proves(
        "sum(v0 for v0 in range(@k[]:ui8, @m[]:i32))",
        "(@m[]:i32 - @k[]:ui8) * (@k[]:ui8 + (@m[]:i32 + -1)) / 2",
        series
    ));
    assert_eq!(
        simp("sum(v0 for v0 in range(0, @m[]:i32))"),
        "(@m[]:i32 - 0) * (@m[]:i32 + -1) / 2"
    );
    assert_eq!(simp("sum(v0 for v0 in range(3, 7))"), "18");
    // The triangle: sum(sum(1 for v1 < v0) for v0 < n).
    assert_eq!(
        simp("sum(sum(1 for v1 in range(0, v0)) for v0 in range(0, @n[]:i32))"),
        "(@n[]:i32 - 0) * (@n[]:i32 + -1) / 2"
    );
    // A begin that may be negative: partial sums go down then up, not a closed form.
    let neg = "sum(v0 for v0 in range(@n[]:i32, 4))";
    assert_eq!(simp(neg), neg);
    // i64 (and ui32) ends: the product may saturate where the sum does not (i64::MAX against
    // a sum just below it), so no closed form.
    for s in [
        "sum(v0 for v0 in range(0, @w[]:i64))",
        "sum(v0 for v0 in range(0, arg3:ui32))",
        "sum(v0 for v0 in range(max(@w[]:i64, 0) + 2, max(@w[]:i64, 0) + 3))",
    ] {
        assert_eq!(simp(s), s);
    }
    let s = "sum(v0 for v0 in range(max(@w[]:i64, 0) + 2, max(@w[]:i64, 0) + 3))";
    let env = Env::default().field("w", Array::new(&[], &[1 << 62]));
    assert_eq!(p(s).eval(&env), Ok((1 << 62) + 2));
}

#[test]
fn a_reflected_series_has_a_closed_form() {
    // for j in range(6): for _ in range(6 - j): 6 + 5 + ... + 1.
    assert!(proves(
        "sum(6 - v0 for v0 in range(0, 6))",
        "21",
        &["sum-reflect"]
    ));
    assert_eq!(
        simp("sum(@n[]:i32 - v0 for v0 in range(0, @n[]:i32))"),
        "(@n[]:i32 - 0) * (1 + (@n[]:i32 - 0)) / 2"
    );
    // Terms at or below 0 drop out: 2 + 1 + 0 + 0.
    assert_eq!(simp("sum(3 - v0 for v0 in range(1, 5))"), "3");
    let s = "sum(@n[]:ui16 - v0 for v0 in range(@k[]:ui8, @m[]:ui16))";
    for (n, k, m) in [
        (5, 1, 9),
        (5, 7, 9),
        (0, 0, 4),
        (9, 2, 2),
        (9, 4, 1),
        (65535, 0, 65535),
    ] {
        let env = Env::default()
            .field("n", Array::new(&[], &[n]))
            .field("k", Array::new(&[], &[k]))
            .field("m", Array::new(&[], &[m]));
        assert_eq!(p(&simp(s)).eval(&env), p(s).eval(&env), "n {n} k {k} m {m}");
    }
    assert!(!simp(s).contains("sum("), "{}", simp(s));
    // With i32 bounds and an i32 c, the intervals cannot bound the product below i64::MAX.
    let wide = "sum(@n[]:i32 - v0 for v0 in range(@k[]:ui8, @m[]:i32))";
    assert_eq!(simp(wide), wide);
    // c - v may saturate for an i64 c: no closed form.
    let w = "sum(@w[]:i64 - v0 for v0 in range(0, @n[]:i32))";
    assert_eq!(simp(w), w);
}

#[test]
fn a_linear_body_splits_and_hoists_its_factor() {
    assert!(proves(
        "sum(v0 + arg1[v0]:ui8 for v0 in range(0, @m[]:i32))",
        "sum(v0 for v0 in range(0, @m[]:i32)) + sum(arg1[v0]:ui8 for v0 in range(0, @m[]:i32))",
        &["sum-split-add"]
    ));
    assert!(proves(
        "sum(3 * arg1[v0]:ui8 for v0 in range(0, @m[]:i32))",
        "3 * sum(arg1[v0]:ui8 for v0 in range(0, @m[]:i32))",
        &["sum-hoist-factor"]
    ));
    assert_eq!(
        exact("sum(2 * v0 + 3 for v0 in range(0, @m[]:i32))"),
        "2 * ((@m[]:i32 - 0) * (@m[]:i32 + -1) / 2) + 3 * (@m[]:i32 - 0)"
    );
    assert_eq!(
        simp("sum(1 + v0 for v0 in range(0, @m[]:i32))"),
        "@m[]:i32 - 0 + (@m[]:i32 - 0) * (@m[]:i32 + -1) / 2"
    );
    // Mixed signs over i64 values: a partial sum may saturate and recover, the split sums not.
    assert!(!proves(
        "sum(@w[]:i64 + arg0[v0]:i8 for v0 in range(0, 3))",
        "sum(@w[]:i64 for v0 in range(0, 3)) + sum(arg0[v0]:i8 for v0 in range(0, 3))",
        &[]
    ));
    // A factor that may be negative, over values that may saturate.
    assert!(!proves(
        "sum(@w[]:i64 * arg1[v0]:ui8 for v0 in range(0, 3))",
        "@w[]:i64 * sum(arg1[v0]:ui8 for v0 in range(0, 3))",
        &[]
    ));
    // A factor read that may be out of bounds, over a range that may be empty, stays inside.
    let s = "sum(arg0[3]:i8 * arg1[v0]:ui8 for v0 in range(0, @m[]:i32))";
    assert_eq!(simp(s), s);
    // Each closed form equals the sum it replaces.
    for s in [
        "sum(2 * v0 + 3 for v0 in range(0, @m[]:i32))",
        "sum(1 + v0 for v0 in range(0, @m[]:i32))",
        "sum(5 * v0 + @n[]:ui16 for v0 in range(@k[]:ui8, @m[]:i32))",
    ] {
        assert!(!simp(s).contains("sum("), "{s} -> {}", simp(s));
        for (n, k, m) in [
            (0, 0, 0),
            (3, 0, 7),
            (1, 4, 9),
            (2, 9, 4),
            (65535, 200, 1000),
        ] {
            let env = Env::default()
                .field("n", Array::new(&[], &[n]))
                .field("k", Array::new(&[], &[k]))
                .field("m", Array::new(&[], &[m]));
            assert_eq!(
                p(&simp(s)).eval(&env),
                p(s).eval(&env),
                "{s} at {n} {k} {m}"
            );
        }
    }
}

#[test]
fn division_by_one_is_the_dividend() {
    assert!(proves("@w[]:i64 / 1", "@w[]:i64", &["div-one"]));
    assert!(!proves("@w[]:i64 / 2", "@w[]:i64", &[]));
    assert_eq!(simp("7 / 2"), "4");
}
