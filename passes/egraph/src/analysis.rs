//! The e-class analysis: what every e-class is known to satisfy, under every evaluation
//! environment in which each bound variable lies in its *hull* (the union of the ranges of the
//! input's binders of that variable, as `SizeExpr::intervals` computes them; every occurrence
//! of a variable is under a binder, so every value it takes is in its hull).
//!
//! - `iv`: an interval holding the value (intersected on merge: each node's is sound). A class
//!   whose interval is one value gets that literal and loses its other nodes (constant folding).
//! - `free`: the variables the value may depend on (intersected on merge: equal functions).
//! - `inc` / `dec`: the variables in which the value is provably non-decreasing /
//!   non-increasing (united on merge: a fact one node proves holds for the class). A variable
//!   the value does not depend on is in both.
//! - `size`: the smallest tree size of a term of the class, to pick representatives.

use crate::lang::Sz;
use egg::{Analysis, DidMerge, EGraph, Id, Language};
use qd_adstack::size_expr::interval::SHAPE_INTERVAL;
use qd_adstack::size_expr::{BinOp, CmpPred, IntTy, Interval, Node, SizeExpr, MAX_BOUND_VARS};

/// Every variable.
pub const ALL: u64 = u64::MAX;

pub fn var_bit(v: u32) -> u64 {
    if v < MAX_BOUND_VARS {
        1u64 << v
    } else {
        0
    }
}

/// The facts of one e-class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    pub iv: Interval,
    pub free: u64,
    pub inc: u64,
    pub dec: u64,
    pub size: u64,
}

impl Data {
    fn leaf(iv: Interval) -> Data {
        Data {
            iv,
            free: 0,
            inc: ALL,
            dec: ALL,
            size: 1,
        }
    }

    /// Whether the value does not depend on `v`.
    pub fn is_free_of(&self, v: u32) -> bool {
        self.free & var_bit(v) == 0
    }

    fn normalized(mut self) -> Data {
        self.inc |= !self.free;
        self.dec |= !self.free;
        self
    }
}

/// The analysis: the hull of every bound variable, and the e-node budget of the run (rules
/// stop applying past it, see `simplify::Capped`).
#[derive(Clone, Debug)]
pub struct SizeAnalysis {
    vars: Vec<Interval>,
    /// Rules apply only while the e-graph has fewer e-nodes than this.
    pub node_limit: usize,
    /// Whether a rule application was skipped for the budget.
    pub capped: bool,
}

impl SizeAnalysis {
    /// The hulls of `e`'s variables (a variable `e` never uses may hold anything), with no
    /// e-node budget.
    pub fn new(e: &SizeExpr) -> SizeAnalysis {
        let mut vars = vec![Interval::FULL; MAX_BOUND_VARS as usize];
        for (n, iv) in e.nodes().iter().zip(e.intervals()) {
            if let Node::BoundVar(v) = n {
                if let Some(slot) = vars.get_mut(*v as usize) {
                    *slot = iv;
                }
            }
        }
        SizeAnalysis {
            vars,
            node_limit: usize::MAX,
            capped: false,
        }
    }

    pub fn var_interval(&self, v: u32) -> Interval {
        self.vars.get(v as usize).copied().unwrap_or(Interval::FULL)
    }
}

/// The interval of `max(body for v in range(b, e))`: 0 when surely empty, at least the body's
/// least value when surely non-empty, never below 0.
pub fn range_interval(b: Interval, e: Interval, body: Interval) -> Interval {
    if e.hi <= b.lo {
        return Interval::point(0);
    }
    let hi = body.hi.max(0);
    if e.lo > b.hi {
        Interval::new(body.lo.max(0), hi)
    } else {
        Interval::new(0, hi)
    }
}

/// Monotonicity of `a op b` in each variable, from the operands' facts.
fn binary_monotone(op: BinOp, a: &Data, b: &Data) -> (u64, u64) {
    match op {
        BinOp::Add | BinOp::Max | BinOp::Min => (a.inc & b.inc, a.dec & b.dec),
        // max(a - b, 0) grows with a and shrinks with b.
        BinOp::Sub => (a.inc & b.dec, a.dec & b.inc),
        // Rounding up by a positive literal keeps the dividend's order.
        BinOp::Div if b.free == 0 && b.iv.lo > 0 => (a.inc, a.dec),
        BinOp::Div => (0, 0),
        BinOp::Mul => {
            let (mut inc, mut dec) = (0, 0);
            if a.iv.lo >= 0 && b.iv.lo >= 0 {
                inc |= a.inc & b.inc;
                dec |= a.dec & b.dec;
            }
            // A factor constant in v with a known sign scales the other one monotonically.
            for (x, c) in [(a, b), (b, a)] {
                let fixed = !c.free;
                if c.iv.lo >= 0 {
                    inc |= x.inc & fixed;
                    dec |= x.dec & fixed;
                }
                if c.iv.hi <= 0 {
                    inc |= x.dec & fixed;
                    dec |= x.inc & fixed;
                }
            }
            (inc, dec)
        }
    }
}

