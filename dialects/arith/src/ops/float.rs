//! Floating-point arithmetic ops. Folds compute in the type's precision (f32 in f32); identities
//! are only those exact for every input, NaNs and signed zeros included (so `x - x` and `x * 0`
//! do not fold).

use crate::consts::fold_value;
use crate::elementwise::ElementwiseDef;
use crate::flags::FlagKind;
use crate::fold::{binary, float_nary};
use crate::names;
use crate::patterns::{fn_pattern, of_two_negf, ConstantToRhs};
use crate::predicates::CmpFPredicate;
use crate::reverse::{needs, needs_all_operands, needs_nothing, FnRule, RuleCx};
use crate::verify::TypeClass::Float;
use qd_ir::interfaces::{PrimalNeeds, ReverseRule};
use qd_ir::rewrite::RewritePattern;
use qd_ir::{Attribute, Context, FoldResult, OpId, OpInfo, Value};

type Folded = Option<Vec<FoldResult>>;
type Patterns = Vec<Box<dyn RewritePattern>>;

static ADDF: &ElementwiseDef =
    &ElementwiseDef::same(names::ADDF, "floating point addition", 2, Float)
        .fastmath()
        .commutative()
        .fold(fold_addf)
        .patterns(addf_patterns)
        .reverse(&ADDF_RULE);
static SUBF: &ElementwiseDef =
    &ElementwiseDef::same(names::SUBF, "floating point subtraction", 2, Float)
        .fastmath()
        .fold(fold_subf)
        .reverse(&SUBF_RULE);
static MULF: &ElementwiseDef =
    &ElementwiseDef::same(names::MULF, "floating point multiplication", 2, Float)
        .fastmath()
        .commutative()
        .fold(fold_mulf)
        .patterns(mulf_patterns)
        .reverse(&MULF_RULE);
static DIVF: &ElementwiseDef =
    &ElementwiseDef::same(names::DIVF, "floating point division", 2, Float)
        .fastmath()
        .fold(fold_divf)
        .patterns(divf_patterns)
        .reverse(&DIVF_RULE);
static REMF: &ElementwiseDef =
    &ElementwiseDef::same(names::REMF, "floating point remainder (fmod)", 2, Float)
        .fastmath()
        .fold(fold_remf)
        .reverse(&REMF_RULE);
static NEGF: &ElementwiseDef =
    &ElementwiseDef::same(names::NEGF, "floating point negation", 1, Float)
        .fastmath()
        .fold(fold_negf)
        .reverse(&NEGF_RULE);
static MINIMUMF: &ElementwiseDef = &ElementwiseDef::same(
    names::MINIMUMF,
    "floating point minimum, NaN-propagating",
    2,
    Float,
)
.fastmath()
.commutative()
.fold(fold_minimumf)
.patterns(minimumf_patterns)
.reverse(&MINIMUMF_RULE);
static MAXIMUMF: &ElementwiseDef = &ElementwiseDef::same(
    names::MAXIMUMF,
    "floating point maximum, NaN-propagating",
    2,
    Float,
)
.fastmath()
.commutative()
.fold(fold_maximumf)
.patterns(maximumf_patterns)
.reverse(&MAXIMUMF_RULE);

static MINNUMF: &ElementwiseDef = &ElementwiseDef::same(
    names::MINNUMF,
    "floating point minimum, a NaN operand loses to a number",
    2,
    Float,
)
.fastmath()
.commutative()
.fold(fold_minnumf)
.patterns(minnumf_patterns)
.reverse(&MINNUMF_RULE);
static MAXNUMF: &ElementwiseDef = &ElementwiseDef::same(
    names::MAXNUMF,
    "floating point maximum, a NaN operand loses to a number",
    2,
    Float,
)
.fastmath()
.commutative()
.fold(fold_maxnumf)
.patterns(maxnumf_patterns)
.reverse(&MAXNUMF_RULE);

// ----- derivative rules (a = operand 0, b = operand 1, r = result, g = the result's adjoint) --

type Adj = Vec<Option<Value>>;

/// d(a + b) = g, g.
static ADDF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_nothing,
    emit: |cx, _| vec![Some(cx.adj()), Some(cx.adj())],
};

/// d(a - b) = g, -g.
static SUBF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_nothing,
    emit: |cx, active| {
        let db = active[1].then(|| {
            let g = cx.adj();
            cx.neg(g)
        });
        vec![Some(cx.adj()), db]
    },
};

/// d(a * b) = g b, g a: each side reads only the other operand.
static MULF_RULE: &dyn ReverseRule = &FnRule {
    needs: |active| needs(&[active[1], active[0]], &[]),
    emit: |cx, active| {
        let da = active[0].then(|| cx.adj_times(cx.x(1)));
        let db = active[1].then(|| cx.adj_times(cx.x(0)));
        vec![da, db]
    },
};

