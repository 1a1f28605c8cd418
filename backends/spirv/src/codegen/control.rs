//! Structured control flow: `lowered.if` is a selection (`OpSelectionMerge`), `lowered.for` and
//! `lowered.while` are loops (`OpLoopMerge`) with a header, a body, a continue block that holds
//! only the back edge (and the `for`'s increment) and a merge block. The `for` counter is an
//! `OpPhi` in the header; a `while`'s condition region runs in the loop, whose last block leaves
//! through the merge (a break) or goes on into the body.

use super::checks::ErrValue;
use super::{Gen, Val, R};
use qd_ir::OpId;
use qd_lowered as lw;
use rspirv::spirv::{LoopControl, SelectionControl, Word};

impl Gen<'_> {
    /// The label of the block being emitted.
    pub fn current_label(&self) -> R<Word> {
        let m = self.b.module_ref();
        let f = self.b.selected_function().and_then(|f| m.functions.get(f));
        let b = self
            .b
            .selected_block()
            .and_then(|b| f.and_then(|f| f.blocks.get(b)));
        b.and_then(|b| b.label.as_ref())
            .and_then(|l| l.result_id)
            .ok_or_else(|| self.err("internal error: no block is being emitted"))
    }
}

pub(super) fn if_op(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let c = g.operand(op, 0)?;
    let has_else =
        g.ir.regions(op)
            .get(1)
            .and_then(|&r| g.ir.entry_block(r))
            .is_some();
    let then_bb = g.b.id();
    let merge = g.b.id();
    let else_bb = if has_else { g.b.id() } else { merge };
    ck!(g, g.b.selection_merge(merge, SelectionControl::NONE))?;
    ck!(g, g.b.branch_conditional(c, then_bb, else_bb, []))?;
    ck!(g, g.b.begin_block(Some(then_bb)))?;
    g.emit_region(op, 0)?;
    ck!(g, g.b.branch(merge))?;
    if has_else {
        g.op = op;
        ck!(g, g.b.begin_block(Some(else_bb)))?;
        g.emit_region(op, 1)?;
        ck!(g, g.b.branch(merge))?;
    }
    ck!(g, g.b.begin_block(Some(merge)))?;
    Ok(())
}

pub(super) fn for_loop(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let (lo, hi, step) = (g.operand(op, 0)?, g.operand(op, 1)?, g.operand(op, 2)?);
    let ty = g.ir.value_type(g.ir.operand(op, 0));
    let s = g.scalar(ty)?;
    let sty = g.scalar_ty(s);
    let bool_t = g.scalar_ty(super::Scalar::Bool);
    // A step that is not positive is the interpreter's error.
    let zero = g.constant(s, 0);
    let bad = ck!(g, g.b.s_less_than_equal(bool_t, None, step, zero))?;
    g.fail_if(
        op,
        bad,
        &[ErrValue {
            id: step,
            scalar: s,
            signed: true,
        }],
    )?;
    let passes = g.begin_for_count(s, lo, hi, step)?;
    // Wider bounds count in the header instead.
    let per_pass = match passes {
        Some(_) => None,
        None => g.begin_loop_count()?,
    };
    let pre = g.current_label()?;
    let header = g.b.id();
    let body = g.b.id();
    let cont = g.b.id();
    let merge = g.b.id();
    let next = g.b.id();
    ck!(g, g.b.branch(header))?;
    ck!(g, g.b.begin_block(Some(header)))?;
    let i = ck!(g, g.b.phi(sty, None, [(lo, pre), (next, cont)]))?;
    g.count_loop_pass(per_pass)?;
    let c = ck!(g, g.b.s_less_than(bool_t, None, i, hi))?;
    ck!(g, g.b.loop_merge(merge, cont, LoopControl::NONE, []))?;
    ck!(g, g.b.branch_conditional(c, body, merge, []))?;
    ck!(g, g.b.begin_block(Some(body)))?;
    let iv = lw::ForOp(op).induction_var(g.ir);
    g.values.insert(iv, Val::Id(i));
    g.emit_region(op, 0)?;
    ck!(g, g.b.branch(cont))?;
    ck!(g, g.b.begin_block(Some(cont)))?;
    ck!(g, g.b.i_add(sty, Some(next), i, step))?;
    ck!(g, g.b.branch(header))?;
    ck!(g, g.b.begin_block(Some(merge)))?;
    g.check_loop_count(op, passes.or(per_pass))
}

pub(super) fn while_loop(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let header = g.b.id();
    let cond_bb = g.b.id();
    let body = g.b.id();
    let cont = g.b.id();
    let merge = g.b.id();
    let passes = g.begin_loop_count()?;
    ck!(g, g.b.branch(header))?;
    ck!(g, g.b.begin_block(Some(header)))?;
    g.count_loop_pass(passes)?;
    ck!(g, g.b.loop_merge(merge, cont, LoopControl::NONE, []))?;
    ck!(g, g.b.branch(cond_bb))?;
    ck!(g, g.b.begin_block(Some(cond_bb)))?;
    g.emit_region(op, 0)?;
    g.op = op;
    let cond_op = g
        .ir
        .regions(op)
        .first()
        .and_then(|&r| g.ir.entry_block(r))
        .and_then(|b| g.ir.block_ops(b).last())
        .filter(|&o| g.ir.name(o) == lw::CONDITION_OP)
        .ok_or_else(|| g.err("lowered.while's condition region must end in lowered.condition"))?;
    let c = g.operand(cond_op, 0)?;
    ck!(g, g.b.branch_conditional(c, body, merge, []))?;
    ck!(g, g.b.begin_block(Some(body)))?;
    g.emit_region(op, 1)?;
    ck!(g, g.b.branch(cont))?;
    ck!(g, g.b.begin_block(Some(cont)))?;
    ck!(g, g.b.branch(header))?;
    ck!(g, g.b.begin_block(Some(merge)))?;
    g.check_loop_count(op, passes)
}
