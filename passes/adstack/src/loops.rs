//! Loops as the capture sees them: which loops hold an op, and the bound variable each
//! induction variable becomes. A loop's variables are numbered by nesting: the first variable of
//! a loop is the number of induction variables of the loops around it, so nested loops never
//! share a variable and sibling loops may (they are never in scope together).

use qd_frontend::{RANGE_FOR_OP, STRUCT_FOR_OP, WHILE_OP};
use qd_ir::{BlockId, Context, OpId, Value};

/// Loop variables are `v0` .. `v47`; the capture's own helper variables come after.
pub(crate) const MAX_LOOP_VARS: u32 = 48;

pub(crate) fn is_loop(ctx: &Context, op: OpId) -> bool {
    matches!(ctx.name(op), RANGE_FOR_OP | STRUCT_FOR_OP | WHILE_OP)
}

/// The induction variables of a loop (none for a while loop).
pub(crate) fn induction_vars(ctx: &Context, l: OpId) -> Vec<Value> {
    match ctx.name(l) {
        RANGE_FOR_OP | STRUCT_FOR_OP => ctx
            .regions(l)
            .first()
            .and_then(|&r| ctx.entry_block(r))
            .map(|b| ctx.block_args(b).to_vec())
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The loops that hold `op`, innermost first.
pub(crate) fn enclosing_loops(ctx: &Context, op: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if is_loop(ctx, p) {
            out.push(p);
        }
        cur = ctx.parent_op(p);
    }
    out
}

/// The innermost loop that holds `op` (the first of [`enclosing_loops`], without a vector).
pub(crate) fn enclosing_loop(ctx: &Context, op: OpId) -> Option<OpId> {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if is_loop(ctx, p) {
            return Some(p);
        }
        cur = ctx.parent_op(p);
    }
    None
}

/// How many induction variables a loop has (`induction_vars(ctx, l).len()`, without a vector:
/// sizing asks per stack and loop).
pub(crate) fn num_induction_vars(ctx: &Context, l: OpId) -> usize {
    match ctx.name(l) {
        RANGE_FOR_OP | STRUCT_FOR_OP => ctx
            .regions(l)
            .first()
            .and_then(|&r| ctx.entry_block(r))
            .map_or(0, |b| ctx.block_args(b).len()),
        _ => 0,
    }
}

/// The bound variable of induction variable `k` of loop `l`.
pub(crate) fn var_of(ctx: &Context, l: OpId, k: usize) -> u32 {
    let mut outer = 0;
    let mut cur = ctx.parent_op(l);
    while let Some(p) = cur {
        if is_loop(ctx, p) {
            outer += num_induction_vars(ctx, p);
        }
        cur = ctx.parent_op(p);
    }
    (outer + k) as u32
}

/// The loops that hold `op` and lie inside `block` (not `block`'s own parents), innermost first.
pub(crate) fn loops_inside(ctx: &Context, op: OpId, block: BlockId) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if ctx.block_parent_op(block) == Some(p) {
            break;
        }
        if is_loop(ctx, p) && is_within(ctx, p, block) {
            out.push(p);
        }
        cur = ctx.parent_op(p);
    }
    out
}

/// Whether `op` is in `block` or nested in one of its ops.
pub(crate) fn is_within(ctx: &Context, op: OpId, block: BlockId) -> bool {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if ctx.parent_block(o) == Some(block) {
            return true;
        }
        cur = ctx.parent_op(o);
    }
    false
}

/// Whether loop `l` holds `op` (at any depth).
pub(crate) fn holds(ctx: &Context, l: OpId, op: OpId) -> bool {
    l != op && ctx.is_ancestor(l, op)
}

/// Adds `op` and its ancestors up to the op directly in `block` to `out` (stopping early at
/// one already there: its ancestors are too).
pub(crate) fn mark_ancestors(
    ctx: &Context,
    op: OpId,
    block: BlockId,
    out: &mut std::collections::HashSet<OpId>,
) {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if !out.insert(o) || ctx.parent_block(o) == Some(block) {
            break;
        }
        cur = ctx.parent_op(o);
    }
}
