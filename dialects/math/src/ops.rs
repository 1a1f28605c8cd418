//! The table of math's ops: each op's shape, flags, folder and derivative rule, defined once
//! through arith's [`ElementwiseDef`].

use crate::fold::*;
use crate::names;
use crate::reverse::*;
use qd_arith::elementwise::ElementwiseDef;
use qd_arith::TypeClass::{Float, IntLike};
use qd_ir::OpInfo;

const fn unary(name: &'static str, summary: &'static str) -> ElementwiseDef {
    ElementwiseDef::same(name, summary, 1, Float).fastmath()
}

static SIN: &ElementwiseDef = &unary(names::SIN, "sine").fold(fold_sin).reverse(&SIN_RULE);
static COS: &ElementwiseDef = &unary(names::COS, "cosine")
    .fold(fold_cos)
    .reverse(&COS_RULE);
static TAN: &ElementwiseDef = &unary(names::TAN, "tangent")
    .fold(fold_tan)
    .reverse(&TAN_RULE);
static EXP: &ElementwiseDef = &unary(names::EXP, "base-e exponential")
    .fold(fold_exp)
    .reverse(&EXP_RULE);
static EXP2: &ElementwiseDef = &unary(names::EXP2, "base-2 exponential")
    .fold(fold_exp2)
    .reverse(&EXP2_RULE);
static LOG: &ElementwiseDef = &unary(names::LOG, "natural logarithm")
    .fold(fold_log)
    .reverse(&LOG_RULE);
static LOG2: &ElementwiseDef = &unary(names::LOG2, "base-2 logarithm")
    .fold(fold_log2)
    .reverse(&LOG2_RULE);
static SQRT: &ElementwiseDef = &unary(names::SQRT, "square root")
    .fold(fold_sqrt)
    .reverse(&SQRT_RULE);
static RSQRT: &ElementwiseDef = &unary(names::RSQRT, "reciprocal of the square root")
    .fold(fold_rsqrt)
    .reverse(&RSQRT_RULE);
static TANH: &ElementwiseDef = &unary(names::TANH, "hyperbolic tangent")
    .fold(fold_tanh)
    .reverse(&TANH_RULE);
static POWF: &ElementwiseDef =
    &ElementwiseDef::same(names::POWF, "x raised to the power y", 2, Float)
        .fastmath()
        .fold(fold_powf)
        .reverse(&POWF_RULE);
static ATAN2: &ElementwiseDef =
    &ElementwiseDef::same(names::ATAN2, "arctangent of y/x by quadrant", 2, Float)
        .fastmath()
        .fold(fold_atan2)
        .reverse(&ATAN2_RULE);
static ABSF: &ElementwiseDef = &unary(names::ABSF, "absolute value")
    .fold(fold_absf)
    .reverse(&ABSF_RULE);
static FLOOR: &ElementwiseDef = &unary(names::FLOOR, "round toward negative infinity")
    .fold(fold_floor)
    .reverse(&ZERO_DERIVATIVE);
static CEIL: &ElementwiseDef = &unary(names::CEIL, "round toward positive infinity")
    .fold(fold_ceil)
    .reverse(&ZERO_DERIVATIVE);
static FMA: &ElementwiseDef = &ElementwiseDef::same(
    names::FMA,
    "fused multiply-add: a * b + c, rounded once",
    3,
    Float,
)
.fastmath()
.fold(fold_fma)
.reverse(&FMA_RULE);

static ASIN: &ElementwiseDef = &unary(names::ASIN, "arcsine")
    .fold(fold_asin)
    .reverse(&ASIN_RULE);
static ACOS: &ElementwiseDef = &unary(names::ACOS, "arccosine")
    .fold(fold_acos)
    .reverse(&ACOS_RULE);
static ATAN: &ElementwiseDef = &unary(names::ATAN, "arctangent")
    .fold(fold_atan)
    .reverse(&ATAN_RULE);
static SINH: &ElementwiseDef = &unary(names::SINH, "hyperbolic sine")
    .fold(fold_sinh)
    .reverse(&SINH_RULE);
static COSH: &ElementwiseDef = &unary(names::COSH, "hyperbolic cosine")
    .fold(fold_cosh)
    .reverse(&COSH_RULE);
