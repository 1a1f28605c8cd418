//! Folders of math's ops, as upstream's: the transcendental functions fold f32 through the f32
//! functions and f64 through the f64 ones and other widths not at all; the exact operations
//! (absf, floor, ceil, roundeven, copysign, the classifications, absi) fold at every width.

use qd_arith::fold::{const_float, float_nary};
use qd_ir::{Attribute, Context, FoldResult, OpId};

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
