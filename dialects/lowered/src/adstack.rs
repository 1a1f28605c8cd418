//! Adstack heap access: runtime metadata, heap pointers and the overflow flag.
//!
//! ```text
//! %s = lowered.adstack_stride float : i64       // bytes per row of the float (or int) heap
//! %o = lowered.adstack_offset 2 : i64           // byte offset of stack 2 in its heap's row
//! %c = lowered.adstack_max_size 2 : i64         // capacity of stack 2, in entries
//! %r = lowered.adstack_row : i64                // this thread's heap row
//! %p = lowered.heap_ptr float, %b : !lowered.ptr<f32>   // a typed pointer at byte %b
//! lowered.adstack_overflow 2                    // records that stack 2 overflowed
//! ```
//!
//! A stack id must be in its task's `adstacks` list. All but `adstack_overflow` are PURE (fixed
//! for a task); `adstack_overflow` sets the launch's overflow flag (atomic, relaxed).

use crate::constraints::GLOBAL_PTR;
use crate::kernel::TaskOp;
use crate::props::HeapProp;
use crate::verify::{err, expect_in_task};
use qd_ir::op_def::{constraint, prop};
use qd_ir::{Context, DiagResult, OpId, OpTraits};

qd_ir::declare_op! {
    /// `%s = lowered.adstack_stride float|int : i64`.
    pub struct AdstackStrideOp = "lowered.adstack_stride" {
        summary: "the bytes per row of an adstack heap for this task",
        traits: [OpTraits::PURE],
        results: [result: single(constraint::I64)],
        properties: [heap: required(HeapProp)],
        format: "$heap attr-dict `:` type($result)",
        verify: verify_in_task,
    }
}

qd_ir::declare_op! {
    /// `%o = lowered.adstack_offset ID : i64`.
    pub struct AdstackOffsetOp = "lowered.adstack_offset" {
        summary: "the byte offset of an adstack within its heap's row",
        traits: [OpTraits::PURE],
        results: [result: single(constraint::I64)],
        properties: [id: required(prop::NonNeg<u32>)],
        format: "$id attr-dict `:` type($result)",
        verify: verify_stack_id,
    }
}

qd_ir::declare_op! {
    /// `%c = lowered.adstack_max_size ID : i64`.
    pub struct AdstackMaxSizeOp = "lowered.adstack_max_size" {
        summary: "the capacity of an adstack in entries",
        traits: [OpTraits::PURE],
        results: [result: single(constraint::I64)],
        properties: [id: required(prop::NonNeg<u32>)],
        format: "$id attr-dict `:` type($result)",
        verify: verify_stack_id,
    }
}

qd_ir::declare_op! {
    /// `%r = lowered.adstack_row : i64`.
    pub struct AdstackRowOp = "lowered.adstack_row" {
        summary: "the heap row of this thread",
        traits: [OpTraits::PURE],
        results: [result: single(constraint::I64)],
        format: "attr-dict `:` type($result)",
        verify: verify_in_task,
    }
}

qd_ir::declare_op! {
    /// `%p = lowered.heap_ptr float|int, %byte_offset : !lowered.ptr<T>`.
    pub struct HeapPtrOp = "lowered.heap_ptr" {
        summary: "a typed pointer into an adstack heap at a byte offset",
        traits: [OpTraits::PURE],
        operands: [byte_offset: single(constraint::I64)],
        results: [result: single(GLOBAL_PTR)],
        properties: [heap: required(HeapProp)],
        format: "$heap `,` $byte_offset attr-dict `:` type($result)",
        verify: verify_in_task,
    }
}

qd_ir::declare_op! {
    /// `lowered.adstack_overflow ID`.
    pub struct AdstackOverflowOp = "lowered.adstack_overflow" {
        summary: "records that a push found the adstack full",
        properties: [id: required(prop::NonNeg<u32>)],
        format: "$id attr-dict",
        verify: verify_stack_id,
    }
}

fn verify_in_task(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_in_task(ctx, op).map(|_| ())
}

/// The op's `id` must be one of its task's adstacks.
fn verify_stack_id(ctx: &Context, op: OpId) -> DiagResult<()> {
    let Some(task) = expect_in_task(ctx, op)? else {
        return Ok(());
    };
    let Some(id) = ctx
        .prop(op, "id")
        .and_then(|a| ctx.attr_data(a).as_int())
        .and_then(|i| u32::try_from(i).ok())
    else {
        return Ok(());
    };
    if !TaskOp(task).adstacks(ctx).contains(&id) {
        return Err(err(
            ctx,
            op,
            format!("refers to adstack {id}, which is not in its task's 'adstacks'"),
        ));
    }
    Ok(())
}
