//! Reverse-mode derivative rules of math's ops (Enzyme's formulas): a = operand 0, b = operand 1,
//! r = the result, g = the result's adjoint.

use crate::names;
use qd_arith::build::{build_binary, build_cast, build_constant_int};
use qd_arith::names as arith;
use qd_arith::reverse::{needs, needs_all_operands, needs_nothing, needs_result, FnRule, RuleCx};
use qd_arith::CmpFPredicate;
use qd_ir::interfaces::ReverseRule;
use qd_ir::Value;

// Rules that can use the result do so (exp, tanh, sqrt, ...): reverse mode has the result at hand
// or recomputes it from the operand, whichever is cheaper where the rule runs.

/// One contribution to the single operand of a unary op.
fn one(v: Value) -> Vec<Option<Value>> {
    vec![Some(v)]
}

/// d sin a = g cos a.
pub static SIN_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let c = cx.un(names::COS, cx.x(0));
        one(cx.adj_times(c))
    },
};

/// d cos a = -g sin a.
pub static COS_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let s = cx.un(names::SIN, cx.x(0));
        let t = cx.adj_times(s);
        one(cx.neg(t))
    },
};

/// d tan a = g (1 + r^2).
pub static TAN_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let r2 = cx.mul(cx.r(), cx.r());
        let one_ = cx.c(1.0);
        let d = cx.add(one_, r2);
        one(cx.adj_times(d))
    },
};

/// d exp a = g r.
pub static EXP_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| one(cx.adj_times(cx.r())),
};

/// d exp2 a = g r ln 2.
pub static EXP2_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let ln2 = cx.c(std::f64::consts::LN_2);
        let d = cx.mul(cx.r(), ln2);
        one(cx.adj_times(d))
    },
};

/// d log a = g / a.
pub static LOG_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let g = cx.adj();
        one(cx.div(g, cx.x(0)))
    },
};

/// d log2 a = g / (a ln 2).
pub static LOG2_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let ln2 = cx.c(std::f64::consts::LN_2);
        let d = cx.mul(cx.x(0), ln2);
        let g = cx.adj();
        one(cx.div(g, d))
    },
};

/// d sqrt a = g / (2 r).
pub static SQRT_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let two = cx.c(2.0);
        let d = cx.mul(two, cx.r());
        let g = cx.adj();
        one(cx.div(g, d))
    },
};

/// r = a^(-1/2): d r = -r^3 / 2.
pub static RSQRT_RULE: &dyn ReverseRule = &FnRule {
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
pub static TANH_RULE: &dyn ReverseRule = &FnRule {
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
pub static POWF_RULE: &dyn ReverseRule = &FnRule {
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
pub static ATAN2_RULE: &dyn ReverseRule = &FnRule {
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
pub static ABSF_RULE: &dyn ReverseRule = &FnRule {
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

/// floor, ceil, trunc, round and roundeven are piecewise constant: their derivative is zero
/// wherever it exists, so they contribute nothing (their result is still active, which keeps the
/// rule explicit). At their jumps (the integers; round's and roundeven's ties at n + 1/2) the
/// derivative does not exist and the contribution is zero there too.
pub static ZERO_DERIVATIVE: &dyn ReverseRule = &FnRule {
    needs: needs_nothing,
    emit: |_, _| vec![None],
};

/// d fma(a, b, c) = g b, g a, g.
pub static FMA_RULE: &dyn ReverseRule = &FnRule {
    needs: |active| needs(&[active[1], active[0], false], &[]),
    emit: |cx, active| {
        let da = active[0].then(|| cx.adj_times(cx.x(1)));
        let db = active[1].then(|| cx.adj_times(cx.x(0)));
        vec![da, db, Some(cx.adj())]
    },
};

// ----- the inverse trigonometric and hyperbolic functions -----------------------------------
// `(1 - a)(1 + a)` and `(a - 1)(a + 1)` rather than `1 - a^2` and `a^2 - 1`: near |a| = 1 the
// factor a -/+ 1 is exact, so the derivative keeps its precision up to the edge of the domain.

/// `(1 - a)(1 + a)`.
fn one_minus_sq(cx: &mut RuleCx<'_, '_>) -> Value {
    let one_ = cx.c(1.0);
    let m = cx.sub(one_, cx.x(0));
    let p = cx.add(one_, cx.x(0));
    cx.mul(m, p)
}

/// d asin a = g / sqrt((1 - a)(1 + a)); +-inf at a = +-1, where asin has a vertical tangent.
pub static ASIN_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let q = one_minus_sq(cx);
        let s = cx.un(names::SQRT, q);
        let g = cx.adj();
        one(cx.div(g, s))
    },
};

/// d acos a = -g / sqrt((1 - a)(1 + a)); infinite at a = +-1, as asin's.
pub static ACOS_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let q = one_minus_sq(cx);
        let s = cx.un(names::SQRT, q);
        let g = cx.adj();
        let d = cx.div(g, s);
        one(cx.neg(d))
    },
};

/// d atan a = g / (1 + a^2).
pub static ATAN_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let a2 = cx.mul(cx.x(0), cx.x(0));
        let one_ = cx.c(1.0);
        let d = cx.add(one_, a2);
        let g = cx.adj();
        one(cx.div(g, d))
    },
};

/// d sinh a = g cosh a.
pub static SINH_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let c = cx.un(names::COSH, cx.x(0));
        one(cx.adj_times(c))
    },
};

/// d cosh a = g sinh a.
pub static COSH_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let s = cx.un(names::SINH, cx.x(0));
        one(cx.adj_times(s))
    },
};

