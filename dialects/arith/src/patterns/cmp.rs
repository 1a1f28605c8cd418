//! Patterns of `arith.cmpi` and `arith.cmpf`.

use super::{create_constant, def_by, fused_loc, operands_n};
use crate::consts::{constant_value, float_kind, int_width, IntVal};
use crate::names;
use crate::ops::cmp::{CmpFOp, CmpIOp};
use crate::predicates::{CmpFPredicate, CmpIPredicate};
use qd_ir::rewrite::Rewriter;
use qd_ir::{Location, OpId, Value};

/// Creates `arith.cmpi pred, a, b` before `anchor`.
pub fn create_cmpi(
    rw: &mut Rewriter<'_>,
    anchor: OpId,
    pred: CmpIPredicate,
    a: Value,
    b: Value,
    loc: Location,
) -> Value {
    let state = rw.intern(|ctx| {
        let i64t = ctx.i64_type();
        let i1 = ctx.i1_type();
        let p = ctx.integer_attr(pred as i64, i64t);
        qd_ir::OperationState::new(names::CMPI, loc)
            .operands(&[a, b])
            .results(&[i1])
            .prop(ctx, "predicate", p)
    });
    let op = rw.create_before(anchor, state);
    rw.ctx().result(op, 0)
}

/// `cmpi(p, c, x)` -> `cmpi(p.swapped(), x, c)` for a constant `c` and a non-constant `x`, in
/// place (upstream's CmpIOp::fold moves constants right; cmpi is not commutative, so the
/// predicate is mirrored, not negated: slt <-> sgt, eq stays eq).
pub fn cmpi_constant_to_rhs(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 2) else {
        return false;
    };
    let Some(pred) = CmpIOp(op).predicate(ctx) else {
        return false;
    };
    if constant_value(ctx, v[0]).is_none() || constant_value(ctx, v[1]).is_some() {
        return false;
    }
    let p = rw.intern(|ctx| {
        let i64t = ctx.i64_type();
        ctx.integer_attr(pred.swapped() as i64, i64t)
    });
    rw.modify_op_in_place(op, |ctx| {
        ctx.set_operand(op, 0, v[1]);
        ctx.set_operand(op, 1, v[0]);
        ctx.set_prop(op, "predicate", p);
    });
    true
}

/// `cmpi(eq|ne, ext a, ext b)` -> `cmpi(eq|ne, a, b)` for two extensions of one kind from one
/// type (upstream CmpIExtSI/CmpIExtUI): extensions are injective. Other predicates stay (a sign
/// extension does not keep unsigned order, nor a zero extension signed order).
fn cmpi_of_exts(op: OpId, rw: &mut Rewriter<'_>, ext: &str) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 2) else {
        return false;
    };
    let Some(pred) = CmpIOp(op).predicate(ctx) else {
        return false;
    };
    if !matches!(pred, CmpIPredicate::Eq | CmpIPredicate::Ne) {
        return false;
    }
    let (Some(ea), Some(eb)) = (def_by(ctx, v[0], ext, 1), def_by(ctx, v[1], ext, 1)) else {
        return false;
    };
    let (a, b) = (ctx.operand(ea, 0), ctx.operand(eb, 0));
    if ctx.value_type(a) != ctx.value_type(b) {
        return false;
    }
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, ea, eb]));
    let new = create_cmpi(rw, op, pred, a, b, loc);
    rw.replace_op(op, &[new]);
    true
}

pub fn cmpi_of_extsi(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    cmpi_of_exts(op, rw, names::EXTSI)
}

pub fn cmpi_of_extui(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    cmpi_of_exts(op, rw, names::EXTUI)
}

/// Bits of precision of a float kind (APFloat's `semanticsPrecision`, MLIR's mantissa width).
pub(crate) fn precision(kind: qd_ir::FloatKind) -> i32 {
    match kind {
        qd_ir::FloatKind::F16 => 11,
        qd_ir::FloatKind::BF16 => 8,
        qd_ir::FloatKind::F32 => 24,
        qd_ir::FloatKind::F64 => 53,
    }
}

/// The exponent of the largest finite value of a float kind.
fn max_exponent(kind: qd_ir::FloatKind) -> i32 {
    match kind {
        qd_ir::FloatKind::F16 => 15,
        qd_ir::FloatKind::BF16 | qd_ir::FloatKind::F32 => 127,
        qd_ir::FloatKind::F64 => 1023,
    }
}

/// `ilogb` of a finite non-zero value: the exponent of its leading bit.
fn ilogb(v: f64) -> i32 {
    let bits = v.abs().to_bits();
    let e = ((bits >> 52) & 0x7FF) as i32;
    if e == 0 {
        // An f64 subnormal (no value of a narrower kind is one).
        -1022 - (bits.leading_zeros() as i32 - 12)
    } else {
        e - 1023
    }
}

/// Integer `x` rounded to nearest-even in float kind `kind`. Through f64 for the narrow kinds,
/// exact for the values used here (0, and 2^k or 2^k - 1, whose f64 rounding is never a tie
/// of the narrow kind).
fn int_to_kind(kind: qd_ir::FloatKind, x: i128) -> f64 {
    match kind {
        qd_ir::FloatKind::F32 => x as f32 as f64,
        _ => qd_ir::float::round_to_kind(kind, x as f64),
    }
}

