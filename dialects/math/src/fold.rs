//! Folders of math's ops, as upstream's (MathOps.cpp, LLVM 22): the transcendental functions
//! fold f32 through the host libm's f32 functions and f64 through its f64 ones, other widths not
//! at all, and keep what libm returns (a NaN it makes is the host's, negative on x86, as in
//! mlir-opt); log, log2, log10 and sqrt leave a negative operand alone (sign bit set: -0.0 and
//! negative NaNs too). The exact operations (absf, floor, ceil,
//! roundeven, copysign, the classifications, absi) fold at every width, absf and copysign
//! keeping a NaN's bits.

use crate::host;
use qd_arith::consts::{float_kind, in_precision, IntVal};
use qd_arith::fold::{const_float, int_nary, result_type};
use qd_ir::{Attribute, Context, FloatKind, FoldResult, OpId};

pub type Folded = Option<Vec<FoldResult>>;

/// Whether the first constant operand has its sign bit set (-0.0 and negative NaNs included):
/// upstream's `APFloat::isNegative`, where log, log2, log10 and sqrt do not fold.
fn negative_input(ctx: &Context, c: &[Option<Attribute>]) -> bool {
    const_float(ctx, c, 0).is_some_and(f64::is_sign_negative)
}

/// Folds a libm function of f32 or f64 constants (the result type's), keeping libm's result.
fn float_nary(
    ctx: &mut Context,
    op: OpId,
    c: &[Option<Attribute>],
    f32op: fn(&[f32]) -> f32,
    f64op: fn(&[f64]) -> f64,
) -> Folded {
    let ty = result_type(ctx, op)?;
    let kind = float_kind(ctx, ty)?;
    if !matches!(kind, FloatKind::F32 | FloatKind::F64) {
        return None;
    }
    let vals: Vec<f64> = (0..ctx.num_operands(op))
        .map(|i| const_float(ctx, c, i))
        .collect::<Option<_>>()?;
    let v = in_precision(kind, &vals, f32op, f64op);
    Some(vec![FoldResult::Attr(ctx.float_attr(v, ty))])
}

/// `x` with the quiet bit set when it is a NaN: APFloat's rounding to an integral value quietens
/// a signaling NaN (the C functions may return it as it is).
fn quiet(x: f64) -> f64 {
    if x.is_nan() {
        f64::from_bits(x.to_bits() | 1 << 51)
    } else {
        x
    }
}

/// Folds an exact operation at every width, computing in f64 (where every narrower value and
/// NaN payload fits, so sign operations keep a NaN's bits).
fn exact_nary(
    ctx: &mut Context,
    op: OpId,
    c: &[Option<Attribute>],
    f: fn(&[f64]) -> f64,
) -> Folded {
    let ty = result_type(ctx, op)?;
    float_kind(ctx, ty)?;
    let vals: Vec<f64> = (0..ctx.num_operands(op))
        .map(|i| const_float(ctx, c, i))
        .collect::<Option<_>>()?;
    Some(vec![FoldResult::Attr(ctx.float_attr(f(&vals), ty))])
}

