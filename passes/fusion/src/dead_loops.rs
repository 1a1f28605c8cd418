//! Loops whose work nothing reads: reverse-mode-ad's gradient of a partial kernel first replays
//! the forward loop that accumulates the partial sum into a local, although the reverse sweep
//! never reads that sum (the adjoint of a sum does not depend on it). Such a loop only writes
//! locals that are read nowhere after it; erasing it halves the gradient's work.

use qd_frontend::{KernelOp, LocalLoadOp, LocalStoreOp, RangeForOp};
use qd_ir::{Context, OpId, OpTraits};

/// Erases, in every kernel of `module`, each serial `qd.range_for` whose body only computes
/// values, reads memory and stores into locals made outside it that no op outside it reads;
/// returns how many.
pub fn erase_dead_loops(ctx: &mut Context, module: OpId) -> usize {
    let kernels: Vec<OpId> = ctx
        .regions(module)
        .iter()
        .flat_map(|&r| ctx.region_ops(r))
        .filter(|&o| KernelOp::from_op(ctx, o).is_some())
        .collect();
    let mut n = 0;
    for k in kernels {
        let loops: Vec<OpId> = ctx
            .walk_pre_order(k)
            .into_iter()
            .filter(|&o| ctx.name(o) == RangeForOp::NAME && !RangeForOp(o).is_parallel(ctx))
            .collect();
        for l in loops {
            if ctx.is_alive(l) && is_dead(ctx, l) {
                ctx.erase_op(l);
                n += 1;
            }
        }
    }
    n
}

fn is_dead(ctx: &Context, l: OpId) -> bool {
    let inside: Vec<OpId> = ctx.walk_pre_order(l);
    let within = |o: OpId| ctx.is_ancestor(l, o);
    inside.iter().skip(1).all(|&o| {
        let name = ctx.name(o);
        if name == LocalStoreOp::NAME {
            // The local must be made outside the loop and read only inside it.
            let p = ctx.operand(o, 1);
            return ctx.defining_op(p).is_some_and(|a| !within(a))
                && ctx
                    .users(p)
                    .all(|u| ctx.name(u) != LocalLoadOp::NAME || within(u));
        }
        ctx.has_trait(o, OpTraits::PURE)
            || matches!(
                name,
                "qd.ndarray_load" | "qd.load" | "qd.local_load" | "qd.range_for" | "qd.if"
            )
    })
}
