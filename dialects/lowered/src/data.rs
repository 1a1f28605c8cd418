//! Kernel data, all PURE (fixed for a task): arguments, ndarray data and extents, field
//! buffers, temporaries slots, the thread id and the range task's begin.
//!
//! ```text
//! %v = lowered.arg 1 : f32
//! %p = lowered.ndarray_ptr 0 : !lowered.ptr<f32>
//! %d = lowered.ndarray_dim 0, 1 : i64
//! %p = lowered.field_ptr @x : !lowered.ptr<f32>        // `@x grad`: the adjoint buffer
//! %p = lowered.temp_ptr 3 : !lowered.ptr<i64>
//! %t = lowered.thread_id : i64
//! %b = lowered.task_begin : i64
//! ```

use crate::constraints::{GLOBAL_PTR, SCALAR};
use crate::kernel::{KernelOp, TaskKind, TaskOp};
use crate::types::{is_storage_of, PtrType};
use crate::verify::{enclosing_kernel, err, expect_in_task};
use qd_frontend::verify::resolve_field;
use qd_frontend::{FieldOp, NdarrayType};
use qd_ir::op_def::{constraint, prop};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{Context, DiagResult, OpId, OpTraits, Type};

qd_ir::declare_op! {
    /// `%v = lowered.arg N : T`: scalar kernel argument N.
    pub struct ArgOp = "lowered.arg" {
        summary: "a scalar argument of the kernel",
        traits: [OpTraits::PURE],
        results: [result: single(SCALAR)],
        properties: [index: required(prop::NonNeg<u32>)],
        format: "$index attr-dict `:` type($result)",
        verify: verify_arg,
    }
}

qd_ir::declare_op! {
    /// `%p = lowered.ndarray_ptr N : !lowered.ptr<T>`: the data of ndarray argument N.
    pub struct NdarrayPtrOp = "lowered.ndarray_ptr" {
        summary: "the data of an ndarray argument of the kernel",
        traits: [OpTraits::PURE],
        results: [result: single(GLOBAL_PTR)],
        properties: [index: required(prop::NonNeg<u32>)],
        format: "$index attr-dict `:` type($result)",
        verify: verify_ndarray_ptr,
    }
}

qd_ir::declare_op! {
    /// `%d = lowered.ndarray_dim N, K : i64`: the extent of axis K of ndarray argument N.
    pub struct NdarrayDimOp = "lowered.ndarray_dim" {
        summary: "the extent of one axis of an ndarray argument of the kernel",
        traits: [OpTraits::PURE],
        results: [result: single(constraint::I64)],
        properties: [index: required(prop::NonNeg<u32>), axis: required(prop::NonNeg<u32>)],
        format: "$index `,` $axis attr-dict `:` type($result)",
        verify: verify_ndarray_dim,
    }
}

qd_ir::declare_op! {
    /// `%p = lowered.field_ptr @x [grad] : !lowered.ptr<T>`: the root buffer of field @x, or
    /// its adjoint buffer.
    pub struct FieldPtrOp = "lowered.field_ptr" {
        summary: "the root buffer of a field (or of its adjoint)",
        traits: [OpTraits::PURE],
        results: [result: single(GLOBAL_PTR)],
        properties: [field: required(prop::SymbolRef), grad: optional(prop::Flag)],
        format: "$field (`grad` $grad^)? attr-dict `:` type($result)",
        verify_symbol_uses: verify_field_ptr,
    }
}

qd_ir::declare_op! {
    /// `%p = lowered.temp_ptr N : !lowered.ptr<T>`: temporaries slot N (8 bytes).
    pub struct TempPtrOp = "lowered.temp_ptr" {
        summary: "a temporaries slot of the launch",
        traits: [OpTraits::PURE],
        results: [result: single(GLOBAL_PTR)],
        properties: [slot: required(prop::NonNeg<u32>)],
        format: "$slot attr-dict `:` type($result)",
        verify: verify_temp_ptr,
    }
}

qd_ir::declare_op! {
    /// `%t = lowered.thread_id : i64`: the thread's 0-based id within the dispatch.
    pub struct ThreadIdOp = "lowered.thread_id" {
        summary: "the thread's id within its task's dispatch",
        traits: [OpTraits::PURE],
        results: [result: single(constraint::I64)],
        format: "attr-dict `:` type($result)",
        verify: verify_in_task,
    }
}

qd_ir::declare_op! {
    /// `%b = lowered.task_begin : i64`: the resolved begin of a range task.
    pub struct TaskBeginOp = "lowered.task_begin" {
        summary: "the begin of the range task's dispatch",
        traits: [OpTraits::PURE],
        results: [result: single(constraint::I64)],
        format: "attr-dict `:` type($result)",
        verify: verify_task_begin,
    }
}

fn verify_in_task(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_in_task(ctx, op).map(|_| ())
}

