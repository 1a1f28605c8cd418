//! Patterns of the float ops.

use super::{create_elementwise, def_by, fused_loc, operands_n, result_ty};
use crate::flags::FlagKind;
use crate::names;
use qd_ir::rewrite::{RewritePattern, Rewriter};
use qd_ir::OpId;

/// `negf(negf(x))` -> `x` (negation only flips the sign bit).
pub struct NegFNegF;

impl RewritePattern for NegFNegF {
    fn name(&self) -> &'static str {
        "arith-negf-negf"
    }
    fn root(&self) -> Option<&'static str> {
        Some(names::NEGF)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        if ctx.num_operands(op) != 1 || ctx.num_results(op) != 1 {
            return false;
        }
        let Some(inner) = ctx.defining_op(ctx.operand(op, 0)) else {
            return false;
        };
        if ctx.name(inner) != names::NEGF || ctx.num_operands(inner) != 1 {
            return false;
        }
        let x = ctx.operand(inner, 0);
        if ctx.value_type(x) != ctx.value_type(ctx.result(op, 0)) {
            return false;
        }
        rw.replace_op(op, &[x]);
        true
    }
}

/// `op(negf x, negf y)` -> `op(x, y)` keeping `op`'s fast-math flags, for mulf and divf
/// (upstream MulFOfNegF, DivFOfNegF): the two sign flips cancel exactly; the negations' own
/// flags are dropped with them.
pub fn of_two_negf(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 2) else {
        return false;
    };
    let (Some(nx), Some(ny)) = (
        def_by(ctx, v[0], names::NEGF, 1),
        def_by(ctx, v[1], names::NEGF, 1),
    ) else {
        return false;
    };
    let (x, y) = (ctx.operand(nx, 0), ctx.operand(ny, 0));
    let ty = result_ty(ctx, op);
    if ctx.value_type(x) != ty || ctx.value_type(y) != ty {
        return false;
    }
    let name = ctx.name(op).to_string();
    let fm = FlagKind::FastMath.prop_name();
    let flags = ctx.prop_or_attr(op, fm);
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, nx, ny]));
    let props: Vec<(&str, qd_ir::Attribute)> = flags.map(|f| (fm, f)).into_iter().collect();
    let new = create_elementwise(rw, op, &name, &[x, y], ty, loc, &props);
    rw.replace_op(op, &[new]);
    true
}
