//! Phase 2: a symbolic upper bound on a stack's depth, for the stacks phase 1 leaves unbounded.
//!
//! The capture walks what follows the alloca in its block and gives every region an
//! [`Effect`]: its net change of the depth and its peak above the depth it started from.
//! - a push is `(+1, 1)`; a pop `(-1, 0)` when pops are counted (below), else nothing;
//! - a sequence adds the nets; its peak is the highest of each part's peak on top of what the
//!   parts before it left;
//! - a `qd.if`, the max of its branches (one runs);
//! - a `range_for` or `struct_for`, the sum over its iterations (`SumOverRange` over each
//!   induction variable the body depends on, else the trip count times the body): a loop whose
//!   inner trip counts depend on its index is summed, not bounded by its largest iteration;
//! - a `qd.while`, its provable trip count `t` (see [`crate::while_bound`]) times one
//!   condition-and-body iteration, plus the last condition;
//! - anything else that holds a push is outside the model.
//!
//! Pops are counted only when no path pops below what the alloca's activation pushed
//! ([`never_underflows`]: a saturating pop would otherwise lower the depth by less than one)
//! and no `break`/`continue` could skip one. Otherwise they are ignored: the depth is then at
//! most the number of pushes. Where a loop body only pushes (its peak is its end), the loop's
//! peak is the sum of its iterations, exact for branch-free counted nests; otherwise it is the
//! max over iterations `k` of the prefix sum before `k` plus `k`'s own peak.
//!
//! The induction variables of the loops around the alloca are maximised over last: every
//! activation must fit.

use crate::bellman_ford::StackGraph;
use crate::index::{Children, SizingIndex};
use crate::loops::{enclosing_loops, mark_ancestors, num_induction_vars, MAX_LOOP_VARS};
use crate::value_bound::{is_push_to, Bounder, Unbounded};
use crate::while_bound;
use qd_adstack::size_expr::{Node, SizeExpr};
use qd_adstack::POP_OP;
use qd_frontend::{IF_OP, RANGE_FOR_OP, STRUCT_FOR_OP, WHILE_OP};
use qd_ir::{Context, OpId, Value};
use std::collections::HashSet;

/// The capture's own bound variable, for the prefix sums of a loop's iterations (loop
/// variables are below [`MAX_LOOP_VARS`]). One suffices: a prefix sum's body is a net change,
/// which never binds it, and two prefix sums are never nested in each other.
const PREFIX_VAR: u32 = MAX_LOOP_VARS;

/// The bound of the stack `alloca` defines (closed: no free variable), with the index of a
/// scope that holds it and the stack's graph (phase 1 built it).
pub(crate) fn capture(
    ctx: &Context,
    alloca: OpId,
    index: &SizingIndex,
    graph: &StackGraph,
) -> Result<SizeExpr, Unbounded> {
    let Some(block) = ctx.parent_block(alloca) else {
        return Ok(SizeExpr::constant(0));
    };
    let stack = ctx.result(alloca, 0);
    let pops: Vec<OpId> = ctx
        .users(stack)
        .filter(|&u| ctx.name(u) == POP_OP && ctx.operand(u, 0) == stack)
        .collect();
    let jumps = index.block_has_jump(block);
    let count_pops = !pops.is_empty() && !jumps && graph.never_underflows();
    let mut holds = HashSet::new();
    let mut holds_push = HashSet::new();
    for u in ctx.users(stack) {
        let push = is_push_to(ctx, u, stack);
        if push || (count_pops && pops.contains(&u)) {
            mark_ancestors(ctx, u, block, &mut holds);
        }
        if push {
            mark_ancestors(ctx, u, block, &mut holds_push);
        }
    }
    let mut c = Capture {
        b: Bounder::new(ctx, index.kernel_facts(ctx, alloca)),
        stack,
        visit: index.by_block(ctx, &holds),
        holds_push,
    };
    let at = index.pos(alloca);
    let after: Vec<OpId> = c
        .visit
        .of(block)
        .iter()
        .copied()
        .filter(|&o| index.pos(o) > at)
        .collect();
    let mut e = c.count_ops(&after)?.peak;
    for l in enclosing_loops(ctx, alloca) {
        e = c.max_over_vars(l, e)?;
    }
    Ok(e)
}

/// What a region does to the stack, from the depth it starts at.
#[derive(Clone, Debug)]
struct Effect {
    /// The net change (pushes minus the pops counted), an upper bound.
    net: SizeExpr,
    /// The highest depth above the start (0 counts), an upper bound.
    peak: SizeExpr,
    /// Whether `peak` is `net`: the region only pushes, as far as the count goes, so its
    /// highest point is its end.
    peak_at_end: bool,
}

