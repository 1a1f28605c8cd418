//! Casts: `%r = arith.sitofp %a : i32 to f32`. Width rules as upstream (ext*: wider, trunc*:
//! narrower, bitcast: same width, index_cast: to or from index). Folds are exact: a conversion
//! with no defined result (fptosi of NaN or out of range) or one we cannot round exactly does not
//! fold.

use crate::consts::{
    float_from_bits, float_kind, float_to_bits, float_value, fold_attr, fold_value, int_width,
    IntVal,
};
use crate::elementwise::{CastRule, ElementwiseDef};
use crate::fold::{const_attr, const_float, const_int, result_type};
use crate::names;
use crate::patterns::*;
use crate::reverse::{needs_nothing, FnRule, RuleCx};
use crate::verify::TypeClass::{FixedInt, Float, IndexCastable, IntOrFloat};
use qd_ir::interfaces::ReverseRule;
use qd_ir::rewrite::RewritePattern;
use qd_ir::{Attribute, Context, FloatKind, FoldResult, OpId, OpInfo, Value};

type Folded = Option<Vec<FoldResult>>;

static SITOFP: &ElementwiseDef = &ElementwiseDef::cast(
    names::SITOFP,
    "signed integer to float",
    FixedInt,
    Float,
    CastRule::Any,
)
.fold(fold_sitofp);
static UITOFP: &ElementwiseDef = &ElementwiseDef::cast(
    names::UITOFP,
    "unsigned integer to float",
    FixedInt,
    Float,
    CastRule::Any,
)
.fold(fold_uitofp);
static FPTOSI: &ElementwiseDef = &ElementwiseDef::cast(
    names::FPTOSI,
    "float to signed integer, rounding toward zero",
    Float,
    FixedInt,
    CastRule::Any,
)
.fold(fold_fptosi);
static FPTOUI: &ElementwiseDef = &ElementwiseDef::cast(
    names::FPTOUI,
    "float to unsigned integer, rounding toward zero",
    Float,
    FixedInt,
    CastRule::Any,
)
.fold(fold_fptoui);
static EXTF: &ElementwiseDef =
    &ElementwiseDef::cast(names::EXTF, "widen a float", Float, Float, CastRule::Wider)
        .optional_fastmath()
        .fold(fold_extf)
        .reverse(&EXTF_RULE);
static TRUNCF: &ElementwiseDef = &ElementwiseDef::cast(
    names::TRUNCF,
    "narrow a float",
    Float,
    Float,
    CastRule::Narrower,
)
.rounding_mode()
.optional_fastmath()
.fold(fold_truncf)
.patterns(truncf_patterns)
.reverse(&TRUNCF_RULE);
static EXTSI: &ElementwiseDef = &ElementwiseDef::cast(
    names::EXTSI,
    "sign-extend an integer",
    FixedInt,
    FixedInt,
    CastRule::Wider,
)
.fold(fold_extsi)
.patterns(extsi_patterns);
static EXTUI: &ElementwiseDef = &ElementwiseDef::cast(
    names::EXTUI,
    "zero-extend an integer",
    FixedInt,
    FixedInt,
    CastRule::Wider,
)
.fold(fold_extui)
.patterns(extui_patterns);
static TRUNCI: &ElementwiseDef = &ElementwiseDef::cast(
    names::TRUNCI,
    "truncate an integer",
    FixedInt,
    FixedInt,
    CastRule::Narrower,
)
.overflow()
.fold(fold_trunci)
.patterns(trunci_patterns);
static INDEX_CAST: &ElementwiseDef = &ElementwiseDef::cast(
    names::INDEX_CAST,
    "between index and a signless integer (sign-extending)",
    IndexCastable,
    IndexCastable,
    CastRule::IndexCast,
)
.fold(fold_index_cast)
.patterns(index_cast_patterns);
static INDEX_CASTUI: &ElementwiseDef = &ElementwiseDef::cast(
    names::INDEX_CASTUI,
    "between index and a signless integer (zero-extending)",
    IndexCastable,
    IndexCastable,
    CastRule::IndexCast,
)
.fold(fold_index_castui)
.patterns(index_castui_patterns);
static BITCAST: &ElementwiseDef = &ElementwiseDef::cast(
    names::BITCAST,
    "reinterpret the bits as another type of the same width",
    IntOrFloat,
    IntOrFloat,
    CastRule::SameWidth,
)
.fold(fold_bitcast)
.patterns(bitcast_patterns);

