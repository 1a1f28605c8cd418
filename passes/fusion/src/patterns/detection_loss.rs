//! The detection loss: weighted BCE (with logits) plus weighted smooth-L1 (beta 1), summed:
//!
//! ```text
//! loss = sum(heat_weight * bce(pred, target)) + sum(reg_weight * smooth_l1(pred - target))
//! bce(p, t)    = max(p, 0) - p * t + log(1 + exp(-|p|))
//! smooth_l1(d) = |d| < 1 ? 0.5 * d * d : |d| - 0.5
//! ```
//!
//! The planner replaces the match by `sum(detection_loss(pred, target, heat_weight,
//! reg_weight))`: one primitive whose forward is the per-element loss and whose backward is
//! analytic (dp = hw * (sigmoid(p) - t) + rw * clamp(d, -1, 1), dt = -hw * p - rw * clamp(d, -1,
//! 1), dhw = bce, drw = smooth_l1), so the fusion makes one partial kernel that reads each input
//! once, one reduce kernel, and a backward kernel that computes the four gradients from the
//! inputs alone.

use super::expr::{matches, op, Expr};
use super::{Match, Pattern};
use qd_arith::names as an;
use qd_arith::{
    build_binary, build_cmpf, build_constant_float, build_select, build_unary, CmpFPredicate,
};
use qd_ir::{Builder, Context, Diagnostic, Location, OpId, OperationState, Value};
use qd_math::names as mn;
use qd_ndarray::{
    array_type, primitive, register_primitive, ArrayType, BackwardArgs, PrimitiveOp, SumOp,
};
use std::sync::{Arc, Once};

/// The primitive the planner makes.
pub const PRIMITIVE: &str = "detection_loss";

pub fn pattern() -> Pattern {
    Pattern {
        name: "detection-loss",
        matcher,
        planner,
    }
}

/// The loss as a tree of captures p = 0, t = 1, hw = 2, rw = 3.
pub fn expr() -> Expr {
    use Expr::{Cap, Const};
    let (p, t, hw, rw) = (Cap(0), Cap(1), Cap(2), Cap(3));
    let bce = op(
        "add",
        vec![
            op(
                "sub",
                vec![
                    op("relu", vec![p.clone()]),
                    op("mul", vec![p.clone(), t.clone()]),
                ],
            ),
            op(
                "log",
                vec![op(
                    "add",
                    vec![
                        op("exp", vec![op("neg", vec![op("abs", vec![p.clone()])])]),
                        Const(1.0),
                    ],
                )],
            ),
        ],
    );
    let d = op("sub", vec![p, t]);
    let ad = op("abs", vec![d.clone()]);
    let sl1 = op(
        "select",
        vec![
            op("lt", vec![ad.clone(), Const(1.0)]),
            op("mul", vec![op("mul", vec![d.clone(), d]), Const(0.5)]),
            op("sub", vec![ad, Const(0.5)]),
        ],
    );
    op(
        "add",
        vec![
            op("sum", vec![op("mul", vec![hw, bce])]),
            op("sum", vec![op("mul", vec![rw, sl1])]),
        ],
    )
}

fn matcher(ctx: &Context, root: OpId) -> Option<Match> {
    if ctx.name(root) != "ndarray.add" || ctx.num_results(root) != 1 {
        return None;
    }
    // Sums over every axis only (the pattern's sums carry no axis).
    let mut caps = Vec::new();
    if !matches(ctx, ctx.result(root, 0), &expr(), &mut caps) {
        return None;
    }
    let sums_full = ctx.operand_vec(root).iter().all(|&v| {
        ctx.defining_op(v)
            .is_some_and(|d| ctx.prop(d, "axis").is_none())
    });
    let captures: Option<Vec<Value>> = caps.into_iter().collect();
    let captures = captures?;
    // Every capture an array (no scalar pred or weights) of one element type.
    let elems: Vec<_> = captures
        .iter()
        .map(|&v| ArrayType::from_type(ctx, ctx.value_type(v)).map(|a| a.elem(ctx)))
        .collect();
    let same = elems.iter().all(|e| e.is_some() && *e == elems[0]);
    (sums_full && same && captures.len() == 4).then_some(Match { root, captures })
}

fn planner(ctx: &mut Context, m: &Match) -> Result<(), Diagnostic> {
    ensure_registered();
    let loc = ctx.loc(m.root);
    let shapes: Vec<Vec<i64>> = m
        .captures
        .iter()
        .map(|&v| {
            ArrayType::from_type(ctx, ctx.value_type(v))
                .map(|a| a.shape(ctx))
                .unwrap_or_default()
        })
        .collect();
    let shape = qd_ndarray::broadcast_all(shapes.iter().map(|s| s.as_slice()))
        .map_err(|e| Diagnostic::error(loc, e))?;
    let elem = ArrayType::from_type(ctx, ctx.value_type(m.captures[0]))
        .map(|a| a.elem(ctx))
        .ok_or_else(|| Diagnostic::error(loc, "detection loss: pred is not an array"))?;
    let lt = array_type(ctx, &shape, elem);
    let st = array_type(ctx, &[], elem);
    let callee = ctx.string_attr(PRIMITIVE);
    let prim = OperationState::new(PrimitiveOp::NAME, loc)
        .operands(&m.captures)
        .results(&[lt])
        .prop(ctx, "callee", callee);
    let mut b = Builder::before(ctx, m.root);
    let l = b.insert_value(prim);
    let s = b.insert_value(
        OperationState::new(SumOp::NAME, loc)
            .operands(&[l])
            .results(&[st]),
    );
    let old = ctx.result(m.root, 0);
    ctx.replace_all_uses_with(old, s);
    ctx.erase_op(m.root);
    Ok(())
}

