//! Reverse-mode derivative rules of math's ops (Enzyme's formulas): a = operand 0, b = operand 1,
//! r = the result, g = the result's adjoint.

use crate::names;
use qd_arith::reverse::{needs, needs_all_operands, needs_nothing, needs_result, FnRule};
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

/// floor and ceil are piecewise constant: their derivative is zero wherever it exists, so they
/// contribute nothing (their result is still active, which keeps the rule explicit).
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
