//! One test per algebraic rule: it proves its equality alone, and its side condition keeps it
//! (and every other rule) from proving the unsound variant.

use super::{proves, simp};

#[test]
fn neutral_and_absorbing_elements() {
    assert!(proves("@n[]:i32 + 0", "@n[]:i32", &["add-zero"]));
    assert!(proves("@n[]:i32 * 1", "@n[]:i32", &["mul-one"]));
    assert!(proves("@n[]:i32 * 0", "0", &["mul-zero"]));
    // x - 0 saturates at 0: it is max(x, 0), not x.
    assert!(proves("@n[]:i32 - 0", "max(@n[]:i32, 0)", &["sub-zero"]));
    assert!(!proves("@n[]:i32 - 0", "@n[]:i32", &[]));
    assert!(proves("@n[]:i32 - @n[]:i32", "0", &["sub-self"]));
    // Saturating x + x and x * 2 overflow together, to the same bound.
    assert!(proves("@w[]:i64 + @w[]:i64", "@w[]:i64 * 2", &["add-self"]));
    assert_eq!(simp("2 + 3 * 4 - 20"), "0");
    assert_eq!(simp("@n[]:i32 * 1 + 0 * @k[]:i32"), "@n[]:i32");
}

#[test]
fn commutativity() {
    assert!(proves(
        "@a[]:i32 + @b[]:i32",
        "@b[]:i32 + @a[]:i32",
        &["add-comm"]
    ));
    assert!(proves(
        "@a[]:i32 * @b[]:i32",
        "@b[]:i32 * @a[]:i32",
        &["mul-comm"]
    ));
    assert!(proves(
        "max(@a[]:i32, @b[]:i32)",
        "max(@b[]:i32, @a[]:i32)",
        &["max-comm"]
    ));
    assert!(proves(
        "min(@a[]:i32, @b[]:i32)",
        "min(@b[]:i32, @a[]:i32)",
        &["min-comm"]
    ));
    // Sub does not commute.
    assert!(!proves("@a[]:i32 - @b[]:i32", "@b[]:i32 - @a[]:i32", &[]));
}

#[test]
fn max_min_idempotence_associativity_absorption() {
    assert!(proves("max(@a[]:i32, @a[]:i32)", "@a[]:i32", &["max-self"]));
    assert!(proves("min(@a[]:i32, @a[]:i32)", "@a[]:i32", &["min-self"]));
    assert!(proves(
        "max(max(@a[]:i32, @b[]:i32), @c[]:i32)",
        "max(@a[]:i32, max(@b[]:i32, @c[]:i32))",
        &["max-assoc"]
    ));
    assert!(proves(
        "min(min(@a[]:i32, @b[]:i32), @c[]:i32)",
        "min(@a[]:i32, min(@b[]:i32, @c[]:i32))",
        &["min-assoc"]
    ));
    assert!(proves(
        "max(@a[]:i32, min(@a[]:i32, @b[]:i32))",
        "@a[]:i32",
        &["max-absorb"]
    ));
    assert!(proves(
        "min(@a[]:i32, max(@a[]:i32, @b[]:i32))",
        "@a[]:i32",
        &["min-absorb"]
    ));
    assert_eq!(
        simp("max(@n[]:i32, @n[]:i32) + min(@k[]:i32, max(@k[]:i32, 4))"),
        "@n[]:i32 + @k[]:i32"
    );
}

#[test]
fn dominance_by_intervals() {
    assert!(proves("max(@g[0]:ui8, -1)", "@g[0]:ui8", &["max-dominant"]));
    assert!(proves(
        "min(@g[0]:ui8, 255)",
        "@g[0]:ui8",
        &["min-dominant"]
    ));
    // An i8 may be below 0.
    assert!(!proves("max(@f[0]:i8, 0)", "@f[0]:i8", &[]));
    assert!(!proves("min(@g[0]:ui8, 200)", "@g[0]:ui8", &[]));
    // Literal results: the interval of a node that is one value folds.
    assert_eq!(simp("@f[0]:i8 - 200"), "0");
    assert_eq!(simp("max(@g[0]:ui8, 300)"), "300");
}

#[test]
fn associativity_only_without_saturation() {
    assert!(proves("(@n[]:i32 + 2) + 3", "@n[]:i32 + 5", &["add-assoc"]));
    assert!(proves("(@n[]:i32 * 2) * 3", "@n[]:i32 * 6", &["mul-assoc"]));
    // One sign: both sides saturate to the same bound.
    assert!(proves(
        "(@m[]:ui16 + 9223372036854775807) + 1",
        "@m[]:ui16 + 9223372036854775807",
        &["add-assoc"]
    ));
    // (MAX + 1) + -1 = MAX - 1 but MAX + (1 + -1) = MAX.
    assert!(!proves("(@w[]:i64 + 1) + -1", "@w[]:i64", &[]));
    // (MAX * 2) * -1 = -MAX but MAX * -2 = MIN.
    assert!(!proves("(@w[]:i64 * 2) * -1", "@w[]:i64 * -2", &[]));
    assert_eq!(simp("(2 + @x[]:i32) + 3"), "@x[]:i32 + 5");
    assert_eq!(simp("(@w[]:i64 + 1) + -1"), "@w[]:i64 + 1 + -1");
}

