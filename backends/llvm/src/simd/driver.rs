//! The function of a vectorised task: `i32 @task(ptr %ctx, i64 first, i64 last)` (the scalar
//! task's signature) runs threads `first .. last` in groups of W lanes, lane l of a group
//! starting at thread t0 running thread t0 + l; the last group runs its lanes below `last`
//! only. After a group in which a check failed, the function returns 1 (the record is the
//! lowest failing lane's: see `errors`); else it returns 0 after the last group.
//!
//! Streaming: in a task without loops or atomics, the full groups' contiguous vector stores to
//! a field or ndarray the task does not read (see [`streaming_stores`]) are non-temporal when
//! the launch writes more than the caches hold (the launch context's [`W_STREAM`]) and the
//! address is aligned (tested per store: `memory::store`). Such stores skip the read for
//! ownership of every line they fill, a third of a copy's memory traffic. They are weakly
//! ordered: a call that may have made them ends with an `sfence` before it returns, so the
//! worker's completion (which publishes the chunk) follows them.

use super::uniform::Info;
use super::{ln_mut, Lanes};
use crate::codegen::{Gen, R};
use crate::frame::W_STREAM;
use inkwell::basic_block::BasicBlock;
use inkwell::values::{IntValue, PointerValue, VectorValue};
use inkwell::IntPredicate;
use qd_ir::{OpId, Value};
use qd_lowered as lw;
use std::collections::{HashMap, HashSet};

