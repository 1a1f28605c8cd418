//! Structured control flow: `lowered.for` (a counted loop; the induction variable steps in i64
//! when its type is narrower, so that `i + step` cannot wrap, and an i64 loop stops when the
//! step would pass the largest i64, as the interpreter's unbounded arithmetic does), `lowered.if`
//! and `lowered.while` (whose back edge polls the launch's cancel flag: `Gen::cancel_check`).

use super::{Gen, R};
use inkwell::IntPredicate;
use qd_ir::{BlockId, OpId, Value};

/// The body of `lowered.for` `op` and its induction variable, once its three operands (lower
/// bound, upper bound, step) are checked: the scalar and the per-lane loops read them alike.
pub(crate) fn for_body(g: &Gen<'_, '_>, op: OpId) -> R<(BlockId, Value)> {
    let ir = g.ir;
    if ir.num_operands(op) != 3 {
        return Err(g.err("lowered.for needs a lower bound, an upper bound and a step"));
    }
    let body = ir
        .regions(op)
        .first()
        .and_then(|&r| ir.entry_block(r))
        .ok_or_else(|| g.err("lowered.for needs a body"))?;
    let Some(&iv) = ir.block_args(body).first() else {
        return Err(g.err("lowered.for's body needs the induction variable"));
    };
    Ok((body, iv))
}

/// The `lowered.condition` that ends the condition region of `lowered.while` `op`.
pub(crate) fn while_condition(g: &Gen<'_, '_>, op: OpId) -> R<OpId> {
    let ir = g.ir;
    ir.regions(op)
        .first()
        .and_then(|&r| ir.entry_block(r))
        .and_then(|b| ir.block_ops(b).last())
        .filter(|&t| ir.name(t) == qd_lowered::CONDITION_OP && ir.num_operands(t) == 1)
        .ok_or_else(|| g.err("lowered.while's condition region must end in lowered.condition"))
}

pub(super) fn for_loop(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let (body, iv) = for_body(g, op)?;
    let (lo, hi, step) = (
        g.int(ir.operand(op, 0))?,
        g.int(ir.operand(op, 1))?,
        g.int(ir.operand(op, 2))?,
    );
    let ity = lo.get_type();
    let wide = ity.get_bit_width() == 64;
    let (lo, hi, s) = (g.to_i64(lo)?, g.to_i64(hi)?, g.to_i64(step)?);
    let zero = g.i64().const_zero();
    let bad = g.ck(g.b.build_int_compare(IntPredicate::SLE, s, zero, "badstep"))?;
    g.fail_if(op, bad, &[s])?;

    let pre = g.b.get_insert_block().unwrap();
    let header = g.llcx.append_basic_block(g.func, "for");
    let body_bb = g.llcx.append_basic_block(g.func, "for.body");
    let latch = g.llcx.append_basic_block(g.func, "for.next");
    let exit = g.llcx.append_basic_block(g.func, "for.end");
    g.ck(g.b.build_unconditional_branch(header))?;
    g.b.position_at_end(header);
    let phi = g.ck(g.b.build_phi(g.i64(), "i"))?;
    phi.add_incoming(&[(&lo, pre)]);
    let i = phi.as_basic_value().into_int_value();
    let more = g.ck(g.b.build_int_compare(IntPredicate::SLT, i, hi, "more"))?;
    g.ck(g.b.build_conditional_branch(more, body_bb, exit))?;
    g.b.position_at_end(body_bb);
    let iv_val = if wide {
        i
    } else {
        g.ck(g.b.build_int_truncate(i, ity, "iv"))?
    };
    g.values.insert(iv, iv_val.into());
    g.emit_block(body)?;
    g.op = op;
    g.ck(g.b.build_unconditional_branch(latch))?;
    g.b.position_at_end(latch);
    if wide {
        let max = g.i64().const_int(i64::MAX as u64, false);
        let lim = g.ck(g.b.build_int_sub(max, s, "lim"))?;
        let fits = g.ck(g.b.build_int_compare(IntPredicate::SLE, i, lim, "fits"))?;
        let next = g.ck(g.b.build_int_add(i, s, "i.next"))?;
        phi.add_incoming(&[(&next, latch)]);
        g.ck(g.b.build_conditional_branch(fits, header, exit))?;
    } else {
        let next = g.ck(g.b.build_int_nsw_add(i, s, "i.next"))?;
        phi.add_incoming(&[(&next, latch)]);
        g.ck(g.b.build_unconditional_branch(header))?;
    }
    g.b.position_at_end(exit);
    Ok(())
}

pub(super) fn if_op(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    if g.ir.num_operands(op) != 1 {
        return Err(g.err("lowered.if needs one condition"));
    }
    let c = g.int(g.ir.operand(op, 0))?;
    let then_bb = g.llcx.append_basic_block(g.func, "then");
    let else_bb = g.llcx.append_basic_block(g.func, "else");
    let end = g.llcx.append_basic_block(g.func, "endif");
    g.ck(g.b.build_conditional_branch(c, then_bb, else_bb))?;
    for (i, bb) in [(0, then_bb), (1, else_bb)] {
        g.b.position_at_end(bb);
        g.emit_region(op, i)?;
        g.op = op;
        g.ck(g.b.build_unconditional_branch(end))?;
    }
    g.b.position_at_end(end);
    Ok(())
}

/// `lowered.while { ... lowered.condition %c } do { ... }`.
pub(super) fn while_loop(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let cond_op = while_condition(g, op)?;
    let before = g.llcx.append_basic_block(g.func, "while");
    let after = g.llcx.append_basic_block(g.func, "while.body");
    let end = g.llcx.append_basic_block(g.func, "while.end");
    g.ck(g.b.build_unconditional_branch(before))?;
    g.b.position_at_end(before);
    g.emit_region(op, 0)?;
    g.op = op;
    let c = g.int(ir.operand(cond_op, 0))?;
    g.ck(g.b.build_conditional_branch(c, after, end))?;
    g.b.position_at_end(after);
    g.emit_region(op, 1)?;
    g.op = op;
    g.cancel_check(op)?;
    g.ck(g.b.build_unconditional_branch(before))?;
    g.b.position_at_end(end);
    Ok(())
}