#[test]
fn monotone_operations_factor_out_of_max_and_min() {
    assert!(proves(
        "max(@n[]:i32 + @a[]:i32, @n[]:i32 + @b[]:i32)",
        "@n[]:i32 + max(@a[]:i32, @b[]:i32)",
        &["max-add-factor"]
    ));
    assert!(proves(
        "min(@n[]:i32 + @a[]:i32, @n[]:i32 + @b[]:i32)",
        "@n[]:i32 + min(@a[]:i32, @b[]:i32)",
        &["min-add-factor"]
    ));
    assert!(proves(
        "max(@a[]:i32 - @n[]:i32, @b[]:i32 - @n[]:i32)",
        "max(@a[]:i32, @b[]:i32) - @n[]:i32",
        &["max-sub-factor"]
    ));
    assert!(proves(
        "min(@a[]:i32 - @n[]:i32, @b[]:i32 - @n[]:i32)",
        "min(@a[]:i32, @b[]:i32) - @n[]:i32",
        &["min-sub-factor"]
    ));
    assert!(proves(
        "max(@m[]:ui16 * @a[]:i32, @m[]:ui16 * @b[]:i32)",
        "@m[]:ui16 * max(@a[]:i32, @b[]:i32)",
        &["max-mul-factor"]
    ));
    assert!(proves(
        "min(@m[]:ui16 * @a[]:i32, @m[]:ui16 * @b[]:i32)",
        "@m[]:ui16 * min(@a[]:i32, @b[]:i32)",
        &["min-mul-factor"]
    ));
    // A factor that may be negative turns max into min.
    assert!(!proves(
        "max(@n[]:i32 * 2, @n[]:i32 * -3)",
        "@n[]:i32 * 2",
        &[]
    ));
}

#[test]
fn distributivity_only_without_saturation() {
    assert!(proves(
        "@n[]:i32 * 2 + @n[]:i32 * 3",
        "@n[]:i32 * 5",
        &["mul-add-factor"]
    ));
    // MAX * 2 + MAX * -1 = MAX + -MAX = 0, but MAX * 1 = MAX.
    assert!(!proves("@w[]:i64 * 2 + @w[]:i64 * -1", "@w[]:i64", &[]));
    assert_eq!(
        simp("3 * max(@s[v0 + 1]:i32 - @s[v0]:i32 for v0 in range(0, 3)) + 2 * max(@s[v0 + 1]:i32 - @s[v0]:i32 for v0 in range(0, 3))"),
        "max(@s[v0 + 1]:i32 - @s[v0]:i32 for v0 in range(0, 3)) * 5"
    );
}

#[test]
fn cancellation_respects_saturation() {
    // (a - b) + b is max(a, b), never a.
    assert!(proves(
        "(@n[]:i32 - @k[]:i32) + @k[]:i32",
        "max(@n[]:i32, @k[]:i32)",
        &["sub-add-cancel"]
    ));
    assert!(!proves("(@n[]:i32 - @k[]:i32) + @k[]:i32", "@n[]:i32", &[]));
    assert!(proves(
        "(@n[]:i32 + @k[]:i32) - @k[]:i32",
        "max(@n[]:i32, 0)",
        &["add-sub-cancel"]
    ));
    // With i64 operands a - b may saturate: (MAX - -1) + -1 = MAX - 1, not MAX.
    assert!(!proves(
        "(@w[]:i64 - @u[]:i64) + @u[]:i64",
        "max(@w[]:i64, @u[]:i64)",
        &[]
    ));
    assert!(!proves(
        "(@w[]:i64 + @u[]:i64) - @u[]:i64",
        "max(@w[]:i64, 0)",
        &[]
    ));
    assert_eq!(
        simp("(@a[]:i32 - @b[]:i32) + @b[]:i32"),
        "max(@a[]:i32, @b[]:i32)"
    );
}

#[test]
fn emptiness_guards_and_negative_offsets() {
    assert!(proves(
        "min(arg0.shape[0], 1) * arg0.shape[0]",
        "arg0.shape[0]",
        &["guard-self"]
    ));
    // For n = -2: min(-2, 1) * -2 = 4.
    assert!(!proves("min(@n[]:i32, 1) * @n[]:i32", "@n[]:i32", &[]));
    assert!(proves(
        "min(@n[]:i32 - 0, 1) * (@n[]:i32 - 1)",
        "@n[]:i32 - 1",
        &["guard-sub"]
    ));
    // For n = 2: min(0, 1) * 1 = 0, not 1.
    assert!(!proves(
        "min(@n[]:i32 - 2, 1) * (@n[]:i32 - 1)",
        "@n[]:i32 - 1",
        &[]
    ));
    assert!(proves(
        "max(@n[]:i32 + -3, 0)",
        "@n[]:i32 - 3",
        &["max-add-neg"]
    ));
    assert!(proves(
        "max(@w[]:i64 + -3, 0)",
        "@w[]:i64 - 3",
        &["max-add-neg"]
    ));
    assert!(!proves(
        "max(@n[]:i32 + 3, 0)",
        "@n[]:i32 - -3",
        &["max-add-neg"]
    ));
}

#[test]
fn every_rule_has_a_unique_name() {
    let names = crate::simplify::rule_names();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
    assert_eq!(names.len(), 43);
}