// Derivative rules. Only float-to-float casts carry a gradient: the adjoint is converted back to
// the operand's type. Casts from or to integers (sitofp, uitofp, fptosi, fptoui, bitcast, and
// the integer casts) have no rule, so reverse mode treats their results as constants: an integer
// cast stops the gradient.

/// d(extf a) = truncf g.
static EXTF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_nothing,
    emit: |cx, _| vec![Some(convert_adjoint(cx, names::TRUNCF))],
};

/// d(truncf a) = extf g.
static TRUNCF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_nothing,
    emit: |cx, _| vec![Some(convert_adjoint(cx, names::EXTF))],
};

/// The result's adjoint converted by `cast` to the type of the operand (read from the original
/// op, whose operand type is what the adjoint must have).
fn convert_adjoint(cx: &mut RuleCx<'_, '_>, cast: &str) -> Value {
    let g = cx.adj();
    let to = cx.operand_type(0);
    crate::build::build_cast(cx.b, cast, g, to, cx.loc)
}

type Patterns = Vec<Box<dyn RewritePattern>>;

fn extsi_patterns(v: &mut Patterns) {
    v.push(fn_pattern(
        "arith-extsi-of-extsi",
        names::EXTSI,
        ext_of_same_ext,
    ));
    v.push(fn_pattern(
        "arith-extsi-of-extui",
        names::EXTSI,
        extsi_of_extui,
    ));
}
fn extui_patterns(v: &mut Patterns) {
    v.push(fn_pattern(
        "arith-extui-of-extui",
        names::EXTUI,
        ext_of_same_ext,
    ));
}
fn index_cast_patterns(v: &mut Patterns) {
    v.push(fn_pattern(
        "arith-index-cast-of-extsi",
        names::INDEX_CAST,
        index_cast_of_extsi,
    ));
}
fn index_castui_patterns(v: &mut Patterns) {
    v.push(fn_pattern(
        "arith-index-castui-of-extui",
        names::INDEX_CASTUI,
        index_castui_of_extui,
    ));
}
fn trunci_patterns(v: &mut Patterns) {
    v.push(fn_pattern(
        "arith-trunci-in-place",
        names::TRUNCI,
        trunci_in_place,
    ));
    v.push(fn_pattern(
        "arith-trunci-of-ext-to-ext",
        names::TRUNCI,
        trunci_of_ext_to_ext,
    ));
    v.push(fn_pattern(
        "arith-trunci-shrsi-to-shrui",
        names::TRUNCI,
        trunci_shrsi_to_shrui,
    ));
}
fn truncf_patterns(v: &mut Patterns) {
    v.push(fn_pattern(
        "arith-truncf-of-extf",
        names::TRUNCF,
        truncf_of_extf,
    ));
    v.push(fn_pattern(
        "arith-truncf-of-itofp",
        names::TRUNCF,
        truncf_of_itofp,
    ));
}
fn bitcast_patterns(v: &mut Patterns) {
    v.push(fn_pattern(
        "arith-bitcast-of-bitcast",
        names::BITCAST,
        bitcast_of_bitcast,
    ));
}

/// The cast ops, in registration order.
pub fn ops() -> Vec<OpInfo> {
    [
        &SITOFP,
        &UITOFP,
        &FPTOSI,
        &FPTOUI,
        &EXTF,
        &TRUNCF,
        &EXTSI,
        &EXTUI,
        &TRUNCI,
        &INDEX_CAST,
        &INDEX_CASTUI,
        &BITCAST,
    ]
    .into_iter()
    .map(ElementwiseDef::op_info)
    .collect()
}

