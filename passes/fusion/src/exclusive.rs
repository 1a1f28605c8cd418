//! Non-atomic adjoint accumulation in the gradients of generated kernels. reverse-mode-ad
//! accumulates every ndarray adjoint with `ad.acc_ndarray_adjoint`, an atomic add, since in
//! general two threads may touch one element. A fused kernel knows better: each element of a
//! parameter marked in its `fusion.exclusive` attribute is accessed by one thread in one
//! iteration, so in its gradient kernel the adjoint of that parameter is accumulated with a
//! plain load, add and store (no compare-and-swap loop per element).

use crate::codegen::EXCLUSIVE_ATTR;
use qd_ad::find_reverse;
use qd_frontend::{KernelOp, NdarrayLoadOp, NdarrayStoreOp};
use qd_ir::op_def::{prop, PropKind};
use qd_ir::{Builder, Context, OpId};

/// In the gradient kernel of every generated kernel of `module` (made by reverse-mode-ad), turns
/// the accumulations into exclusive parameters' adjoints into load + add + store; returns how
/// many.
pub fn privatize_adjoints(ctx: &mut Context, module: OpId) -> usize {
    let kernels: Vec<KernelOp> = ctx
        .regions(module)
        .iter()
        .flat_map(|&r| ctx.region_ops(r))
        .filter_map(|o| KernelOp::from_op(ctx, o))
        .filter(|k| ctx.attr(k.0, EXCLUSIVE_ATTR).is_some())
        .collect();
    let mut n = 0;
    for k in kernels {
        let Some(flags) = ctx
            .attr(k.0, EXCLUSIVE_ATTR)
            .and_then(|a| prop::Str::get(ctx, a))
            .map(|s| s.chars().map(|c| c == '1').collect::<Vec<bool>>())
        else {
            continue;
        };
        let name = k.name(ctx).to_string();
        let Some(r) = find_reverse(ctx, module, &name) else {
            continue;
        };
        let Some(grad) = r.gradient(ctx) else {
            continue;
        };
        let arg_types = k.arg_types(ctx);
        let activity = r.activity(ctx, &arg_types);
        // Gradient parameters: the primal's, then one adjoint per active parameter, in order.
        let gargs = grad.args(ctx);
        let mut exclusive_adjoints = Vec::new();
        let mut next = arg_types.len();
        for (i, &active) in activity.iter().enumerate() {
            if active {
                if flags.get(i).copied().unwrap_or(false) {
                    if let Some(&a) = gargs.get(next) {
                        exclusive_adjoints.push(a);
                    }
                }
                next += 1;
            }
        }
        let accs: Vec<OpId> = ctx
            .walk_pre_order(grad.0)
            .into_iter()
            .filter(|&o| {
                ctx.name(o) == qd_ad::ACC_NDARRAY_ADJOINT_OP
                    && exclusive_adjoints.contains(&ctx.operand(o, 1))
            })
            .collect();
        for acc in accs {
            let loc = ctx.loc(acc);
            let ops = ctx.operand_vec(acc);
            let (v, a, idx) = (ops[0], ops[1], &ops[2..]);
            let mut b = Builder::before(ctx, acc);
            let old = NdarrayLoadOp::build(&mut b, a, idx, loc).result(b.ctx);
            let sum = qd_arith::build_binary(&mut b, qd_arith::names::ADDF, old, v, loc);
            NdarrayStoreOp::build(&mut b, sum, a, idx, loc);
            ctx.erase_op(acc);
            n += 1;
        }
    }
    n
}
