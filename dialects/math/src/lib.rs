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
use qd_arith::reverse::{needs, needs_all_operands, needs_nothing, needs_result, FnRule};
use qd_arith::CmpFPredicate;
use qd_arith::TypeClass::Float;
use qd_ir::interfaces::ReverseRule;
use qd_ir::{Attribute, Context, DialectDef, FoldResult, OpId, OpInfo, Value};

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

// ----- derivative rules (a = operand 0, b = operand 1, r = result, g = the result's adjoint) ----
// Rules that can use the result do so (exp, tanh, sqrt, ...): reverse mode has the result at hand
// or recomputes it from the operand, whichever is cheaper where the rule runs.

/// One contribution to the single operand of a unary op.
fn one(v: Value) -> Vec<Option<Value>> {
    vec![Some(v)]
}

/// d sin a = g cos a.
static SIN_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let c = cx.un(names::COS, cx.x(0));
        one(cx.adj_times(c))
    },
};

/// d cos a = -g sin a.
static COS_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let s = cx.un(names::SIN, cx.x(0));
        let t = cx.adj_times(s);
        one(cx.neg(t))
    },
};

/// d tan a = g (1 + r^2).
static TAN_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let r2 = cx.mul(cx.r(), cx.r());
        let one_ = cx.c(1.0);
        let d = cx.add(one_, r2);
        one(cx.adj_times(d))
    },
};

/// d exp a = g r.
static EXP_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| one(cx.adj_times(cx.r())),
};

/// d exp2 a = g r ln 2.
static EXP2_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let ln2 = cx.c(std::f64::consts::LN_2);
        let d = cx.mul(cx.r(), ln2);
        one(cx.adj_times(d))
    },
};

/// d log a = g / a.
static LOG_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let g = cx.adj();
        one(cx.div(g, cx.x(0)))
    },
};

/// d log2 a = g / (a ln 2).
static LOG2_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let ln2 = cx.c(std::f64::consts::LN_2);
        let d = cx.mul(cx.x(0), ln2);
        let g = cx.adj();
        one(cx.div(g, d))
    },
};

/// d sqrt a = g / (2 r).
static SQRT_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let two = cx.c(2.0);
        let d = cx.mul(two, cx.r());
        let g = cx.adj();
        one(cx.div(g, d))
    },
};

/// r = a^(-1/2): d r = -r^3 / 2.
static RSQRT_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let r2 = cx.mul(cx.r(), cx.r());
        let r3 = cx.mul(r2, cx.r());
        let h = cx.c(-0.5);
        let d = cx.mul(r3, h);
        one(cx.adj_times(d))
    },
};

/// d tanh a = g (1 - r^2).
static TANH_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let r2 = cx.mul(cx.r(), cx.r());
        let one_ = cx.c(1.0);
        let d = cx.sub(one_, r2);
        one(cx.adj_times(d))
    },
};

/// r = a^b: d/da = b a^(b-1), d/db = r ln a (only read when b is active: for a <= 0 it is NaN,
/// as the derivative is undefined there).
static POWF_RULE: &dyn ReverseRule = &FnRule {
    needs: |active| needs(&[true, active[0]], &[active[1]]),
    emit: |cx, active| {
        let da = active[0].then(|| {
            let one_ = cx.c(1.0);
            let bm1 = cx.sub(cx.x(1), one_);
            let p = cx.bin(names::POWF, cx.x(0), bm1);
            let d = cx.mul(cx.x(1), p);
            cx.adj_times(d)
        });
        let db = active[1].then(|| {
            let l = cx.un(names::LOG, cx.x(0));
            let d = cx.mul(cx.r(), l);
            cx.adj_times(d)
        });
        vec![da, db]
    },
};

/// r = atan2(a, b) (a = y, b = x): d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2).
static ATAN2_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, active| {
        let a2 = cx.mul(cx.x(0), cx.x(0));
        let b2 = cx.mul(cx.x(1), cx.x(1));
        let n = cx.add(a2, b2);
        let g = cx.adj();
        let gn = cx.div(g, n);
        let da = active[0].then(|| cx.mul(gn, cx.x(1)));
        let db = active[1].then(|| {
            let t = cx.mul(gn, cx.x(0));
            cx.neg(t)
        });
        vec![da, db]
    },
};

/// d |a| = g sign(a), with sign(0) = 0 (the symmetric difference quotient at 0).
static ABSF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let z = cx.c(0.0);
        let pos = cx.cmpf(CmpFPredicate::Ogt, cx.x(0), z);
        let neg = cx.cmpf(CmpFPredicate::Olt, cx.x(0), z);
        let g = cx.adj();
        let ng = cx.neg(g);
        let on_neg = cx.select(neg, ng, z);
        one(cx.select(pos, g, on_neg))
    },
};

/// floor and ceil are piecewise constant: their derivative is zero wherever it exists, so they
/// contribute nothing (their result is still active, which keeps the rule explicit).
static ZERO_DERIVATIVE: &dyn ReverseRule = &FnRule {
    needs: needs_nothing,
    emit: |_, _| vec![None],
};

/// d fma(a, b, c) = g b, g a, g.
static FMA_RULE: &dyn ReverseRule = &FnRule {
    needs: |active| needs(&[active[1], active[0], false], &[]),
    emit: |cx, active| {
        let da = active[0].then(|| cx.adj_times(cx.x(1)));
        let db = active[1].then(|| cx.adj_times(cx.x(0)));
        vec![da, db, Some(cx.adj())]
    },
};

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
