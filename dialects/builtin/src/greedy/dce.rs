//! The dead-code half of MLIR's region simplification, which its greedy driver runs after each
//! sweep (`runRegionDCE`): ops whose results are unused and that would be trivially dead are
//! erased, users before the values they use. Doing it there rather than on the next sweep
//! matters to what the next sweep's seeding sees, and so to where constants end up.

use super::effects::is_trivially_dead;
use crate::context::Context;
use crate::entity::OpId;

/// Erases the dead ops nested in `op` (not `op` itself); returns how many.
pub(super) fn erase_dead_ops(ctx: &mut Context, op: OpId) -> usize {
    let mut erased = 0;
    for ri in 0..ctx.regions(op).len() {
        let region = ctx.region(op, ri);
        for bi in 0..ctx.region_blocks(region).len() {
            let block = ctx.region_blocks(region)[bi];
            // Backwards, so that an op's users are gone when it is reached.
            let mut cur = ctx.last_op(block);
            while let Some(o) = cur {
                cur = ctx.prev_op(o);
                if !ctx.regions(o).is_empty() {
                    erased += erase_dead_ops(ctx, o);
                }
                if is_trivially_dead(ctx, o) {
                    ctx.erase_op(o);
                    erased += 1;
                }
            }
        }
    }
    erased
}