/// The only operand of a cast.
fn input(ctx: &Context, op: OpId) -> Option<Value> {
    (ctx.num_operands(op) == 1).then(|| ctx.operand(op, 0))
}

/// `x` converted to float kind `kind` with one correct rounding, when we can do that exactly.
fn int_to_float(kind: FloatKind, x: i128) -> Option<f64> {
    match kind {
        FloatKind::F32 => Some(x as f32 as f64),
        FloatKind::F64 => Some(x as f64),
        // Through f64 only when exact there, so that the one rounding is the float_attr one.
        _ => (x.unsigned_abs() <= 1u128 << 53).then_some(x as f64),
    }
}

fn to_float(ctx: &mut Context, op: OpId, c: &[Option<Attribute>], signed: bool) -> Folded {
    let ty = result_type(ctx, op)?;
    let x = const_int(ctx, c, 0)?;
    let v = if signed {
        x.sext() as i128
    } else {
        x.zext() as i128
    };
    let f = int_to_float(float_kind(ctx, ty)?, v)?;
    fold_attr(ctx.float_attr(f, ty))
}

fn fold_sitofp(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    to_float(ctx, op, c, true)
}

fn fold_uitofp(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    to_float(ctx, op, c, false)
}

fn to_int(ctx: &mut Context, op: OpId, c: &[Option<Attribute>], signed: bool) -> Folded {
    let ty = result_type(ctx, op)?;
    let w = int_width(ctx, ty)?;
    let t = const_float(ctx, c, 0)?.trunc();
    // NaN fails both comparisons.
    let (lo, hi) = if signed {
        (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1))
    } else {
        (0.0, 2f64.powi(w as i32))
    };
    if !(t >= lo && t < hi) {
        return None;
    }
    let r = if signed {
        IntVal::new(t as i64, w)
    } else {
        IntVal::from_bits(t as u64, w)
    };
    fold_attr(r.to_attr(ctx, ty))
}

fn fold_fptosi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    to_int(ctx, op, c, true)
}

fn fold_fptoui(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    to_int(ctx, op, c, false)
}

/// The `contract` fast-math bit.
const CONTRACT: u8 = 1 << 5;

fn contracts(ctx: &Context, op: OpId) -> bool {
    let fm = crate::flags::FlagKind::FastMath;
    ctx.prop_or_attr(op, fm.prop_name())
        .and_then(|a| fm.bits_of(ctx, a))
        .is_some_and(|b| b & CONTRACT != 0)
}

fn fold_extf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let ty = result_type(ctx, op)?;
    // extf(truncf a) is a only by permission: both carry `contract` (upstream ExtFOp::fold).
    if let Some(def) = input(ctx, op).and_then(|v| ctx.defining_op(v)) {
        if ctx.name(def) == names::TRUNCF
            && ctx.num_operands(def) == 1
            && ctx.value_type(ctx.operand(def, 0)) == ty
            && contracts(ctx, def)
            && contracts(ctx, op)
        {
            return fold_value(ctx.operand(def, 0));
        }
    }
    float_kind(ctx, ty)?;
    let v = const_float(ctx, c, 0)?;
    fold_attr(ctx.float_attr(v, ty))
}

fn fold_truncf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let ty = result_type(ctx, op)?;
    // truncf(extf(x)) is x: widening is exact.
    if let Some(def) = input(ctx, op).and_then(|v| ctx.defining_op(v)) {
        if ctx.name(def) == names::EXTF
            && ctx.num_operands(def) == 1
            && ctx.value_type(ctx.operand(def, 0)) == ty
        {
            return fold_value(ctx.operand(def, 0));
        }
    }
    let kind = float_kind(ctx, ty)?;
    // As MLIR's convertFloatValue: only an exact conversion folds (so the rounding mode does not
    // matter); an inexact, overflowing or signaling-NaN one stays.
    let v = const_float(ctx, c, 0)?;
    let narrowed = qd_ir::float::round_to_kind(kind, v);
    let signaling = v.is_nan() && v.to_bits() & (1 << 51) == 0;
    if narrowed.to_bits() != v.to_bits() || signaling {
        return None;
    }
    fold_attr(ctx.float_attr(v, ty))
}

