//! Patterns of `arith.select`.

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