/// Emits the body of task `task` into `g` (positioned in the function's entry block, where
/// `first` < `last` is already known) as the group loop; `first` and `last` are the function's
/// parameters. Ends with the function's returns.
///
/// The body is emitted twice (once if it holds a loop: see `has_loop`). The full groups (`t0 + W <= last`) run the first copy, every
/// lane alive: its masks are constants LLVM folds away (contiguous loads and stores become
/// plain vector loads and stores, the lane tests of checks disappear). A check failing there
/// before the group had any effect restarts the group in the second copy, the partial group's,
/// whose masks are values: it runs the last group's lanes below `last`, and such a restarted
/// full group with every lane alive, recording the error of its lowest failing lane and
/// stopping the lanes after it as before. `streams`: the target has non-temporal stores and
/// fences (x86), so a task may stream (see the module docs).
pub(crate) fn emit_task<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    task: lw::TaskOp,
    info: Info,
    w: u32,
    (first, last): (IntValue<'ctx>, IntValue<'ctx>),
    streams: bool,
) -> R<()> {
    let i64t = g.i64();
    let i1 = g.llcx.bool_type();
    let mt = i1.vec_type(w);
    let alive = g.ck(g.entry.build_alloca(mt, "alive"))?;
    let failed = g.ck(g.entry.build_alloca(i1, "failed"))?;
    g.ck(g.entry.build_store(failed, i1.const_zero()))?;
    let step = i64t.const_int(u64::from(w), false);
    let pre = g.b.get_insert_block().unwrap();
    let bb = |g: &Gen<'_, 'ctx>, name: &str| g.llcx.append_basic_block(g.func, name);
    let full_check = bb(g, "full.check");
    let full = bb(g, "group");
    let full_next = bb(g, "group.next");
    let tail_check = bb(g, "tail.check");
    let partial = bb(g, "partial");
    let partial_next = bb(g, "partial.next");
    let resume = bb(g, "partial.resume");
    let fail_bb = bb(g, "group.failed");
    let done = bb(g, "done");
    g.ck(g.b.build_unconditional_branch(full_check))?;
    // The full groups: t0 from `first` while `last - t0 >= W` (no overflow: t0 <= last).
    g.b.position_at_end(full_check);
    let phi = g.ck(g.b.build_phi(i64t, "t0"))?;
    phi.add_incoming(&[(&first, pre)]);
    let t0 = phi.as_basic_value().into_int_value();
    let rem = g.ck(g.b.build_int_sub(last, t0, "rem"))?;
    let is_full = g.ck(g.b.build_int_compare(IntPredicate::SGE, rem, step, "full"))?;
    g.ck(g.b.build_conditional_branch(is_full, full, tail_check))?;
    g.b.position_at_end(full);
    let ones = all_ones(g, w);
    let looped = has_loop(g, &task);
    let stream = if streams && !looped {
        stream_plan(g, &task)?
    } else {
        None
    };
    let stream_on = stream.as_ref().map(|(_, on)| *on);
    let restarts = if looped {
        // The body once: a full group goes straight to the partial group's code.
        g.ck(g.b.build_unconditional_branch(partial))?;
        vec![full]
    } else {
        group(
            g,
            &task,
            &info,
            (alive, failed),
            t0,
            ones,
            (Some(partial), stream),
            (fail_bb, full_next),
        )?
    };
    g.b.position_at_end(full_next);
    let next = g.ck(g.b.build_int_add(t0, step, "t0.next"))?;
    phi.add_incoming(&[(&next, full_next)]);
    g.ck(g.b.build_unconditional_branch(full_check))?;
    // The last group's lanes, those below `last`, if any.
    g.b.position_at_end(tail_check);
    let in_range = lanes_below(g, w, rem)?;
    let more = g.ck(g.b.build_int_compare(IntPredicate::SLT, t0, last, "more"))?;
    g.ck(g.b.build_conditional_branch(more, partial, done))?;
    // The partial group: the last one, or a restarted full one (`redo`).
    g.b.position_at_end(partial);
    let pt0 = g.ck(g.b.build_phi(i64t, "t0"))?;
    let plan = g.ck(g.b.build_phi(mt, "lanes"))?;
    let redo = g.ck(g.b.build_phi(i1, "redo"))?;
    pt0.add_incoming(&[(&t0, tail_check)]);
    plan.add_incoming(&[(&in_range, tail_check)]);
    redo.add_incoming(&[(&i1.const_zero(), tail_check)]);
    for b in restarts {
        pt0.add_incoming(&[(&t0, b)]);
        plan.add_incoming(&[(&ones, b)]);
        redo.add_incoming(&[(&i1.const_int(1, false), b)]);
    }
    let pt0 = pt0.as_basic_value().into_int_value();
    let lanes = plan.as_basic_value().into_vector_value();
    group(
        g,
        &task,
        &info,
        (alive, failed),
        pt0,
        lanes,
        (None, None),
        (fail_bb, partial_next),
    )?;
    // A restarted full group that did not fail (its check depends on nothing the restart
    // changed, so this does not happen; were it to, the loop goes on as it should).
    g.b.position_at_end(partial_next);
    let redo = redo.as_basic_value().into_int_value();
    g.ck(g.b.build_conditional_branch(redo, resume, done))?;
    g.b.position_at_end(resume);
    let next = g.ck(g.b.build_int_add(pt0, step, "t0.next"))?;
    phi.add_incoming(&[(&next, resume)]);
    g.ck(g.b.build_unconditional_branch(full_check))?;
    g.b.position_at_end(fail_bb);
    fence(g, stream_on)?;
    g.ck(g
        .b
        .build_return(Some(&g.llcx.i32_type().const_int(1, false))))?;
    g.b.position_at_end(done);
    fence(g, stream_on)?;
    g.ck(g.b.build_return(Some(&g.llcx.i32_type().const_zero())))?;
    g.simt = None;
    Ok(())
}