/// Registers the `detection_loss` primitive once.
pub fn ensure_registered() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if primitive(PRIMITIVE).is_none() {
            let _ = register_primitive(
                PRIMITIVE,
                4,
                Arc::new(|b, v, loc| {
                    let x = parts(b, v[0], v[1], loc);
                    let a = build_binary(b, an::MULF, v[2], x.bce, loc);
                    let c = build_binary(b, an::MULF, v[3], x.sl1, loc);
                    build_binary(b, an::ADDF, a, c, loc)
                }),
                Some(Arc::new(backward)),
                true,
            );
        }
    });
}

/// What the forward and the backward share: bce(p, t), smooth_l1(p - t), d = p - t, and
/// e = exp(-|p|) with u = 1 + e (sigmoid(p) is 1 / u or e / u).
struct Parts {
    bce: Value,
    sl1: Value,
    d: Value,
    e: Value,
    u: Value,
}

fn parts(b: &mut Builder, p: Value, t: Value, loc: Location) -> Parts {
    let ty = b.ctx.value_type(p);
    let c = |b: &mut Builder, v: f64| build_constant_float(b, v, ty, loc);
    let zero = c(b, 0.0);
    let one = c(b, 1.0);
    let half = c(b, 0.5);
    let relu = build_binary(b, an::MAXIMUMF, p, zero, loc);
    let pt = build_binary(b, an::MULF, p, t, loc);
    let ap = build_unary(b, mn::ABSF, p, loc);
    let na = build_unary(b, an::NEGF, ap, loc);
    let e = build_unary(b, mn::EXP, na, loc);
    let u = build_binary(b, an::ADDF, e, one, loc);
    // log(1 + e): an f32 log1p in f32 arithmetic (see log1p.rs), else math.log (f64: the
    // unfused chain's own ops, so the pattern agrees with it to the last bits).
    let lg = if b.ctx.value_type(p) == b.ctx.f32_type() {
        super::log1p::log1p_unit_f32(b, e, u, loc)
    } else {
        build_unary(b, mn::LOG, u, loc)
    };
    let b0 = build_binary(b, an::SUBF, relu, pt, loc);
    let bce = build_binary(b, an::ADDF, b0, lg, loc);
    let d = build_binary(b, an::SUBF, p, t, loc);
    let ad = build_unary(b, mn::ABSF, d, loc);
    let small = build_cmpf(b, CmpFPredicate::Olt, ad, one, loc);
    let dd = build_binary(b, an::MULF, d, d, loc);
    let sq = build_binary(b, an::MULF, dd, half, loc);
    let lin = build_binary(b, an::SUBF, ad, half, loc);
    let sl1 = build_select(b, small, sq, lin, loc);
    Parts { bce, sl1, d, e, u }
}

/// The analytic gradient of hw * bce(p, t) + rw * smooth_l1(p - t), times the result's adjoint.
fn backward(b: &mut Builder, a: &BackwardArgs, loc: Location) -> Vec<Option<Value>> {
    let (p, t, hw, rw) = (a.operands[0], a.operands[1], a.operands[2], a.operands[3]);
    let g = a.result_adjoint;
    let x = parts(b, p, t, loc);
    let ty = b.ctx.value_type(p);
    let one = build_constant_float(b, 1.0, ty, loc);
    let m1 = build_constant_float(b, -1.0, ty, loc);
    let lo = build_binary(b, an::MAXIMUMF, x.d, m1, loc);
    let clamp = build_binary(b, an::MINIMUMF, lo, one, loc);
    // sigmoid(p) from the forward's e = exp(-|p|): 1 / (1 + e) for p >= 0, e / (1 + e) below
    // (no second exp, and no overflow of exp(-p)).
    let zero = build_constant_float(b, 0.0, ty, loc);
    let pos = build_cmpf(b, CmpFPredicate::Oge, p, zero, loc);
    let num = build_select(b, pos, one, x.e, loc);
    let sig = build_binary(b, an::DIVF, num, x.u, loc);
    let st = build_binary(b, an::SUBF, sig, t, loc);
    let h = build_binary(b, an::MULF, hw, st, loc);
    let r = build_binary(b, an::MULF, rw, clamp, loc);
    let dp0 = build_binary(b, an::ADDF, h, r, loc);
    let dp = build_binary(b, an::MULF, dp0, g, loc);
    let hp = build_binary(b, an::MULF, hw, p, loc);
    let s = build_binary(b, an::ADDF, hp, r, loc);
    let dt0 = build_unary(b, an::NEGF, s, loc);
    let dt = build_binary(b, an::MULF, dt0, g, loc);
    let dhw = build_binary(b, an::MULF, x.bce, g, loc);
    let drw = build_binary(b, an::MULF, x.sl1, g, loc);
    vec![Some(dp), Some(dt), Some(dhw), Some(drw)]
}