impl Effect {
    fn zero() -> Effect {
        Effect::pushes(SizeExpr::constant(0))
    }

    fn pushes(n: SizeExpr) -> Effect {
        Effect {
            net: n.clone(),
            peak: n,
            peak_at_end: true,
        }
    }

    fn pop() -> Effect {
        Effect {
            net: SizeExpr::constant(-1),
            peak: SizeExpr::constant(0),
            peak_at_end: false,
        }
    }

    /// The parts one after the other.
    fn seq(parts: Vec<Effect>) -> Effect {
        if parts.iter().all(|p| p.peak_at_end) {
            let nets: Vec<SizeExpr> = parts.into_iter().map(|p| p.net).collect();
            return Effect::pushes(SizeExpr::sum(&nets));
        }
        let mut before = SizeExpr::constant(0);
        let mut peak: Option<SizeExpr> = None;
        for p in parts {
            // A part that ends at its peak is dominated by the end of the parts after it.
            if !p.peak_at_end {
                let here = before.add(&p.peak);
                peak = Some(match peak {
                    Some(q) => q.max(&here),
                    None => here,
                });
            }
            before = before.add(&p.net);
        }
        let peak = match peak {
            Some(q) => q.max(&before),
            None => before.clone(),
        };
        Effect {
            net: before,
            peak,
            peak_at_end: false,
        }
    }

    /// One of the two, whichever runs.
    fn either(a: Effect, b: Effect) -> Effect {
        Effect {
            net: a.net.max(&b.net),
            peak: a.peak.max(&b.peak),
            peak_at_end: a.peak_at_end && b.peak_at_end,
        }
    }

    /// The net change, or 0 where it is negative: an upper bound that only grows with more
    /// iterations, for sums over a superset of a loop's iterations.
    fn gain(&self) -> SizeExpr {
        if self.peak_at_end {
            self.net.clone()
        } else {
            self.net.max(&SizeExpr::constant(0))
        }
    }
}

struct Capture<'a> {
    b: Bounder<'a>,
    stack: Value,
    /// Ops that hold a push, or a pop that is counted, per block in block order: the only ops
    /// the walk visits.
    visit: Children,
    /// Ops that hold a push.
    holds_push: HashSet<OpId>,
}

