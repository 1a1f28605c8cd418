//! Structured control flow: `lowered.for` -> `scf.for` (after the step check), `lowered.if` ->
//! `scf.if`, `lowered.while` -> `scf.while` (state lives in memory; the one iter arg says the
//! launch was cancelled). A region that may stop its thread runs its ops after the failing one
//! under guards (see `Emit::emit_block`); a `while` ends once its thread failed or the launch was
//! cancelled at its back edge.

use super::memory::to_i64;
use super::{Emit, Val, R};
use crate::ir::{self, Blk};
use qd_ir::OpId;

pub(super) fn for_loop(e: &mut Emit<'_, '_>, op: OpId, block: Blk) -> R<()> {
    let ir = e.ir;
    let lo = e.scalar(ir.operand(op, 0))?;
    let hi = e.scalar(ir.operand(op, 1))?;
    let step = e.scalar(ir.operand(op, 2))?;
    // The step must be positive: a thread with another one stops here.
    let t = ir::type_of(step);
    let zero = e.const_int(t, 0)?;
    // sle = 3.
    let bad = e.cmpi(block, 3, step, zero)?;
    let s64 = to_i64(e, block, step)?;
    e.fail_if(block, op, bad, &[s64])?;
    // The loop itself runs only without an error (the check above may have failed).
    let ok = e.status_ok(block)?;
    let (_, then) = e.guard(block, ok, false)?;
    let (region, body) = e.b.region(&[t]);
    e.b.append(then, "scf.for", &[lo, hi, step], &[], &[], vec![region])
        .map_err(|m| e.err(m))?;
    e.yield_(then, &[])?;
    let lowered_body = ir
        .region_entry_block(op, 0)
        .ok_or_else(|| e.err("lowered.for without a body"))?;
    e.values.insert(
        ir.block_arg(lowered_body, 0),
        Val::S(ir::block_arg(body, 0)),
    );
    body_guarded(e, lowered_body, body)
}

/// Emits `lowered` into `body` (then `scf.yield`); when it may stop, each iteration runs only
/// without an error.
fn body_guarded(e: &mut Emit<'_, '_>, lowered: qd_ir::BlockId, body: Blk) -> R<()> {
    let start = if block_may_stop(e, lowered) {
        let ok = e.status_ok(body)?;
        e.guard(body, ok, false)?.1
    } else {
        body
    };
    let (cur, guards) = e.emit_block(lowered, start)?;
    e.finish(cur, guards, None)?;
    if start.ptr != body.ptr {
        e.yield_(start, &[])?;
    }
    e.yield_(body, &[])
}

pub(super) fn if_op(e: &mut Emit<'_, '_>, op: OpId, block: Blk) -> R<()> {
    let ir = e.ir;
    let c = e.scalar(ir.operand(op, 0))?;
    let (then_r, then_b) = e.b.region(&[]);
    let else_block = ir.region_entry_block(op, 1);
    let (else_r, else_b) = match else_block {
        Some(_) => {
            let (r, b) = e.b.region(&[]);
            (r, Some(b))
        }
        None => (melior::ir::Region::new(), None),
    };
    e.b.append(block, "scf.if", &[c], &[], &[], vec![then_r, else_r])
        .map_err(|m| e.err(m))?;
    let then_l = ir
        .region_entry_block(op, 0)
        .ok_or_else(|| e.err("lowered.if without a then block"))?;
    let (cur, guards) = e.emit_block(then_l, then_b)?;
    e.finish(cur, guards, None)?;
    e.yield_(then_b, &[])?;
    if let (Some(l), Some(b)) = (else_block, else_b) {
        let (cur, guards) = e.emit_block(l, b)?;
        e.finish(cur, guards, None)?;
        e.yield_(b, &[])?;
    }
    Ok(())
}

/// `lowered.while` -> `scf.while`, carrying whether the last back edge found the launch
/// cancelled (an i1, false on entry). The back edge (the end of the body) polls the cancel flag
/// ([`Emit::cancel_poll`]) and records the loop's error site when it is set; the condition region
/// then runs only while the loop is not stopped and, when its regions may stop, no thread failed.
pub(super) fn while_loop(e: &mut Emit<'_, '_>, op: OpId, block: Blk) -> R<()> {
    let ir = e.ir;
    let cond_l = ir
        .region_entry_block(op, 0)
        .ok_or_else(|| e.err("lowered.while without a condition region"))?;
    let body_l = ir
        .region_entry_block(op, 1)
        .ok_or_else(|| e.err("lowered.while without a body"))?;
    let i1 = e.i1();
    let (before_r, before) = e.b.region(&[i1]);
    let (after_r, after) = e.b.region(&[i1]);
    let no = e.const_int(i1, 0)?;
    e.b.append(
        block,
        "scf.while",
        &[no],
        &[i1],
        &[],
        vec![before_r, after_r],
    )
    .map_err(|m| e.err(m))?;
    let stopped = ir::block_arg(before, 0);
    let yes = e.const_int(i1, 1)?;
    let mut go = e.op1(before, "arith.xori", &[stopped, yes], i1, &[])?;
    if block_may_stop(e, cond_l) || block_may_stop(e, body_l) {
        let ok = e.status_ok(before)?;
        go = e.op1(before, "arith.andi", &[go, ok], i1, &[])?;
    }
    let (guard, then) = e.guard(before, go, true)?;
    let (cur, guards) = e.emit_block(cond_l, then)?;
    let cond_op = ir
        .last_op(cond_l)
        .filter(|&o| ir.name(o) == qd_lowered::CONDITION_OP)
        .ok_or_else(|| e.err("lowered.while's condition region ends without lowered.condition"))?;
    e.op = cond_op;
    let c = e.scalar(ir.operand(cond_op, 0))?;
    let c = e
        .finish(cur, guards, Some(c))?
        .ok_or_else(|| e.err("internal error: a condition without a value"))?;
    e.yield_(then, &[c])?;
    e.op = op;
    e.b.loc = e.loc(op);
    e.append(
        before,
        "scf.condition",
        &[ir::result(guard, 0), stopped],
        &[],
        &[],
    )?;
    let (cur, guards) = e.emit_block(body_l, after)?;
    e.finish(cur, guards, None)?;
    // The back edge. A thread that failed in the body keeps its error, and leaves the loop at
    // the condition.
    e.op = op;
    e.b.loc = e.loc(op);
    let cancelled = e.cancel_poll(after)?;
    let record = if block_may_stop(e, body_l) {
        let ok = e.status_ok(after)?;
        e.op1(after, "arith.andi", &[cancelled, ok], i1, &[])?
    } else {
        cancelled
    };
    e.fail_if(after, op, record, &[])?;
    e.yield_(after, &[cancelled])
}

/// Whether an op of `b` may stop its thread.
fn block_may_stop(e: &Emit<'_, '_>, b: qd_ir::BlockId) -> bool {
    e.ir.block_ops(b).any(|o| e.may_stop.contains(&o))
}
