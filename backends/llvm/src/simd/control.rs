//! Divergent control flow under masks (uniform `if`, `for` and `while` are the scalar codegen's,
//! their bodies coming back through `simd::emit_op`).
//!
//! - `if` with a per-lane condition runs the then region under `ctrl & c` and the else region
//!   under `ctrl & !c`, skipping a region whose lanes are all inactive (no values merge: region
//!   ops have no results, and what they store goes through masked stores).
//! - `for` with per-lane bounds or step, and `while` with a per-lane condition, run until every
//!   lane is done: the loop's mask (an alloca) narrows at each test, and the induction variable
//!   is a per-lane i64 (in an alloca; LLVM keeps both in registers).
//! - At the end of each construct control goes on under the enclosing mask; when a failing check
//!   inside left no active lane, the construct's end is where it bails to (`bail_if_none`), and
//!   the end checks the enclosing lanes in turn.

use super::{any, bail_if_none, exec, ln, ln_mut, splat, vector, VVal};
use crate::codegen::{for_body, while_condition, Gen, R};
use inkwell::basic_block::BasicBlock;
use inkwell::values::VectorValue;
use inkwell::IntPredicate;
use qd_ir::OpId;

/// Emits region `i` of `op` under structural mask `ctrl`, bailing to `end`.
fn region_under<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    op: OpId,
    i: usize,
    ctrl: VectorValue<'ctx>,
    end: BasicBlock<'ctx>,
) -> R<()> {
    let l = ln_mut(g);
    let saved = l.ctrl;
    l.ctrl = ctrl;
    l.bail.push(end);
    let r = g.emit_region(op, i);
    let l = ln_mut(g);
    l.bail.pop();
    l.ctrl = saved;
    g.op = op;
    r
}

/// After a construct: go on under the enclosing mask, or leave when it has no live lane.
fn rejoin(g: &mut Gen<'_, '_>) -> R<()> {
    bail_if_none(g)
}

pub(crate) fn if_op(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let c = vector(g, g.ir.operand(op, 0))?;
    let ctrl = ln(g).ctrl;
    let then_m = g.ck(g.b.build_and(ctrl, c, "then.m"))?;
    let not_c = g.ck(g.b.build_not(c, "not"))?;
    let else_m = g.ck(g.b.build_and(ctrl, not_c, "else.m"))?;
    let has_else =
        g.ir.regions(op)
            .get(1)
            .is_some_and(|&r| g.ir.entry_block(r).is_some());
    let arms: &[(usize, VectorValue)] = if has_else {
        &[(0, then_m), (1, else_m)]
    } else {
        &[(0, then_m)]
    };
    for &(i, m) in arms {
        let run = g
            .llcx
            .append_basic_block(g.func, if i == 0 { "vthen" } else { "velse" });
        let end = g
            .llcx
            .append_basic_block(g.func, if i == 0 { "vthen.end" } else { "velse.end" });
        let alive = live(g, m)?;
        let some = any(g, alive)?;
        g.ck(g.b.build_conditional_branch(some, run, end))?;
        g.b.position_at_end(run);
        region_under(g, op, i, m, end)?;
        g.ck(g.b.build_unconditional_branch(end))?;
        g.b.position_at_end(end);
    }
    rejoin(g)
}

/// `m` restricted to the live lanes.
fn live<'ctx>(g: &Gen<'_, 'ctx>, m: VectorValue<'ctx>) -> R<VectorValue<'ctx>> {
    let l = ln(g);
    let mt = g.llcx.bool_type().vec_type(l.w);
    let alive = g
        .ck(g.b.build_load(mt, l.alive, "alive"))?
        .into_vector_value();
    g.ck(g.b.build_and(m, alive, "live"))
}

/// `v` (a lowered integer) per lane, as i64 (sign-extended).
fn wide<'ctx>(g: &Gen<'_, 'ctx>, v: qd_ir::Value) -> R<VectorValue<'ctx>> {
    let x = vector(g, v)?;
    let w = ln(g).w;
    if x.get_type()
        .get_element_type()
        .into_int_type()
        .get_bit_width()
        == 64
    {
        return Ok(x);
    }
    g.ck(g.b.build_int_s_extend(x, g.i64().vec_type(w), "w"))
}

