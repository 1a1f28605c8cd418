//! Ndarray access: `qd.ndarray_load`, `qd.ndarray_store`, `qd.ndarray_shape`, and the atomics
//! `qd.ndarray_atomic_add`, `qd.ndarray_atomic_sub`, `qd.ndarray_atomic_min`,
//! `qd.ndarray_atomic_max`.
//!
//! ```text
//! %v = qd.ndarray_load %a[%i, %j] : !qd.ndarray<?x?xf32>
//! qd.ndarray_store %v, %a[%i, %j] : !qd.ndarray<?x?xf32>
//! %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?x?xf32>      // i32 extent of axis 0
//! qd.ndarray_atomic_add %v, %a[%i, %j] : !qd.ndarray<?x?xf32>
//! %old = qd.ndarray_atomic_max %k, %b[%i] : !qd.ndarray<?xi32> // the value before the update
//! ```
//!
//! The type after `:` is the ndarray's; values have its element type, indices are i32.
//! Atomics take integer (wider than i1) or float elements, as the field atomics (sub: signless
//! integer or float); integers wrap (add, sub) and compare by their signedness (min, max), floats
//! take IEEE minNum/maxNum.
//! `qd.ndarray_shape` is PURE: an ndarray is bound for a whole launch and stores change its
//! contents, never its shape, so two reads of the same axis agree and an unused one may go.

use crate::constraints::{check_atomic_elem, ndarray_elem, INDEX, NDARRAY_OPERAND};
use crate::memory::AtomicKind;
use crate::types::NdarrayType;
use crate::verify::*;
use qd_ir::op_def::{constraint, prop};
use qd_ir::{Builder, Context, DiagResult, Location, OpId, OpInfo, OpTraits, Type, Value};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        NdarrayLoadOp::op_info(),
        NdarrayStoreOp::op_info(),
        NdarrayShapeOp::op_info(),
        NdarrayAtomicAddOp::op_info(),
        NdarrayAtomicSubOp::op_info(),
        NdarrayAtomicMinOp::op_info(),
        NdarrayAtomicMaxOp::op_info(),
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

/// Declares one ndarray atomic op (the four share operands, result, syntax and verifier).
macro_rules! ndarray_atomic {
    ($(#[$doc:meta])* $Name:ident = $op:literal, $summary:literal) => {
        qd_ir::declare_op! {
            $(#[$doc])*
            pub struct $Name = $op {
                summary: $summary,
                operands: [
                    value: single(constraint::ANY) = ndarray_elem(array),
                    array: single(NDARRAY_OPERAND),
                    indices: variadic(INDEX),
                ],
                results: [old: optional(constraint::ANY) = ndarray_elem(array)],
                format: "$value `,` $array `[` $indices `]` attr-dict `:` type($array)",
                verify: verify_atomic,
            }
        }
    };
}

ndarray_atomic! {
    /// `[%old =] qd.ndarray_atomic_add %v, %a[indices] : !qd.ndarray<...>`.
    NdarrayAtomicAddOp = "qd.ndarray_atomic_add", "atomically adds to one element of an ndarray"
}
ndarray_atomic! {
    /// `[%old =] qd.ndarray_atomic_sub %v, %a[indices] : !qd.ndarray<...>`.
    NdarrayAtomicSubOp = "qd.ndarray_atomic_sub",
    "atomically subtracts from one element of an ndarray"
}
ndarray_atomic! {
    /// `[%old =] qd.ndarray_atomic_min %v, %a[indices] : !qd.ndarray<...>`.
    NdarrayAtomicMinOp = "qd.ndarray_atomic_min",
    "atomically lowers one element of an ndarray to a value"
}
ndarray_atomic! {
    /// `[%old =] qd.ndarray_atomic_max %v, %a[indices] : !qd.ndarray<...>`.
    NdarrayAtomicMaxOp = "qd.ndarray_atomic_max",
    "atomically raises one element of an ndarray to a value"
}

/// A `qd.ndarray_atomic_*` op: one wrapper for the four.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct NdarrayAtomicOp(pub OpId);

impl NdarrayAtomicOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        AtomicKind::from_ndarray_op_name(ctx.name(op)).map(|_| NdarrayAtomicOp(op))
    }
    /// Creates `qd.ndarray_atomic_<kind> value, array[indices]`; with `with_result` it also
    /// returns the element's value before the update.
    pub fn build(
        b: &mut Builder,
        kind: AtomicKind,
        value: Value,
        array: Value,
        indices: &[Value],
        with_result: bool,
        loc: Location,
    ) -> Self {
        let (v, a, i, r) = (value, array, indices, with_result);
        let op = match kind {
            AtomicKind::Add => NdarrayAtomicAddOp::build(b, v, a, i, r, loc).0,
            AtomicKind::Sub => NdarrayAtomicSubOp::build(b, v, a, i, r, loc).0,
            AtomicKind::Min => NdarrayAtomicMinOp::build(b, v, a, i, r, loc).0,
            AtomicKind::Max => NdarrayAtomicMaxOp::build(b, v, a, i, r, loc).0,
        };
        NdarrayAtomicOp(op)
    }
    pub fn kind(self, ctx: &Context) -> AtomicKind {
        AtomicKind::from_ndarray_op_name(ctx.name(self.0)).expect("not an ndarray atomic op")
    }
    pub fn value(self, ctx: &Context) -> Value {
        NdarrayAtomicAddOp(self.0).value(ctx)
    }
    pub fn array(self, ctx: &Context) -> Value {
        NdarrayAtomicAddOp(self.0).array(ctx)
    }
    pub fn indices(self, ctx: &Context) -> Vec<Value> {
        NdarrayAtomicAddOp(self.0).indices(ctx)
    }
    /// The element's old value, when the op returns it.
    pub fn old_value(self, ctx: &Context) -> Option<Value> {
        NdarrayAtomicAddOp(self.0).old(ctx)
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
    check_access_indices(ctx, op, indices, array.rank(ctx), "an ndarray")
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

fn verify_atomic(ctx: &Context, op: OpId) -> DiagResult<()> {
    let ops = ctx.operand_vec(op);
    let a = ndarray_of(ctx, op, ops[1])?;
    check_access(ctx, op, a, &ops[2..])?;
    check_elem(ctx, op, a, ctx.value_type(ops[0]), "value")?;
    if let Some(&r) = ctx.results(op).first() {
        check_elem(ctx, op, a, ctx.value_type(r), "result")?;
    }
    let elem = a.elem(ctx);
    check_atomic_elem(ctx, op, elem)?;
    let d = ctx.type_data(elem);
    // A sub is lowered as an add of the negated value, which arith (signless only) cannot
    // compute for a signed or unsigned element; arith computes no such values either.
    if ctx.name(op) == crate::NDARRAY_ATOMIC_SUB_OP && d.is_integer() && !d.is_signless_integer() {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a signless integer or float element, got {}",
                type_str(ctx, elem)
            ),
        ));
    }
    Ok(())
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