/// d asinh a = g / sqrt(a^2 + 1).
pub static ASINH_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let a2 = cx.mul(cx.x(0), cx.x(0));
        let one_ = cx.c(1.0);
        let q = cx.add(a2, one_);
        let s = cx.un(names::SQRT, q);
        let g = cx.adj();
        one(cx.div(g, s))
    },
};

/// d acosh a = g / sqrt((a - 1)(a + 1)); +inf at a = 1 (the vertical tangent), NaN below.
pub static ACOSH_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let one_ = cx.c(1.0);
        let m = cx.sub(cx.x(0), one_);
        let p = cx.add(cx.x(0), one_);
        let q = cx.mul(m, p);
        let s = cx.un(names::SQRT, q);
        let g = cx.adj();
        one(cx.div(g, s))
    },
};

/// d atanh a = g / ((1 - a)(1 + a)); +inf at a = +-1, where atanh itself is infinite.
pub static ATANH_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let q = one_minus_sq(cx);
        let g = cx.adj();
        one(cx.div(g, q))
    },
};

// ----- logarithms and exponentials ----------------------------------------------------------

/// d log1p a = g / (1 + a).
pub static LOG1P_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let one_ = cx.c(1.0);
        let d = cx.add(one_, cx.x(0));
        let g = cx.adj();
        one(cx.div(g, d))
    },
};

/// d expm1 a = g (r + 1) (= g exp a).
pub static EXPM1_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let one_ = cx.c(1.0);
        let d = cx.add(cx.r(), one_);
        one(cx.adj_times(d))
    },
};

/// d log10 a = g / (a ln 10).
pub static LOG10_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let ln10 = cx.c(std::f64::consts::LN_10);
        let d = cx.mul(cx.x(0), ln10);
        let g = cx.adj();
        one(cx.div(g, d))
    },
};

// ----- special functions --------------------------------------------------------------------

/// `k exp(-a^2)`, the derivative of erf (k = 2/sqrt(pi)) and erfc (k = -2/sqrt(pi)).
fn gaussian(cx: &mut RuleCx<'_, '_>, k: f64) -> Value {
    let a2 = cx.mul(cx.x(0), cx.x(0));
    let m = cx.neg(a2);
    let e = cx.un(names::EXP, m);
    let k = cx.c(k);
    cx.mul(k, e)
}

/// d erf a = g 2/sqrt(pi) exp(-a^2).
pub static ERF_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let d = gaussian(cx, std::f64::consts::FRAC_2_SQRT_PI);
        one(cx.adj_times(d))
    },
};

/// d erfc a = -g 2/sqrt(pi) exp(-a^2).
pub static ERFC_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_all_operands,
    emit: |cx, _| {
        let d = gaussian(cx, -std::f64::consts::FRAC_2_SQRT_PI);
        one(cx.adj_times(d))
    },
};

/// d cbrt a = g / (3 r^2). At a = 0 the tangent is vertical: the contribution is g / 0, an
/// infinity signed as g (NaN when g is 0), the derivative's one-sided limit.
pub static CBRT_RULE: &dyn ReverseRule = &FnRule {
    needs: needs_result,
    emit: |cx, _| {
        let r2 = cx.mul(cx.r(), cx.r());
        let three = cx.c(3.0);
        let d = cx.mul(three, r2);
        let g = cx.adj();
        one(cx.div(g, d))
    },
};

/// r = copysign(a, b) = |a| sign(b). d/da = g sign(a) sign(b), with sign(b) = copysign(1, b) (so
/// -0.0 counts as negative, as the op does) and sign(0) = 0 for a, as absf's rule: at a = 0 the
/// symmetric difference quotient is 0. d/db = 0: r is piecewise constant in b (it jumps at b = 0).
pub static COPYSIGN_RULE: &dyn ReverseRule = &FnRule {
    needs: |active| needs(&[active[0], active[0]], &[]),
    emit: |cx, active| {
        let da = active[0].then(|| {
            let one_ = cx.c(1.0);
            let sb = cx.bin(names::COPYSIGN, one_, cx.x(1));
            let gs = cx.adj_times(sb);
            let z = cx.c(0.0);
            let pos = cx.cmpf(CmpFPredicate::Ogt, cx.x(0), z);
            let neg = cx.cmpf(CmpFPredicate::Olt, cx.x(0), z);
            let ngs = cx.neg(gs);
            let on_neg = cx.select(neg, ngs, z);
            cx.select(pos, gs, on_neg)
        });
        vec![da, None]
    },
};

/// r = a^n with n an integer: d/da = g n a^(n-1) (computed as `fpowi a, n - 1`, so that a = 0
/// gives 0 for n > 1 and a^(n-1)'s infinity for n < 1, as the power itself). n has no adjoint.
pub static FPOWI_RULE: &dyn ReverseRule = &FnRule {
    needs: |active| needs(&[active[0], active[0]], &[]),
    emit: |cx, active| {
        let da = active[0].then(|| {
            let (n, loc) = (cx.x(1), cx.loc);
            let nty = cx.operand_type(1);
            let fty = cx.operand_type(0);
            let one_ = build_constant_int(cx.b, 1, nty, loc);
            let nm1 = build_binary(cx.b, arith::SUBI, n, one_, loc);
            let p = build_binary(cx.b, names::FPOWI, cx.x(0), nm1, loc);
            // sitofp takes a fixed-width integer: an index exponent goes through i64 first.
            let n = if cx.b.ctx.type_data(nty).is_index() {
                let i64t = cx.b.ctx.i64_type();
                build_cast(cx.b, arith::INDEX_CAST, n, i64t, loc)
            } else {
                n
            };
            let nf = build_cast(cx.b, arith::SITOFP, n, fty, loc);
            let d = cx.mul(nf, p);
            cx.adj_times(d)
        });
        vec![da, None]
    },
};
