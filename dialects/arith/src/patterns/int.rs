//! Patterns of the integer and bitwise ops.

use super::{create_elementwise, def_by, fused_loc, operands_n};
use crate::consts::constant_value;
use crate::flags::FlagKind;
use crate::names;
use crate::ops::cmp::CmpIOp;
use qd_ir::rewrite::Rewriter;
use qd_ir::{AttrData, OpId};

/// The overflow flag bits of an op (0 when it has none).
pub fn overflow_bits(ctx: &qd_ir::Context, op: OpId) -> u8 {
    ctx.prop_or_attr(op, FlagKind::Overflow.prop_name())
        .and_then(|a| FlagKind::Overflow.bits_of(ctx, a))
        .unwrap_or(0)
}

/// `nsw` and `nuw` as upstream's `IntegerOverflowFlags` bits.
pub const NSW: u8 = 1;
pub const NUW: u8 = 2;

/// `op(ext x, ext y)` -> `ext(op(x, y))` for a bitwise `op` and two extensions of one kind from
/// one type (upstream AndOfExtUI/SI, OrOfExtUI/SI, XOrIOfExtUI/SI): bitwise ops commute with
/// zero- and sign-extension.
fn logic_of_exts(op: OpId, rw: &mut Rewriter<'_>, ext: &str) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 2) else {
        return false;
    };
    let (Some(ex), Some(ey)) = (def_by(ctx, v[0], ext, 1), def_by(ctx, v[1], ext, 1)) else {
        return false;
    };
    let (x, y) = (ctx.operand(ex, 0), ctx.operand(ey, 0));
    let xt = ctx.value_type(x);
    if xt != ctx.value_type(y) {
        return false;
    }
    let name = ctx.name(op).to_string();
    let ty = super::result_ty(ctx, op);
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, ex, ey]));
    let inner = create_elementwise(rw, op, &name, &[x, y], xt, loc, &[]);
    let outer = create_elementwise(rw, op, ext, &[inner], ty, loc, &[]);
    rw.replace_op(op, &[outer]);
    true
}

pub fn logic_of_extui(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    logic_of_exts(op, rw, names::EXTUI)
}

pub fn logic_of_extsi(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    logic_of_exts(op, rw, names::EXTSI)
}

/// `xori(cmpi(p, a, b), true)` -> `cmpi(!p, a, b)` (upstream XOrINotCmpI).
pub fn xori_not_cmpi(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 2) else {
        return false;
    };
    let is_true =
        constant_value(ctx, v[1]).is_some_and(|a| *ctx.attr_data(a) == AttrData::Bool(true));
    let Some(cmp) = def_by(ctx, v[0], names::CMPI, 2) else {
        return false;
    };
    let Some(pred) = CmpIOp(cmp).predicate(ctx) else {
        return false;
    };
    if !is_true {
        return false;
    }
    let (a, b) = (ctx.operand(cmp, 0), ctx.operand(cmp, 1));
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, cmp]));
    let new = super::cmp::create_cmpi(rw, op, pred.invert(), a, b, loc);
    rw.replace_op(op, &[new]);
    true
}
