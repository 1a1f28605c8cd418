//! The sub-of-range fusion (maxima and sums): only over what a range over the same loop has (same
//! variable, same begin, an end no later than the subtrahend's), only where a larger value is a
//! larger bound; never for independent loops (DESIGN's counter-example).

use super::env::{Array, Env};
use super::{exact, p, simp};
use crate::fuse::fuse;
use crate::simplify::{simplify, Limits};

const A: &str = "max(arg0[v0]:i32 for v0 in range(0, 4))";
const B: &str = "max(arg1[v0]:i32 for v0 in range(0, 4))";

fn fused(s: &str) -> usize {
    simplify(&p(s), Limits::default()).fused
}

#[test]
fn ranges_over_one_loop_fuse() {
    let s = format!("{A} - {B}");
    assert_eq!(
        simp(&s),
        "max(arg0[v0]:i32 - arg1[v0]:i32 for v0 in range(0, 4))"
    );
    assert_eq!(fused(&s), 1);
    // Without the fusion the e-graph keeps both ranges (the rule is not an equality).
    assert_eq!(exact(&s), s);
    // max a - max b <= max(a - b): a = [10, 0, 0, 0], b = [0, 10, 0, 0] gives 0 <= 10.
    let env = Env::default()
        .array(0, Array::new(&[4], &[10, 0, 0, 0]))
        .array(1, Array::new(&[4], &[0, 10, 0, 0]));
    assert_eq!(p(&s).eval(&env), Ok(0));
    assert_eq!(p(&simp(&s)).eval(&env), Ok(10));
}

#[test]
fn a_shorter_minuend_range_fuses_over_its_own_range() {
    // min(2, 4) = 2 is the minuend's end: every index the fused body reads, both sides read.
    let s = "max(arg0[v0]:i32 for v0 in range(0, 2)) - max(arg1[v0]:i32 for v0 in range(0, 4))";
    assert_eq!(
        simp(s),
        "max(arg0[v0]:i32 - arg1[v0]:i32 for v0 in range(0, 2))"
    );
}

#[test]
fn independent_loops_over_different_ndarrays_never_fuse() {
    // DESIGN's counter-example: a = [0, 0, 0, 100], b = [1, 1]. The max of a minus the max of b
    // is 99; fusing over min(4, 2) would give max(a[v] - b[v] for v < 2) = 0.
    let env = Env::default()
        .array(0, Array::new(&[4], &[0, 0, 0, 100]))
        .array(1, Array::new(&[2], &[1, 1]));
    for s in [
        "max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0])) - max(arg1[v0]:i32 for v0 in range(0, arg1.shape[0]))",
        "max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 2))",
    ] {
        assert_eq!(simp(s), s);
        assert_eq!(fused(s), 0);
        assert_eq!(p(s).eval(&env), Ok(99));
        assert_eq!(p(&simp(s)).eval(&env), Ok(99));
    }
}

#[test]
fn other_variables_or_begins_do_not_fuse() {
    for s in [
        "max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v1]:i32 for v1 in range(0, 4))",
        "max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(1, 4))",
    ] {
        assert_eq!(simp(s), s);
        assert_eq!(fused(s), 0);
    }
}

#[test]
fn fusion_applies_only_where_larger_is_a_larger_bound() {
    let d = format!("({A} - {B})");
    let f = "max(arg0[v0]:i32 - arg1[v0]:i32 for v0 in range(0, 4))";
    // Positive: a sum, a max, a product by a non-negative factor, a range's body.
    assert_eq!(simp(&format!("1 + {d}")), format!("1 + {f}"));
    assert_eq!(simp(&format!("2 * {d}")), format!("2 * {f}"));
    // Negative or unknown: a subtrahend, a factor that may be negative, an index.
    for s in [
        format!("10 - {d}"),
        format!("@n[]:i32 * {d}"),
        format!("@f[{d}]:i32"),
        format!("max(v1 for v1 in range({d}, 9))"),
    ] {
        assert_eq!(fused(&s), 0, "{s}");
    }
    let (e, n) = fuse(&p(&format!("10 - {d}")));
    assert_eq!((e.to_string(), n), (format!("10 - {d}"), 0));
}

