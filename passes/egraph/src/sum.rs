//! The rules of `sum(body for v in range(b, e))` (SOR below), whose value is 0 when `e <= b`
//! and otherwise the saturating sum `body(b) + ... + body(e - 1)`, added in that order. Each is
//! an equality under that saturating semantics, with its side condition proved from the
//! classes' intervals; none evaluates anything the input would not (a term that the rewrite
//! evaluates where the input might not, because the range may be empty, must be a term that
//! cannot fail: scalar field reads only, no range; see [`crate::range::total_term`]).
//!
//! Saturation: a sum saturates once, at a partial sum, and stays near the bound only while the
//! terms keep their sign. So each rule is exact either when no partial sum, term or product can
//! leave the i64 range (an `i128` bound from the intervals: `N * |x|`, `N` the largest count
//! `hi(e) - lo(b)`), or when every operand has one sign (then both sides clamp at the same bound).
//!
//! - `sum-free-body`: a body free of `v`: `(e - b) * body`. `e - b` saturates at 0, which is
//!   exactly the empty range; otherwise it is the count (clamped at `i64::MAX`, as the
//!   evaluator's), and a saturating product equals the saturating sum of equal terms (every
//!   partial sum moves one way). A constant body is a special case. The body must be proved
//!   evaluated by the input (a non-empty range) or be a term that cannot fail.
//! - `sum-series`: a body that is `v`: `((e - b) * (b + (e + -1))) / 2`, for `b >= 0` (every
//!   term and partial sum non-negative) and `hi(e - b) * hi(b + e - 1) <= i64::MAX` (nothing
//!   saturates: the product is the exact, even, `n * (b + e - 1)`, and `/ 2` is exact). Over an
//!   empty range the first factor is 0. Past that bound the closed form could be larger than the
//!   saturating sum (`i64::MAX` against a sum just below it): not an equality, so not a rule.
//! - `sum-reflect`: a body `c - v`, `c` free of `v`: its terms are `max(c - v, 0)`, positive
//!   for `v < c`, so the sum is that of `w = c - v` over `w` in `[(c - e) + 1, (c - b) + 1)`
//!   (the saturating `-` clips both bounds at 0: terms at or below 0 drop out, and an empty
//!   range stays empty), in `sum-series`'s closed form, under its condition for the new bounds,
//!   when `c - v`, `c - e`, `c - b` and the `+ 1`s cannot saturate. No sum over the new range
//!   is built: the analysis' interval of `v` holds for the input's ranges only.
//! - `sum-split-add`: `SOR(x + y) = SOR(x) + SOR(y)`, for a body that depends on `v` (a free
//!   one is `sum-free-body`'s), when `x` and `y` have one sign or `N * (|x| + |y|)` fits.
//! - `sum-hoist-factor`: `SOR(c * x) = c * SOR(x)` for `c` free of `v`, when `c >= 0` and `x`
//!   has one sign, or `N * |c| * |x|` fits; `c` is evaluated even over an empty range, so it
//!   must be proved evaluated (a non-empty range) or cannot fail.
//!
//! Together they give the closed forms of a linear body: `SOR(a * v + c)` splits into
//! `SOR(a * v) + SOR(c)`, `a` leaves the first, the series closes it, and the second is
//! `(e - b) * c`.

use crate::analysis::SizeAnalysis;
use crate::lang::Sz;
use crate::range::{nodes_of, total_term, NodeRule, RangeRewrite};
use crate::rules::Rw;
use egg::{EGraph, Id, Rewrite};
use qd_adstack::size_expr::Interval;

type G = EGraph<Sz, SizeAnalysis>;

const MAX: i128 = i64::MAX as i128;

/// Which sum rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    FreeBody,
    Series,
    Reflect,
    SplitAdd,
    HoistFactor,
}

/// The largest value of `|x|` over an interval (as i128: `|i64::MIN|` fits).
fn mag(i: Interval) -> i128 {
    (i.lo as i128).abs().max((i.hi as i128).abs())
}

fn one_sign(ivs: &[Interval]) -> bool {
    ivs.iter().all(|i| i.lo >= 0) || ivs.iter().all(|i| i.hi <= 0)
}

/// `SOR(x + y) = SOR(x) + SOR(y)` over at most `n` terms: one sign, or nothing saturates.
fn split_exact(n: i128, x: Interval, y: Interval) -> bool {
    one_sign(&[x, y]) || n.saturating_mul(mag(x) + mag(y)) <= MAX
}

/// `SOR(c * x) = c * SOR(x)` over at most `n` terms: `c >= 0` and `x` of one sign (both sides
/// clamp at the same bound, and `c = 0` gives 0 on both), or nothing saturates.
fn hoist_exact(n: i128, c: Interval, x: Interval) -> bool {
    (c.lo >= 0 && one_sign(&[x])) || n.saturating_mul(mag(c)).saturating_mul(mag(x)) <= MAX
}

/// `SOR(v) = ((e - b) * (b + (e + -1))) / 2`: `b >= 0` and the product cannot saturate.
fn series_exact(b: Interval, e: Interval) -> bool {
    let n = (e.hi as i128 - b.lo as i128).max(0);
    let s = b.hi as i128 + e.hi as i128 - 1;
    b.lo >= 0 && s <= MAX && n.saturating_mul(s.max(0)) <= MAX
}

