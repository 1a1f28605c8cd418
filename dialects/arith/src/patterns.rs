//! arith's canonicalization patterns: few, each exact for every input.

use crate::consts::{constant_value, IntVal};
use crate::flags::FlagKind;
use crate::names;
use crate::ops::constant::materialize_constant;
use qd_ir::rewrite::{RewritePattern, Rewriter};
use qd_ir::{AttrData, OpId, OperationState};

/// `op(c, x)` -> `op(x, c)` for a commutative op with only its left operand constant, so that
/// folders and patterns find constants on the right.
pub struct ConstantToRhs(pub &'static str);

impl RewritePattern for ConstantToRhs {
    fn name(&self) -> &'static str {
        "arith-constant-to-rhs"
    }
    fn root(&self) -> Option<&'static str> {
        Some(self.0)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        if ctx.num_operands(op) != 2 {
            return false;
        }
        let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
        if constant_value(ctx, a).is_none() || constant_value(ctx, b).is_some() {
            return false;
        }
        rw.set_operand(op, 0, b);
        rw.set_operand(op, 1, a);
        true
    }
}

/// `addi(addi(x, c1), c2)` -> `addi(x, c1 + c2)` (wrapping; the overflow flags are dropped).
pub struct AddIConstChain;

impl RewritePattern for AddIConstChain {
    fn name(&self) -> &'static str {
        "arith-addi-constant-chain"
    }
    fn root(&self) -> Option<&'static str> {
        Some(names::ADDI)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        if ctx.num_operands(op) != 2 || ctx.num_results(op) != 1 {
            return false;
        }
        let Some(c2) =
            constant_value(ctx, ctx.operand(op, 1)).and_then(|a| IntVal::from_attr(ctx, a))
        else {
            return false;
        };
        let Some(inner) = ctx.defining_op(ctx.operand(op, 0)) else {
            return false;
        };
        if ctx.name(inner) != names::ADDI || ctx.num_operands(inner) != 2 {
            return false;
        }
        let Some(c1) =
            constant_value(ctx, ctx.operand(inner, 1)).and_then(|a| IntVal::from_attr(ctx, a))
        else {
            return false;
        };
        let ty = ctx.value_type(ctx.result(op, 0));
        if c1.width() != c2.width() || ctx.value_type(ctx.operand(inner, 0)) != ty {
            return false;
        }
        let x = ctx.operand(inner, 0);
        let loc = ctx.loc(op);
        let sum = IntVal::from_bits(c1.zext().wrapping_add(c2.zext()), c1.width());
        let Some(cst_state) = rw.intern(|ctx| {
            let attr = sum.to_attr(ctx, ty);
            materialize_constant(ctx, attr, ty, loc)
        }) else {
            return false;
        };
        let cst = rw.create_before(op, cst_state);
        let cst = rw.ctx().result(cst, 0);
        let state = rw.intern(|ctx| {
            let none = FlagKind::Overflow.attr(ctx, 0);
            OperationState::new(names::ADDI, loc)
                .operands(&[x, cst])
                .results(&[ty])
                .prop(ctx, FlagKind::Overflow.prop_name(), none)
        });
        rw.replace_op_with_new(op, state);
        true
    }
}

/// `negf(negf(x))` -> `x` (negation only flips the sign bit).
pub struct NegFNegF;

impl RewritePattern for NegFNegF {
    fn name(&self) -> &'static str {
        "arith-negf-negf"
    }
    fn root(&self) -> Option<&'static str> {
        Some(names::NEGF)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        if ctx.num_operands(op) != 1 || ctx.num_results(op) != 1 {
            return false;
        }
        let Some(inner) = ctx.defining_op(ctx.operand(op, 0)) else {
            return false;
        };
        if ctx.name(inner) != names::NEGF || ctx.num_operands(inner) != 1 {
            return false;
        }
        let x = ctx.operand(inner, 0);
        if ctx.value_type(x) != ctx.value_type(ctx.result(op, 0)) {
            return false;
        }
        rw.replace_op(op, &[x]);
        true
    }
}

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
