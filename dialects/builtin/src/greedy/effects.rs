//! Side-effect queries from op traits: which ops may be erased when unused, or moved and merged.

use crate::context::Context;
use crate::entity::OpId;
use crate::registry::OpTraits;

/// Whether `op` has no memory effects (MLIR's `isMemoryEffectFree`): it is PURE, or has
/// RECURSIVE_EFFECTS, and in the latter case every op nested in it is effect-free too.
/// Unregistered ops are assumed to have effects.
pub fn is_memory_effect_free(ctx: &Context, op: OpId) -> bool {
    let mut stack = vec![op];
    while let Some(o) = stack.pop() {
        let Some(info) = ctx.info(o) else {
            return false;
        };
        let recursive = info.has_trait(OpTraits::RECURSIVE_EFFECTS);
        if !recursive && !info.has_trait(OpTraits::PURE) {
            return false;
        }
        if recursive {
            push_nested(ctx, o, &mut stack);
        }
    }
    true
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
    let mut stack = vec![op];
    while let Some(o) = stack.pop() {
        let Some(info) = ctx.info(o) else {
            return false;
        };
        let recursive = info.has_trait(OpTraits::RECURSIVE_EFFECTS);
        if recursive {
            push_nested(ctx, o, &mut stack);
        }
        let harmless = info.has_trait(OpTraits::PURE) || info.has_trait(OpTraits::READ_ONLY);
        if !harmless && !recursive {
            return false;
        }
    }
    true
}

/// Whether `op` can be erased right now: its results are unused and it would be trivially dead.
pub fn is_trivially_dead(ctx: &Context, op: OpId) -> bool {
    ctx.results(op).iter().all(|&r| !ctx.has_uses(r)) && would_op_be_trivially_dead(ctx, op)
}

fn push_nested(ctx: &Context, op: OpId, stack: &mut Vec<OpId>) {
    for &r in ctx.regions(op) {
        for &b in ctx.region_blocks(r) {
            stack.extend(ctx.block_ops(b));
        }
    }
}
