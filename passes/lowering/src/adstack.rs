//! Adstacks as heap slices. A stack of id k and entry type T lives in the `float` heap (float T:
//! entries `[primal, adjoint]`, `2 * sizeof(T)` bytes) or the `int` heap (integers: the primal
//! only, `i1` widened to `i32`), at byte `base = row * stride + offset[k]` of the heap: an i64
//! count, then the entries from `base + 8`. `row`, `stride`, `offset[k]` and the capacity
//! `max_size[k]` are runtime metadata, loaded once per task (in its prologue).
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

use crate::emit;
use crate::lowerer::{Cached, Lowerer, StackView, R};
use qd_adstack::{
    stack_id_of, AccAdjointOp, AllocaOp, LoadTopAdjOp, LoadTopOp, PopOp, PushOp, StackType,
};
use qd_arith::names::{ADDF, ADDI, EXTUI, MAXSI, MULI, SUBI, TRUNCI};
use qd_arith::CmpIPredicate;
use qd_ir::{OpId, Type, TypeData, Value};

/// Bytes of the count header.
const HEADER_BYTES: i64 = 8;

/// The bytes of a scalar type (i1 counts as its stored i32).
fn size_of(lw: &Lowerer, ty: Type) -> i64 {
    match lw.ctx.type_data(ty) {
        TypeData::Integer { width: 1, .. } => 4,
        d => i64::from(d.bit_width().unwrap_or(64).div_ceil(8)),
    }
}

/// The heap slice of the stack defined by `alloca`, its metadata loaded in the prologue.
fn view(lw: &mut Lowerer, alloca: OpId) -> R<StackView> {
    let a = AllocaOp(alloca);
    let Some(id) = stack_id_of(lw.ctx, alloca) else {
        return Err(lw.error(
            "adstack.alloca has no 'id' property: run determine-ad-stack-size before convert-qd-to-lowered",
        ));
    };
    let ty = lw.ctx.value_type(a.result(lw.ctx));
    let Some(st) = StackType::from_type(lw.ctx, ty) else {
        return Err(lw.internal("adstack.alloca without a stack type"));
    };
    let elem = st.elem(lw.ctx);
    let float = lw.ctx.type_data(elem).is_float();
    let stored = if matches!(lw.ctx.type_data(elem), TypeData::Integer { width: 1, .. }) {
        lw.ctx.i32_type()
    } else {
        elem
    };
    let size = size_of(lw, elem);
    let entry_bytes = if float { 2 * size } else { size };
    let row = lw.cached(Cached::AdstackRow, emit::adstack_row);
    let stride = lw.cached(Cached::AdstackStride(float), |lw| {
        emit::adstack_stride(lw, float)
    });
    let off = lw.cached(Cached::AdstackOffset(id), |lw| emit::adstack_offset(lw, id));
    let cap = lw.cached(Cached::AdstackMaxSize(id), |lw| {
        emit::adstack_max_size(lw, id)
    });
    let v = lw.in_prologue(|lw| -> R<StackView> {
        let row_start = lw.arith(MULI, &[row, stride]);
        let base = lw.arith(ADDI, &[row_start, off]);
        let zero = lw.const_i64(0);
        let has_entries = lw.cmpi(CmpIPredicate::Sgt, cap, zero);
        let header = lw.const_i64(HEADER_BYTES);
        let first = lw.arith(ADDI, &[base, header]);
        let primal0 = lw.select(has_entries, first, base);
        let adjoint0 = if float {
            let sz = lw.const_i64(size);
            let adj = lw.arith(ADDI, &[first, sz]);
            Some(lw.select(has_entries, adj, base))
        } else {
            None
        };
        let i64t = lw.ctx.i64_type();
        let count_ptr = emit::heap_ptr(lw, float, base, i64t);
        Ok(StackView {
            id,
            float,
            elem,
            stored,
            entry_bytes,
            cap,
            has_entries,
            primal0,
            adjoint0,
            count_ptr,
        })
    })?;
    Ok(v)
}

/// The heap slice of stack `s` (a qd stack value) in this task.
fn stack(lw: &Lowerer, s: Value) -> R<StackView> {
    lw.stacks.get(&s).copied().ok_or_else(|| {
        lw.error("cannot lower: this adstack is used in another task than its adstack.alloca")
    })
}

/// The byte offset of the field at `start0` (entry 0) of entry `index`.
fn entry_at(lw: &mut Lowerer, sv: &StackView, start0: Value, index: Value) -> Value {
    let eb = lw.const_i64(sv.entry_bytes);
    let off = lw.arith(MULI, &[index, eb]);
    lw.arith(ADDI, &[start0, off])
}

/// The index of the top entry: max(count - 1, 0).
fn top_index(lw: &mut Lowerer, sv: &StackView) -> R<Value> {
    let count = emit::load(lw, sv.count_ptr)?;
    let one = lw.const_i64(1);
    let zero = lw.const_i64(0);
    let m = lw.arith(SUBI, &[count, one]);
    Ok(lw.arith(MAXSI, &[m, zero]))
}