fn verify_task_begin(ctx: &Context, op: OpId) -> DiagResult<()> {
    let Some(t) = expect_in_task(ctx, op)? else {
        return Ok(());
    };
    match TaskOp(t).kind(ctx) {
        Some(TaskKind::Serial) => Err(err(ctx, op, "expects to be in a range task")),
        _ => Ok(()),
    }
}

/// The type of kernel argument `index`, or None when `op` is in no kernel; an error when the
/// kernel has no such argument.
fn arg_type(ctx: &Context, op: OpId, index: u32) -> DiagResult<Option<Type>> {
    expect_in_task(ctx, op)?;
    let Some(k) = enclosing_kernel(ctx, op) else {
        return Ok(None);
    };
    let args = KernelOp(k).arg_types(ctx);
    match args.get(index as usize) {
        Some(&t) => Ok(Some(t)),
        None => Err(err(
            ctx,
            op,
            format!(
                "refers to argument {index}, but the kernel has {}",
                args.len()
            ),
        )),
    }
}

fn type_str(ctx: &Context, t: Type) -> String {
    qd_ir::text::type_to_string(ctx, t)
}

fn verify_arg(ctx: &Context, op: OpId) -> DiagResult<()> {
    let a = ArgOp(op);
    let Some(t) = arg_type(ctx, op, a.index(ctx))? else {
        return Ok(());
    };
    let r = ctx.value_type(a.result(ctx));
    if t != r {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the type of argument {}, {}, got {}",
                a.index(ctx),
                type_str(ctx, t),
                type_str(ctx, r)
            ),
        ));
    }
    Ok(())
}

/// The ndarray type of argument `index` (None outside a kernel).
fn ndarray_arg(ctx: &Context, op: OpId, index: u32) -> DiagResult<Option<NdarrayType>> {
    let Some(t) = arg_type(ctx, op, index)? else {
        return Ok(None);
    };
    match NdarrayType::from_type(ctx, t) {
        Some(n) => Ok(Some(n)),
        None => Err(err(
            ctx,
            op,
            format!(
                "expects argument {index} to be a !qd.ndarray, got {}",
                type_str(ctx, t)
            ),
        )),
    }
}

/// A global pointer result must point to how `elem` is stored.
fn check_pointee(ctx: &Context, op: OpId, elem: Type, what: &str) -> DiagResult<()> {
    let r = ctx.value_type(ctx.result(op, 0));
    let pointee = PtrType::from_type(ctx, r).map(|p| p.pointee(ctx));
    if pointee.is_some_and(|p| is_storage_of(ctx, p, elem)) {
        return Ok(());
    }
    Err(err(
        ctx,
        op,
        format!(
            "expects a pointer to the {what} element type {} (i1 is stored as i8), got {}",
            type_str(ctx, elem),
            type_str(ctx, r)
        ),
    ))
}

fn verify_ndarray_ptr(ctx: &Context, op: OpId) -> DiagResult<()> {
    let n = NdarrayPtrOp(op);
    let Some(nd) = ndarray_arg(ctx, op, n.index(ctx))? else {
        return Ok(());
    };
    check_pointee(ctx, op, nd.elem(ctx), "ndarray")
}

fn verify_ndarray_dim(ctx: &Context, op: OpId) -> DiagResult<()> {
    let d = NdarrayDimOp(op);
    let Some(nd) = ndarray_arg(ctx, op, d.index(ctx))? else {
        return Ok(());
    };
    let (axis, rank) = (d.axis(ctx) as usize, nd.rank(ctx));
    if axis >= rank {
        return Err(err(
            ctx,
            op,
            format!("expects an axis below the ndarray's rank {rank}, got {axis}"),
        ));
    }
    Ok(())
}

/// A symbol-use hook: every check depends on the field.
fn verify_field_ptr(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<()> {
    let f = FieldPtrOp(op);
    // Hooks may run before the field's own verifier: resolve_field checks that the field has a
    // valid type before its element type is read (an unresolved symbol is the IR verifier's).
    let Some((name, def, field_type)) = resolve_field(ctx, op, symbols)? else {
        return Ok(());
    };
    let field = FieldOp(def);
    let elem = field_type.elem(ctx);
    if f.grad(ctx).is_some() {
        if !field.needs_grad(ctx) {
            return Err(err(
                ctx,
                op,
                format!(
                    "expects field @{name} to be needs_grad (only those have an adjoint buffer)"
                ),
            ));
        }
        if !ctx.type_data(elem).is_float() {
            return Err(err(
                ctx,
                op,
                format!("expects field @{name} to hold floats for its adjoint"),
            ));
        }
    }
    check_pointee(ctx, op, elem, "field")
}

fn verify_temp_ptr(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_in_task(ctx, op)?;
    let slot = TempPtrOp(op).slot(ctx);
    let temps = enclosing_kernel(ctx, op).and_then(|k| KernelOp(k).temps_checked(ctx));
    if let Some(n) = temps {
        if slot >= n {
            return Err(err(
                ctx,
                op,
                format!("refers to temporaries slot {slot}, but the kernel has {n}"),
            ));
        }
    }
    Ok(())
}
