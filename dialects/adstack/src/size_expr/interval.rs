//! Intervals: for every node, a range `[lo, hi]` that holds its value under any evaluation
//! environment, with the evaluator's saturating semantics.
//!
//! Leaves: a literal is a point; a field or ndarray read, or a scalar argument, holds its
//! type's range; a shape
//! is in `[0, i32::MAX]` (indices are i32). A bound variable holds the hull, over the
//! `MaxOverRange`s that bind it, of `[lo(begin), hi(end) - 1]`; since no variable is bound again
//! inside its own scope, these ranges do not depend on themselves and a few rounds from "any
//! value" settle them. A sum over a range is its count times the body's interval. `Sub` is `[max(lo_a - hi_b, 0), max(hi_a - lo_b, 0)]`: the subtrahend's
//! *lower* bound gives the upper bound, which is what keeps the sizing sound.

use super::expr::{SizeExpr, MAX_BOUND_VARS};
use super::node::{BinOp, Node};

/// A closed range of i64 values.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Interval {
    pub lo: i64,
    pub hi: i64,
}

impl Interval {
    pub const FULL: Interval = Interval {
        lo: i64::MIN,
        hi: i64::MAX,
    };

    pub fn new(lo: i64, hi: i64) -> Interval {
        Interval { lo, hi }
    }

    pub fn point(c: i64) -> Interval {
        Interval { lo: c, hi: c }
    }

