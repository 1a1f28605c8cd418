//! One LLVM function per `lowered.task`: `i32 @k_taskN(ptr noalias %ctx, i64 %first, i64 %last)`
//! runs threads `first .. last` (half-open) one after another and returns 0, or 1 from an error
//! exit (see `checks`). With `Options::vectorize`, a range task that `simd::uniform::plan`
//! accepts runs them in groups of SIMD lanes instead (`simd::driver`; same signature). The launch context's words are loaded once in the entry block; the
//! functions carry the host's `target-cpu` and `target-features`, so that the JIT's code
//! generator targets the same CPU as the O3 pipeline.

use super::{Gen, TaskInfo, R};
use crate::frame::FrameLayout;
use crate::jit::Options;
use crate::sites::Sites;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::basic_block::BasicBlock;
use inkwell::context::Context as LContext;
use inkwell::module::Module;
use inkwell::values::{FunctionValue, IntValue, PointerValue};
use inkwell::IntPredicate;
use qd_ir::{Context, Diagnostic, OpId};
use qd_lowered as lw;
use qd_runtime::{KernelStacks, Memory};
use std::collections::HashMap;

#[allow(clippy::too_many_arguments)]
pub(super) fn emit<'ctx>(
    llcx: &'ctx LContext,
    module: &Module<'ctx>,
    ir: &Context,
    task: lw::TaskOp,
    symbol: &str,
    frame: &FrameLayout,
    sites: &Sites,
    stacks: &KernelStacks,
    memory: &Memory,
    opts: &Options,
) -> R<TaskInfo> {
    let op = task.0;
    let (info, plan) = describe(ir, task, symbol, stacks, opts)?;
    let i64t = llcx.i64_type();
    let ptr = llcx.ptr_type(inkwell::AddressSpace::default());
    let fn_ty = llcx
        .i32_type()
        .fn_type(&[ptr.into(), i64t.into(), i64t.into()], false);
    let func = module.add_function(symbol, fn_ty, None);
    // Kinds LLVM does not know (id 0) would make an invalid attribute: leave them out.
    let attr = |name: &str| match Attribute::get_named_enum_kind_id(name) {
        0 => None,
        id => Some(llcx.create_enum_attribute(id, 0)),
    };
    for (loc, name) in [
        (AttributeLoc::Param(0), "noalias"),
        (AttributeLoc::Function, "nounwind"),
    ] {
        if let Some(a) = attr(name) {
            func.add_attribute(loc, a);
        }
    }
    func.add_attribute(
        AttributeLoc::Function,
        llcx.create_string_attribute("target-cpu", &opts.cpu),
    );
    func.add_attribute(
        AttributeLoc::Function,
        llcx.create_string_attribute("target-features", &opts.features),
    );
    let ctx_ptr = func.get_nth_param(0).unwrap().into_pointer_value();
    let first = func.get_nth_param(1).unwrap().into_int_value();
    let last = func.get_nth_param(2).unwrap().into_int_value();

    let entry_bb = llcx.append_basic_block(func, "entry");
    let parts = (func, ctx_ptr, first, last);
    let inputs = (frame, sites, memory);
    if let Some(plan) = plan {
        // The vectorised function (see `simd::driver`).
        let start_bb = llcx.append_basic_block(func, "start");
        let exit_bb = llcx.append_basic_block(func, "empty");
        let mut g = enter(
            llcx, module, ir, op, parts, inputs, entry_bb, start_bb, exit_bb,
        )?;
        g.cancel_checks = opts.cancel_checks;
        g.b.position_at_end(exit_bb);
        g.ck(g.b.build_return(Some(&llcx.i32_type().const_zero())))?;
        g.b.position_at_end(start_bb);
        // x86 (SSE2 and later) has the non-temporal stores and the fence streaming needs.
        let streams = opts.features.split(',').any(|f| f == "+sse2");
        crate::simd::emit_task(&mut g, task, plan, info.lanes, (first, last), streams)?;
        return Ok(info);
    }
    let loop_bb = llcx.append_basic_block(func, "thread");
    let latch_bb = llcx.append_basic_block(func, "next");
    let exit_bb = llcx.append_basic_block(func, "done");
    let mut g = enter(
        llcx, module, ir, op, parts, inputs, entry_bb, loop_bb, exit_bb,
    )?;
    g.cancel_checks = opts.cancel_checks;
    let phi = g.ck(g.b.build_phi(i64t, "t"))?;
    phi.add_incoming(&[(&first, entry_bb)]);
    let thread = phi.as_basic_value().into_int_value();
    g.thread = thread;
    super::topcache::plan(&mut g, op)?;
    if let Some(body) = task.body_block(ir) {
        g.emit_block(body)?;
    }
    g.op = op;
    g.ck(g.b.build_unconditional_branch(latch_bb))?;
    g.b.position_at_end(latch_bb);
    let one = i64t.const_int(1, false);
    let next = g.ck(g.b.build_int_nsw_add(thread, one, "t.next"))?;
    phi.add_incoming(&[(&next, latch_bb)]);
    let more = g.ck(g.b.build_int_compare(IntPredicate::SLT, next, last, "more"))?;
    g.ck(g.b.build_conditional_branch(more, loop_bb, exit_bb))?;
    g.b.position_at_end(exit_bb);
    let zero = llcx.i32_type().const_zero();
    g.ck(g.b.build_return(Some(&zero)))?;
    Ok(info)
}

