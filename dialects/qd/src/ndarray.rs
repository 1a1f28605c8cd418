//! Ndarray access: `qd.ndarray_load`, `qd.ndarray_store`, `qd.ndarray_shape`.
//!
//! ```text
//! %v = qd.ndarray_load %a[%i, %j] : !qd.ndarray<?x?xf32>
//! qd.ndarray_store %v, %a[%i, %j] : !qd.ndarray<?x?xf32>
//! %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?x?xf32>      // i32 extent of axis 0
//! ```
//!
//! The type after `:` is the ndarray's; values have its element type, indices are i32.
//! `qd.ndarray_shape` is PURE: an ndarray is bound for a whole launch and stores change its
//! contents, never its shape, so two reads of the same axis agree and an unused one may go.

use crate::constraints::{ndarray_elem, INDEX, NDARRAY_OPERAND};
use crate::types::NdarrayType;
use crate::verify::*;
use qd_ir::op_def::{constraint, prop};
use qd_ir::{Context, DiagResult, OpId, OpInfo, OpTraits, Type, Value};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        NdarrayLoadOp::op_info(),
        NdarrayStoreOp::op_info(),
        NdarrayShapeOp::op_info(),
    ]
}

qd_ir::declare_op! {
    /// `%r = qd.ndarray_load %a[indices] : !qd.ndarray<...>` (the result has the element type).
    pub struct NdarrayLoadOp = "qd.ndarray_load" {
        summary: "reads one element of an ndarray",
        traits: [OpTraits::READ_ONLY],
        operands: [array: single(NDARRAY_OPERAND), indices: variadic(INDEX)],
        results: [result: single(constraint::ANY) = ndarray_elem(array)],
        format: "$array `[` $indices `]` attr-dict `:` type($array)",
        verify: verify_load,
    }
}

qd_ir::declare_op! {
    /// `qd.ndarray_store %v, %a[indices] : !qd.ndarray<...>`.
    pub struct NdarrayStoreOp = "qd.ndarray_store" {
        summary: "writes one element of an ndarray",
        operands: [
            value: single(constraint::ANY) = ndarray_elem(array),
            array: single(NDARRAY_OPERAND),
            indices: variadic(INDEX),
        ],
        format: "$value `,` $array `[` $indices `]` attr-dict `:` type($array)",
        verify: verify_store,
    }
}

fn i32_type(ctx: &mut Context, _: Type) -> Type {
    ctx.i32_type()
}

qd_ir::declare_op! {
    /// `%n = qd.ndarray_shape %a, axis : !qd.ndarray<...>`: the extent of one axis, as i32.
    pub struct NdarrayShapeOp = "qd.ndarray_shape" {
        summary: "the extent of one axis of an ndarray, as i32",
        traits: [OpTraits::PURE],
        operands: [array: single(NDARRAY_OPERAND)],
        results: [result: single(constraint::ANY) = i32_type(array)],
        properties: [axis as _: required(prop::Int)],
        builder: create,
        format: "$array `,` $axis attr-dict `:` type($array)",
        verify: verify_shape,
    }
}

impl NdarrayShapeOp {
    /// Creates `%n = qd.ndarray_shape array, axis` (an i32).
    pub fn build(b: &mut qd_ir::Builder, array: Value, axis: i64, loc: qd_ir::Location) -> Self {
        NdarrayShapeOp::create(b, array, axis, loc)
    }
    pub fn axis(self, ctx: &Context) -> usize {
        ctx.prop(self.0, "axis")
            .and_then(|a| ctx.attr_data(a).as_int())
            .unwrap_or(0) as usize
    }
}

/// The ndarray type of `array`, or an error naming the operand.
fn ndarray_of(ctx: &Context, op: OpId, array: Value) -> DiagResult<NdarrayType> {
    let t = ctx.value_type(array);
    let a = NdarrayType::from_type(ctx, t).ok_or_else(|| {
        err(
            ctx,
            op,
            format!("expects a !qd.ndarray operand, got {}", type_str(ctx, t)),
        )
    })?;
    check_type(ctx, op, t, "invalid ndarray type")?;
    Ok(a)
}

fn check_access(ctx: &Context, op: OpId, array: NdarrayType, indices: &[Value]) -> DiagResult<()> {
    check_access_indices(ctx, op, indices, &vec![None; array.rank(ctx)], "an ndarray")
}

fn check_elem(
    ctx: &Context,
    op: OpId,
    array: NdarrayType,
    got: Type,
    what: &str,
) -> DiagResult<()> {
    qd_ir::verify_helpers::check_elem_type(ctx, op, array.elem(ctx), got, what, "ndarray")
}

fn verify_load(ctx: &Context, op: OpId) -> DiagResult<()> {
    let ops = ctx.operand_vec(op);
    let a = ndarray_of(ctx, op, ops[0])?;
    check_access(ctx, op, a, &ops[1..])?;
    check_elem(ctx, op, a, ctx.value_type(ctx.result(op, 0)), "result")
}

fn verify_store(ctx: &Context, op: OpId) -> DiagResult<()> {
    let ops = ctx.operand_vec(op);
    let a = ndarray_of(ctx, op, ops[1])?;
    check_access(ctx, op, a, &ops[2..])?;
    check_elem(ctx, op, a, ctx.value_type(ops[0]), "value")
}

fn verify_shape(ctx: &Context, op: OpId) -> DiagResult<()> {
    let a = ndarray_of(ctx, op, ctx.operand(op, 0))?;
    let axis = int_prop(ctx, op, "axis")?;
    let rank = a.rank(ctx);
    if axis < 0 || axis as u64 >= rank as u64 {
        return Err(err(
            ctx,
            op,
            format!("axis {axis} is out of bounds for an ndarray of rank {rank}"),
        ));
    }
    let r = ctx.value_type(ctx.result(op, 0));
    if !is_i32(ctx, r) {
        return Err(err(
            ctx,
            op,
            format!("expects an i32 result, got {}", type_str(ctx, r)),
        ));
    }
    Ok(())
}