fn adjoint0(lw: &Lowerer, sv: &StackView) -> R<Value> {
    sv.adjoint0
        .ok_or_else(|| lw.internal("adjoint access to an integer stack"))
}

pub fn alloca(lw: &mut Lowerer, op: OpId) -> R<()> {
    let sv = view(lw, op)?;
    let r = AllocaOp(op).result(lw.ctx);
    lw.stacks.insert(r, sv);
    let z = lw.zero(sv.stored);
    let p = emit::heap_ptr(lw, sv.float, sv.primal0, sv.stored);
    emit::store(lw, z, p);
    if let Some(a0) = sv.adjoint0 {
        let z = lw.zero(sv.elem);
        let p = emit::heap_ptr(lw, sv.float, a0, sv.elem);
        emit::store(lw, z, p);
    }
    let zero = lw.const_i64(0);
    emit::store(lw, zero, sv.count_ptr);
    Ok(())
}

pub fn push(lw: &mut Lowerer, op: OpId) -> R<()> {
    let p = PushOp(op);
    let sv = stack(lw, p.stack(lw.ctx))?;
    let v = lw.get(p.value(lw.ctx))?;
    let count = emit::load(lw, sv.count_ptr)?;
    let full = lw.cmpi(CmpIPredicate::Sge, count, sv.cap);
    let then = lw.region(&[], |lw, _| {
        emit::adstack_overflow(lw, sv.id);
        emit::yield_op(lw);
        Ok(())
    })?;
    let els = lw.region(&[], |lw, _| {
        let at = entry_at(lw, &sv, sv.primal0, count);
        let v = if sv.stored == sv.elem {
            v
        } else {
            lw.cast(EXTUI, v, sv.stored)
        };
        let pp = emit::heap_ptr(lw, sv.float, at, sv.stored);
        emit::store(lw, v, pp);
        if let Some(a0) = sv.adjoint0 {
            let at = entry_at(lw, &sv, a0, count);
            let z = lw.zero(sv.elem);
            let ap = emit::heap_ptr(lw, sv.float, at, sv.elem);
            emit::store(lw, z, ap);
        }
        let one = lw.const_i64(1);
        let next = lw.arith(ADDI, &[count, one]);
        emit::store(lw, next, sv.count_ptr);
        emit::yield_op(lw);
        Ok(())
    })?;
    emit::if_op(lw, full, then, els);
    Ok(())
}

pub fn pop(lw: &mut Lowerer, op: OpId) -> R<()> {
    let sv = stack(lw, PopOp(op).stack(lw.ctx))?;
    let t = top_index(lw, &sv)?;
    emit::store(lw, t, sv.count_ptr);
    Ok(())
}

pub fn load_top(lw: &mut Lowerer, op: OpId) -> R<()> {
    let l = LoadTopOp(op);
    let sv = stack(lw, l.stack(lw.ctx))?;
    let t = top_index(lw, &sv)?;
    let at = entry_at(lw, &sv, sv.primal0, t);
    let p = emit::heap_ptr(lw, sv.float, at, sv.stored);
    let v = emit::load(lw, p)?;
    let v = if sv.stored == sv.elem {
        v
    } else {
        lw.cast(TRUNCI, v, sv.elem)
    };
    lw.map.map(l.result(lw.ctx), v);
    Ok(())
}

pub fn load_top_adj(lw: &mut Lowerer, op: OpId) -> R<()> {
    let l = LoadTopAdjOp(op);
    let sv = stack(lw, l.stack(lw.ctx))?;
    let a0 = adjoint0(lw, &sv)?;
    let t = top_index(lw, &sv)?;
    let at = entry_at(lw, &sv, a0, t);
    let p = emit::heap_ptr(lw, sv.float, at, sv.elem);
    let v = emit::load(lw, p)?;
    lw.map.map(l.result(lw.ctx), v);
    Ok(())
}

pub fn acc_adjoint(lw: &mut Lowerer, op: OpId) -> R<()> {
    let a = AccAdjointOp(op);
    let sv = stack(lw, a.stack(lw.ctx))?;
    let a0 = adjoint0(lw, &sv)?;
    let v = lw.get(a.value(lw.ctx))?;
    let then = lw.region(&[], |lw, _| {
        let t = top_index(lw, &sv)?;
        let at = entry_at(lw, &sv, a0, t);
        let p = emit::heap_ptr(lw, sv.float, at, sv.elem);
        let old = emit::load(lw, p)?;
        let new = lw.arith(ADDF, &[old, v]);
        emit::store(lw, new, p);
        emit::yield_op(lw);
        Ok(())
    })?;
    let els = lw.ctx.create_region();
    emit::if_op(lw, sv.has_entries, then, els);
    Ok(())
}
