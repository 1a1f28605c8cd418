//! Folders of math's ops, as upstream's: the transcendental functions fold f32 through the f32
//! functions and f64 through the f64 ones and other widths not at all; the exact operations
//! (absf, floor, ceil, roundeven, copysign, the classifications, absi) fold at every width.

use qd_arith::consts::{float_kind, IntVal};
use qd_arith::fold::{const_float, float_nary, int_nary, result_type};
use qd_ir::{Attribute, Context, FloatKind, FoldResult, OpId};

pub type Folded = Option<Vec<FoldResult>>;

/// Whether the first constant operand is negative (not NaN): where upstream does not fold.
fn negative_input(ctx: &Context, c: &[Option<Attribute>]) -> bool {
    const_float(ctx, c, 0).is_some_and(|v| v < 0.0)
}

pub fn fold_sin(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].sin(), |a| a[0].sin())
}
pub fn fold_cos(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].cos(), |a| a[0].cos())
}
pub fn fold_tan(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].tan(), |a| a[0].tan())
}
pub fn fold_exp(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].exp(), |a| a[0].exp())
}
pub fn fold_exp2(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].exp2(), |a| a[0].exp2())
}
pub fn fold_log(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, false, |a| a[0].ln(), |a| a[0].ln())
}
pub fn fold_log2(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, false, |a| a[0].log2(), |a| a[0].log2())
}
pub fn fold_sqrt(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, false, |a| a[0].sqrt(), |a| a[0].sqrt())
}
pub fn fold_rsqrt(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(
        ctx,
        op,
        c,
        false,
        |a| 1.0 / a[0].sqrt(),
        |a| 1.0 / a[0].sqrt(),
    )
}
pub fn fold_tanh(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].tanh(), |a| a[0].tanh())
}
pub fn fold_powf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].powf(a[1]), |a| a[0].powf(a[1]))
}
pub fn fold_atan2(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(
        ctx,
        op,
        c,
        false,
        |a| a[0].atan2(a[1]),
        |a| a[0].atan2(a[1]),
    )
}
pub fn fold_fma(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(
        ctx,
        op,
        c,
        false,
        |a| a[0].mul_add(a[1], a[2]),
        |a| a[0].mul_add(a[1], a[2]),
    )
}
// Exact in every precision: f16 and bf16 fold too.
pub fn fold_absf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0].abs(), |a| a[0].abs())
}
pub fn fold_floor(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0].floor(), |a| a[0].floor())
}
pub fn fold_ceil(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0].ceil(), |a| a[0].ceil())
}

// ----- the ops upstream added later: same rules ----------------------------------------------

/// A transcendental function folded in f32 and f64 only, for every input (a NaN result folds too,
/// as upstream's `acosh 0.5` does).
macro_rules! f32_f64_fold {
    ($name:ident, $f:ident) => {
        pub fn $name(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
            float_nary(ctx, op, c, false, |a| a[0].$f(), |a| a[0].$f())
        }
    };
}

f32_f64_fold!(fold_asin, asin);
f32_f64_fold!(fold_acos, acos);
f32_f64_fold!(fold_atan, atan);
f32_f64_fold!(fold_sinh, sinh);
f32_f64_fold!(fold_cosh, cosh);
f32_f64_fold!(fold_asinh, asinh);
f32_f64_fold!(fold_acosh, acosh);
f32_f64_fold!(fold_atanh, atanh);
f32_f64_fold!(fold_expm1, exp_m1);
// Upstream's trunc and round fold through `truncf`/`roundf` and `trunc`/`round`: f32 and f64 only.
f32_f64_fold!(fold_trunc, trunc);
f32_f64_fold!(fold_round, round);

pub fn fold_erf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| libm::erff(a[0]), |a| libm::erf(a[0]))
}
pub fn fold_erfc(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(
        ctx,
        op,
        c,
        false,
        |a| libm::erfcf(a[0]),
        |a| libm::erfc(a[0]),
    )
}

/// Whether the first constant operand has its sign bit set (-0.0 and negative NaNs included):
/// upstream's `APFloat::isNegative`.
fn sign_negative(ctx: &Context, c: &[Option<Attribute>]) -> bool {
    const_float(ctx, c, 0).is_some_and(f64::is_sign_negative)
}

pub fn fold_log10(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if sign_negative(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, false, |a| a[0].log10(), |a| a[0].log10())
}

/// Upstream leaves log1p alone where `a + 1`, computed in the operand's precision, is negative.
pub fn fold_log1p(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let kind = float_kind(ctx, result_type(ctx, op)?)?;
    let a = const_float(ctx, c, 0)?;
    let sum = match kind {
        FloatKind::F32 => (a as f32 + 1.0) as f64,
        _ => a + 1.0,
    };
    if sum.is_sign_negative() {
        return None;
    }
    float_nary(ctx, op, c, false, |a| a[0].ln_1p(), |a| a[0].ln_1p())
}

// Exact in every precision: f16 and bf16 fold too.
pub fn fold_roundeven(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(
        ctx,
        op,
        c,
        true,
        |a| a[0].round_ties_even(),
        |a| a[0].round_ties_even(),
    )
}
pub fn fold_copysign(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(
        ctx,
        op,
        c,
        true,
        |a| a[0].copysign(a[1]),
        |a| a[0].copysign(a[1]),
    )
}

/// `|a|` at the operand's width; the minimum value is its own absolute value (APInt's `abs`).
pub fn fold_absi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    int_nary(ctx, op, c, |v, w| {
        Some(IntVal::new(v[0].sext().wrapping_abs(), w))
    })
}

/// A classification of a constant at every width: the value's class does not depend on it.
fn classify(c: &[Option<Attribute>], ctx: &mut Context, test: fn(f64) -> bool) -> Folded {
    let a = const_float(ctx, c, 0)?;
    Some(vec![FoldResult::Attr(ctx.bool_attr(test(a)))])
}
pub fn fold_isnan(ctx: &mut Context, _: OpId, c: &[Option<Attribute>]) -> Folded {
    classify(c, ctx, f64::is_nan)
}
pub fn fold_isinf(ctx: &mut Context, _: OpId, c: &[Option<Attribute>]) -> Folded {
    classify(c, ctx, f64::is_infinite)
}
pub fn fold_isfinite(ctx: &mut Context, _: OpId, c: &[Option<Attribute>]) -> Folded {
    classify(c, ctx, f64::is_finite)
}