fn fold_extsi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let ty = result_type(ctx, op)?;
    let w = int_width(ctx, ty)?;
    let x = const_int(ctx, c, 0)?;
    fold_attr(IntVal::new(x.sext(), w).to_attr(ctx, ty))
}

fn fold_extui(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let ty = result_type(ctx, op)?;
    let w = int_width(ctx, ty)?;
    let x = const_int(ctx, c, 0)?;
    fold_attr(IntVal::from_bits(x.zext(), w).to_attr(ctx, ty))
}

fn fold_trunci(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let ty = result_type(ctx, op)?;
    // trunci(ext a) is a when a has the result's type.
    if let Some(def) = input(ctx, op).and_then(|v| ctx.defining_op(v)) {
        let n = ctx.name(def);
        if (n == names::EXTUI || n == names::EXTSI)
            && ctx.num_operands(def) == 1
            && ctx.value_type(ctx.operand(def, 0)) == ty
        {
            return fold_value(ctx.operand(def, 0));
        }
    }
    let w = int_width(ctx, ty)?;
    let x = const_int(ctx, c, 0)?;
    fold_attr(IntVal::from_bits(x.zext(), w).to_attr(ctx, ty))
}

fn fold_index_cast(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    index_cast_fold(ctx, op, c, names::INDEX_CAST)
}

fn fold_index_castui(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    index_cast_fold(ctx, op, c, names::INDEX_CASTUI)
}

/// index_cast (`name` is INDEX_CAST: widening sign-extends) or index_castui (widening
/// zero-extends); narrowing truncates in both.
fn index_cast_fold(ctx: &mut Context, op: OpId, c: &[Option<Attribute>], name: &str) -> Folded {
    let ty = result_type(ctx, op)?;
    let w = int_width(ctx, ty)?;
    if let Some(x) = const_int(ctx, c, 0) {
        let r = if name == names::INDEX_CAST {
            IntVal::new(x.sext(), w)
        } else {
            IntVal::from_bits(x.zext(), w)
        };
        return fold_attr(r.to_attr(ctx, ty));
    }
    // cast(cast(x)) by the same op is x when the middle type is at least as wide as x's.
    let def = input(ctx, op).and_then(|v| ctx.defining_op(v))?;
    if ctx.name(def) != name || ctx.num_operands(def) != 1 || ctx.num_results(def) != 1 {
        return None;
    }
    let x = ctx.operand(def, 0);
    let (xw, mw) = (
        int_width(ctx, ctx.value_type(x))?,
        int_width(ctx, ctx.value_type(ctx.result(def, 0)))?,
    );
    (ctx.value_type(x) == ty && xw <= mw)
        .then(|| fold_value(x))
        .flatten()
}

fn fold_bitcast(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let ty = result_type(ctx, op)?;
    let x = input(ctx, op)?;
    if ctx.value_type(x) == ty {
        return fold_value(x);
    }
    // bitcast(bitcast(x)) is x when it comes back to x's type.
    if let Some(def) = ctx.defining_op(x) {
        if ctx.name(def) == names::BITCAST
            && ctx.num_operands(def) == 1
            && ctx.value_type(ctx.operand(def, 0)) == ty
        {
            return fold_value(ctx.operand(def, 0));
        }
    }
    let a = const_attr(c, 0)?;
    let from_ty = ctx.value_type(x);
    let bits = match float_kind(ctx, from_ty) {
        Some(k) => float_to_bits(k, float_value(ctx, a)?),
        None => IntVal::from_attr(ctx, a)?.zext(),
    };
    let out = match float_kind(ctx, ty) {
        Some(k) => ctx.float_attr(float_from_bits(k, bits), ty),
        None => IntVal::from_bits(bits, int_width(ctx, ty)?).to_attr(ctx, ty),
    };
    fold_attr(out)
}
