//! Helpers for folders: bounds-checked operand access (a folder may see any generic op), constant
//! operands as integers or floats, and the common "all operands constant" folds.

use crate::consts::{float_kind, float_value, in_precision, int_width, IntVal};
use qd_ir::{Attribute, Context, FloatKind, FoldResult, OpId, OpTraits, Type, Value};

/// The type of the op's only result.
pub fn result_type(ctx: &Context, op: OpId) -> Option<Type> {
    (ctx.num_results(op) == 1).then(|| ctx.value_type(ctx.result(op, 0)))
}

/// Operand `i`, if the op has it.
pub fn operand(ctx: &Context, op: OpId, i: usize) -> Option<Value> {
    (i < ctx.num_operands(op)).then(|| ctx.operand(op, i))
}

/// The constant given for operand `i`.
pub fn const_attr(c: &[Option<Attribute>], i: usize) -> Option<Attribute> {
    c.get(i).copied().flatten()
}

pub fn const_int(ctx: &Context, c: &[Option<Attribute>], i: usize) -> Option<IntVal> {
    IntVal::from_attr(ctx, const_attr(c, i)?)
}

pub fn const_float(ctx: &Context, c: &[Option<Attribute>], i: usize) -> Option<f64> {
    float_value(ctx, const_attr(c, i)?)
}

/// The two operands of a binary op and their constants. For a commutative op with only the left
/// operand constant, the two are swapped so that identities need only look right.
#[derive(Copy, Clone, Debug)]
pub struct Binary {
    pub lhs: Value,
    pub rhs: Value,
    pub lhs_c: Option<Attribute>,
    pub rhs_c: Option<Attribute>,
}

pub fn binary(ctx: &Context, op: OpId, c: &[Option<Attribute>]) -> Option<Binary> {
    if ctx.num_operands(op) != 2 || ctx.num_results(op) != 1 {
        return None;
    }
    let mut b = Binary {
        lhs: ctx.operand(op, 0),
        rhs: ctx.operand(op, 1),
        lhs_c: const_attr(c, 0),
        rhs_c: const_attr(c, 1),
    };
    if ctx.has_trait(op, OpTraits::COMMUTATIVE) && b.lhs_c.is_some() && b.rhs_c.is_none() {
        std::mem::swap(&mut b.lhs, &mut b.rhs);
        std::mem::swap(&mut b.lhs_c, &mut b.rhs_c);
    }
    Some(b)
}

impl Binary {
    /// The right operand as an integer constant.
    pub fn rhs_int(&self, ctx: &Context) -> Option<IntVal> {
        IntVal::from_attr(ctx, self.rhs_c?)
    }
    /// The right operand as a float constant.
    pub fn rhs_float(&self, ctx: &Context) -> Option<f64> {
        float_value(ctx, self.rhs_c?)
    }
}

/// Folds an integer op whose operands are all constant through `f`, which gets the values at
/// the result's width and returns None where the op has no defined constant result.
pub fn int_nary(
    ctx: &mut Context,
    op: OpId,
    c: &[Option<Attribute>],
    f: impl Fn(&[IntVal], u32) -> Option<IntVal>,
) -> Option<Vec<FoldResult>> {
    let ty = result_type(ctx, op)?;
    let width = int_width(ctx, ty)?;
    let n = ctx.num_operands(op);
    let vals: Vec<IntVal> = (0..n)
        .map(|i| const_int(ctx, c, i).filter(|v| v.width() == width))
        .collect::<Option<_>>()?;
    let r = f(&vals, width)?;
    Some(vec![FoldResult::Attr(r.to_attr(ctx, ty))])
}

/// Binary form of [`int_nary`].
pub fn int_binary(
    ctx: &mut Context,
    op: OpId,
    c: &[Option<Attribute>],
    f: impl Fn(IntVal, IntVal, u32) -> Option<IntVal>,
) -> Option<Vec<FoldResult>> {
    if ctx.num_operands(op) != 2 {
        return None;
    }
    int_nary(ctx, op, c, |v, w| f(v[0], v[1], w))
}

/// Folds a float op whose operands are all constant, computing in the result type's precision
/// (f32 through `f32op`, f64 through `f64op`). f16 and bf16 fold through `f64op` and one rounding
/// only when `narrow` says that this is exact for the operation; otherwise they do not fold.
pub fn float_nary(
    ctx: &mut Context,
    op: OpId,
    c: &[Option<Attribute>],
    narrow: bool,
    f32op: fn(&[f32]) -> f32,
    f64op: fn(&[f64]) -> f64,
) -> Option<Vec<FoldResult>> {
    let ty = result_type(ctx, op)?;
    let kind = float_kind(ctx, ty)?;
    if !narrow && matches!(kind, FloatKind::F16 | FloatKind::BF16) {
        return None;
    }
    let n = ctx.num_operands(op);
    let vals: Vec<f64> = (0..n)
        .map(|i| const_float(ctx, c, i))
        .collect::<Option<_>>()?;
    let mut v = in_precision(kind, &vals, f32op, f64op);
    // A NaN made by an invalid operation (0/0, inf - inf) is the hardware's default NaN, negative
    // on x86; APFloat's, which mlir-opt folds to, is the positive quiet NaN (0x7FC00000).
    if v.is_nan() && !vals.iter().any(|x| x.is_nan()) {
        v = f64::NAN;
    }
    Some(vec![FoldResult::Attr(ctx.float_attr(v, ty))])
}
