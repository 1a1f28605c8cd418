//! Adstack heaps and their metadata: `lowered.adstack_stride`, `adstack_offset`,
//! `adstack_max_size`, `adstack_row`, `heap_ptr` and `adstack_overflow`.
//!
//! The values come from the running task's [`HeapLayout`] (the runtime's, computed by the device
//! from the launch's adstack plan before the task runs) and the running thread's row. An
//! overflow is recorded as the qd interpreter records it: the kernel, the stack's alloca
//! location (from the plan) and its capacity, so that `sync` reports the same error.
//!
//! [`HeapLayout`]: qd_runtime::adstack::layout::HeapLayout

use super::pointer::{self, Space};
use super::state::LoweredState;
use super::{heap_prop, index_prop, state};
use crate::exec::{Compiler, Exec, Flow};
use qd_ir::{Diagnostic, Location, OpId};
use qd_lowered as lw;
use qd_runtime::adstack::layout::Heap;
use qd_runtime::{AdstackOverflow, RuntimeError, RuntimeErrorKind};

/// The stack id an op names (property `id`).
fn stack_id(c: &Compiler<'_>, op: OpId) -> Result<u32, Diagnostic> {
    let id = index_prop(c, op, "id")?;
    u32::try_from(id).map_err(|_| c.error(op, format!("adstack id {id} is too large")))
}

/// The error for a stack id the running task's layout does not hold (a lowering bug: the ids an
/// adstack op names must be in its task's `adstacks`).
fn unknown_stack(f: &crate::Frame<'_>, loc: Location, id: u32) -> Box<RuntimeError> {
    f.error(
        loc,
        RuntimeErrorKind::Device,
        format!("adstack id {id} is not in this task's adstacks"),
    )
}

pub(super) fn stride(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let heap = heap_prop(c, op)?;
    let sid = state(c);
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        let s = f.state::<LoweredState>(sid).layout.stride(heap);
        f.set(r, s);
        Ok(Flow::Next)
    }))
}

/// `adstack_offset` or `adstack_max_size` of a stack id.
pub(super) fn stack_meta(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let id = stack_id(c, op)?;
    let offset = c.ctx().name(op) == lw::ADSTACK_OFFSET_OP;
    let sid = state(c);
    let r = c.result_slot(op, 0);
    let loc = c.ctx().loc(op);
    Ok(Box::new(move |f| {
        let layout = &f.state::<LoweredState>(sid).layout;
        let v = if offset {
            layout.offset(id)
        } else {
            layout.max_size(id)
        };
        let Some(v) = v else {
            return Err(unknown_stack(f, loc, id));
        };
        f.set(r, v);
        Ok(Flow::Next)
    }))
}

pub(super) fn row(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let sid = state(c);
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        let row = f.state::<LoweredState>(sid).row;
        f.set(r, row);
        Ok(Flow::Next)
    }))
}

pub(super) fn heap_ptr(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let heap = heap_prop(c, op)?;
    let ctx = c.ctx();
    if ctx.num_operands(op) != 1 {
        return Err(c.error(op, "lowered.heap_ptr needs one byte offset"));
    }
    let space = match heap {
        Heap::Float => Space::HeapFloat,
        Heap::Int => Space::HeapInt,
    };
    let off = c.slot(ctx.operand(op, 0));
    let r = c.result_slot(op, 0);
    let base = pointer::encode(space, 0);
    Ok(Box::new(move |f| {
        let p = pointer::add(base, f.get(off) as i64);
        f.set(r, p);
        Ok(Flow::Next)
    }))
}

pub(super) fn overflow(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let id = stack_id(c, op)?;
    let sid = state(c);
    let loc = c.ctx().loc(op);
    Ok(Box::new(move |f| {
        let Some(capacity) = f.state::<LoweredState>(sid).layout.max_size(id) else {
            return Err(unknown_stack(f, loc, id));
        };
        // The plan knows every stack's alloca, which the lowering removed.
        let Some(alloca_loc) = f.adstacks.stack(id).map(|s| s.loc) else {
            return Err(unknown_stack(f, loc, id));
        };
        let kernel = f.kernel.to_string();
        f.mem.record_adstack_overflow(AdstackOverflow {
            kernel,
            loc: alloca_loc,
            capacity,
        });
        Ok(Flow::Next)
    }))
}