/// `cmpf(p, sitofp|uitofp x, c)` -> `cmpi(p', x, int c)` or a constant, for a constant `c` that
/// is not NaN (upstream CmpFIntToFPConst, after LLVM's InstCombine): not when the conversion may
/// round `x` in a way that changes the comparison; ord/uno fold (a converted integer is never
/// NaN); constants beyond the integer range fold; fractional constants fold (eq/ne) or turn
/// strict/non-strict as the integer rounding toward zero needs.
pub fn cmpf_int_to_fp_const(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    use CmpIPredicate as I;
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 2) else {
        return false;
    };
    let Some(fpred) = CmpFOp(op).predicate(ctx) else {
        return false;
    };
    let Some(rhs) = constant_value(ctx, v[1]).and_then(|a| ctx.attr_data(a).as_float()) else {
        return false;
    };
    if rhs.is_nan() {
        return false;
    }
    let Some(kind) = float_kind(ctx, ctx.value_type(v[1])) else {
        return false;
    };
    let (conv, unsigned) = if let Some(c) = def_by(ctx, v[0], names::SITOFP, 1) {
        (c, false)
    } else if let Some(c) = def_by(ctx, v[0], names::UITOFP, 1) {
        (c, true)
    } else {
        return false;
    };
    let x = ctx.operand(conv, 0);
    let int_ty = ctx.value_type(x);
    let Some(w) = int_width(ctx, int_ty).filter(|w| *w > 0) else {
        return false;
    };
    let mant = precision(kind);
    let value_bits = if unsigned { w as i32 } else { w as i32 - 1 };
    if w as i32 > mant {
        // The conversion may round x: give up where that could change the comparison.
        if rhs.is_infinite() {
            if max_exponent(kind) < value_bits {
                return false;
            }
        } else if rhs != 0.0 {
            let e = ilogb(rhs);
            if mant <= e && e <= value_bits {
                return false;
            }
        }
    }
    let loc = ctx.loc(op);
    let pred = match fpred {
        CmpFPredicate::Ord => return replace_with_bool(rw, op, true, loc),
        CmpFPredicate::Uno => return replace_with_bool(rw, op, false, loc),
        CmpFPredicate::Ueq | CmpFPredicate::Oeq => I::Eq,
        CmpFPredicate::Ugt | CmpFPredicate::Ogt => pick(unsigned, I::Ugt, I::Sgt),
        CmpFPredicate::Uge | CmpFPredicate::Oge => pick(unsigned, I::Uge, I::Sge),
        CmpFPredicate::Ult | CmpFPredicate::Olt => pick(unsigned, I::Ult, I::Slt),
        CmpFPredicate::Ule | CmpFPredicate::Ole => pick(unsigned, I::Ule, I::Sle),
        CmpFPredicate::Une | CmpFPredicate::One => I::Ne,
        // `false` and `true` fold; upstream asserts they never get here.
        CmpFPredicate::AlwaysFalse | CmpFPredicate::AlwaysTrue => return false,
    };
    let (min, max): (i128, i128) = if unsigned {
        (0, (1i128 << w) - 1)
    } else {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    };
    // Constants above the range: x < c for every x.
    if int_to_kind(kind, max) < rhs {
        let t = matches!(pred, I::Ne | I::Slt | I::Sle | I::Ult | I::Ule);
        return replace_with_bool(rw, op, t, loc);
    }
    // Below it: x > c.
    if int_to_kind(kind, min) > rhs {
        let t = matches!(pred, I::Ne | I::Sgt | I::Sge | I::Ugt | I::Uge);
        return replace_with_bool(rw, op, t, loc);
    }
    // rhs rounded toward zero must fit the integer type (it may not where the range's bound
    // rounded up in the float kind: upstream gives up there too).
    let t = rhs.trunc();
    if !(t >= min as f64 && t <= max as f64) || t as i128 > max || (t as i128) < min {
        return false;
    }
    let mut pred = pred;
    let rhs_int = t as i128;
    if rhs != 0.0 && rhs_int as f64 != rhs {
        // A fractional constant: adjust, knowing rhs_int is rhs rounded toward zero.
        let neg = rhs < 0.0;
        match pred {
            I::Ne => return replace_with_bool(rw, op, true, loc),
            I::Eq => return replace_with_bool(rw, op, false, loc),
            I::Ule if neg => return replace_with_bool(rw, op, false, loc),
            I::Sle if neg => pred = I::Slt,
            I::Ult if neg => return replace_with_bool(rw, op, false, loc),
            I::Ult => pred = I::Ule,
            I::Slt if !neg => pred = I::Sle,
            I::Ugt if neg => return replace_with_bool(rw, op, true, loc),
            I::Sgt if neg => pred = I::Sge,
            I::Uge if neg => return replace_with_bool(rw, op, true, loc),
            I::Uge => pred = I::Ugt,
            I::Sge if !neg => pred = I::Sgt,
            _ => {}
        }
    }
    let attr = rw.intern(|ctx| IntVal::new(rhs_int as i64, w).to_attr(ctx, int_ty));
    let Some(c) = create_constant(rw, op, attr, int_ty, loc) else {
        return false;
    };
    let new = create_cmpi(rw, op, pred, x, c, loc);
    rw.replace_op(op, &[new]);
    true
}

fn pick(unsigned: bool, u: CmpIPredicate, s: CmpIPredicate) -> CmpIPredicate {
    if unsigned {
        u
    } else {
        s
    }
}

/// Replaces `op` by a new `arith.constant true|false`.
fn replace_with_bool(rw: &mut Rewriter<'_>, op: OpId, b: bool, loc: Location) -> bool {
    let (attr, ty) = rw.intern(|ctx| (ctx.bool_attr(b), ctx.i1_type()));
    let Some(c) = create_constant(rw, op, attr, ty, loc) else {
        return false;
    };
    rw.replace_op(op, &[c]);
    true
}