fn read_interval(ty: u32) -> Interval {
    let (lo, hi) = IntTy::from_code(ty).map_or((i64::MIN, i64::MAX), IntTy::range);
    Interval::new(lo, hi)
}

impl Analysis<Sz> for SizeAnalysis {
    type Data = Data;

    fn make(egraph: &mut EGraph<Sz, Self>, enode: &Sz, _id: Id) -> Data {
        let d = |id: Id| egraph[id].data.clone();
        let size = enode
            .children()
            .iter()
            .fold(1u64, |acc, &c| acc.saturating_add(egraph[c].data.size));
        let data = match enode {
            Sz::Num(c) => Data::leaf(Interval::point(*c)),
            Sz::Shape { .. } => Data::leaf(SHAPE_INTERVAL),
            Sz::Arg { ty, .. } => Data::leaf(read_interval(*ty)),
            Sz::Var(v) => Data {
                iv: egraph.analysis.var_interval(*v),
                free: var_bit(*v),
                inc: ALL,
                dec: !var_bit(*v),
                size: 1,
            },
            Sz::Field { ty, idx, .. } | Sz::Read { ty, idx, .. } => {
                let free = idx.iter().fold(0, |acc, &i| acc | egraph[i].data.free);
                Data {
                    iv: read_interval(*ty),
                    free,
                    inc: 0,
                    dec: 0,
                    size,
                }
            }
            Sz::Mor {
                var,
                ops: [b, e, body],
            } => {
                let (b, e, y) = (d(*b), d(*e), d(*body));
                let bit = var_bit(*var);
                // Wider ranges and larger bodies give larger maxima.
                Data {
                    iv: range_interval(b.iv, e.iv, y.iv),
                    free: b.free | e.free | (y.free & !bit),
                    inc: y.inc & e.inc & b.dec,
                    dec: y.dec & e.dec & b.inc,
                    size,
                }
            }
            Sz::Select {
                pred,
                ops: [a, b, x, y],
            } => {
                let (a, b, x, y) = (d(*a), d(*b), d(*x), d(*y));
                let decided = CmpPred::from_code(*pred).and_then(|p| p.decide(a.iv, b.iv));
                // Monotone in a variable only where the condition does not depend on it.
                let fixed = !(a.free | b.free);
                Data {
                    iv: match decided {
                        Some(true) => x.iv,
                        Some(false) => y.iv,
                        None => x.iv.hull(y.iv),
                    },
                    free: a.free | b.free | x.free | y.free,
                    inc: x.inc & y.inc & fixed,
                    dec: x.dec & y.dec & fixed,
                    size,
                }
            }
            Sz::Sor {
                var,
                ops: [b, e, body],
            } => {
                let (b, e, y) = (d(*b), d(*e), d(*body));
                let bit = var_bit(*var);
                // Larger terms give larger sums; a wider range does too when no term is negative.
                let (inc, dec) = if y.iv.lo >= 0 {
                    (y.inc & e.inc & b.dec, y.dec & e.dec & b.inc)
                } else {
                    let fixed = !(b.free | e.free);
                    (y.inc & fixed, y.dec & fixed)
                };
                let count = Interval::binary(BinOp::Sub, e.iv, b.iv);
                Data {
                    iv: Interval::sum_of(count, y.iv),
                    free: b.free | e.free | (y.free & !bit),
                    inc,
                    dec,
                    size,
                }
            }
            _ => {
                let Some((op, a, b)) = enode.as_binary() else {
                    unreachable!("every other node is binary")
                };
                let (a, b) = (d(a), d(b));
                let (inc, dec) = binary_monotone(op, &a, &b);
                Data {
                    iv: Interval::binary(op, a.iv, b.iv),
                    free: a.free | b.free,
                    inc,
                    dec,
                    size,
                }
            }
        };
        data.normalized()
    }

    fn merge(&mut self, a: &mut Data, b: Data) -> DidMerge {
        let meet = Interval::new(a.iv.lo.max(b.iv.lo), a.iv.hi.min(b.iv.hi));
        // Equal values have overlapping intervals; an empty meet would mean an unsound rule.
        debug_assert!(
            meet.lo <= meet.hi,
            "disjoint intervals {:?} and {:?}",
            a.iv,
            b.iv
        );
        let merged = Data {
            iv: if meet.lo <= meet.hi { meet } else { a.iv },
            free: a.free & b.free,
            inc: a.inc | b.inc,
            dec: a.dec | b.dec,
            size: a.size.min(b.size),
        }
        .normalized();
        let did = DidMerge(merged != *a, merged != b);
        *a = merged;
        did
    }

    fn modify(egraph: &mut EGraph<Sz, Self>, id: Id) {
        let iv = egraph[id].data.iv;
        if iv.lo == iv.hi {
            let c = egraph.add(Sz::Num(iv.lo));
            egraph.union(id, c);
            // Only the literal is worth keeping: it is the cheapest and reads nothing.
            egraph[id].nodes.retain(|n| matches!(n, Sz::Num(_)));
        }
    }
}