/// The stores of a loop-free `task` that may be non-temporal, with the `i1` (in the entry
/// block) that says whether this launch streams; None when there are none.
///
/// A store qualifies when it writes a field or an ndarray (not a temporary) and the task has no
/// atomic and no load of that buffer: a task that reads what it writes (in place, or at other
/// indices) would find evicted what it reads back, and one with atomics is not a plain stream.
/// The launch streams when its threads write at least the device's threshold through them:
/// `W_STREAM` is that threshold per thread, so the test is one compare with the bytes a thread
/// writes through the qualifying stores.
fn stream_plan<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    task: &lw::TaskOp,
) -> R<Option<(HashSet<OpId>, IntValue<'ctx>)>> {
    let ops = streaming_stores(g.ir, task);
    if ops.is_empty() {
        return Ok(None);
    }
    let mut bytes = 0;
    for &op in &ops {
        let ty = g.pointee(g.ir.value_type(g.ir.operand(op, 1)))?;
        bytes += super::memory::size_align(g, ty)?.0;
    }
    let bound = g.word_int(W_STREAM)?;
    let b = g.i64().const_int(bytes, false);
    let on = g.ck(g
        .entry
        .build_int_compare(IntPredicate::ULE, bound, b, "streams"))?;
    Ok(Some((ops, on)))
}

/// See [`stream_plan`]: the qualifying stores of `task`.
pub(crate) fn streaming_stores(ir: &qd_ir::Context, task: &lw::TaskOp) -> HashSet<OpId> {
    let ops = ir.walk_pre_order(task.0);
    let atomic = |n: &str| matches!(n, lw::ATOMIC_ADD_OP | lw::ATOMIC_MIN_OP | lw::ATOMIC_MAX_OP);
    if ops.iter().any(|&op| atomic(ir.name(op))) {
        return HashSet::new();
    }
    let read: HashSet<String> = ops
        .iter()
        .filter(|&&op| ir.name(op) == lw::LOAD_OP)
        .filter_map(|&op| buffer(ir, ir.operand(op, 0)))
        .collect();
    ops.iter()
        .copied()
        .filter(|&op| ir.name(op) == lw::STORE_OP)
        .filter(|&op| buffer(ir, ir.operand(op, 1)).is_some_and(|b| !read.contains(&b)))
        .collect()
}

/// The field or ndarray pointer `p` points into, as a key (the root op and its properties);
/// None for other memory (temporaries, private slots, adstack heaps).
fn buffer(ir: &qd_ir::Context, mut p: Value) -> Option<String> {
    loop {
        let d = ir.defining_op(p)?;
        match ir.name(d) {
            lw::OFFSET_OP | lw::ELEM_PTR_OP | lw::MEMBER_PTR_OP => p = ir.operand(d, 0),
            name @ (lw::FIELD_PTR_OP | lw::NDARRAY_PTR_OP) => {
                let props: Vec<_> = ["index", "field", "grad"]
                    .iter()
                    .map(|k| ir.prop(d, k).map(|a| format!("{:?}", ir.attr_data(a))))
                    .collect();
                return Some(format!("{name} {props:?}"));
            }
            _ => return None,
        }
    }
}

/// Before a return: an `sfence` when `on` (this launch streams), so that the non-temporal
/// stores of the call are ordered before what the caller does next.
fn fence<'ctx>(g: &mut Gen<'_, 'ctx>, on: Option<IntValue<'ctx>>) -> R<()> {
    let Some(on) = on else {
        return Ok(());
    };
    let f = inkwell::intrinsics::Intrinsic::find("llvm.x86.sse.sfence")
        .and_then(|i| i.get_declaration(g.module, &[]))
        .ok_or_else(|| g.err("LLVM has no intrinsic llvm.x86.sse.sfence"))?;
    let yes = g.llcx.append_basic_block(g.func, "fence");
    let no = g.llcx.append_basic_block(g.func, "fenced");
    g.ck(g.b.build_conditional_branch(on, yes, no))?;
    g.b.position_at_end(yes);
    g.ck(g.b.build_call(f, &[], ""))?;
    g.ck(g.b.build_unconditional_branch(no))?;
    g.b.position_at_end(no);
    Ok(())
}

