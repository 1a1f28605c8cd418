//! Adstacks as heap slices. A stack of id k and entry type T lives in the `float` heap (float T:
//! entries `[primal, adjoint]`, `2 * sizeof(T)` bytes) or the `int` heap (integers: the primal
//! only, `i1` widened to `i32`), at byte `base = row * stride + offset[k]` of the heap: an i64
//! count, then the entries from `base + 8`. `row`, `stride`, `offset[k]` and the capacity
//! `max_size[k]` are runtime metadata, loaded once per task (in its prologue). A stack value
//! converts to its i64 `base`.
//!
//! The expansion keeps the qd interpreter's semantics bit for bit:
//! - `alloca`: count := 0, and entry 0 := (0, 0), because reading an empty stack reads entry 0,
//!   which a fresh stack holds as zeros (a slice is reused by the next iteration or thread).
//! - `push v`: when count < capacity, entry[count] := (v, 0) and count += 1; else nothing is
//!   written and `lowered.adstack_overflow k` records the overflow.
//! - `pop`: count := max(count - 1, 0).
//! - `load_top`, `load_top_adj`: read entry max(count - 1, 0). A stack of capacity 0 has no
//!   entry: its reads address the count header instead, which holds 0 (the count of such a stack
//!   never leaves 0), so they read zero, as the interpreter does.
//! - `acc_adjoint v`: entry[max(count - 1, 0)].adjoint += v, only when the capacity is not 0.
//!
//! Every op of an expansion carries the location of the adstack op it comes from.

use super::emit::{Em, InvKey, R};
use crate::facts::StackFact;
use qd_arith::names::{ADDF, ADDI, EXTUI, MAXSI, MULI, SUBI, TRUNCI};
use qd_arith::CmpIPredicate;
use qd_ir::fast_hash::FastMap;
use qd_ir::{BlockId, OpId, Type, TypeData, Value};
use qd_lowered::{
    AdstackMaxSizeOp, AdstackOffsetOp, AdstackOverflowOp, AdstackRowOp, AdstackStrideOp, Heap,
    HeapPtrOp, IfOp, LoadOp, StoreOp, YieldOp,
};

/// Bytes of the count header.
const HEADER_BYTES: i64 = 8;

/// One stack's slice in the current task.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct View {
    id: u32,
    heap: Heap,
    elem: Type,
    /// The element's type in the heap (`i1` widened to `i32`).
    stored: Type,
    entry_bytes: i64,
    base: Value,
    cap: Value,
    /// i1: `cap > 0`.
    has_entries: Value,
    /// Byte offset of entry 0's primal (the header when the stack has no entries).
    primal0: Value,
    /// Byte offset of entry 0's adjoint (float stacks), same fallback.
    adjoint0: Option<Value>,
    /// `!lowered.ptr<i64>` to the count header.
    count_ptr: Value,
}

/// The bytes of a scalar type (i1 counts as its stored i32).
fn size_of(em: &Em, ty: Type) -> i64 {
    match em.ctx().type_data(ty) {
        TypeData::Integer { width: 1, .. } => 4,
        d => i64::from(d.bit_width().unwrap_or(64).div_ceil(8)),
    }
}

fn stack_fact(em: &Em, op: OpId) -> R<StackFact> {
    em.facts
        .stacks
        .get(op)
        .ok_or_else(|| em.internal("an adstack op without its stack"))
}

/// The views made so far, by task block, stack id and element type.
pub type Views = FastMap<(BlockId, u32, Type), View>;

/// The slice of the stack of `op`, its metadata and addresses in the task's prologue: made by
/// the first op on the stack in a task, then remembered. Remembering changes nothing in the IR
/// (each later [`make_view`] would find every op it asks for in the prologue); it spares those
/// lookups and the ops built for them, which made up most of the conversion of a kernel with
/// many stack ops.
fn view(em: &mut Em, op: OpId) -> R<View> {
    let StackFact { id, elem } = stack_fact(em, op)?;
    let Some(tb) = em.task_block() else {
        return make_view(em, id, elem);
    };
    let key = (tb, id, elem);
    let alive = |em: &Em, v: &View| {
        let ctx = em.ctx();
        ctx.defining_op(v.count_ptr)
            .is_some_and(|o| ctx.is_alive(o) && ctx.parent_block(o) == Some(tb))
    };
    if let Some(v) = em.state.views.get(&key).copied().filter(|v| alive(em, v)) {
        debug_assert_eq!(Ok(v), make_view(em, id, elem), "a stale stack view");
        return Ok(v);
    }
    let v = make_view(em, id, elem)?;
    em.state.views.insert(key, v);
    Ok(v)
}

