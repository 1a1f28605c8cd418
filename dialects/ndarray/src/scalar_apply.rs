//! `ndarray.scalar_apply`: a primitive with a hand-written backward, kept as one scalar op inside
//! a fused kernel so that reverse-mode-ad calls that backward (this op's `ReverseRule`) instead of
//! differentiating the forward body; [`expand_scalar_applies`] then replaces every such op by the
//! primitive's forward body, before a device compiles the kernel.

use crate::ops::ScalarApplyOp;
use crate::primitives::{primitive, BackwardArgs};
use qd_ir::interfaces::{PrimalNeeds, ReverseRule};
use qd_ir::{Builder, Context, DiagResult, OpId, Value};

struct ScalarApplyRule;

/// The derivative rule of `ndarray.scalar_apply`.
pub static RULE: &dyn ReverseRule = &ScalarApplyRule;

impl ReverseRule for ScalarApplyRule {
    fn primal_needs(&self, ctx: &Context, op: OpId, _active: &[bool]) -> PrimalNeeds {
        // A hand-written backward may read any operand and the result.
        PrimalNeeds {
            operands: vec![true; ctx.num_operands(op)],
            results: vec![true; ctx.num_results(op)],
        }
    }

    fn emit_adjoints(
        &self,
        b: &mut Builder<'_>,
        op: OpId,
        operands: &[Option<Value>],
        results: &[Option<Value>],
        result_adjoints: &[Value],
        active: &[bool],
    ) -> Vec<Option<Value>> {
        let name = ScalarApplyOp(op).name(b.ctx).to_string();
        let loc = b.ctx.loc(op);
        let (Some(p), Some(Some(result)), Some(&adj)) =
            (primitive(&name), results.first(), result_adjoints.first())
        else {
            return vec![None; operands.len()];
        };
        let Some(backward) = p.backward.clone() else {
            return vec![None; operands.len()];
        };
        let ops: Option<Vec<Value>> = operands.iter().copied().collect();
        let Some(ops) = ops else {
            return vec![None; operands.len()];
        };
        let args = BackwardArgs {
            operands: &ops,
            result: *result,
            result_adjoint: adj,
        };
        let mut out = backward(b, &args, loc);
        out.resize(operands.len(), None);
        out.into_iter()
            .zip(active)
            .map(|(v, &a)| if a { v } else { None })
            .collect()
    }
}

/// Replaces every `ndarray.scalar_apply` under `root` by its primitive's forward body.
pub fn expand_scalar_applies(ctx: &mut Context, root: OpId) -> DiagResult<usize> {
    let found: Vec<OpId> = ctx
        .walk_pre_order(root)
        .into_iter()
        .filter(|&op| ctx.name(op) == ScalarApplyOp::NAME)
        .collect();
    for &op in &found {
        let name = ScalarApplyOp(op).name(ctx).to_string();
        let Some(p) = primitive(&name) else {
            return Err(qd_ir::verify_helpers::op_error(
                ctx,
                op,
                format!("calls '{name}', which is not a registered primitive"),
            ));
        };
        let loc = ctx.loc(op);
        let operands = ctx.operand_vec(op);
        let r = {
            let mut b = Builder::before(ctx, op);
            (p.forward)(&mut b, &operands, loc)
        };
        let old = ctx.result(op, 0);
        ctx.replace_all_uses_with(old, r);
        ctx.erase_op(op);
    }
    Ok(found.len())
}
