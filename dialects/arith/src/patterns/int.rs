//! Patterns of the integer and bitwise ops.

use super::{create_constant, create_elementwise, def_by, fused_loc, int_const, operands_n};
use crate::consts::{constant_value, IntVal};
use crate::flags::FlagKind;
use crate::names;
use crate::ops::cmp::CmpIOp;
use qd_ir::rewrite::{RewritePattern, Rewriter};
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

/// `addi(addi(x, c0), c1)` -> `addi(x, c0 + c1)` (upstream AddIAddConstant). Upstream keeps the
/// flags both adds have; `nsw` is kept only when `c0 + c1` does not overflow, as otherwise the
/// new add may overflow where the two did not (i8: (-128 + 127) + 127).
pub struct AddIConstChain;

impl RewritePattern for AddIConstChain {
    fn name(&self) -> &'static str {
        "arith-addi-constant-chain"
    }
    fn root(&self) -> Option<&'static str> {
        Some(names::ADDI)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        let Some([lhs, rhs]) = operands_n(ctx, op, 2).map(|v| [v[0], v[1]]) else {
            return false;
        };
        let Some(c1) = int_const(ctx, rhs) else {
            return false;
        };
        let Some(inner) = def_by(ctx, lhs, names::ADDI, 2) else {
            return false;
        };
        let Some(c0) = int_const(ctx, ctx.operand(inner, 1)) else {
            return false;
        };
        let ty = ctx.value_type(ctx.result(op, 0));
        if c0.width() != c1.width() || ctx.value_type(ctx.operand(inner, 0)) != ty {
            return false;
        }
        let x = ctx.operand(inner, 0);
        let sum = IntVal::from_bits(c0.zext().wrapping_add(c1.zext()), c0.width());
        let mut flags = overflow_bits(ctx, op) & overflow_bits(ctx, inner);
        if signed_add_overflows(c0, c1) {
            flags &= !NSW;
        }
        let loc = rw.intern(|ctx| fused_loc(ctx, &[op, inner]));
        let attr = rw.intern(|ctx| sum.to_attr(ctx, ty));
        let Some(cst) = create_constant(rw, op, attr, ty, loc) else {
            return false;
        };
        let flags = rw.intern(|ctx| FlagKind::Overflow.attr(ctx, flags));
        let new = create_elementwise(
            rw,
            op,
            names::ADDI,
            &[x, cst],
            ty,
            loc,
            &[(FlagKind::Overflow.prop_name(), flags)],
        );
        rw.replace_op(op, &[new]);
        true
    }
}

/// Whether `a + b` overflows as signed integers of their width.
pub fn signed_add_overflows(a: IntVal, b: IntVal) -> bool {
    let s = a.sext() as i128 + b.sext() as i128;
    let w = a.width();
    s < IntVal::signed_min(w).sext() as i128 || s > IntVal::signed_max(w).sext() as i128
}

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