/// The generator of task `op`'s function `func` (parameters `ctx_ptr`, `first`, `last`): its
/// entry block `entry_bb` branches to `run_bb` when `first < last` and to `exit_bb` otherwise;
/// positioned at the end of `run_bb`, with thread `first`. The scalar loop and the vectorised
/// function start alike.
#[allow(clippy::too_many_arguments)]
fn enter<'a, 'ctx>(
    llcx: &'ctx LContext,
    module: &'a Module<'ctx>,
    ir: &'a Context,
    op: OpId,
    (func, ctx_ptr, first, last): (
        FunctionValue<'ctx>,
        PointerValue<'ctx>,
        IntValue<'ctx>,
        IntValue<'ctx>,
    ),
    (frame, sites, memory): (&'a FrameLayout, &'a Sites, &'a Memory),
    entry_bb: BasicBlock<'ctx>,
    run_bb: BasicBlock<'ctx>,
    exit_bb: BasicBlock<'ctx>,
) -> R<Gen<'a, 'ctx>> {
    let b = llcx.create_builder();
    let entry = llcx.create_builder();
    let loc_err = |e: inkwell::builder::BuilderError| {
        Diagnostic::error(ir.loc(op), format!("LLVM builder: {e}"))
    };
    b.position_at_end(entry_bb);
    let any = b
        .build_int_compare(IntPredicate::SLT, first, last, "any")
        .map_err(loc_err)?;
    let br = b
        .build_conditional_branch(any, run_bb, exit_bb)
        .map_err(loc_err)?;
    entry.position_before(&br);
    b.position_at_end(run_bb);
    Ok(Gen {
        ir,
        llcx,
        module,
        b,
        entry,
        frame,
        sites,
        memory,
        func,
        ctx_ptr,
        thread: first,
        values: HashMap::new(),
        words: HashMap::new(),
        counts: HashMap::new(),
        cache: Default::default(),
        op,
        simt: None,
        cancel_checks: true,
    })
}

/// What the device needs of `task`, whose function is `symbol`: its dispatch, its stacks (from
/// the kernel's table), its location and its lanes; with the uniformity of a task to vectorise.
pub(super) fn describe(
    ir: &Context,
    task: lw::TaskOp,
    symbol: &str,
    stacks: &KernelStacks,
    opts: &Options,
) -> R<(TaskInfo, Option<crate::simd::uniform::Info>)> {
    let op = task.0;
    let Some(kind) = task.kind(ir) else {
        return Err(Diagnostic::error(
            ir.loc(op),
            "lowered.task without a valid dispatch",
        ));
    };
    let mut task_stacks = Vec::new();
    for id in task.adstacks(ir) {
        let Some(s) = stacks.get(id) else {
            return Err(Diagnostic::error(
                ir.loc(op),
                format!("lowered.task: adstack id {id} is not a stack of the kernel"),
            ));
        };
        task_stacks.push((s.id, s.elem));
    }
    let (lanes, scalar_reason, plan) = if opts.vectorize {
        match crate::simd::uniform::plan(ir, task) {
            Ok(p) => (crate::simd::lanes_for(&opts.features), None, Some(p)),
            Err(why) => (1, Some(why), None),
        }
    } else {
        (1, None, None)
    };
    let info = TaskInfo {
        symbol: symbol.to_string(),
        kind,
        stacks: task_stacks,
        loc: ir.loc(op),
        lanes,
        scalar_reason,
    };
    Ok((info, plan))
}