/// The view of stack `id` of element type `elem` (see [`view`]).
fn make_view(em: &mut Em, id: u32, elem: Type) -> R<View> {
    let float = em.ctx().type_data(elem).is_float();
    let heap = if float { Heap::Float } else { Heap::Int };
    let stored = if matches!(em.ctx().type_data(elem), TypeData::Integer { width: 1, .. }) {
        em.rw.intern(|ctx| ctx.i32_type())
    } else {
        elem
    };
    let size = size_of(em, elem);
    let entry_bytes = if float { 2 * size } else { size };
    let loc = em.loc;
    let i64t = em.i64_type();
    let row = em.remembered(InvKey::AdstackRow, |b| AdstackRowOp::build(b, i64t, loc).0);
    let stride = em.remembered(InvKey::AdstackStride(heap), |b| {
        AdstackStrideOp::build(b, i64t, heap, loc).0
    });
    let off = em.invariant(|b| AdstackOffsetOp::build(b, i64t, id, loc).0);
    let cap = em.invariant(|b| AdstackMaxSizeOp::build(b, i64t, id, loc).0);
    let row_start = em.arith_inv(MULI, &[row, stride]);
    let base = em.arith_inv(ADDI, &[row_start, off]);
    let zero = em.const_i64(0);
    let has_entries = em.cmpi_inv(CmpIPredicate::Sgt, cap, zero);
    let header = em.const_i64(HEADER_BYTES);
    let first = em.arith_inv(ADDI, &[base, header]);
    let primal0 = em.select_inv(has_entries, first, base);
    let adjoint0 = if float {
        let sz = em.const_i64(size);
        let adj = em.arith_inv(ADDI, &[first, sz]);
        Some(em.select_inv(has_entries, adj, base))
    } else {
        None
    };
    let count_ty = em.global_ptr(i64t);
    let count_ptr = em.invariant(|b| HeapPtrOp::build(b, base, count_ty, heap, loc).0);
    Ok(View {
        id,
        heap,
        elem,
        stored,
        entry_bytes,
        base,
        cap,
        has_entries,
        primal0,
        adjoint0,
        count_ptr,
    })
}

fn heap_ptr(em: &mut Em, v: &View, byte_offset: Value, ty: Type) -> Value {
    let loc = em.loc;
    let heap = v.heap;
    let pty = em.global_ptr(ty);
    em.b(|b| HeapPtrOp::build(b, byte_offset, pty, heap, loc).result(b.ctx))
}

fn load(em: &mut Em, p: Value) -> Value {
    let loc = em.loc;
    em.b(|b| LoadOp::build(b, p, loc).result(b.ctx))
}

fn store(em: &mut Em, v: Value, p: Value) {
    let loc = em.loc;
    em.b(|b| StoreOp::build(b, v, p, loc));
}

/// The byte offset of the field at `start0` (entry 0) of entry `index`.
fn entry_at(em: &mut Em, v: &View, start0: Value, index: Value) -> Value {
    let eb = em.const_i64(v.entry_bytes);
    let off = em.arith(MULI, &[index, eb]);
    em.arith(ADDI, &[start0, off])
}

/// The index of the top entry: max(count - 1, 0).
fn top_index(em: &mut Em, v: &View) -> Value {
    let count = load(em, v.count_ptr);
    let one = em.const_i64(1);
    let zero = em.const_i64(0);
    let m = em.arith(SUBI, &[count, one]);
    em.arith(MAXSI, &[m, zero])
}

