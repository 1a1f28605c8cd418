//! Patterns of the casts.

use super::{create_elementwise, def_by, fused_loc, operands_n, result_ty};
use crate::names;
use qd_ir::rewrite::Rewriter;
use qd_ir::OpId;

/// `ext(ext x)` -> `ext x` for two extensions of one kind, in place (upstream ExtUIOp::fold and
/// ExtSIOp::fold): extending in two steps or one gives the same bits.
pub fn ext_of_same_ext(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 1) else {
        return false;
    };
    let Some(inner) = def_by(ctx, v[0], ctx.name(op), 1) else {
        return false;
    };
    let x = ctx.operand(inner, 0);
    rw.set_operand(op, 0, x);
    true
}

/// `extsi(extui x)` -> `extui x` (upstream ExtSIOfExtUI): a zero-extended value has a clear
/// sign bit, so sign-extending it extends with zeros.
pub fn extsi_of_extui(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    replace_inner_cast(op, rw, names::EXTUI, names::EXTUI)
}

/// `bitcast(bitcast x)` -> `bitcast x` (upstream BitcastOfBitcast; a bitcast to x's own type
/// then folds away).
pub fn bitcast_of_bitcast(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    replace_inner_cast(op, rw, names::BITCAST, names::BITCAST)
}

/// `index_cast(extsi x)` -> `index_cast x` (upstream IndexCastOfExtSI): index_cast
/// sign-extends or truncates, and either after a sign extension is that of x.
pub fn index_cast_of_extsi(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    replace_inner_cast(op, rw, names::EXTSI, names::INDEX_CAST)
}

/// `index_castui(extui x)` -> `index_castui x` (upstream IndexCastUIOfExtUI), likewise with
/// zero extension.
pub fn index_castui_of_extui(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    replace_inner_cast(op, rw, names::EXTUI, names::INDEX_CASTUI)
}

/// `op(inner x)` -> `new x` to `op`'s result type, where `inner` defines `op`'s operand.
fn replace_inner_cast(op: OpId, rw: &mut Rewriter<'_>, inner: &str, new: &str) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 1) else {
        return false;
    };
    let Some(d) = def_by(ctx, v[0], inner, 1) else {
        return false;
    };
    let x = ctx.operand(d, 0);
    let ty = result_ty(ctx, op);
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, d]));
    let r = create_elementwise(rw, op, new, &[x], ty, loc, &[]);
    rw.replace_op(op, &[r]);
    true
}