    pub fn hull(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    pub fn contains(self, v: i64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// Whether every value is at least 0.
    pub fn is_non_negative(self) -> bool {
        self.lo >= 0
    }

    /// The interval of `a op b` for `a` in `self` and `b` in `o` (all operators are monotone in
    /// each operand except `Mul`, whose extremes are among the corner products).
    pub fn binary(op: BinOp, a: Interval, b: Interval) -> Interval {
        match op {
            BinOp::Add | BinOp::Max | BinOp::Min => {
                Interval::new(op.apply(a.lo, b.lo), op.apply(a.hi, b.hi))
            }
            BinOp::Sub => Interval::new(op.apply(a.lo, b.hi), op.apply(a.hi, b.lo)),
            BinOp::Mul => {
                let c = [
                    a.lo.saturating_mul(b.lo),
                    a.lo.saturating_mul(b.hi),
                    a.hi.saturating_mul(b.lo),
                    a.hi.saturating_mul(b.hi),
                ];
                Interval::new(
                    *c.iter().min().expect("four corners"),
                    *c.iter().max().expect("four corners"),
                )
            }
            // Rounding up is monotone in the dividend, and in the (positive) divisor for a
            // dividend of one sign: the extremes are among the corners.
            BinOp::Div if b.lo > 0 => {
                let c = [(a.lo, b.lo), (a.lo, b.hi), (a.hi, b.lo), (a.hi, b.hi)]
                    .map(|(x, y)| op.apply(x, y));
                Interval::new(
                    *c.iter().min().expect("four corners"),
                    *c.iter().max().expect("four corners"),
                )
            }
            BinOp::Div => Interval::FULL,
        }
    }

    /// The interval of a sum of `n` values of `body`, `n` in `count` (non-negative).
    pub fn sum_of(count: Interval, body: Interval) -> Interval {
        let (nlo, nhi) = (count.lo.max(0), count.hi.max(0));
        let lo = if body.lo >= 0 {
            nlo.saturating_mul(body.lo)
        } else {
            nhi.saturating_mul(body.lo)
        };
        let hi = if body.hi >= 0 {
            nhi.saturating_mul(body.hi)
        } else {
            nlo.saturating_mul(body.hi)
        };
        Interval::new(lo, hi)
    }
}

/// The values a shape can take.
pub const SHAPE_INTERVAL: Interval = Interval {
    lo: 0,
    hi: i32::MAX as i64,
};

impl SizeExpr {
    /// The interval of every node (indexed as [`SizeExpr::nodes`]). A variable with no binder
    /// (in a constructed, not yet closed expression) may hold any value.
    pub fn intervals(&self) -> Vec<Interval> {
        self.intervals_with(&|_| Interval::FULL)
    }

    /// [`SizeExpr::intervals`], where a variable that no `MaxOverRange` of the expression binds
    /// (a free one) holds `free(v)`.
    pub fn intervals_with(&self, free: &dyn Fn(u32) -> Interval) -> Vec<Interval> {
        let nodes = self.nodes();
        let unbound: [Interval; MAX_BOUND_VARS as usize] = std::array::from_fn(|v| free(v as u32));
        let mut vars = unbound;
        let binders = nodes.iter().filter(|n| n.as_range().is_some()).count();
        let mut iv = vec![Interval::FULL; nodes.len()];
        // Each round settles one more level of nesting (a range depends only on outer variables).
        for _ in 0..=binders.min(MAX_BOUND_VARS as usize) {
            for (i, n) in nodes.iter().enumerate() {
                iv[i] = node_interval(n, &iv, &vars);
            }
            let mut next: [Option<Interval>; MAX_BOUND_VARS as usize] =
                [None; MAX_BOUND_VARS as usize];
            for n in nodes {
                if let Some((var, begin, end, _)) = n.as_range() {
                    let b = iv[begin.index()];
                    let e = iv[end.index()];
                    let r = Interval::new(b.lo, e.hi.saturating_sub(1).max(b.lo));
                    if let Some(slot) = next.get_mut(var as usize) {
                        *slot = Some(slot.map_or(r, |s| s.hull(r)));
                    }
                }
            }
            let mut changed = false;
            for ((v, n), u) in vars.iter_mut().zip(next).zip(unbound) {
                let n = n.unwrap_or(u);
                changed |= *v != n;
                *v = n;
            }
            if !changed {
                break;
            }
        }
        iv
    }

    /// The interval of the root.
    pub fn interval(&self) -> Interval {
        *self.intervals().last().expect("a SizeExpr has a root")
    }

    /// The interval of the root, free variables holding `free(v)`.
    pub fn interval_with(&self, free: &dyn Fn(u32) -> Interval) -> Interval {
        *self
            .intervals_with(free)
            .last()
            .expect("a SizeExpr has a root")
    }
}

fn node_interval(n: &Node, iv: &[Interval], vars: &[Interval]) -> Interval {
    match n {
        Node::Const(c) => Interval::point(*c),
        Node::FieldLoad { ty, .. } | Node::NdarrayRead { ty, .. } | Node::ScalarArg { ty, .. } => {
            let (lo, hi) = ty.range();
            Interval::new(lo, hi)
        }
        Node::NdarrayShape { .. } => SHAPE_INTERVAL,
        Node::BoundVar(v) => vars.get(*v as usize).copied().unwrap_or(Interval::FULL),
        Node::Binary(op, a, b) => Interval::binary(*op, iv[a.index()], iv[b.index()]),
        Node::MaxOverRange {
            begin, end, body, ..
        } => {
            let body = iv[body.index()];
            let hi = body.hi.max(0);
            // Certainly non-empty: the max is over at least one value, and at least 0.
            if iv[end.index()].lo > iv[begin.index()].hi {
                Interval::new(body.lo.max(0), hi)
            } else {
                Interval::new(0, hi)
            }
        }
        Node::Select {
            pred,
            lhs,
            rhs,
            then,
            other,
        } => match pred.decide(iv[lhs.index()], iv[rhs.index()]) {
            Some(true) => iv[then.index()],
            Some(false) => iv[other.index()],
            None => iv[then.index()].hull(iv[other.index()]),
        },
        Node::SumOverRange {
            begin, end, body, ..
        } => {
            let count = Interval::binary(BinOp::Sub, iv[end.index()], iv[begin.index()]);
            Interval::sum_of(count, iv[body.index()])
        }
    }
}
