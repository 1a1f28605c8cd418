//! Phase 2: a symbolic upper bound on a stack's depth, for the stacks phase 1 leaves unbounded.
//!
//! Pops are ignored (they only lower the depth), so the bound counts the pushes one activation
//! of the alloca can make, structurally over what follows the alloca in its block:
//! - a push counts 1; a sequence, the sum of its ops;
//! - a `qd.if`, the max of its branches (one runs);
//! - a `range_for` or `struct_for`, its trip count times the max over its induction variables'
//!   ranges of its body's count (each iteration counts at most that much);
//! - a `qd.while`, its provable trip count `t` (see [`crate::while_bound`]) times its body's
//!   count, plus `t + 1` times its condition's;
//! - anything else that holds a push is outside the model.
//!
//! For pushes in loops only, this is the sum over the pushes of the products of the trip counts
//! of the loops between each push and the alloca. The induction variables of the loops around
//! the alloca are maximised over last: every activation must fit.

use crate::loops::{enclosing_loops, induction_vars};
use crate::value_bound::{is_push_to, Bounder, Unbounded};
use crate::while_bound;
use qd_adstack::size_expr::SizeExpr;
use qd_frontend::{IF_OP, RANGE_FOR_OP, STRUCT_FOR_OP, WHILE_OP};
use qd_ir::{BlockId, Context, OpId, Value};
use std::collections::HashSet;

/// The bound of the stack `alloca` defines (closed: no free variable).
pub(crate) fn capture(ctx: &Context, alloca: OpId) -> Result<SizeExpr, Unbounded> {
    let Some(block) = ctx.parent_block(alloca) else {
        return Ok(SizeExpr::constant(0));
    };
    let stack = ctx.result(alloca, 0);
    let mut holds_push = HashSet::new();
    for u in ctx.users(stack) {
        if is_push_to(ctx, u, stack) {
            let mut cur = Some(u);
            while let Some(o) = cur {
                if !holds_push.insert(o) || ctx.parent_block(o) == Some(block) {
                    break;
                }
                cur = ctx.parent_op(o);
            }
        }
    }
    let mut c = Capture {
        b: Bounder::new(ctx, alloca),
        stack,
        holds_push,
    };
    let after: Vec<OpId> =
        std::iter::successors(ctx.next_op(alloca), |&o| ctx.next_op(o)).collect();
    let mut e = c.count_ops(&after)?;
    for l in enclosing_loops(ctx, alloca) {
        e = c.over_vars(l, e)?;
    }
    Ok(e)
}

struct Capture<'a> {
    b: Bounder<'a>,
    stack: Value,
    holds_push: HashSet<OpId>,
}

impl Capture<'_> {
    /// The max of `e` over the induction variables of loop `l` it mentions, innermost first.
    fn over_vars(&mut self, l: OpId, mut e: SizeExpr) -> Result<SizeExpr, Unbounded> {
        let ctx = self.b.ctx;
        for k in (0..induction_vars(ctx, l).len()).rev() {
            let var = crate::loops::var_of(ctx, l, k);
            if e.mentions_var(var) {
                let (var, begin, end) = self.b.loop_range(l, k)?;
                e = SizeExpr::max_over_range(var, &begin, &end, &e);
            }
        }
        Ok(e)
    }

    fn region(&mut self, op: OpId, index: usize) -> Result<SizeExpr, Unbounded> {
        let ctx = self.b.ctx;
        let block: Option<BlockId> = ctx.region_entry_block(op, index);
        match block {
            Some(bl) => {
                let ops: Vec<OpId> = ctx.block_ops(bl).collect();
                self.count_ops(&ops)
            }
            None => Ok(SizeExpr::constant(0)),
        }
    }

    fn count_ops(&mut self, ops: &[OpId]) -> Result<SizeExpr, Unbounded> {
        let ctx = self.b.ctx;
        let mut terms = Vec::new();
        for &op in ops {
            if !self.holds_push.contains(&op) {
                continue;
            }
            let t = match ctx.name(op) {
                _ if is_push_to(ctx, op, self.stack) => SizeExpr::constant(1),
                IF_OP => self.region(op, 0)?.max(&self.region(op, 1)?),
                RANGE_FOR_OP | STRUCT_FOR_OP => {
                    let body = self.region(op, 0)?;
                    let body = self.over_vars(op, body)?;
                    self.b.trip_count(op)?.mul(&body)
                }
                WHILE_OP => {
                    let t = while_bound::trip_count(&mut self.b, op)?;
                    let cond = self.region(op, 0)?;
                    let body = self.region(op, 1)?;
                    t.add(&SizeExpr::constant(1)).mul(&cond).add(&t.mul(&body))
                }
                name => {
                    return Err(Unbounded::op(
                        op,
                        format!("pushes inside '{name}', which sizing does not model"),
                    ))
                }
            };
            terms.push(t);
        }
        Ok(SizeExpr::sum(&terms))
    }
}