#[test]
fn ragged_segments_never_collapse_to_zero() {
    // starts[i + 1] - starts[i] under one max over i: the longest segment (upstream once fused
    // two opaque maxima into starts[v] - starts[v] = 0).
    let env = Env::default().field("starts", Array::new(&[4], &[0, 2, 3, 6]));
    let s = "max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3))";
    assert_eq!(simp(s), s);
    assert_eq!(p(s).eval(&env), Ok(3));
    // Two maxima over the same loop fuse into that form, never into 0.
    let two = "max(@starts[v0 + 1]:i32 for v0 in range(0, 3)) - max(@starts[v0]:i32 for v0 in range(0, 3))";
    assert_eq!(simp(two), s);
    assert_eq!(p(two).eval(&env), Ok(3));
    assert_eq!(p(&simp(two)).eval(&env), Ok(3));
    let per_thread = "3 * max(@starts[v1 + 1]:i32 - @starts[v1]:i32 for v1 in range(0, 3))";
    assert_eq!(simp(per_thread), per_thread);
}

const SA: &str = "sum(arg0[v0]:i32 for v0 in range(0, 4))";
const SB: &str = "sum(arg1[v0]:i32 for v0 in range(0, 4))";

#[test]
fn sums_over_one_loop_fuse() {
    let s = format!("{SA} - {SB}");
    assert_eq!(
        simp(&s),
        "sum(arg0[v0]:i32 - arg1[v0]:i32 for v0 in range(0, 4))"
    );
    assert_eq!(fused(&s), 1);
    assert_eq!(exact(&s), s);
    // sum a - sum b <= sum max(a - b, 0): 10 - 10 = 0 against 10.
    let env = Env::default()
        .array(0, Array::new(&[4], &[10, 0, 0, 0]))
        .array(1, Array::new(&[4], &[0, 10, 0, 0]));
    assert_eq!(p(&s).eval(&env), Ok(0));
    assert_eq!(p(&simp(&s)).eval(&env), Ok(10));
    // In a sum's body (a positive position) and in a dividend too.
    let inner = format!("sum({SA} - {SB} for v1 in range(0, 3))");
    assert_eq!(fused(&inner), 1, "{}", simp(&inner));
    assert_eq!(fused(&format!("({SA} - {SB}) / 2")), 1);
    // Not in a sum's bound, nor across a max and a sum.
    assert_eq!(
        fused(&format!("sum(v1 for v1 in range(0, {SA} - {SB}))")),
        0
    );
    let mixed = format!("{A} - {SB}");
    assert_eq!(fused(&mixed), 0);
}

#[test]
fn a_shorter_minuend_sum_fuses_only_over_a_non_negative_subtrahend() {
    // b >= 0: the longer subtrahend is at least its prefix.
    let s = "sum(arg0[v0]:i32 for v0 in range(0, 2)) - sum(arg1[v0]:ui8 for v0 in range(0, 4))";
    assert_eq!(
        simp(s),
        "sum(arg0[v0]:i32 - arg1[v0]:ui8 for v0 in range(0, 2))"
    );
    // b may be negative: its tail can make the longer sum smaller than its prefix. With
    // a = [0, 0], b = [0, 0, -5, -5] the input is 0 - (-10) = 10; a fused form would give 0.
    let s = "sum(arg0[v0]:i32 for v0 in range(0, 2)) - sum(arg1[v0]:i32 for v0 in range(0, 4))";
    assert_eq!(fused(s), 0);
    let env = Env::default()
        .array(0, Array::new(&[4], &[0, 0, 0, 0]))
        .array(1, Array::new(&[4], &[0, 0, -5, -5]));
    assert_eq!(p(s).eval(&env), Ok(10));
    assert_eq!(p(&simp(s)).eval(&env), Ok(10));
}
