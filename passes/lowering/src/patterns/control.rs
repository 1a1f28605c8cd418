//! Structured control flow (jumps are gone: see `structurize`): `qd.range_for` becomes
//! `lowered.for` (step 1), a serial `qd.struct_for` a `lowered.for` over the field's i64 linear
//! index delinearized row-major into its i32 indices, `qd.while` / `qd.condition`
//! `lowered.while` / `lowered.condition`, `qd.if` `lowered.if`. The regions move as they are
//! (their ops are converted after) and get their `lowered.yield`.

use super::emit::{Em, R};
use crate::structurize::delinearize;
use qd_frontend::{IfOp, StructForOp};
use qd_ir::{BlockId, OpId, RegionId, Value};
use qd_lowered::{ConditionOp, ForOp, IfOp as LIf, WhileOp as LWhile, YieldOp};

fn yield_at_end(em: &mut Em, block: BlockId) {
    let loc = em.loc;
    em.at_end(block, |em| em.b(|b| YieldOp::build(b, loc)));
}

/// Moves the blocks of qd region `from` into the (empty) lowered region `to`, creating an empty
/// block when it has none, and ends the block with `lowered.yield`.
fn move_region(em: &mut Em, from: RegionId, to: RegionId) -> BlockId {
    if em.ctx().region_blocks(from).is_empty() {
        let b = em.block(to, &[]);
        yield_at_end(em, b);
        return b;
    }
    em.rw.inline_region_before(from, to, None);
    let b = em
        .ctx()
        .entry_block(to)
        .expect("the moved region has a block");
    yield_at_end(em, b);
    b
}

pub fn range_for(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let (lo, hi) = (operands[0], operands[1]);
    let ty = em.ctx().value_type(lo);
    let body = em.ctx().region(op, 0);
    let step = em.const_int(1, ty);
    let loc = em.loc;
    let f = em.b(|b| ForOp::build(b, lo, hi, step, loc));
    let to = f.body(em.ctx());
    move_region(em, body, to);
    em.rw.erase_op(op);
    Ok(())
}

/// A serial struct_for: a `lowered.for` over the i64 linear index.
pub fn struct_for(em: &mut Em, op: OpId, _: &[Value]) -> R<()> {
    let s = StructForOp(op);
    let name = em.facts.field_sym(em.ctx(), op);
    let Some(f) = name.and_then(|n| em.facts.field(em.ctx(), op, n)) else {
        let name = name.map_or("", |n| em.ctx().ident_str(n));
        return Err(em.error(format!("'qd.struct_for' over unknown field @{name}")));
    };
    let shape = f.shape(em.ctx());
    let n = shape.iter().fold(1i64, |a, &d| a.saturating_mul(d));
    let lo = em.const_i64(0);
    let hi = em.const_i64(n);
    let one = em.const_i64(1);
    let loc = em.loc;
    let i64t = em.i64_type();
    let fo = em.b(|b| ForOp::build(b, lo, hi, one, loc));
    let region = fo.body(em.ctx());
    let block = em.block(region, &[(i64t, loc)]);
    let k = em.ctx().block_arg(block, 0);
    let ivs = em.at_end(block, |em| em.b(|b| delinearize(b, k, &shape, loc)));
    if let Some(body) = s.body(em.ctx()) {
        em.rw.merge_blocks(body, block, &ivs);
    }
    yield_at_end(em, block);
    em.rw.erase_op(op);
    Ok(())
}

pub fn while_loop(em: &mut Em, op: OpId, _: &[Value]) -> R<()> {
    let before = em.ctx().region(op, 0);
    let after = em.ctx().region(op, 1);
    let loc = em.loc;
    let lw = em.b(|b| LWhile::build(b, loc));
    let to_before = lw.before(em.ctx());
    em.rw.inline_region_before(before, to_before, None);
    let to_after = lw.after(em.ctx());
    move_region(em, after, to_after);
    em.rw.erase_op(op);
    Ok(())
}

pub fn condition(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let loc = em.loc;
    em.b(|b| ConditionOp::build(b, operands[0], loc));
    em.rw.erase_op(op);
    Ok(())
}

pub fn if_op(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let i = IfOp(op);
    let has_else = i
        .else_block(em.ctx())
        .is_some_and(|b| !em.ctx().block_is_empty(b));
    let then = em.ctx().region(op, 0);
    let els = em.ctx().region(op, 1);
    let loc = em.loc;
    let li = em.b(|b| LIf::build(b, operands[0], loc));
    let to_then = li.then_region(em.ctx());
    move_region(em, then, to_then);
    if has_else {
        let to_else = li.else_region(em.ctx());
        move_region(em, els, to_else);
    }
    em.rw.erase_op(op);
    Ok(())
}
