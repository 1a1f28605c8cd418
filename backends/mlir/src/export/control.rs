//! Structured control flow: `lowered.for` -> `scf.for` (after the step check), `lowered.if` ->
//! `scf.if`, `lowered.while` -> `scf.while` (no iter args: state lives in memory). A region that
//! may stop its thread runs its ops after the failing one under guards (see `Emit::emit_block`);
//! a `while` whose regions may stop ends once a thread failed.

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

pub(super) fn while_loop(e: &mut Emit<'_, '_>, op: OpId, block: Blk) -> R<()> {
    let ir = e.ir;
    let cond_l = ir
        .region_entry_block(op, 0)
        .ok_or_else(|| e.err("lowered.while without a condition region"))?;
    let body_l = ir
        .region_entry_block(op, 1)
        .ok_or_else(|| e.err("lowered.while without a body"))?;
    let (before_r, before) = e.b.region(&[]);
    let (after_r, after) = e.b.region(&[]);
    e.b.append(block, "scf.while", &[], &[], &[], vec![before_r, after_r])
        .map_err(|m| e.err(m))?;
    let (cur, guards) = e.emit_block(cond_l, before)?;
    let cond_op = ir
        .last_op(cond_l)
        .filter(|&o| ir.name(o) == qd_lowered::CONDITION_OP)
        .ok_or_else(|| e.err("lowered.while's condition region ends without lowered.condition"))?;
    e.op = cond_op;
    let c = e.scalar(ir.operand(cond_op, 0))?;
    let mut c = e
        .finish(cur, guards, Some(c))?
        .ok_or_else(|| e.err("internal error: a condition without a value"))?;
    if block_may_stop(e, cond_l) || block_may_stop(e, body_l) {
        let ok = e.status_ok(before)?;
        c = e.op1(before, "arith.andi", &[c, ok], e.i1(), &[])?;
    }
    e.append(before, "scf.condition", &[c], &[], &[])?;
    let (cur, guards) = e.emit_block(body_l, after)?;
    e.finish(cur, guards, None)?;
    e.yield_(after, &[])
}

/// Whether an op of `b` may stop its thread.
fn block_may_stop(e: &Emit<'_, '_>, b: qd_ir::BlockId) -> bool {
    e.ir.block_ops(b).any(|o| e.may_stop.contains(&o))
}