static ASINH: &ElementwiseDef = &unary(names::ASINH, "inverse hyperbolic sine")
    .fold(fold_asinh)
    .reverse(&ASINH_RULE);
static ACOSH: &ElementwiseDef = &unary(names::ACOSH, "inverse hyperbolic cosine")
    .fold(fold_acosh)
    .reverse(&ACOSH_RULE);
static ATANH: &ElementwiseDef = &unary(names::ATANH, "inverse hyperbolic tangent")
    .fold(fold_atanh)
    .reverse(&ATANH_RULE);
static LOG1P: &ElementwiseDef = &unary(names::LOG1P, "natural logarithm of one plus the operand")
    .fold(fold_log1p)
    .reverse(&LOG1P_RULE);
static EXPM1: &ElementwiseDef = &unary(names::EXPM1, "base-e exponential minus one")
    .fold(fold_expm1)
    .reverse(&EXPM1_RULE);
static LOG10: &ElementwiseDef = &unary(names::LOG10, "base-10 logarithm")
    .fold(fold_log10)
    .reverse(&LOG10_RULE);
static ERF: &ElementwiseDef = &unary(names::ERF, "error function")
    .fold(fold_erf)
    .reverse(&ERF_RULE);
static ERFC: &ElementwiseDef = &unary(names::ERFC, "complementary error function")
    .fold(fold_erfc)
    .reverse(&ERFC_RULE);
// Upstream does not fold cbrt.
static CBRT: &ElementwiseDef = &unary(names::CBRT, "cube root").reverse(&CBRT_RULE);
static COPYSIGN: &ElementwiseDef = &ElementwiseDef::same(
    names::COPYSIGN,
    "magnitude of a with the sign of b",
    2,
    Float,
)
.fastmath()
.fold(fold_copysign)
.reverse(&COPYSIGN_RULE);
// Upstream does not fold fpowi.
static FPOWI: &ElementwiseDef = &ElementwiseDef::mixed(
    names::FPOWI,
    "float raised to a signless integer power",
    Float,
    IntLike,
)
.fastmath()
.reverse(&FPOWI_RULE);
static TRUNC: &ElementwiseDef = &unary(names::TRUNC, "round toward zero")
    .fold(fold_trunc)
    .reverse(&ZERO_DERIVATIVE);
static ROUND: &ElementwiseDef = &unary(names::ROUND, "round to nearest, ties away from zero")
    .fold(fold_round)
    .reverse(&ZERO_DERIVATIVE);
static ROUNDEVEN: &ElementwiseDef = &unary(names::ROUNDEVEN, "round to nearest, ties to even")
    .fold(fold_roundeven)
    .reverse(&ZERO_DERIVATIVE);
static ABSI: &ElementwiseDef =
    &ElementwiseDef::same(names::ABSI, "integer absolute value", 1, IntLike).fold(fold_absi);
static ISNAN: &ElementwiseDef =
    &ElementwiseDef::test(names::ISNAN, "whether the operand is a NaN", Float)
        .fastmath_in_dict()
        .fold(fold_isnan);
static ISINF: &ElementwiseDef =
    &ElementwiseDef::test(names::ISINF, "whether the operand is infinite", Float)
        .fastmath_in_dict()
        .fold(fold_isinf);
static ISFINITE: &ElementwiseDef = &ElementwiseDef::test(
    names::ISFINITE,
    "whether the operand is neither infinite nor NaN",
    Float,
)
.fastmath_in_dict()
.fold(fold_isfinite);

/// Every math op, in registration order.
pub fn ops() -> Vec<OpInfo> {
    [
        &SIN, &COS, &TAN, &EXP, &EXP2, &LOG, &LOG2, &SQRT, &RSQRT, &TANH, &POWF, &ATAN2, &ABSF,
        &FLOOR, &CEIL, &FMA, &ASIN, &ACOS, &ATAN, &SINH, &COSH, &ASINH, &ACOSH, &ATANH, &LOG1P,
        &EXPM1, &LOG10, &ERF, &ERFC, &CBRT, &COPYSIGN, &FPOWI, &TRUNC, &ROUND, &ROUNDEVEN, &ABSI,
        &ISNAN, &ISINF, &ISFINITE,
    ]
    .into_iter()
    .map(ElementwiseDef::op_info)
    .collect()
}
