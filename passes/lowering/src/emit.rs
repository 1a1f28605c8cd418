//! Short forms of the lowered ops' builders for the conversion: each creates its op at the
//! [`Lowerer`]'s insertion point and location and returns what the conversion needs.

use crate::lowerer::{Lowerer, R};
use qd_ir::{Context, OpId, RegionId, Type, Value};
use qd_lowered::*;

/// Moves the blocks of `from` (a region the conversion filled) into region `index` of `op`.
fn adopt_region(ctx: &mut Context, op: OpId, index: usize, from: RegionId) {
    let to = ctx.region(op, index);
    ctx.take_region_blocks(from, to);
}

/// `lowered.arg index : ty`.
pub fn arg(lw: &mut Lowerer, index: u32, ty: Type) -> Value {
    let loc = lw.loc;
    lw.with_builder(|b| ArgOp::build(b, ty, index, loc).result(b.ctx))
}

/// `lowered.ndarray_ptr index : !lowered.ptr<stored>`.
pub fn ndarray_ptr(lw: &mut Lowerer, index: u32, stored: Type) -> Value {
    let loc = lw.loc;
    let ty = global_ptr(lw.ctx, stored);
    lw.with_builder(|b| NdarrayPtrOp::build(b, ty, index, loc).result(b.ctx))
}

/// `lowered.ndarray_dim index, axis : i64`.
pub fn ndarray_dim(lw: &mut Lowerer, index: u32, axis: u32) -> Value {
    let loc = lw.loc;
    let t = lw.ctx.i64_type();
    lw.with_builder(|b| NdarrayDimOp::build(b, t, index, axis, loc).result(b.ctx))
}

/// `lowered.field_ptr @name [grad] : !lowered.ptr<stored>`.
pub fn field_ptr(lw: &mut Lowerer, name: &str, grad: bool, stored: Type) -> Value {
    let loc = lw.loc;
    let ty = global_ptr(lw.ctx, stored);
    lw.with_builder(|b| FieldPtrOp::build(b, ty, name, grad.then_some(()), loc).result(b.ctx))
}

/// `lowered.temp_ptr slot : !lowered.ptr<ty>`.
pub fn temp_ptr(lw: &mut Lowerer, slot: u32, ty: Type) -> Value {
    let loc = lw.loc;
    let pty = global_ptr(lw.ctx, ty);
    lw.with_builder(|b| TempPtrOp::build(b, pty, slot, loc).result(b.ctx))
}

pub fn thread_id(lw: &mut Lowerer) -> Value {
    let loc = lw.loc;
    let t = lw.ctx.i64_type();
    lw.with_builder(|b| ThreadIdOp::build(b, t, loc).result(b.ctx))
}

pub fn task_begin(lw: &mut Lowerer) -> Value {
    let loc = lw.loc;
    let t = lw.ctx.i64_type();
    lw.with_builder(|b| TaskBeginOp::build(b, t, loc).result(b.ctx))
}

/// `lowered.offset p, i`: `p + i` elements.
pub fn offset(lw: &mut Lowerer, p: Value, i: Value) -> Value {
    let loc = lw.loc;
    lw.with_builder(|b| OffsetOp::build(b, p, i, loc).result(b.ctx))
}

/// `lowered.load p` (of a pointer to a scalar).
pub fn load(lw: &mut Lowerer, p: Value) -> R<Value> {
    let ty = lw.ctx.value_type(p);
    if PtrType::from_type(lw.ctx, ty).is_none() {
        return Err(lw.internal("a load through a value that is not a !lowered.ptr"));
    }
    let loc = lw.loc;
    Ok(lw.with_builder(|b| LoadOp::build(b, p, loc).result(b.ctx)))
}

pub fn store(lw: &mut Lowerer, v: Value, p: Value) {
    let loc = lw.loc;
    lw.with_builder(|b| StoreOp::build(b, v, p, loc));
}

/// `lowered.atomic_add/min/max v, p` (by op name); returns the element's previous value.
pub fn atomic(lw: &mut Lowerer, name: &str, v: Value, p: Value) -> Value {
    let loc = lw.loc;
    lw.with_builder(|b| match name {
        ATOMIC_MIN_OP => AtomicMinOp::build(b, v, p, loc).old(b.ctx),
        ATOMIC_MAX_OP => AtomicMaxOp::build(b, v, p, loc).old(b.ctx),
        _ => AtomicAddOp::build(b, v, p, loc).old(b.ctx),
    })
}

/// `lowered.alloca : !lowered.ptr<pointee, private>`.
pub fn alloca(lw: &mut Lowerer, pointee: Type) -> Value {
    let loc = lw.loc;
    let ty = private_ptr(lw.ctx, pointee);
    lw.with_builder(|b| AllocaOp::build(b, ty, loc).result(b.ctx))
}