/// `lowered.for` with per-lane bounds or step (see the scalar `control::for_loop` for the
/// semantics: a step <= 0 fails, an i64 loop stops where the next step would pass i64's max).
pub(crate) fn for_loop(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let (_, iv) = for_body(g, op)?;
    let ity = g.ty(ir.value_type(iv))?.into_int_type();
    // The induction variable in its own type (not widened to i64: half the vector work and
    // registers for an i32 loop at 16 lanes): a lane stops where its next step would pass the
    // type's max, which is where the scalar loop (in i64) finds it past the upper bound.
    let (lo, hi, s) = (
        vector(g, ir.operand(op, 0))?,
        vector(g, ir.operand(op, 1))?,
        vector(g, ir.operand(op, 2))?,
    );
    let w = ln(g).w;
    let vty = ity.vec_type(w);
    if [lo, hi, s].iter().any(|v| v.get_type() != vty) {
        return Err(g.err("lowered.for's bounds and step need the induction variable's type"));
    }
    let zero = vty.const_zero();
    let bad = g.ck(g.b.build_int_compare(IntPredicate::SLE, s, zero, "badstep"))?;
    // The error reports the step as the scalar code does, as an i64.
    let s64 = wide(g, ir.operand(op, 2))?;
    super::errors::fail_lanes(g, op, bad.into(), &[s64.into()])?;

    let mt = g.llcx.bool_type().vec_type(w);
    let iv_slot = g.ck(g.entry.build_alloca(vty, "viv"))?;
    let m_slot = g.ck(g.entry.build_alloca(mt, "vloop"))?;
    g.ck(g.b.build_store(iv_slot, lo))?;
    let m0 = exec(g)?;
    g.ck(g.b.build_store(m_slot, m0))?;
    let header = g.llcx.append_basic_block(g.func, "vfor");
    let body_bb = g.llcx.append_basic_block(g.func, "vfor.body");
    let exit = g.llcx.append_basic_block(g.func, "vfor.end");
    g.ck(g.b.build_unconditional_branch(header))?;
    g.b.position_at_end(header);
    let i = g.ck(g.b.build_load(vty, iv_slot, "i"))?.into_vector_value();
    let m = g.ck(g.b.build_load(mt, m_slot, "m"))?.into_vector_value();
    let m = live(g, m)?;
    let more = g.ck(g.b.build_int_compare(IntPredicate::SLT, i, hi, "more"))?;
    let act = g.ck(g.b.build_and(m, more, "act"))?;
    g.ck(g.b.build_store(m_slot, act))?;
    let some = any(g, act)?;
    g.ck(g.b.build_conditional_branch(some, body_bb, exit))?;
    g.b.position_at_end(body_bb);
    ln_mut(g).vals.insert(iv, VVal::Vec(i, None));
    region_under(g, op, 0, act, exit)?;
    // The latch: every lane steps (inactive lanes' values are not read). A lane whose next
    // step would pass the type's max stops after this iteration (its step is positive).
    let next = g.ck(g.b.build_int_add(i, s, "i.next"))?;
    let bw = ity.get_bit_width();
    let max = ity.const_int(((1u128 << (bw - 1)) - 1) as u64, false);
    let max = splat(g, max.into())?;
    let lim = g.ck(g.b.build_int_sub(max, s, "lim"))?;
    let fits = g.ck(g.b.build_int_compare(IntPredicate::SLE, i, lim, "fits"))?;
    let m = g.ck(g.b.build_load(mt, m_slot, "m"))?.into_vector_value();
    let m = g.ck(g.b.build_and(m, fits, "m"))?;
    g.ck(g.b.build_store(m_slot, m))?;
    g.ck(g.b.build_store(iv_slot, next))?;
    g.ck(g.b.build_unconditional_branch(header))?;
    g.b.position_at_end(exit);
    rejoin(g)
}

/// `lowered.while` whose condition is per-lane.
pub(crate) fn while_loop(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let cond_op = while_condition(g, op)?;
    let w = ln(g).w;
    let mt = g.llcx.bool_type().vec_type(w);
    let m_slot = g.ck(g.entry.build_alloca(mt, "vwhile"))?;
    let m0 = exec(g)?;
    g.ck(g.b.build_store(m_slot, m0))?;
    let before = g.llcx.append_basic_block(g.func, "vwhile");
    let after = g.llcx.append_basic_block(g.func, "vwhile.body");
    let exit = g.llcx.append_basic_block(g.func, "vwhile.end");
    g.ck(g.b.build_unconditional_branch(before))?;
    g.b.position_at_end(before);
    let m = g.ck(g.b.build_load(mt, m_slot, "m"))?.into_vector_value();
    let m = live(g, m)?;
    region_under(g, op, 0, m, exit)?;
    let c = vector(g, ir.operand(cond_op, 0))?;
    let m = live(g, m)?;
    let act = g.ck(g.b.build_and(m, c, "act"))?;
    g.ck(g.b.build_store(m_slot, act))?;
    let some = any(g, act)?;
    g.ck(g.b.build_conditional_branch(some, after, exit))?;
    g.b.position_at_end(after);
    region_under(g, op, 1, act, exit)?;
    g.cancel_check(op)?;
    g.ck(g.b.build_unconditional_branch(before))?;
    g.b.position_at_end(exit);
    rejoin(g)
}
