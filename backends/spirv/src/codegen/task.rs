//! One task: a `void()` entry point of `LocalSize(workgroup, 1, 1)`. It computes the linear
//! invocation id (`gid.x + gid.y * NumWorkgroups.x * workgroup`, see [`crate::abi`]), returns at
//! once when it is not below the dispatch's thread count (metadata), adds the dispatch's first
//! thread to get the task's thread id, then runs the body. Private variables are declared in
//! the first block once the body is emitted.

use super::buffers::binding_kind;
use super::{Gen, Scalar, R};
use crate::abi::{self, Binding, Bound, Dispatch, SpirvTask};
use qd_lowered as lw;
use qd_runtime::KernelStacks;
use rspirv::spirv::{self, BuiltIn, ExecutionMode, ExecutionModel, SelectionControl};

fn bound(b: lw::TaskBound) -> Bound {
    match b {
        lw::TaskBound::Const(c) => Bound::Const(c),
        lw::TaskBound::Temp(t) => Bound::Temp(t),
    }
}

pub(super) fn emit(
    g: &mut Gen<'_>,
    task: lw::TaskOp,
    entry: &str,
    stacks: &KernelStacks,
) -> R<SpirvTask> {
    let ir = g.ir;
    g.op = task.0;
    let dispatch = match task.kind(ir) {
        Some(lw::TaskKind::Serial) => Dispatch::Serial,
        Some(lw::TaskKind::Range { begin, end }) => Dispatch::Range {
            begin: bound(begin),
            end: bound(end),
        },
        None => return Err(g.err("a lowered.task without a valid dispatch")),
    };
    let wg = match dispatch {
        Dispatch::Serial => 1,
        Dispatch::Range { .. } => g.opts.workgroup_size,
    };
    let mut task_stacks = Vec::new();
    for id in task.adstacks(ir) {
        let Some(s) = stacks.get(id) else {
            return Err(g.err(format!("adstack id {id} is not a stack of the kernel")));
        };
        task_stacks.push((s.id, s.elem));
    }
    g.values.clear();
    g.interface.clear();
    g.used.clear();
    g.locals.clear();
    g.task_stacks = task_stacks.iter().map(|s| s.0).collect();

    let void = g.b.type_void();
    let fn_ty = g.b.type_function(void, []);
    let f = ck!(
        g,
        g.b.begin_function(void, None, spirv::FunctionControl::NONE, fn_ty)
    )?;
    ck!(g, g.b.begin_block(None))?;
    g.start_loop_count()?;
    invocation_id(g, wg)?;
    // Threads past the dispatch's count (the grid is rounded up to whole workgroups) stop here.
    let n = g.meta_slot(abi::META_THREADS)?;
    let bool_t = g.scalar_ty(Scalar::Bool);
    let out = ck!(g, g.b.u_greater_than_equal(bool_t, None, g.row, n))?;
    let (stop, go) = (g.b.id(), g.b.id());
    ck!(g, g.b.selection_merge(go, SelectionControl::NONE))?;
    ck!(g, g.b.branch_conditional(out, stop, go, []))?;
    ck!(g, g.b.begin_block(Some(stop)))?;
    ck!(g, g.b.ret())?;
    ck!(g, g.b.begin_block(Some(go)))?;
    // A constant begin is folded into the body's iteration (`thread_id + begin`), so a later
    // dispatch of the task must see its threads' ids within the task, not within the dispatch.
    let first = g.meta_slot(abi::META_FIRST)?;
    let ity = g.scalar_ty(g.index());
    g.thread = ck!(g, g.b.i_add(ity, None, g.row, first))?;
    if let Some(body) = task.body_block(ir) {
        g.emit_block(body)?;
    }
    g.op = task.0;
    ck!(g, g.b.ret())?;
    ck!(g, g.b.end_function())?;
    // OpVariables must open the function's first block.
    let locals = std::mem::take(&mut g.locals);
    if let Some(func) = g.b.module_mut().functions.last_mut() {
        if let Some(first) = func.blocks.first_mut() {
            first.instructions.splice(0..0, locals);
        }
    }
    let interface: Vec<u32> = g.interface.iter().copied().collect();
    g.b.entry_point(ExecutionModel::GLCompute, f, entry, interface);
    g.b.execution_mode(f, ExecutionMode::LocalSize, [wg, 1, 1]);
    let bindings = g
        .used
        .iter()
        .map(|(&binding, &writes)| Binding {
            set: abi::SET,
            binding,
            kind: binding_kind(g, binding),
            writes,
        })
        .collect();
    Ok(SpirvTask {
        entry: entry.to_string(),
        dispatch,
        workgroup_size: wg,
        bindings,
        stacks: task_stacks,
        loc: ir.loc(task.0),
    })
}

/// Sets `g.row`: the linear invocation id within the dispatch, as the index type.
fn invocation_id(g: &mut Gen<'_>, wg: u32) -> R<()> {
    let u32t = g.scalar_ty(Scalar::I(32));
    let v3 = g.b.type_vector(u32t, 3);
    let gid_var = g.builtin(BuiltIn::GlobalInvocationId);
    let nwg_var = g.builtin(BuiltIn::NumWorkgroups);
    let gid = ck!(g, g.b.load(v3, None, gid_var, None, []))?;
    let nwg = ck!(g, g.b.load(v3, None, nwg_var, None, []))?;
    let x = ck!(g, g.b.composite_extract(u32t, None, gid, [0]))?;
    let y = ck!(g, g.b.composite_extract(u32t, None, gid, [1]))?;
    let nx = ck!(g, g.b.composite_extract(u32t, None, nwg, [0]))?;
    let wgc = g.u32c(wg);
    let row = ck!(g, g.b.i_mul(u32t, None, nx, wgc))?;
    let yy = ck!(g, g.b.i_mul(u32t, None, y, row))?;
    let lin = ck!(g, g.b.i_add(u32t, None, x, yy))?;
    g.row = if g.index().width() == 64 {
        let t = g.scalar_ty(Scalar::I(64));
        ck!(g, g.b.u_convert(t, None, lin))?
    } else {
        lin
    };
    Ok(())
}
