//! Patterns of the float ops.

use super::{create_elementwise, def_by, fused_loc, operands_n, result_ty};
use crate::flags::FlagKind;
use crate::names;
use qd_ir::rewrite::Rewriter;
use qd_ir::OpId;

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
