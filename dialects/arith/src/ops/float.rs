//! Floating-point arithmetic ops. Folds compute in the type's precision (f32 in f32); identities
//! are only those exact for every input, NaNs and signed zeros included (so `x - x` and `x * 0`
//! do not fold).

use crate::consts::fold_value;
use crate::elementwise::ElementwiseDef;
use crate::fold::{binary, float_nary};
use crate::names;
use crate::patterns::{ConstantToRhs, NegFNegF};
use crate::verify::TypeClass::Float;
use qd_ir::rewrite::RewritePattern;
use qd_ir::{Attribute, Context, FoldResult, OpId, OpInfo};

type Folded = Option<Vec<FoldResult>>;
type Patterns = Vec<Box<dyn RewritePattern>>;

static ADDF: &ElementwiseDef =
    &ElementwiseDef::same(names::ADDF, "floating point addition", 2, Float)
        .fastmath()
        .commutative()
        .fold(fold_addf)
        .patterns(addf_patterns);
static SUBF: &ElementwiseDef =
    &ElementwiseDef::same(names::SUBF, "floating point subtraction", 2, Float)
        .fastmath()
        .fold(fold_subf);
static MULF: &ElementwiseDef =
    &ElementwiseDef::same(names::MULF, "floating point multiplication", 2, Float)
        .fastmath()
        .commutative()
        .fold(fold_mulf)
        .patterns(mulf_patterns);
static DIVF: &ElementwiseDef =
    &ElementwiseDef::same(names::DIVF, "floating point division", 2, Float)
        .fastmath()
        .fold(fold_divf);
static REMF: &ElementwiseDef =
    &ElementwiseDef::same(names::REMF, "floating point remainder (fmod)", 2, Float)
        .fastmath()
        .fold(fold_remf);
static NEGF: &ElementwiseDef =
    &ElementwiseDef::same(names::NEGF, "floating point negation", 1, Float)
        .fastmath()
        .fold(fold_negf)
        .patterns(negf_patterns);
static MINIMUMF: &ElementwiseDef = &ElementwiseDef::same(
    names::MINIMUMF,
    "floating point minimum, NaN-propagating",
    2,
    Float,
)
.fastmath()
.commutative()
.fold(fold_minimumf)
.patterns(minimumf_patterns);
static MAXIMUMF: &ElementwiseDef = &ElementwiseDef::same(
    names::MAXIMUMF,
    "floating point maximum, NaN-propagating",
    2,
    Float,
)
.fastmath()
.commutative()
.fold(fold_maximumf)
.patterns(maximumf_patterns);

/// The float ops, in registration order.
pub fn ops() -> Vec<OpInfo> {
    [
        &ADDF, &SUBF, &MULF, &DIVF, &REMF, &NEGF, &MINIMUMF, &MAXIMUMF,
    ]
    .into_iter()
    .map(ElementwiseDef::op_info)
    .collect()
}

fn addf_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::ADDF)));
}
fn mulf_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MULF)));
}
fn minimumf_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MINIMUMF)));
}
fn maximumf_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MAXIMUMF)));
}
fn negf_patterns(v: &mut Patterns) {
    v.push(Box::new(NegFNegF));
}

/// Whether the right operand is the constant `k` (bit for bit: -0.0 and 0.0 differ).
fn rhs_is(ctx: &Context, op: OpId, c: &[Option<Attribute>], k: f64) -> Option<qd_ir::Value> {
    let b = binary(ctx, op, c)?;
    (b.rhs_float(ctx)?.to_bits() == k.to_bits()).then_some(b.lhs)
}

fn fold_addf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0] + a[1], |a| a[0] + a[1])
        .or_else(|| fold_value(rhs_is(ctx, op, c, -0.0)?))
}

fn fold_subf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0] - a[1], |a| a[0] - a[1])
        .or_else(|| fold_value(rhs_is(ctx, op, c, 0.0)?))
}

fn fold_mulf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0] * a[1], |a| a[0] * a[1])
        .or_else(|| fold_value(rhs_is(ctx, op, c, 1.0)?))
}

fn fold_divf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| a[0] / a[1], |a| a[0] / a[1])
        .or_else(|| fold_value(rhs_is(ctx, op, c, 1.0)?))
}

fn fold_remf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    // Rust's float `%` is C's fmod, upstream's remf; it is exact, so f16 may fold through f64.
    float_nary(ctx, op, c, true, |a| a[0] % a[1], |a| a[0] % a[1])
}

fn fold_negf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    float_nary(ctx, op, c, true, |a| -a[0], |a| -a[0])
}

/// IEEE 754-2019 minimum: NaN if either is NaN, and -0 below +0.
pub fn minimum(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a == b {
        if a.is_sign_negative() {
            a
        } else {
            b
        }
    } else {
        a.min(b)
    }
}

/// IEEE 754-2019 maximum: NaN if either is NaN, and +0 above -0.
pub fn maximum(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a == b {
        if a.is_sign_negative() {
            b
        } else {
            a
        }
    } else {
        a.max(b)
    }
}

fn fold_minimumf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.lhs == b.rhs {
        return fold_value(b.lhs);
    }
    // Exact in every precision: the result is one of the operands.
    float_nary(
        ctx,
        op,
        c,
        true,
        |a| minimum(a[0] as f64, a[1] as f64) as f32,
        |a| minimum(a[0], a[1]),
    )
}

fn fold_maximumf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.lhs == b.rhs {
        return fold_value(b.lhs);
    }
    float_nary(
        ctx,
        op,
        c,
        true,
        |a| maximum(a[0] as f64, a[1] as f64) as f32,
        |a| maximum(a[0], a[1]),
    )
}