/// d(a / b) = g / b, -(g / b) a / b.
static DIVF_RULE: &dyn ReverseRule = &FnRule {
    needs: |active| needs(&[active[1], active[0] || active[1]], &[]),
    emit: |cx, active| {
        let g = cx.adj();
        let t = cx.div(g, cx.x(1));
        let db = active[1].then(|| {
            let ta = cx.mul(t, cx.x(0));
            let q = cx.div(ta, cx.x(1));
            cx.neg(q)
        });
        vec![active[0].then_some(t), db]
    },
};

/// r = a - b trunc(a / b): d/da = 1, d/db = -trunc(a / b) = -(a - r) / b.
static REMF_RULE: &dyn ReverseRule = &FnRule {
    needs: |active| needs(&[active[1], active[1]], &[active[1]]),
    emit: |cx, active| {
        let db = active[1].then(|| {
            let d = cx.sub(cx.x(0), cx.r());
            let q = cx.div(d, cx.x(1));
            let n = cx.neg(q);
            cx.adj_times(n)
        });
        vec![Some(cx.adj()), db]
    },
};

/// d(-a) = -g.
static NEGF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_nothing,
    emit: |cx, _| {
        let g = cx.adj();
        vec![Some(cx.neg(g))]
    },
};

/// The adjoint goes to the operand that was chosen; a tie goes to `a`.
fn route_min_max(cx: &mut RuleCx<'_, '_>, pred: CmpFPredicate) -> Adj {
    let c = cx.cmpf(pred, cx.x(0), cx.x(1));
    let (ga, gb) = cx.route(c);
    vec![Some(ga), Some(gb)]
}

fn needs_min_max(active: &[bool]) -> PrimalNeeds {
    needs_all_operands(active)
}

static MINIMUMF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_min_max,
    emit: |cx, _| route_min_max(cx, CmpFPredicate::Ole),
};

static MAXIMUMF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_min_max,
    emit: |cx, _| route_min_max(cx, CmpFPredicate::Oge),
};

/// The adjoint goes to the chosen operand: `a` when `a` is a number and `a_wins(a, b)` (an
/// unordered predicate, so true also when `b` is NaN), else `b` when `b` is a number; a tie goes
/// to `a`, and a NaN operand (never chosen) gets 0.
fn route_num(cx: &mut RuleCx<'_, '_>, a_wins: CmpFPredicate, b_wins: CmpFPredicate) -> Adj {
    let (a, b) = (cx.x(0), cx.x(1));
    let z = cx.c(0.0);
    let g = cx.adj();
    let to = |cx: &mut RuleCx<'_, '_>, me: Value, wins: Value| {
        let is_num = cx.cmpf(CmpFPredicate::Ord, me, me);
        let t = cx.select(is_num, g, z);
        cx.select(wins, t, z)
    };
    let wa = cx.cmpf(a_wins, a, b);
    let ga = to(cx, a, wa);
    let wb = cx.cmpf(b_wins, a, b);
    let gb = to(cx, b, wb);
    vec![Some(ga), Some(gb)]
}

/// `a` wins when `a <= b` or `b` is NaN; `b` when `a > b` or `a` is NaN.
static MINNUMF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_min_max,
    emit: |cx, _| route_num(cx, CmpFPredicate::Ule, CmpFPredicate::Ugt),
};

/// `a` wins when `a >= b` or `b` is NaN; `b` when `a < b` or `a` is NaN.
static MAXNUMF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_min_max,
    emit: |cx, _| route_num(cx, CmpFPredicate::Uge, CmpFPredicate::Ult),
};

/// The float ops, in registration order.
pub fn ops() -> Vec<OpInfo> {
    [
        &ADDF, &SUBF, &MULF, &DIVF, &REMF, &NEGF, &MINIMUMF, &MAXIMUMF, &MINNUMF, &MAXNUMF,
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
    v.push(fn_pattern("arith-mulf-of-negf", names::MULF, of_two_negf));
}
fn divf_patterns(v: &mut Patterns) {
    v.push(fn_pattern("arith-divf-of-negf", names::DIVF, of_two_negf));
}
fn minimumf_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MINIMUMF)));
}
fn maximumf_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MAXIMUMF)));
}
fn minnumf_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MINNUMF)));
}
fn maxnumf_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MAXNUMF)));
}

/// Whether the right operand is the constant `k` (bit for bit: -0.0 and 0.0 differ).
fn rhs_is(ctx: &Context, op: OpId, c: &[Option<Attribute>], k: f64) -> Option<qd_ir::Value> {
    let b = binary(ctx, op, c)?;
    (b.rhs_float(ctx)?.to_bits() == k.to_bits()).then_some(b.lhs)
}