/// `((e - b) * (b + (e + -1))) / 2`: the sum of `v` over `[b, e)` where [`series_exact`] holds.
fn series(g: &mut G, b: Id, e: Id) -> Id {
    let n = g.add(Sz::Sub([e, b]));
    let m1 = g.add(Sz::Num(-1));
    let last = g.add(Sz::Add([e, m1]));
    let ends = g.add(Sz::Add([b, last]));
    let twice = g.add(Sz::Mul([n, ends]));
    let two = g.add(Sz::Num(2));
    g.add(Sz::Div([twice, two]))
}

/// A rule over SOR nodes.
#[derive(Copy, Clone)]
struct SumRule(Kind);

impl RangeRewrite for SumRule {
    fn range_of(n: &Sz) -> Option<(u32, [Id; 3])> {
        match n {
            Sz::Sor { var, ops } => Some((*var, *ops)),
            _ => None,
        }
    }

    /// The terms equal to `SOR(var, ops)` this rule finds.
    fn rewrite(&self, g: &mut G, class: Id, var: u32, [b, e, y]: [Id; 3]) -> Vec<Id> {
        let (ib, ie) = (g[b].data.iv, g[e].data.iv);
        let non_empty = ie.lo > ib.hi;
        let count = (ie.hi as i128 - ib.lo as i128).max(0);
        let allowed = g[class].data.free;
        let free_body = g[y].data.is_free_of(var);
        // A term the rewrite evaluates even over an empty range: itself when the input surely
        // evaluates it, else a form of it that cannot fail.
        let evaluated = |g: &mut G, t: Id| {
            if non_empty {
                Some(t)
            } else {
                total_term(g, t, var, b, allowed)
            }
        };
        let sor = |g: &mut G, body: Id| {
            g.add(Sz::Sor {
                var,
                ops: [b, e, body],
            })
        };
        match self.0 {
            Kind::FreeBody if free_body => {
                let Some(body) = evaluated(g, y) else {
                    return vec![];
                };
                let n = g.add(Sz::Sub([e, b]));
                vec![g.add(Sz::Mul([n, body]))]
            }
            Kind::Series if g[y].nodes.contains(&Sz::Var(var)) && series_exact(ib, ie) => {
                vec![series(g, b, e)]
            }
            Kind::Reflect => {
                let subs = nodes_of(g, y, |n| match n {
                    Sz::Sub(c) => Some(*c),
                    _ => None,
                });
                let mut out = Vec::new();
                for [c, x] in subs {
                    let (dc, dx) = (&g[c].data, &g[x].data);
                    if !dc.is_free_of(var) || !g[x].nodes.contains(&Sz::Var(var)) {
                        continue;
                    }
                    // c - v, c - e and c - b, and both new bounds, exact.
                    let ic = dc.iv;
                    let exact = [dx.iv, ie, ib].iter().all(|&i| {
                        let (lo, hi) = (ic.lo as i128 - i.hi as i128, ic.hi as i128 - i.lo as i128);
                        lo >= i64::MIN as i128 && hi < MAX
                    });
                    if !exact {
                        continue;
                    }
                    let Some(c) = evaluated(g, c) else {
                        continue;
                    };
                    let one = g.add(Sz::Num(1));
                    let ce = g.add(Sz::Sub([c, e]));
                    let cb = g.add(Sz::Sub([c, b]));
                    let lo = g.add(Sz::Add([ce, one]));
                    let hi = g.add(Sz::Add([cb, one]));
                    if series_exact(g[lo].data.iv, g[hi].data.iv) {
                        out.push(series(g, lo, hi));
                    }
                }
                out
            }
            Kind::SplitAdd if !free_body => {
                let adds: Vec<[Id; 2]> = nodes_of(g, y, |n| match n {
                    Sz::Add(c) => Some(*c),
                    _ => None,
                })
                .into_iter()
                .filter(|&[p, q]| split_exact(count, g[p].data.iv, g[q].data.iv))
                .collect();
                adds.into_iter()
                    .map(|[p, q]| {
                        let (sp, sq) = (sor(g, p), sor(g, q));
                        g.add(Sz::Add([sp, sq]))
                    })
                    .collect()
            }
            Kind::HoistFactor if !free_body => {
                let mut out = Vec::new();
                for [p, q] in nodes_of(g, y, |n| match n {
                    Sz::Mul(c) => Some(*c),
                    _ => None,
                }) {
                    for (c, x) in [(p, q), (q, p)] {
                        let (dc, dx) = (&g[c].data, &g[x].data);
                        if !dc.is_free_of(var) || !hoist_exact(count, dc.iv, dx.iv) {
                            continue;
                        }
                        let Some(c) = evaluated(g, c) else {
                            continue;
                        };
                        let s = sor(g, x);
                        out.push(g.add(Sz::Mul([c, s])));
                    }
                }
                out
            }
            _ => vec![],
        }
    }
}

/// The sum rules.
pub fn sum_rules() -> Vec<Rw> {
    [
        ("sum-free-body", Kind::FreeBody),
        ("sum-series", Kind::Series),
        ("sum-reflect", Kind::Reflect),
        ("sum-split-add", Kind::SplitAdd),
        ("sum-hoist-factor", Kind::HoistFactor),
    ]
    .into_iter()
    .map(|(name, k)| {
        Rewrite::new(name, NodeRule(SumRule(k)), NodeRule(SumRule(k))).expect("a well-formed rule")
    })
    .collect()
}