impl Capture<'_> {
    /// The max of `e` over the induction variables of loop `l` it mentions, innermost first.
    fn max_over_vars(&mut self, l: OpId, mut e: SizeExpr) -> Result<SizeExpr, Unbounded> {
        let ctx = self.b.ctx;
        for k in (0..num_induction_vars(ctx, l)).rev() {
            let var = crate::loops::var_of(ctx, l, k);
            if mentions(&e, var) {
                let (var, begin, end) = self.b.loop_range(l, k)?;
                e = SizeExpr::max_over_range(var, &begin, &end, &e);
            }
        }
        Ok(e)
    }

    fn region(&mut self, op: OpId, index: usize) -> Result<Effect, Unbounded> {
        let ctx = self.b.ctx;
        match ctx.region_entry_block(op, index) {
            Some(bl) => {
                let ops = self.visit.of(bl).to_vec();
                self.count_ops(&ops)
            }
            None => Ok(Effect::zero()),
        }
    }

    fn count_ops(&mut self, ops: &[OpId]) -> Result<Effect, Unbounded> {
        let ctx = self.b.ctx;
        let mut parts = Vec::new();
        for &op in ops {
            let t = match ctx.name(op) {
                _ if is_push_to(ctx, op, self.stack) => Effect::pushes(SizeExpr::constant(1)),
                POP_OP => Effect::pop(),
                // A region that only pops never rises above its start and ends no higher: where
                // its exact effect cannot be had, (0, 0) bounds it.
                IF_OP | RANGE_FOR_OP | STRUCT_FOR_OP | WHILE_OP
                    if !self.holds_push.contains(&op) =>
                {
                    self.compound(op).unwrap_or_else(|_| Effect::zero())
                }
                // An op `compound` does not model, holding no push: its error read as no effect,
                // as above, without building the error's message for every plain op.
                _ if !self.holds_push.contains(&op) => Effect::zero(),
                _ => self.compound(op)?,
            };
            parts.push(t);
        }
        Ok(Effect::seq(parts))
    }

    /// The effect of an op with regions.
    fn compound(&mut self, op: OpId) -> Result<Effect, Unbounded> {
        Ok(match self.b.ctx.name(op) {
            IF_OP => Effect::either(self.region(op, 0)?, self.region(op, 1)?),
            RANGE_FOR_OP | STRUCT_FOR_OP => {
                let body = self.region(op, 0)?;
                self.for_loop(op, body)?
            }
            WHILE_OP => {
                let t = while_bound::trip_count(&mut self.b, op)?;
                let cond = self.region(op, 0)?;
                let body = self.region(op, 1)?;
                while_loop(&t, cond, body)
            }
            name => {
                return Err(Unbounded::op(
                    op,
                    format!("pushes inside '{name}', which sizing does not model"),
                ))
            }
        })
    }

    /// A `range_for` or `struct_for` running `body` once per point of its iteration space.
    fn for_loop(&mut self, l: OpId, body: Effect) -> Result<Effect, Unbounded> {
        let ctx = self.b.ctx;
        let vars: Vec<u32> = (0..num_induction_vars(ctx, l))
            .map(|k| crate::loops::var_of(ctx, l, k))
            .collect();
        let depends = vars
            .iter()
            .any(|&v| mentions(&body.net, v) || mentions(&body.peak, v));
        if !depends {
            // Every iteration does the same: the trip count times the body.
            let t = self.b.trip_count(l)?;
            if body.peak_at_end {
                return Ok(Effect::pushes(t.mul(&body.net)));
            }
            return Ok(Effect {
                net: t.mul(&body.gain()),
                peak: repeated_peak(&t, &body),
                peak_at_end: false,
            });
        }
        let mut ranges = Vec::with_capacity(vars.len());
        for k in 0..vars.len() {
            ranges.push(self.b.loop_range(l, k)?);
        }
        let sum_all = |e: &SizeExpr| over_all(&ranges, e, SizeExpr::sum_over_range);
        if body.peak_at_end {
            return Ok(Effect::pushes(sum_all(&body.net)));
        }
        let gain = body.gain();
        let net = sum_all(&gain);
        let peak = match ranges.as_slice() {
            // The iteration at `v` peaks at the gains of the iterations before it plus its own.
            [(v, b, end)] => match gain.rename_free_var(*v, PREFIX_VAR) {
                Some(g) => {
                    let prefix =
                        SizeExpr::sum_over_range(PREFIX_VAR, b, &SizeExpr::bound_var(*v), &g);
                    SizeExpr::max_over_range(*v, b, end, &prefix.add(&body.peak))
                }
                None => net.add(&over_all(&ranges, &body.peak, SizeExpr::max_over_range)),
            },
            // Several variables: every gain, plus the highest single peak.
            _ => net.add(&over_all(&ranges, &body.peak, SizeExpr::max_over_range)),
        };
        Ok(Effect {
            net,
            peak,
            peak_at_end: false,
        })
    }
}

/// Whether `v` occurs free in `e`: [`SizeExpr::mentions_var`], which builds a set per node,
/// only when `e` has a node of `v` at all (most bounds a capture builds have none).
fn mentions(e: &SizeExpr, v: u32) -> bool {
    e.nodes()
        .iter()
        .any(|n| matches!(n, Node::BoundVar(x) if *x == v))
        && e.mentions_var(v)
}

/// `e` under one range node per loop variable (`range` builds it: a max or a sum), the first
/// variable outermost.
fn over_all(
    ranges: &[(u32, SizeExpr, SizeExpr)],
    e: &SizeExpr,
    range: fn(u32, &SizeExpr, &SizeExpr, &SizeExpr) -> SizeExpr,
) -> SizeExpr {
    ranges
        .iter()
        .rev()
        .fold(e.clone(), |acc, (v, b, end)| range(*v, b, end, &acc))
}

/// A `qd.while` whose body runs at most `t` times: `t` rounds of condition and body, then
/// the condition that exits.
fn while_loop(t: &SizeExpr, cond: Effect, body: Effect) -> Effect {
    let last = cond.clone();
    let round = Effect::seq(vec![cond, body]);
    if round.peak_at_end && last.peak_at_end {
        return Effect::pushes(t.mul(&round.net).add(&last.net));
    }
    let rounds = t.mul(&round.gain());
    // The last condition starts after every round.
    Effect {
        net: rounds.add(&last.gain()),
        peak: repeated_peak(t, &round).max(&rounds.add(&last.peak)),
        peak_at_end: false,
    }
}

/// The peak of `body` run `t` times: inside run j the depth is at most the gains of the j runs
/// before plus the run's own peak, so `(t - 1) * gain + peak`, and 0 when it never runs.
fn repeated_peak(t: &SizeExpr, body: &Effect) -> SizeExpr {
    let one = SizeExpr::constant(1);
    let before_last = t.sub(&one).mul(&body.gain());
    before_last.add(&t.min(&one).mul(&body.peak))
}