// Upstream's order: identities (which keep existing values) before constant folding.

fn fold_addf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if let Some(x) = rhs_is(ctx, op, c, -0.0) {
        return fold_value(x);
    }
    float_nary(ctx, op, c, true, |a| a[0] + a[1], |a| a[0] + a[1])
}

fn fold_subf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if let Some(x) = rhs_is(ctx, op, c, 0.0) {
        return fold_value(x);
    }
    float_nary(ctx, op, c, true, |a| a[0] - a[1], |a| a[0] - a[1])
}

/// `nnan` and `nsz`: x * 0 is 0 only when NaNs and the sign of zero may be ignored.
const NNAN_NSZ: u8 = (1 << 1) | (1 << 3);

fn fold_mulf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if let Some(x) = rhs_is(ctx, op, c, 1.0) {
        return fold_value(x);
    }
    let fm = FlagKind::FastMath;
    let flags = ctx
        .prop_or_attr(op, fm.prop_name())
        .and_then(|a| fm.bits_of(ctx, a))
        .unwrap_or(0);
    if flags & NNAN_NSZ == NNAN_NSZ {
        let b = binary(ctx, op, c)?;
        if b.rhs_float(ctx) == Some(0.0) {
            return fold_value(b.rhs);
        }
    }
    float_nary(ctx, op, c, true, |a| a[0] * a[1], |a| a[0] * a[1])
}

fn fold_divf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    if let Some(x) = rhs_is(ctx, op, c, 1.0) {
        return fold_value(x);
    }
    float_nary(ctx, op, c, true, |a| a[0] / a[1], |a| a[0] / a[1])
}

fn fold_remf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    // Rust's float `%` is C's fmod, upstream's remf; it is exact, so f16 may fold through f64.
    float_nary(ctx, op, c, true, |a| a[0] % a[1], |a| a[0] % a[1])
}

fn fold_negf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    // negf(negf x) is x: negation only flips the sign bit.
    if let Some(inner) = ctx
        .defining_op(ctx.operand(op, 0))
        .filter(|&d| ctx.name(d) == names::NEGF && ctx.num_operands(d) == 1)
    {
        return fold_value(ctx.operand(inner, 0));
    }
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
    // minimumf(x, +inf) is x, NaN included.
    if b.rhs_float(ctx) == Some(f64::INFINITY) {
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
    // maximumf(x, -inf) is x, NaN included.
    if b.rhs_float(ctx) == Some(f64::NEG_INFINITY) {
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

/// `x` with its quiet bit set when it is a signaling NaN (f64 encoding; f32 values are carried
/// in f64 with their payload in the high mantissa bits, so the bit is the same one).
fn quiet(x: f64) -> f64 {
    f64::from_bits(x.to_bits() | 1 << 51)
}

fn is_signaling(x: f64) -> bool {
    x.is_nan() && x.to_bits() & (1 << 51) == 0
}

/// IEEE 754-2019 minimumNumber, as upstream's folder (APFloat `minnum`): a quiet NaN operand
/// loses to the other, a signaling NaN gives a quiet NaN, and -0 is below +0.
pub fn minnum(a: f64, b: f64) -> f64 {
    if is_signaling(a) {
        quiet(a)
    } else if is_signaling(b) {
        quiet(b)
    } else if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// IEEE 754-2019 maximumNumber, as upstream's folder (APFloat `maxnum`): a quiet NaN operand
/// loses to the other, a signaling NaN gives a quiet NaN, and +0 is above -0.
pub fn maxnum(a: f64, b: f64) -> f64 {
    if is_signaling(a) {
        quiet(a)
    } else if is_signaling(b) {
        quiet(b)
    } else if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && !a.is_sign_negative()) {
        a
    } else {
        b
    }
}

fn fold_minnumf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.lhs == b.rhs {
        return fold_value(b.lhs);
    }
    // minnumf(x, NaN) is x.
    if b.rhs_float(ctx).is_some_and(f64::is_nan) {
        return fold_value(b.lhs);
    }
    float_nary(
        ctx,
        op,
        c,
        true,
        |a| minnum(a[0] as f64, a[1] as f64) as f32,
        |a| minnum(a[0], a[1]),
    )
}

fn fold_maxnumf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.lhs == b.rhs {
        return fold_value(b.lhs);
    }
    if b.rhs_float(ctx).is_some_and(f64::is_nan) {
        return fold_value(b.lhs);
    }
    float_nary(
        ctx,
        op,
        c,
        true,
        |a| maxnum(a[0] as f64, a[1] as f64) as f32,
        |a| maxnum(a[0], a[1]),
    )
}
