//! The dependence test of the access rule (`access_rule`): whether two accesses of one field or
//! ndarray may reach the same element, given how the loop variables of the two dynamic accesses
//! relate.
//!
//! An index is read as an affine form `c + sum(a_k * v_k)` over integer constants, where each
//! `v_k` is an induction variable of a loop (`Var::Iv`) or any other value (`Var::Sym`: a load, a
//! kernel argument, a product of two variables, ...). Forms are built through `arith.constant`,
//! `addi`, `subi`, `muli` by a constant, and the sign-preserving casts `extsi` / `index_cast`;
//! integer overflow is not modelled (an index that wraps is out of bounds anyway).
//!
//! The caller says how each variable of the first access (the write) relates to the same variable
//! of the second (the read), see [`Rel`]; the two accesses meet when every index dimension is
//! equal. The test is sound (it answers "may meet" whenever they can): loop bounds are ignored,
//! a dimension with unconstrained variables meets unless the GCD test rules it out, and a
//! dimension whose only unknown is one loop's iteration distance fixes that distance, which must
//! agree with the relation and with the other dimensions. So `x[i+1]` and `x[i]` meet only when
//! the write runs one iteration earlier than the read, `x[k, i]` of two threads `k` never, and
//! `x[j]` with a loaded `j` always.

use qd_arith::names::{ADDI, EXTSI, INDEX_CAST, MULI, SUBI};
use qd_arith::ConstantOp;
use qd_frontend::{RANGE_FOR_OP, STRUCT_FOR_OP};
use qd_ir::{Context, Value, ValueDef};
use std::collections::BTreeMap;

/// A variable of an affine index form.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(crate) enum Var {
    /// The induction variable of a `range_for` or `struct_for` (a body block argument).
    Iv(Value),
    /// Any other value, opaque.
    Sym(Value),
}

/// `konst + sum(coeff * var)`, without zero coefficients.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct Affine {
    pub terms: BTreeMap<Var, i64>,
    pub konst: i64,
}

/// How deep `Affine::of` follows operands before it calls a value opaque.
const MAX_DEPTH: u32 = 32;

impl Affine {
    /// The affine form of integer value `v`.
    pub(crate) fn of(ctx: &Context, v: Value) -> Affine {
        Self::build(ctx, v, MAX_DEPTH)
    }

    fn var(x: Var) -> Affine {
        let mut a = Affine::default();
        a.terms.insert(x, 1);
        a
    }

    fn build(ctx: &Context, v: Value, depth: u32) -> Affine {
        let op = match ctx.value_def(v) {
            ValueDef::BlockArg { block, .. } => {
                let iv = ctx
                    .block_parent_op(block)
                    .is_some_and(|p| matches!(ctx.name(p), RANGE_FOR_OP | STRUCT_FOR_OP));
                return Affine::var(if iv { Var::Iv(v) } else { Var::Sym(v) });
            }
            ValueDef::OpResult { op, .. } => op,
        };
        if let Some(c) = ConstantOp::new(ctx, op).and_then(|c| c.int_value(ctx)) {
            return Affine {
                terms: BTreeMap::new(),
                konst: c,
            };
        }
        if depth == 0 {
            return Affine::var(Var::Sym(v));
        }
        let operand = |i: usize| Self::build(ctx, ctx.operand(op, i), depth - 1);
        match ctx.name(op) {
            ADDI => operand(0).combine(&operand(1), 1),
            SUBI => operand(0).combine(&operand(1), -1),
            MULI => {
                let (a, b) = (operand(0), operand(1));
                if a.terms.is_empty() {
                    b.scaled(a.konst)
                } else if b.terms.is_empty() {
                    a.scaled(b.konst)
                } else {
                    Affine::var(Var::Sym(v))
                }
            }
            EXTSI | INDEX_CAST => operand(0),
            _ => Affine::var(Var::Sym(v)),
        }
    }

    /// `self + k * other`.
    fn combine(mut self, other: &Affine, k: i64) -> Affine {
        self.konst = self.konst.wrapping_add(other.konst.wrapping_mul(k));
        for (&x, &c) in &other.terms {
            let e = self.terms.entry(x).or_insert(0);
            *e = e.wrapping_add(c.wrapping_mul(k));
            if *e == 0 {
                self.terms.remove(&x);
            }
        }
        self
    }

    fn scaled(self, k: i64) -> Affine {
        Affine::default().combine(&self, k)
    }
}

/// How a variable's value at the write relates to its value at the read.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Rel {
    /// The same value (the same iteration of its loop, the same thread, the same definition).
    Same,
    /// Greater by at least one: the write runs in a later iteration of the variable's loop.
    Later,
    /// A different value: another thread's induction variable.
    Differs,
    /// Unrelated.
    Free,
}

