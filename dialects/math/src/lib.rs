//! Upstream MLIR's math dialect (the subset kernels need): ops, verifiers, folders, custom
//! syntax. Every op is a float elementwise op with a `fastmath` property
//! (`%r = math.sin %a fastmath<fast> : f32`), defined once in the table below through arith's
//! [`ElementwiseDef`]. Constants are `arith.constant`s: the dialect materializes through arith.
//!
//! Folds follow upstream: f32 through the f32 libm functions, f64 through the f64 ones, other
//! widths not at all, except `absf`, `floor` and `ceil` which are exact everywhere. The logarithms
//! and square roots of negative numbers are left alone (as upstream does).

use qd_arith::elementwise::ElementwiseDef;
use qd_arith::fold::{const_float, float_nary};
use qd_arith::TypeClass::Float;
use qd_ir::{Attribute, Context, DialectDef, FoldResult, OpId, OpInfo};

#[cfg(test)]
mod tests;

/// The full names of math's ops.
pub mod names {
    pub const SIN: &str = "math.sin";
    pub const COS: &str = "math.cos";
    pub const TAN: &str = "math.tan";
    pub const EXP: &str = "math.exp";
    pub const EXP2: &str = "math.exp2";
    pub const LOG: &str = "math.log";
    pub const LOG2: &str = "math.log2";
    pub const SQRT: &str = "math.sqrt";
    pub const RSQRT: &str = "math.rsqrt";
    pub const TANH: &str = "math.tanh";
    pub const POWF: &str = "math.powf";
    pub const ATAN2: &str = "math.atan2";
    pub const ABSF: &str = "math.absf";
    pub const FLOOR: &str = "math.floor";
    pub const CEIL: &str = "math.ceil";
    pub const FMA: &str = "math.fma";
}

type Folded = Option<Vec<FoldResult>>;

const fn unary(name: &'static str, summary: &'static str) -> ElementwiseDef {
    ElementwiseDef::same(name, summary, 1, Float).fastmath()
}

static SIN: &ElementwiseDef = &unary(names::SIN, "sine").fold(fold_sin);
static COS: &ElementwiseDef = &unary(names::COS, "cosine").fold(fold_cos);
static TAN: &ElementwiseDef = &unary(names::TAN, "tangent").fold(fold_tan);
static EXP: &ElementwiseDef = &unary(names::EXP, "base-e exponential").fold(fold_exp);
static EXP2: &ElementwiseDef = &unary(names::EXP2, "base-2 exponential").fold(fold_exp2);
static LOG: &ElementwiseDef = &unary(names::LOG, "natural logarithm").fold(fold_log);
static LOG2: &ElementwiseDef = &unary(names::LOG2, "base-2 logarithm").fold(fold_log2);
static SQRT: &ElementwiseDef = &unary(names::SQRT, "square root").fold(fold_sqrt);
static RSQRT: &ElementwiseDef =
    &unary(names::RSQRT, "reciprocal of the square root").fold(fold_rsqrt);
static TANH: &ElementwiseDef = &unary(names::TANH, "hyperbolic tangent").fold(fold_tanh);
static POWF: &ElementwiseDef =
    &ElementwiseDef::same(names::POWF, "x raised to the power y", 2, Float)
        .fastmath()
        .fold(fold_powf);
static ATAN2: &ElementwiseDef =
    &ElementwiseDef::same(names::ATAN2, "arctangent of y/x by quadrant", 2, Float)
        .fastmath()
        .fold(fold_atan2);
static ABSF: &ElementwiseDef = &unary(names::ABSF, "absolute value").fold(fold_absf);
static FLOOR: &ElementwiseDef =
    &unary(names::FLOOR, "round toward negative infinity").fold(fold_floor);
static CEIL: &ElementwiseDef =
    &unary(names::CEIL, "round toward positive infinity").fold(fold_ceil);
static FMA: &ElementwiseDef = &ElementwiseDef::same(
    names::FMA,
    "fused multiply-add: a * b + c, rounded once",
    3,
    Float,
)
.fastmath()
.fold(fold_fma);

/// Every math op, in registration order.
pub fn ops() -> Vec<OpInfo> {
    [
        &SIN, &COS, &TAN, &EXP, &EXP2, &LOG, &LOG2, &SQRT, &RSQRT, &TANH, &POWF, &ATAN2, &ABSF,
        &FLOOR, &CEIL, &FMA,
    ]
    .into_iter()
    .map(ElementwiseDef::op_info)
    .collect()
}

/// The math dialect. Its constants are `arith.constant`s.
pub fn dialect() -> DialectDef {
    let mut d = DialectDef::new("math");
    d.ops = ops();
    d.materialize_constant = Some(qd_arith::materialize_constant);
    d
}

/// Registers math and the arith dialect it builds on.
pub fn register(ctx: &mut Context) {
    qd_arith::register(ctx);
    ctx.register_dialect(dialect());
}

/// Whether the first constant operand is negative (not NaN): where upstream does not fold.
fn negative_input(ctx: &Context, c: &[Option<Attribute>]) -> bool {
    const_float(ctx, c, 0).is_some_and(|v| v < 0.0)
}

fn fold_sin(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].sin(), |a| a[0].sin())
}
fn fold_cos(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].cos(), |a| a[0].cos())
}
fn fold_tan(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].tan(), |a| a[0].tan())
}
fn fold_exp(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].exp(), |a| a[0].exp())
}
fn fold_exp2(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].exp2(), |a| a[0].exp2())
}
fn fold_log(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, false, |a| a[0].ln(), |a| a[0].ln())
}
fn fold_log2(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, false, |a| a[0].log2(), |a| a[0].log2())
}
fn fold_sqrt(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if negative_input(ctx, c) {
        return None;
    }
    float_nary(ctx, op, c, false, |a| a[0].sqrt(), |a| a[0].sqrt())
}
fn fold_rsqrt(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
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
fn fold_tanh(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].tanh(), |a| a[0].tanh())
}
fn fold_powf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, false, |a| a[0].powf(a[1]), |a| a[0].powf(a[1]))
}
fn fold_atan2(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(
        ctx,
        op,
        c,
        false,
        |a| a[0].atan2(a[1]),
        |a| a[0].atan2(a[1]),
    )
}
fn fold_fma(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
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
fn fold_absf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0].abs(), |a| a[0].abs())
}
fn fold_floor(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0].floor(), |a| a[0].floor())
}
fn fold_ceil(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0].ceil(), |a| a[0].ceil())
}