/// Emits one group of the task's body at the builder's position: lanes `t0 ..`, `lanes` alive
/// at the start (`state`: the `alive` and `failed` slots), failing checks restarting at
/// `restart` while the group is effect-free (see `Lanes::restart`); afterwards control goes to
/// `fail_bb` if a check failed, else to `next`; `stream`: the stores that may be non-temporal
/// and whether the launch streams (full groups only: see [`stream_plan`]). Returns the blocks
/// that branch to `restart`.
#[allow(clippy::too_many_arguments)]
fn group<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    task: &lw::TaskOp,
    info: &Info,
    state: (PointerValue<'ctx>, PointerValue<'ctx>),
    t0: IntValue<'ctx>,
    lanes: VectorValue<'ctx>,
    (restart, stream): (
        Option<BasicBlock<'ctx>>,
        Option<(HashSet<OpId>, IntValue<'ctx>)>,
    ),
    (fail_bb, next): (BasicBlock<'ctx>, BasicBlock<'ctx>),
) -> R<Vec<BasicBlock<'ctx>>> {
    let (alive, failed) = state;
    let w = lanes.get_type().get_size();
    let end = g.llcx.append_basic_block(g.func, "group.end");
    g.thread = t0;
    g.simt = Some(Lanes {
        w,
        info: info.clone(),
        vals: HashMap::new(),
        ctrl: all_ones(g, w),
        alive,
        failed,
        bail: vec![end],
        t0,
        slots: HashMap::new(),
        restart,
        pure: true,
        restarts: Vec::new(),
        stream,
    });
    g.ck(g.b.build_store(alive, lanes))?;
    if let Some(body) = task.body_block(g.ir) {
        g.emit_block(body)?;
    }
    g.op = task.0;
    g.ck(g.b.build_unconditional_branch(end))?;
    g.b.position_at_end(end);
    let f = g.ck(g.b.build_load(g.llcx.bool_type(), failed, "failed"))?;
    g.ck(g
        .b
        .build_conditional_branch(f.into_int_value(), fail_bb, next))?;
    Ok(std::mem::take(&mut ln_mut(g).restarts))
}

/// Whether the task's body holds a loop. Such a body is emitted once (every group runs the
/// partial group's code, as before the split): it would double the compile time of the
/// kernels that take longest to compile (a gradient's adstack loops: +48% over examples/ to
/// object code) for groups whose masks cost little beside their loops.
fn has_loop(g: &Gen<'_, '_>, task: &lw::TaskOp) -> bool {
    g.ir.walk_pre_order(task.0)
        .iter()
        .any(|&op| matches!(g.ir.name(op), lw::FOR_OP | lw::WHILE_OP))
}

/// `<W x i1>`: lane l is below `rem` (i64).
fn lanes_below<'ctx>(g: &Gen<'_, 'ctx>, w: u32, rem: IntValue<'ctx>) -> R<VectorValue<'ctx>> {
    let i64t = g.i64();
    let vt = i64t.vec_type(w);
    let i32t = g.llcx.i32_type();
    let one = g.ck(g
        .b
        .build_insert_element(vt.get_poison(), rem, i32t.const_zero(), "one"))?;
    let zeros = i32t.vec_type(w).const_zero();
    let rems = g.ck(g
        .b
        .build_shuffle_vector(one, vt.get_poison(), zeros, "splat"))?;
    let ids: Vec<IntValue> = (0..w)
        .map(|l| i64t.const_int(u64::from(l), false))
        .collect();
    let ids = inkwell::types::VectorType::const_vector(&ids);
    g.ck(g.b.build_int_compare(IntPredicate::SLT, ids, rems, "lanes"))
}

/// `<W x i1>` all true.
fn all_ones<'ctx>(g: &Gen<'_, 'ctx>, w: u32) -> VectorValue<'ctx> {
    let one = g.llcx.bool_type().const_int(1, false);
    inkwell::types::VectorType::const_vector(&vec![one; w as usize])
}