/// An unknown of the equations: a variable's value at the read (`Base`), the write's distance
/// from it (`Dist`, for `Later`/`Differs`), or the write's own value (`Own`, for `Free`).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Unknown {
    Base(Var),
    Dist(Var),
    Own(Var),
}

/// Whether index tuples `w` (the write's) and `r` (the read's) may be equal, with the variables
/// related by `rel`. Tuples of different lengths never meet (the verifier makes them equal).
pub(crate) fn may_meet(
    ctx: &Context,
    w: &[Affine],
    r: &[Affine],
    rel: &dyn Fn(Var) -> Rel,
) -> bool {
    if w.len() != r.len() {
        return false;
    }
    // The distance each dimension with a lone distance unknown demands.
    let mut fixed: BTreeMap<Var, i64> = BTreeMap::new();
    for (a, b) in w.iter().zip(r) {
        // a(vars at the write) - b(vars at the read) = 0.
        let mut eq: BTreeMap<Unknown, i64> = BTreeMap::new();
        let mut add = |u: Unknown, c: i64| {
            let e = eq.entry(u).or_insert(0);
            *e = e.wrapping_add(c);
        };
        for (&x, &c) in &a.terms {
            match rel(x) {
                Rel::Same => add(Unknown::Base(x), c),
                Rel::Later | Rel::Differs => {
                    add(Unknown::Base(x), c);
                    add(Unknown::Dist(x), c);
                }
                Rel::Free => add(Unknown::Own(x), c),
            }
        }
        for (&x, &c) in &b.terms {
            add(Unknown::Base(x), c.wrapping_neg());
        }
        eq.retain(|_, c| *c != 0);
        let konst = a.konst.wrapping_sub(b.konst);
        let g = eq.values().fold(0i64, |g, &c| gcd(g, c));
        if g == 0 {
            if konst != 0 {
                return false;
            }
            continue;
        }
        if konst % g != 0 || !in_range(ctx, &eq, konst, rel) {
            return false;
        }
        if let [(Unknown::Dist(x), c)] = eq.iter().map(|(u, c)| (*u, *c)).collect::<Vec<_>>()[..] {
            let Some(d) = konst.checked_neg().and_then(|n| n.checked_div(c)) else {
                continue;
            };
            let ok = match rel(x) {
                Rel::Later => d >= 1,
                Rel::Differs => d != 0,
                Rel::Same | Rel::Free => true,
            };
            if !ok || fixed.insert(x, d).is_some_and(|e| e != d) {
                return false;
            }
        }
    }
    true
}

/// Whether `sum(c * u) = -konst` is possible with every unknown in its range (interval
/// arithmetic; a `Sym` or a loop without constant bounds is unbounded).
fn in_range(
    ctx: &Context,
    eq: &BTreeMap<Unknown, i64>,
    konst: i64,
    rel: &dyn Fn(Var) -> Rel,
) -> bool {
    // (lo, hi) of the sum; None: unbounded on that side.
    let (mut lo, mut hi) = (Some(0i128), Some(0i128));
    for (&u, &c) in eq {
        let (a, b) = match u {
            Unknown::Base(x) | Unknown::Own(x) => match iv_range(ctx, x) {
                Some((l, h)) => (Some(l), Some(h)),
                None => (None, None),
            },
            Unknown::Dist(x) => {
                let span = iv_range(ctx, x).map(|(l, h)| h - l);
                match rel(x) {
                    Rel::Later => (Some(1), span),
                    _ => (span.map(|s| -s), span),
                }
            }
        };
        let c = c as i128;
        let (a, b) = if c >= 0 { (a, b) } else { (b, a) };
        lo = lo.zip(a).map(|(s, v)| s + c * v);
        hi = hi.zip(b).map(|(s, v)| s + c * v);
    }
    let target = -(konst as i128);
    lo.is_none_or(|l| l <= target) && hi.is_none_or(|h| target <= h)
}

/// The values a `range_for`'s induction variable takes, `[lower, upper - 1]`, when both bounds
/// are constants and the loop runs at least once.
pub(crate) fn iv_range(ctx: &Context, x: Var) -> Option<(i128, i128)> {
    let Var::Iv(v) = x else { return None };
    let ValueDef::BlockArg { block, .. } = ctx.value_def(v) else {
        return None;
    };
    let l = ctx.block_parent_op(block)?;
    if ctx.name(l) != RANGE_FOR_OP {
        return None;
    }
    let bound = |i: usize| {
        let a = Affine::of(ctx, ctx.operand(l, i));
        a.terms.is_empty().then_some(a.konst as i128)
    };
    let (lo, hi) = (bound(0)?, bound(1)? - 1);
    (lo <= hi).then_some((lo, hi))
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.min(i64::MAX as u64) as i64
}