pub fn fold_sin(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, |a| a[0].sin(), |a| a[0].sin())
}
pub fn fold_cos(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, |a| a[0].cos(), |a| a[0].cos())
}
pub fn fold_tan(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, |a| a[0].tan(), |a| a[0].tan())
}
pub fn fold_exp(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, |a| a[0].exp(), |a| a[0].exp())
}
pub fn fold_exp2(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, |a| a[0].exp2(), |a| a[0].exp2())
}
pub fn fold_log(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, |a| a[0].ln(), |a| a[0].ln())
}
pub fn fold_log2(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, |a| a[0].log2(), |a| a[0].log2())
}
pub fn fold_sqrt(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, |a| a[0].sqrt(), |a| a[0].sqrt())
}
/// Upstream has no rsqrt folder; ours stays because the derivative-rule tests evaluate every
/// op by folding (mlir-opt leaves `math.rsqrt` of a constant unfolded; ours folds it).
pub fn fold_rsqrt(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, |a| 1.0 / a[0].sqrt(), |a| 1.0 / a[0].sqrt())
}
pub fn fold_tanh(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, |a| a[0].tanh(), |a| a[0].tanh())
}
pub fn fold_powf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, |a| a[0].powf(a[1]), |a| a[0].powf(a[1]))
}
pub fn fold_atan2(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    // atan2(±0, ±0) is NaN (APFloat's default, positive) at every width, where C gives ±0 or ±pi.
    if let (Some(0.0), Some(0.0)) = (const_float(ctx, c, 0), const_float(ctx, c, 1)) {
        let ty = result_type(ctx, op)?;
        return Some(vec![FoldResult::Attr(ctx.float_attr(f64::NAN, ty))]);
    }
    float_nary(ctx, op, c, |a| a[0].atan2(a[1]), |a| a[0].atan2(a[1]))
}
pub fn fold_fma(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(
        ctx,
        op,
        c,
        |a| a[0].mul_add(a[1], a[2]),
        |a| a[0].mul_add(a[1], a[2]),
    )
}
// Exact in every precision: f16 and bf16 fold too.
pub fn fold_absf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    exact_nary(ctx, op, c, |a| a[0].abs())
}
pub fn fold_floor(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    exact_nary(ctx, op, c, |a| quiet(a[0].floor()))
}
pub fn fold_ceil(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    exact_nary(ctx, op, c, |a| quiet(a[0].ceil()))
}

// ----- the ops upstream added later: same rules ----------------------------------------------

/// A transcendental function folded in f32 and f64 only, for every input (a NaN result folds too,
/// as upstream's `acosh 0.5` does).
macro_rules! f32_f64_fold {
    ($name:ident, $f:ident) => {
        pub fn $name(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
            float_nary(ctx, op, c, |a| a[0].$f(), |a| a[0].$f())
        }
    };
}

f32_f64_fold!(fold_asin, asin);
f32_f64_fold!(fold_acos, acos);
f32_f64_fold!(fold_atan, atan);
f32_f64_fold!(fold_sinh, sinh);
f32_f64_fold!(fold_cosh, cosh);
f32_f64_fold!(fold_expm1, exp_m1);
// Upstream's trunc and round fold through `truncf`/`roundf` and `trunc`/`round`: f32 and f64 only.
// As mlir-opt's truncf/roundf: a signaling NaN comes back quiet.
pub fn fold_trunc(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(
        ctx,
        op,
        c,
        |a| quiet32(a[0].trunc()),
        |a| quiet(a[0].trunc()),
    )
}
pub fn fold_round(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(
        ctx,
        op,
        c,
        |a| quiet32(a[0].round()),
        |a| quiet(a[0].round()),
    )
}

fn quiet32(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(x.to_bits() | 1 << 22)
    } else {
        x
    }
}

/// A function Rust's std does not take from the host libm: called there directly.
macro_rules! host_fold {
    ($name:ident, $f32:ident, $f64:ident) => {
        pub fn $name(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
            float_nary(ctx, op, c, |a| host::$f32(a[0]), |a| host::$f64(a[0]))
        }
    };
}

host_fold!(fold_erf, erff, erf);
host_fold!(fold_erfc, erfcf, erfc);
host_fold!(fold_asinh, asinhf, asinh);
host_fold!(fold_acosh, acoshf, acosh);
host_fold!(fold_atanh, atanhf, atanh);

/// Whether the first constant operand has its sign bit set (-0.0 and negative NaNs included):
/// upstream's `APFloat::isNegative`.
fn sign_negative(ctx: &Context, c: &[Option<Attribute>]) -> bool {
    const_float(ctx, c, 0).is_some_and(f64::is_sign_negative)
}

pub fn fold_log10(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if sign_negative(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, |a| a[0].log10(), |a| a[0].log10())
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
    float_nary(ctx, op, c, |a| a[0].ln_1p(), |a| a[0].ln_1p())
}

// Exact in every precision: f16 and bf16 fold too.
pub fn fold_roundeven(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    exact_nary(ctx, op, c, |a| quiet(a[0].round_ties_even()))
}
pub fn fold_copysign(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    exact_nary(ctx, op, c, |a| a[0].copysign(a[1]))
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
