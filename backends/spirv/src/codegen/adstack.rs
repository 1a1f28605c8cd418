//! Adstack heaps and metadata: `lowered.adstack_stride`, `adstack_offset` and
//! `adstack_max_size` read the task's metadata buffer (written by the device before the task
//! from the runtime's `HeapLayout`; a stack's slots are found by its position in the task's
//! `adstacks`), `adstack_row` is the invocation's id within the dispatch (each thread owns one
//! row of each heap; a task run as several dispatches reuses the rows),
//! `heap_ptr` is an element of the heap's view of the pointee type at a byte offset, and
//! `adstack_overflow` claims the overflow record (the first overflowing thread writes the stack
//! id and itself; the push is skipped and the thread goes on).

use super::{GPtr, Gen, Scalar, Val, R};
use crate::abi;
use qd_ir::{AttrData, OpId};
use qd_lowered as lw;

fn heap_is_float(g: &Gen<'_>, op: OpId) -> R<bool> {
    match g.ir.prop(op, "heap").map(|a| g.ir.attr_data(a)) {
        Some(AttrData::String(s)) if s == "float" => Ok(true),
        Some(AttrData::String(s)) if s == "int" => Ok(false),
        _ => Err(g.err(format!(
            "'{}' needs a heap property 'float' or 'int'",
            g.ir.name(op)
        ))),
    }
}

/// The stack id of `op` and its position in the task's `adstacks`.
fn stack_pos(g: &Gen<'_>, op: OpId) -> R<(u32, u32)> {
    let id = match g.ir.prop(op, "id").map(|a| g.ir.attr_data(a)) {
        Some(AttrData::Integer { value, .. }) => u32::try_from(*value).ok(),
        _ => None,
    }
    .ok_or_else(|| g.err(format!("'{}' needs a stack id", g.ir.name(op))))?;
    let j = g
        .task_stacks
        .iter()
        .position(|&s| s == id)
        .ok_or_else(|| g.err(format!("adstack id {id} is not in the task's adstacks")))?;
    Ok((id, j as u32))
}

pub(super) fn meta(g: &mut Gen<'_>, op: OpId, name: &str) -> R<()> {
    let slot = match name {
        lw::ADSTACK_STRIDE_OP => {
            if heap_is_float(g, op)? {
                abi::META_STRIDE_FLOAT
            } else {
                abi::META_STRIDE_INT
            }
        }
        lw::ADSTACK_OFFSET_OP => abi::META_STACKS + 2 * stack_pos(g, op)?.1,
        lw::ADSTACK_MAX_SIZE_OP => abi::META_STACKS + 2 * stack_pos(g, op)?.1 + 1,
        _ => {
            let t = g.row;
            g.set_id(op, t);
            return Ok(());
        }
    };
    let v = g.meta_slot(slot)?;
    g.set_id(op, v);
    Ok(())
}

pub(super) fn heap_ptr(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let binding = if heap_is_float(g, op)? {
        abi::BINDING_HEAP_FLOAT
    } else {
        abi::BINDING_HEAP_INT
    };
    if g.ir.num_operands(op) != 1 {
        return Err(g.err("lowered.heap_ptr needs one byte offset"));
    }
    let pointee = qd_lowered::types::pointee(g.ir, g.ir.value_type(g.ir.result(op, 0)))
        .ok_or_else(|| g.err("lowered.heap_ptr needs a pointer result"))?;
    let (view, scale) = g.global_view(pointee)?;
    let off = g.operand(op, 0)?;
    // Byte offsets are multiples of the entry size (8-aligned rows and stacks).
    let it = g.index();
    let ity = g.scalar_ty(it);
    let sh = g.u32c(view.bytes().trailing_zeros());
    let index = ck!(g, g.b.shift_right_logical(ity, None, off, sh))?;
    g.set(
        op,
        0,
        Val::Global(GPtr {
            binding,
            view,
            index,
            scale,
        }),
    );
    Ok(())
}

pub(super) fn overflow(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let (id, _) = stack_pos(g, op)?;
    g.claim_record(abi::BINDING_OVERFLOW, |g| {
        let s = g.constant(Scalar::I(32), u64::from(id));
        g.record_word(abi::BINDING_OVERFLOW, abi::OVF_STACK, s)?;
        let t = g.thread_word()?;
        g.record_word(abi::BINDING_OVERFLOW, abi::OVF_THREAD, t)
    })
}
