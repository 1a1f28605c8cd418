//! Side-effect queries from op traits: which ops may be erased when unused, or moved and merged.

use crate::context::Context;
use crate::entity::OpId;
use crate::registry::OpTraits;

/// Whether `op` has no memory effects (MLIR's `isMemoryEffectFree`): it is PURE, or has
/// RECURSIVE_EFFECTS, and in the latter case every op nested in it is effect-free too.
/// Unregistered ops are assumed to have effects.
pub fn is_memory_effect_free(ctx: &Context, op: OpId) -> bool {
    effects_at_most(ctx, op, &[OpTraits::PURE])
}

/// Whether `op` could be erased if its results were unused (MLIR's `wouldOpBeTriviallyDead`):
/// a registered op that is neither a terminator nor a symbol, whose effects (its own, and those
/// of its nested ops when it has RECURSIVE_EFFECTS) are at most reads.
pub fn would_op_be_trivially_dead(ctx: &Context, op: OpId) -> bool {
    if !ctx.is_registered(op)
        || ctx.has_trait(op, OpTraits::TERMINATOR)
        || ctx.has_trait(op, OpTraits::SYMBOL)
    {
        return false;
    }
    effects_at_most(ctx, op, &[OpTraits::PURE, OpTraits::READ_ONLY])
}

/// Whether `op` can be erased right now: its results are unused and it would be trivially dead.
pub fn is_trivially_dead(ctx: &Context, op: OpId) -> bool {
    ctx.results(op).iter().all(|&r| !ctx.has_uses(r)) && would_op_be_trivially_dead(ctx, op)
}

/// Whether `op`, and every op nested in it through ops with RECURSIVE_EFFECTS, is registered
/// and either has RECURSIVE_EFFECTS or one of the traits in `harmless`. The nested ops are
/// looked at one by one as the walk reaches them (each block from its last op, where a body's
/// stores usually are), so a walk ends at the first op with effects, instead of first listing
/// the whole body: that made each query on a loop cost its body's size.
fn effects_at_most(ctx: &Context, op: OpId, harmless: &[OpTraits]) -> bool {
    let Some(info) = ctx.info(op) else {
        return false;
    };
    if !info.has_trait(OpTraits::RECURSIVE_EFFECTS) {
        return harmless.iter().any(|&t| info.has_trait(t));
    }
    // The next op to look at in each open block (walking backwards).
    let mut cursors = Vec::new();
    push_last_ops(ctx, op, &mut cursors);
    while let Some(o) = cursors.pop() {
        if let Some(prev) = ctx.prev_op(o) {
            cursors.push(prev);
        }
        let Some(info) = ctx.info(o) else {
            return false;
        };
        if info.has_trait(OpTraits::RECURSIVE_EFFECTS) {
            push_last_ops(ctx, o, &mut cursors);
        } else if !harmless.iter().any(|&t| info.has_trait(t)) {
            return false;
        }
    }
    true
}

fn push_last_ops(ctx: &Context, op: OpId, cursors: &mut Vec<OpId>) {
    for &r in ctx.regions(op) {
        for &b in ctx.region_blocks(r) {
            cursors.extend(ctx.last_op(b));
        }
    }
}