fn adjoint0(em: &Em, v: &View) -> R<Value> {
    v.adjoint0
        .ok_or_else(|| em.internal("adjoint access to an integer stack"))
}

pub fn alloca(em: &mut Em, op: OpId, _: &[Value]) -> R<()> {
    let v = view(em, op)?;
    let z = em.zero(v.stored);
    let p = heap_ptr(em, &v, v.primal0, v.stored);
    store(em, z, p);
    if let Some(a0) = v.adjoint0 {
        let z = em.zero(v.elem);
        let p = heap_ptr(em, &v, a0, v.elem);
        store(em, z, p);
    }
    let zero = em.const_i64(0);
    store(em, zero, v.count_ptr);
    em.rw.replace_op(op, &[v.base]);
    Ok(())
}

pub fn push(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let v = view(em, op)?;
    let value = operands[1];
    let count = load(em, v.count_ptr);
    let full = em.cmpi(CmpIPredicate::Sge, count, v.cap);
    let loc = em.loc;
    let i = em.b(|b| IfOp::build(b, full, loc));
    let then_r = i.then_region(em.ctx());
    let then = em.block(then_r, &[]);
    let id = v.id;
    em.at_end(then, |em| {
        em.b(|b| {
            AdstackOverflowOp::build(b, id, loc);
            YieldOp::build(b, loc);
        })
    });
    let else_r = i.else_region(em.ctx());
    let els = em.block(else_r, &[]);
    em.at_end(els, |em| {
        let at = entry_at(em, &v, v.primal0, count);
        let w = if v.stored == v.elem {
            value
        } else {
            em.cast(EXTUI, value, v.stored)
        };
        let pp = heap_ptr(em, &v, at, v.stored);
        store(em, w, pp);
        if let Some(a0) = v.adjoint0 {
            let at = entry_at(em, &v, a0, count);
            let z = em.zero(v.elem);
            let ap = heap_ptr(em, &v, at, v.elem);
            store(em, z, ap);
        }
        let one = em.const_i64(1);
        let next = em.arith(ADDI, &[count, one]);
        store(em, next, v.count_ptr);
        em.b(|b| YieldOp::build(b, loc));
    });
    em.rw.erase_op(op);
    Ok(())
}

pub fn pop(em: &mut Em, op: OpId, _: &[Value]) -> R<()> {
    let v = view(em, op)?;
    let t = top_index(em, &v);
    store(em, t, v.count_ptr);
    em.rw.erase_op(op);
    Ok(())
}

pub fn load_top(em: &mut Em, op: OpId, _: &[Value]) -> R<()> {
    let v = view(em, op)?;
    let t = top_index(em, &v);
    let at = entry_at(em, &v, v.primal0, t);
    let p = heap_ptr(em, &v, at, v.stored);
    let x = load(em, p);
    let x = if v.stored == v.elem {
        x
    } else {
        em.cast(TRUNCI, x, v.elem)
    };
    em.rw.replace_op(op, &[x]);
    Ok(())
}

pub fn load_top_adj(em: &mut Em, op: OpId, _: &[Value]) -> R<()> {
    let v = view(em, op)?;
    let a0 = adjoint0(em, &v)?;
    let t = top_index(em, &v);
    let at = entry_at(em, &v, a0, t);
    let p = heap_ptr(em, &v, at, v.elem);
    let x = load(em, p);
    em.rw.replace_op(op, &[x]);
    Ok(())
}

pub fn acc_adjoint(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let v = view(em, op)?;
    let a0 = adjoint0(em, &v)?;
    let value = operands[1];
    let loc = em.loc;
    let i = em.b(|b| IfOp::build(b, v.has_entries, loc));
    let then_r = i.then_region(em.ctx());
    let then = em.block(then_r, &[]);
    em.at_end(then, |em| {
        let t = top_index(em, &v);
        let at = entry_at(em, &v, a0, t);
        let p = heap_ptr(em, &v, at, v.elem);
        let old = load(em, p);
        let new = em.arith(ADDF, &[old, value]);
        store(em, new, p);
        em.b(|b| YieldOp::build(b, loc));
    });
    em.rw.erase_op(op);
    Ok(())
}
