//! The function of a vectorised task: `i32 @task(ptr %ctx, i64 first, i64 last)` (the scalar
//! task's signature) runs threads `first .. last` in groups of W lanes, lane l of a group
//! starting at thread t0 running thread t0 + l; the last group runs its lanes below `last`
//! only. After a group in which a check failed, the function returns 1 (the record is the
//! lowest failing lane's: see `errors`); else it returns 0 after the last group.

use super::uniform::Info;
use super::{lane_ids, splat, Lanes};
use crate::codegen::{Gen, R};
use inkwell::IntPredicate;
use qd_ir::OpId;
use qd_lowered as lw;
use std::collections::HashMap;

/// Emits the body of task `task` into `g` (positioned in the function's entry block, where
/// `first` < `last` is already known) as the group loop; `first` and `last` are the function's
/// parameters. Ends with the function's returns.
pub(crate) fn emit_task<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    task: lw::TaskOp,
    info: Info,
    w: u32,
    first: inkwell::values::IntValue<'ctx>,
    last: inkwell::values::IntValue<'ctx>,
) -> R<()> {
    let op: OpId = task.0;
    let i64t = g.i64();
    let mt = g.llcx.bool_type().vec_type(w);
    let alive = g.ck(g.entry.build_alloca(mt, "alive"))?;
    let failed = g.ck(g.entry.build_alloca(g.llcx.bool_type(), "failed"))?;
    g.ck(g.entry.build_store(failed, g.llcx.bool_type().const_zero()))?;
    let pre = g.b.get_insert_block().unwrap();
    let group = g.llcx.append_basic_block(g.func, "group");
    let end = g.llcx.append_basic_block(g.func, "group.end");
    let next_bb = g.llcx.append_basic_block(g.func, "group.next");
    let fail_bb = g.llcx.append_basic_block(g.func, "group.failed");
    let done = g.llcx.append_basic_block(g.func, "done");
    g.ck(g.b.build_unconditional_branch(group))?;
    g.b.position_at_end(group);
    let phi = g.ck(g.b.build_phi(i64t, "t0"))?;
    phi.add_incoming(&[(&first, pre)]);
    let t0 = phi.as_basic_value().into_int_value();
    g.thread = t0;
    g.simt = Some(Lanes {
        w,
        info,
        vals: HashMap::new(),
        ctrl: mt.const_zero(),
        alive,
        failed,
        bail: vec![end],
        t0,
        slots: HashMap::new(),
    });
    // The group's lanes: those below `last`.
    let rem = g.ck(g.b.build_int_sub(last, t0, "rem"))?;
    let rems = splat(g, rem.into())?;
    let ids = lane_ids(g, i64t);
    let in_range = g.ck(g.b.build_int_compare(IntPredicate::SLT, ids, rems, "lanes"))?;
    g.ck(g.b.build_store(alive, in_range))?;
    let ones = splat(g, g.llcx.bool_type().const_int(1, false).into())?;
    if let Some(l) = g.simt.as_mut() {
        l.ctrl = ones;
    }
    if let Some(body) = task.body_block(g.ir) {
        g.emit_block(body)?;
    }
    g.op = op;
    g.ck(g.b.build_unconditional_branch(end))?;
    g.b.position_at_end(end);
    let f = g.ck(g.b.build_load(g.llcx.bool_type(), failed, "failed"))?;
    g.ck(g
        .b
        .build_conditional_branch(f.into_int_value(), fail_bb, next_bb))?;
    g.b.position_at_end(next_bb);
    let step = i64t.const_int(u64::from(w), false);
    let next = g.ck(g.b.build_int_add(t0, step, "t0.next"))?;
    phi.add_incoming(&[(&next, next_bb)]);
    let more = g.ck(g.b.build_int_compare(IntPredicate::SLT, next, last, "more"))?;
    g.ck(g.b.build_conditional_branch(more, group, done))?;
    g.b.position_at_end(fail_bb);
    g.ck(g
        .b
        .build_return(Some(&g.llcx.i32_type().const_int(1, false))))?;
    g.b.position_at_end(done);
    g.ck(g.b.build_return(Some(&g.llcx.i32_type().const_zero())))?;
    g.simt = None;
    Ok(())
}
