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

/// `trunci(ext a)` -> `trunci a` when `a` is wider than the result, and `trunci(trunci a)` ->
/// `trunci a`, in place (upstream TruncIOp::fold). The op keeps its flags over an extension
/// (the bits it drops are `a`'s or copies of them); over a truncation it keeps only those both
/// carry: the outer one's `nuw` says nothing of the bits the inner one dropped, which upstream
/// keeps anyway.
pub fn trunci_in_place(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    use super::int::overflow_bits;
    use crate::consts::int_width;
    use crate::flags::FlagKind;
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 1) else {
        return false;
    };
    let width = |v: qd_ir::Value| int_width(ctx, ctx.value_type(v));
    let dst = width(ctx.result(op, 0));
    for ext in [names::EXTUI, names::EXTSI] {
        if let Some(e) = def_by(ctx, v[0], ext, 1) {
            let a = ctx.operand(e, 0);
            if width(a).zip(dst).is_some_and(|(s, d)| s > d) {
                rw.set_operand(op, 0, a);
                return true;
            }
            return false;
        }
    }
    let Some(inner) = def_by(ctx, v[0], names::TRUNCI, 1) else {
        return false;
    };
    let a = ctx.operand(inner, 0);
    let flags = overflow_bits(ctx, op) & overflow_bits(ctx, inner);
    let name = FlagKind::Overflow.prop_name();
    let attr = rw.intern(|ctx| FlagKind::Overflow.attr(ctx, flags));
    rw.modify_op_in_place(op, |ctx| {
        ctx.set_operand(op, 0, a);
        ctx.set_prop(op, name, attr);
    });
    true
}

/// `trunci(ext x)` -> `ext x` when the truncation only drops extension bits: the extension is
/// wider than the result, which is wider than x (upstream TruncIExtSIToExtSI/TruncIExtUIToExtUI).
pub fn trunci_of_ext_to_ext(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    use crate::consts::int_width;
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 1) else {
        return false;
    };
    let width = |t| int_width(ctx, t);
    for ext in [names::EXTSI, names::EXTUI] {
        let Some(e) = def_by(ctx, v[0], ext, 1) else {
            continue;
        };
        let x = ctx.operand(e, 0);
        let (Some(we), Some(wt), Some(wx)) = (
            width(ctx.value_type(v[0])),
            width(result_ty(ctx, op)),
            width(ctx.value_type(x)),
        ) else {
            return false;
        };
        if !(we > wt && wt > wx) {
            return false;
        }
        let ty = result_ty(ctx, op);
        let loc = rw.intern(|ctx| fused_loc(ctx, &[op, e]));
        let r = create_elementwise(rw, op, ext, &[x], ty, loc, &[]);
        rw.replace_op(op, &[r]);
        return true;
    }
    false
}

/// `trunci(shrsi(x, c))` -> `trunci(shrui(x, c))` when c is exactly the number of bits the
/// truncation drops, so that the bits in which the shifts differ are all dropped (upstream
/// TruncIShrSIToTrunciShrUI). The truncation keeps `nuw` but not `nsw`: after shrui the dropped
/// bits are zeros, which `nsw` would require to match the kept sign bit, x's own.
pub fn trunci_shrsi_to_shrui(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    use super::int::{overflow_bits, NUW};
    use crate::consts::{constant_value, int_width};
    use crate::flags::FlagKind;
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 1) else {
        return false;
    };
    let Some(sh) = def_by(ctx, v[0], names::SHRSI, 2) else {
        return false;
    };
    let (x, c) = (ctx.operand(sh, 0), ctx.operand(sh, 1));
    let Some(cattr) = constant_value(ctx, c) else {
        return false;
    };
    let Some(amount) = super::int_const(ctx, c) else {
        return false;
    };
    let (Some(wx), Some(wt)) = (
        int_width(ctx, ctx.value_type(x)),
        int_width(ctx, result_ty(ctx, op)),
    ) else {
        return false;
    };
    if wx <= wt || amount.zext() != (wx - wt) as u64 {
        return false;
    }
    let flags = overflow_bits(ctx, op) & NUW;
    let (xt, ty) = (ctx.value_type(x), result_ty(ctx, op));
    let ct = ctx.value_type(c);
    let cop = ctx.defining_op(c).unwrap_or(sh);
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, cop]));
    let Some(c2) = super::create_constant(rw, op, cattr, ct, loc) else {
        return false;
    };
    let shr = create_elementwise(rw, op, names::SHRUI, &[x, c2], xt, loc, &[]);
    let flags = rw.intern(|ctx| FlagKind::Overflow.attr(ctx, flags));
    let r = create_elementwise(
        rw,
        op,
        names::TRUNCI,
        &[shr],
        ty,
        loc,
        &[(FlagKind::Overflow.prop_name(), flags)],
    );
    rw.replace_op(op, &[r]);
    true
}

/// `truncf(extf a)` -> `truncf a` in place when `a` is wider than the result: the extension is
/// exact (upstream TruncFOp::fold; the `a` of the result type case is a fold).
pub fn truncf_of_extf(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    use crate::consts::float_kind;
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 1) else {
        return false;
    };
    let Some(e) = def_by(ctx, v[0], names::EXTF, 1) else {
        return false;
    };
    let a = ctx.operand(e, 0);
    let (Some(src), Some(dst)) = (
        float_kind(ctx, ctx.value_type(a)),
        float_kind(ctx, result_ty(ctx, op)),
    ) else {
        return false;
    };
    if src.width() <= dst.width() {
        return false;
    }
    rw.set_operand(op, 0, a);
    true
}

/// `truncf(sitofp x)` -> `sitofp x` and `truncf(uitofp x)` -> `uitofp x` to the narrow type,
/// without a rounding mode (upstream TruncFSIToFPToSIToFP/TruncFUIToFPToUIToFP). Upstream
/// rewrites any width; ours only where rounding twice is rounding once (an i32 just above a tie
/// of bf16 can round onto the tie in f32, then to even: i32 -> f32 -> bf16 differs from i32 ->
/// bf16).
pub fn truncf_of_itofp(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    use crate::consts::{float_kind, int_width};
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 1) else {
        return false;
    };
    if ctx.prop_or_attr(op, "roundingmode").is_some() {
        return false;
    }
    for conv in [names::SITOFP, names::UITOFP] {
        let Some(c) = def_by(ctx, v[0], conv, 1) else {
            continue;
        };
        let x = ctx.operand(c, 0);
        let (Some(w), Some(mid)) = (
            int_width(ctx, ctx.value_type(x)),
            float_kind(ctx, ctx.value_type(v[0])),
        ) else {
            return false;
        };
        // Rounding twice is rounding once when the first is exact (x fits the wide type), or
        // when every integer the first rounds overflows the narrow type anyway (f16: 65520 and
        // up are its infinity, and f32 and f64 are exact below 2^24).
        let Some(narrow) = float_kind(ctx, result_ty(ctx, op)) else {
            return false;
        };
        let overflow_first = narrow == qd_ir::FloatKind::F16 && super::cmp::precision(mid) >= 17;
        if w as i32 > super::cmp::precision(mid) && !overflow_first {
            return false;
        }
        let ty = result_ty(ctx, op);
        let loc = rw.intern(|ctx| fused_loc(ctx, &[op, c]));
        let r = create_elementwise(rw, op, conv, &[x], ty, loc, &[]);
        rw.replace_op(op, &[r]);
        return true;
    }
    false
}
