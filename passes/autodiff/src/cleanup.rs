//! Removes what the forward replay computed for nothing: reads and pure ops whose values only fed
//! the primal writes the gradient kernel drops (`%r = local_load; qd.atomic_add %r, @y[]` keeps
//! no use of `%r`), unused locals, and serial loops left with an empty body.

use crate::structure::is_serial_loop;
use qd_frontend::{ALLOCA_OP, RANGE_FOR_OP, STRUCT_FOR_OP};
use qd_ir::{Context, OpId, OpTraits};

/// Erases dead ops inside `root` until none is left: one walk finds the dead ops, and erasing
/// one re-examines only what it may have made dead (its operands' definitions, and the loop
/// that held it). Removal is monotone (a dead op stays dead), so the ops left are the same in
/// any order.
pub(crate) fn remove_dead(ctx: &mut Context, root: OpId) {
    let mut work: Vec<OpId> = ctx
        .walk_post_order(root)
        .into_iter()
        .filter(|&o| o != root && is_dead(ctx, o))
        .collect();
    // Popped last first: the walk lists uses after their definitions, so users go first.
    work.reverse();
    let mut next = Vec::new();
    while let Some(o) = work.pop() {
        if !ctx.is_alive(o) || !is_dead(ctx, o) {
            continue;
        }
        next.clear();
        next.extend(ctx.operands(o).filter_map(|v| ctx.defining_op(v)));
        next.extend(ctx.parent_op(o));
        ctx.erase_op(o);
        for &d in &next {
            if d != root && ctx.is_alive(d) && is_dead(ctx, d) {
                work.push(d);
            }
        }
    }
}

fn is_dead(ctx: &Context, op: OpId) -> bool {
    if matches!(ctx.name(op), RANGE_FOR_OP | STRUCT_FOR_OP) && is_serial_loop(ctx, op) {
        return ctx
            .regions(op)
            .iter()
            .all(|&r| ctx.region_blocks(r).iter().all(|&b| ctx.block_is_empty(b)));
    }
    let removable = ctx.has_trait(op, OpTraits::PURE)
        || ctx.has_trait(op, OpTraits::READ_ONLY)
        || ctx.name(op) == ALLOCA_OP;
    removable
        && ctx.regions(op).is_empty()
        && ctx.num_results(op) > 0
        && ctx.results(op).iter().all(|&r| !ctx.has_uses(r))
}
