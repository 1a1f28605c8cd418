//! Patterns of `arith.select`.

use super::{
    create_constant, create_elementwise, def_by, fused_loc, int_const, operands_n, result_ty,
};
use crate::consts::constant_value;
use crate::names;
use qd_ir::rewrite::{RewritePattern, Rewriter};
use qd_ir::{AttrData, OpId};

/// `select(c, true, false)` -> `c` on i1.
pub struct SelectI1ToCond;

impl RewritePattern for SelectI1ToCond {
    fn name(&self) -> &'static str {
        "arith-select-i1-to-cond"
    }
    fn root(&self) -> Option<&'static str> {
        Some(names::SELECT)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        if ctx.num_operands(op) != 3 || ctx.num_results(op) != 1 {
            return false;
        }
        let is = |i: usize, b: bool| {
            constant_value(ctx, ctx.operand(op, i))
                .is_some_and(|a| *ctx.attr_data(a) == AttrData::Bool(b))
        };
        let c = ctx.operand(op, 0);
        if !(is(1, true) && is(2, false)) || ctx.value_type(c) != ctx.value_type(ctx.result(op, 0))
        {
            return false;
        }
        rw.replace_op(op, &[c]);
        true
    }
}

/// Creates `arith.select c, t, f` before `anchor`.
fn create_select(
    rw: &mut Rewriter<'_>,
    anchor: OpId,
    c: qd_ir::Value,
    t: qd_ir::Value,
    f: qd_ir::Value,
    loc: qd_ir::Location,
) -> qd_ir::Value {
    let ty = rw.ctx().value_type(t);
    let state = qd_ir::OperationState::new(names::SELECT, loc)
        .operands(&[c, t, f])
        .results(&[ty]);
    let op = rw.create_before(anchor, state);
    rw.ctx().result(op, 0)
}

/// `select(p, a, select(p, b, c))` -> `select(p, a, c)` (upstream RedundantSelectFalse) and
/// `select(p, select(p, a, b), c)` -> `select(p, a, c)` (RedundantSelectTrue): the inner select
/// sees the same condition.
fn redundant_select(op: OpId, rw: &mut Rewriter<'_>, inner_is_false: bool) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 3) else {
        return false;
    };
    let i = if inner_is_false { 2 } else { 1 };
    let Some(inner) = def_by(ctx, v[i], names::SELECT, 3) else {
        return false;
    };
    if ctx.operand(inner, 0) != v[0] {
        return false;
    }
    let (t, f) = if inner_is_false {
        (v[1], ctx.operand(inner, 2))
    } else {
        (ctx.operand(inner, 1), v[2])
    };
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, inner]));
    let new = create_select(rw, op, v[0], t, f, loc);
    rw.replace_op(op, &[new]);
    true
}

pub fn redundant_select_false(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    redundant_select(op, rw, true)
}

pub fn redundant_select_true(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    redundant_select(op, rw, false)
}

/// `select(xori(p, -1), a, b)` -> `select(p, b, a)` (upstream SelectNotCond).
pub fn select_not_cond(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 3) else {
        return false;
    };
    let Some(not) = def_by(ctx, v[0], names::XORI, 2) else {
        return false;
    };
    if !int_const(ctx, ctx.operand(not, 1)).is_some_and(|k| k.is_all_ones()) {
        return false;
    }
    let p = ctx.operand(not, 0);
    let ones = ctx.defining_op(ctx.operand(not, 1)).unwrap_or(not);
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, ones]));
    let new = create_select(rw, op, p, v[2], v[1], loc);
    rw.replace_op(op, &[new]);
    true
}

/// `select(p, false, true)` -> `xori(p, true)` (upstream SelectI1ToNot).
pub fn select_i1_to_not(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 3) else {
        return false;
    };
    let is = |i: usize, b: bool| {
        constant_value(ctx, v[i]).is_some_and(|a| *ctx.attr_data(a) == AttrData::Bool(b))
    };
    if !(is(1, false) && is(2, true)) || ctx.value_type(v[0]) != result_ty(ctx, op) {
        return false;
    }
    let loc = ctx.loc(op);
    let (t, i1) = rw.intern(|ctx| (ctx.bool_attr(true), ctx.i1_type()));
    let Some(c) = create_constant(rw, op, t, i1, loc) else {
        return false;
    };
    let new = create_elementwise(rw, op, names::XORI, &[v[0], c], i1, loc, &[]);
    rw.replace_op(op, &[new]);
    true
}

/// `select(p, 1, 0)` -> `extui p` and `select(p, 0, 1)` -> `extui(xori(p, 1))` on integers wider
/// than i1 (upstream SelectToExtUI).
pub fn select_to_extui(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    use crate::consts::int_width;
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 3) else {
        return false;
    };
    let ty = result_ty(ctx, op);
    if !matches!(ctx.type_data(ty), qd_ir::TypeData::Integer { .. })
        || int_width(ctx, ty).is_none_or(|w| w == 1)
    {
        return false;
    }
    let k = |i: usize| int_const(ctx, v[i]);
    let (t, f) = (k(1), k(2));
    let loc = ctx.loc(op);
    let cond = v[0];
    let ct = ctx.value_type(cond);
    if t.is_some_and(|t| t.is_one()) && f.is_some_and(|f| f.is_zero()) {
        let new = create_elementwise(rw, op, names::EXTUI, &[cond], ty, loc, &[]);
        rw.replace_op(op, &[new]);
        return true;
    }
    if t.is_some_and(|t| t.is_zero()) && f.is_some_and(|f| f.is_one()) {
        let one = rw.intern(|ctx| crate::consts::int_attr(ctx, 1, ct));
        let Some(c) = create_constant(rw, op, one, ct, loc) else {
            return false;
        };
        let not = create_elementwise(rw, op, names::XORI, &[cond, c], ct, loc, &[]);
        let new = create_elementwise(rw, op, names::EXTUI, &[not], ty, loc, &[]);
        rw.replace_op(op, &[new]);
        return true;
    }
    false
}