/// `lowered.elem_ptr p[k]`.
pub fn elem_ptr(lw: &mut Lowerer, p: Value, k: Value) -> Value {
    let loc = lw.loc;
    lw.with_builder(|b| ElemPtrOp::build(b, p, k, loc).result(b.ctx))
}

/// `lowered.member_ptr p[index]` to a member of type `member`.
pub fn member_ptr(lw: &mut Lowerer, p: Value, index: usize, member: Type) -> R<Value> {
    let loc = lw.loc;
    let ty = private_ptr(lw.ctx, member);
    let index = u32::try_from(index).map_err(|_| lw.internal("member index out of range"))?;
    Ok(lw.with_builder(|b| MemberPtrOp::build(b, p, ty, index, loc).result(b.ctx)))
}

/// `lowered.bounds_check i, n {what = ...}`.
pub fn bounds_check(lw: &mut Lowerer, i: Value, n: Value, what: &str) {
    let loc = lw.loc;
    lw.with_builder(|b| BoundsCheckOp::build(b, i, n, what, loc));
}

/// `lowered.for %i = lo to hi step s` with body `body` (its block argument is the iv).
pub fn for_op(lw: &mut Lowerer, lo: Value, hi: Value, step: Value, body: RegionId) {
    let loc = lw.loc;
    let op = lw.with_builder(|b| ForOp::build(b, lo, hi, step, loc).0);
    adopt_region(lw.ctx, op, 0, body);
}

/// `lowered.if c { then } else { els }`; `els` may be an empty region.
pub fn if_op(lw: &mut Lowerer, c: Value, then: RegionId, els: RegionId) {
    let loc = lw.loc;
    let op = lw.with_builder(|b| IfOp::build(b, c, loc).0);
    adopt_region(lw.ctx, op, 0, then);
    adopt_region(lw.ctx, op, 1, els);
}

pub fn while_op(lw: &mut Lowerer, before: RegionId, after: RegionId) {
    let loc = lw.loc;
    let op = lw.with_builder(|b| WhileOp::build(b, loc).0);
    adopt_region(lw.ctx, op, 0, before);
    adopt_region(lw.ctx, op, 1, after);
}

pub fn condition(lw: &mut Lowerer, c: Value) {
    let loc = lw.loc;
    lw.with_builder(|b| ConditionOp::build(b, c, loc));
}

pub fn yield_op(lw: &mut Lowerer) {
    let loc = lw.loc;
    lw.with_builder(|b| YieldOp::build(b, loc));
}

pub fn ret(lw: &mut Lowerer) {
    let loc = lw.loc;
    lw.with_builder(|b| ReturnOp::build(b, loc));
}

fn heap(float: bool) -> Heap {
    if float {
        Heap::Float
    } else {
        Heap::Int
    }
}

pub fn adstack_stride(lw: &mut Lowerer, float: bool) -> Value {
    let loc = lw.loc;
    let t = lw.ctx.i64_type();
    lw.with_builder(|b| AdstackStrideOp::build(b, t, heap(float), loc).result(b.ctx))
}

pub fn adstack_offset(lw: &mut Lowerer, id: u32) -> Value {
    let loc = lw.loc;
    let t = lw.ctx.i64_type();
    lw.with_builder(|b| AdstackOffsetOp::build(b, t, id, loc).result(b.ctx))
}

pub fn adstack_max_size(lw: &mut Lowerer, id: u32) -> Value {
    let loc = lw.loc;
    let t = lw.ctx.i64_type();
    lw.with_builder(|b| AdstackMaxSizeOp::build(b, t, id, loc).result(b.ctx))
}

pub fn adstack_row(lw: &mut Lowerer) -> Value {
    let loc = lw.loc;
    let t = lw.ctx.i64_type();
    lw.with_builder(|b| AdstackRowOp::build(b, t, loc).result(b.ctx))
}

/// `lowered.heap_ptr float|int, byte_offset : !lowered.ptr<ty>`.
pub fn heap_ptr(lw: &mut Lowerer, float: bool, byte_offset: Value, ty: Type) -> Value {
    let loc = lw.loc;
    let pty = global_ptr(lw.ctx, ty);
    lw.with_builder(|b| HeapPtrOp::build(b, byte_offset, pty, heap(float), loc).result(b.ctx))
}

pub fn adstack_overflow(lw: &mut Lowerer, id: u32) {
    let loc = lw.loc;
    lw.with_builder(|b| AdstackOverflowOp::build(b, id, loc));
}
