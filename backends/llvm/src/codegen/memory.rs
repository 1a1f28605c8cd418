//! Kernel data and memory: `lowered.arg`, `ndarray_ptr`, `ndarray_dim`, `field_ptr`, `temp_ptr`
//! (words of the launch context), `offset` (a GEP by the pointee), `load`, `store`, the relaxed
//! atomics, and private memory (`alloca` in the entry block, zeroed where the op runs;
//! `elem_ptr` and `member_ptr` as GEPs).
//!
//! Atomics match `qd.atomic_*`: integers wrap (add) and compare by the pointee's signedness;
//! floats add in their precision and take IEEE minNum/maxNum (a NaN loses to a number), through
//! a compare-and-swap loop on the element's bits.

use super::{Gen, R};
use crate::frame::W_TEMPS;
use inkwell::types::BasicType;
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::{AtomicOrdering, AtomicRMWBinOp, FloatPredicate};
use qd_ir::{AttrData, OpId};
use qd_lowered as lw;

fn int_prop(g: &Gen<'_, '_>, op: OpId, name: &str) -> R<u64> {
    match g.ir.prop(op, name).map(|a| g.ir.attr_data(a)) {
        Some(AttrData::Integer { value, .. }) if *value >= 0 => Ok(*value as u64),
        _ => Err(g.err(format!(
            "'{}' needs a non-negative integer property '{name}'",
            g.ir.name(op)
        ))),
    }
}

/// The canonical 64-bit bits of a scalar argument as a value of type `ty`.
fn from_bits<'ctx>(
    g: &Gen<'_, 'ctx>,
    bits: IntValue<'ctx>,
    ty: qd_ir::Type,
) -> R<BasicValueEnum<'ctx>> {
    let t = g.ty(ty)?;
    Ok(match t {
        inkwell::types::BasicTypeEnum::IntType(it) if it.get_bit_width() == 64 => bits.into(),
        inkwell::types::BasicTypeEnum::IntType(it) => {
            g.ck(g.b.build_int_truncate(bits, it, "arg"))?.into()
        }
        inkwell::types::BasicTypeEnum::FloatType(ft) => {
            let width = if ft == g.llcx.f32_type() { 32 } else { 64 };
            let it = g.int_ty(width)?;
            let low = if width == 64 {
                bits
            } else {
                g.ck(g.b.build_int_truncate(bits, it, "arg"))?
            };
            g.ck(g.b.build_bit_cast(low, ft, "arg"))?
        }
        _ => return Err(g.err("lowered.arg of a non-scalar type")),
    })
}

pub(super) fn arg(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let index = int_prop(g, op, "index")? as usize;
    let (Some(&w), Some(None)) = (g.frame.args.get(index), g.frame.ranks.get(index)) else {
        return Err(g.err(format!("lowered.arg {index}: no such scalar argument")));
    };
    // Loaded in the entry block, converted there too (it is the same for every thread).
    let bits = g.word_int(w)?;
    let ty = g.ir.value_type(g.ir.result(op, 0));
    let saved = g.b.get_insert_block();
    if let Some(term) = g
        .func
        .get_first_basic_block()
        .and_then(|b| b.get_terminator())
    {
        g.b.position_before(&term);
    }
    let v = from_bits(g, bits, ty);
    if let Some(bb) = saved {
        g.b.position_at_end(bb);
    }
    g.set(op, 0, v?);
    Ok(())
}

pub(super) fn ndarray_ptr(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let index = int_prop(g, op, "index")? as usize;
    let (Some(&w), Some(Some(_))) = (g.frame.args.get(index), g.frame.ranks.get(index)) else {
        return Err(g.err(format!(
            "lowered.ndarray_ptr {index}: kernel argument {index} is not an ndarray"
        )));
    };
    let p = g.word_ptr(w)?;
    g.set(op, 0, p.into());
    Ok(())
}

pub(super) fn ndarray_dim(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let index = int_prop(g, op, "index")? as usize;
    let axis = int_prop(g, op, "axis")? as usize;
    let (Some(&w), Some(Some(rank))) = (g.frame.args.get(index), g.frame.ranks.get(index)) else {
        return Err(g.err(format!(
            "lowered.ndarray_dim {index}: kernel argument {index} is not an ndarray"
        )));
    };
    if axis >= *rank {
        return Err(g.err(format!(
            "lowered.ndarray_dim: axis {axis} of an ndarray of rank {rank}"
        )));
    }
    let d = g.word_int(w + 1 + axis as u32)?;
    g.set(op, 0, d.into());
    Ok(())
}

pub(super) fn field_ptr(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let name = match g.ir.prop(op, "field").map(|a| g.ir.attr_data(a)) {
        Some(AttrData::SymbolRef { root, nested }) if nested.is_empty() => {
            g.ir.ident_str(*root).to_string()
        }
        _ => return Err(g.err("lowered.field_ptr needs a field symbol")),
    };
    let Some(index) = g.memory.field_index(&name) else {
        return Err(g.err(format!("lowered.field_ptr of unknown field @{name}")));
    };
    let grad = g.ir.prop(op, "grad").is_some();
    if grad && g.memory.field(index).grad.is_none() {
        return Err(g.err(format!(
            "field @{name} has no adjoint: it is not needs_grad"
        )));
    }
    let p = g.word_ptr(g.frame.field(index, grad))?;
    g.set(op, 0, p.into());
    Ok(())
}

pub(super) fn temp_ptr(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let slot = int_prop(g, op, "slot")?;
    let base = g.word_ptr(W_TEMPS)?;
    let off = g.i64().const_int(slot * 8, false);
    let i8t = g.llcx.i8_type();
    // SAFETY: the slot is one of the kernel's (the verifier checks `temps`).
    let p = g.ck(unsafe { g.entry.build_in_bounds_gep(i8t, base, &[off], "temp") })?;
    g.set(op, 0, p.into());
    Ok(())
}

pub(super) fn offset(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let base_v = g.ir.operand(op, 0);
    let t = g.ty(g.pointee(g.ir.value_type(base_v))?)?;
    let (p, i) = (g.ptr(base_v)?, g.int(g.ir.operand(op, 1))?);
    // Not inbounds: lowered IR may step out of a buffer and back (the accesses are checked).
    // SAFETY: a plain GEP is address arithmetic.
    let q = g.ck(unsafe { g.b.build_gep(t, p, &[i], "p") })?;
    g.set(op, 0, q.into());
    Ok(())
}

pub(super) fn load(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let pv = g.ir.operand(op, 0);
    let t = g.ty(g.pointee(g.ir.value_type(pv))?)?;
    let p = g.ptr(pv)?;
    let v = match super::topcache::load(g, pv, p)? {
        Some(v) => v,
        None => g.ck(g.b.build_load(t, p, "v"))?,
    };
    g.set(op, 0, v);
    Ok(())
}

pub(super) fn store(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let v = g.operand(op, 0)?;
    let pv = g.ir.operand(op, 1);
    let p = g.ptr(pv)?;
    g.ck(g.b.build_store(p, v))?;
    super::topcache::store(g, pv, v)?;
    Ok(())
}

pub(super) fn atomic(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let name = g.ir.name(op);
    let (add, min) = (name == lw::ATOMIC_ADD_OP, name == lw::ATOMIC_MIN_OP);
    let pv = g.ir.operand(op, 1);
    let elem = g.pointee(g.ir.value_type(pv))?;
    let p = g.ptr(pv)?;
    let v = g.operand(op, 0)?;
    let old: BasicValueEnum = if g.is_float(elem) {
        float_atomic(g, p, v.into_float_value(), add, min)?.into()
    } else {
        let unsigned = g.is_unsigned(elem);
        let rmw = match (add, min, unsigned) {
            (true, _, _) => AtomicRMWBinOp::Add,
            (false, true, false) => AtomicRMWBinOp::Min,
            (false, true, true) => AtomicRMWBinOp::UMin,
            (false, false, false) => AtomicRMWBinOp::Max,
            (false, false, true) => AtomicRMWBinOp::UMax,
        };
        g.ck(g
            .b
            .build_atomicrmw(rmw, p, v.into_int_value(), AtomicOrdering::Monotonic))?
            .into()
    };
    if !g.ir.results(op).is_empty() {
        g.set(op, 0, old);
    }
    Ok(())
}

/// A relaxed float read-modify-write by compare-and-swap on the bits; returns the old value.
fn float_atomic<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    p: inkwell::values::PointerValue<'ctx>,
    v: inkwell::values::FloatValue<'ctx>,
    add: bool,
    min: bool,
) -> R<inkwell::values::FloatValue<'ctx>> {
    let ft = v.get_type();
    let width = if ft == g.llcx.f32_type() { 32 } else { 64 };
    let it = g.int_ty(width)?;
    let first = g.ck(g.b.build_load(it, p, "old"))?;
    if let Some(i) = inkwell::values::BasicValue::as_instruction_value(&first) {
        i.set_atomic_ordering(AtomicOrdering::Monotonic)
            .map_err(|e| g.err(e.to_string()))?;
        i.set_alignment(width / 8)
            .map_err(|e| g.err(e.to_string()))?;
    }
    let pre = g.b.get_insert_block().unwrap();
    let lp = g.llcx.append_basic_block(g.func, "cas");
    let done = g.llcx.append_basic_block(g.func, "cas.done");
    g.ck(g.b.build_unconditional_branch(lp))?;
    g.b.position_at_end(lp);
    let cur = g.ck(g.b.build_phi(it, "cur"))?;
    cur.add_incoming(&[(&first, pre)]);
    let cur_bits = cur.as_basic_value().into_int_value();
    let curf = g
        .ck(g.b.build_bit_cast(cur_bits, ft, "curf"))?
        .into_float_value();
    let newf = if add {
        g.ck(g.b.build_float_add(curf, v, "sum"))?
    } else {
        // minNum / maxNum: the new value wins when the old one is NaN or it is smaller (larger).
        let nan = g.ck(g
            .b
            .build_float_compare(FloatPredicate::UNO, curf, curf, "nan"))?;
        let pred = if min {
            FloatPredicate::OLT
        } else {
            FloatPredicate::OGT
        };
        let better = g.ck(g.b.build_float_compare(pred, v, curf, "better"))?;
        let take = g.ck(g.b.build_or(nan, better, "take"))?;
        g.ck(g.b.build_select(take, v, curf, "m"))?
            .into_float_value()
    };
    let new_bits = g
        .ck(g.b.build_bit_cast(newf, it, "newbits"))?
        .into_int_value();
    let pair = g.ck(g.b.build_cmpxchg(
        p,
        cur_bits,
        new_bits,
        AtomicOrdering::Monotonic,
        AtomicOrdering::Monotonic,
    ))?;
    let seen = g.ck(g.b.build_extract_value(pair, 0, "seen"))?;
    let ok = g
        .ck(g.b.build_extract_value(pair, 1, "ok"))?
        .into_int_value();
    cur.add_incoming(&[(&seen, lp)]);
    g.ck(g.b.build_conditional_branch(ok, done, lp))?;
    g.b.position_at_end(done);
    Ok(g.ck(g.b.build_bit_cast(cur_bits, ft, "old"))?
        .into_float_value())
}

pub(super) fn alloca(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let t = g.ty(g.pointee(g.ir.value_type(g.ir.result(op, 0)))?)?;
    let p = g.ck(g.entry.build_alloca(t, "local"))?;
    // Zeroed every time the op runs (Taichi's locals).
    let size = t
        .size_of()
        .ok_or_else(|| g.err("private memory of unsized type"))?;
    let zero = g.llcx.i8_type().const_zero();
    g.ck(g.b.build_memset(p, 1, zero, size))?;
    g.set(op, 0, p.into());
    Ok(())
}

pub(super) fn elem_ptr(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let base_v = g.ir.operand(op, 0);
    let t = g.ty(g.pointee(g.ir.value_type(base_v))?)?;
    let (p, k) = (g.ptr(base_v)?, g.int(g.ir.operand(op, 1))?);
    let zero = g.i64().const_zero();
    // Not inbounds: the index is checked by a bounds_check the producer emits first.
    // SAFETY: a plain GEP is address arithmetic.
    let q = g.ck(unsafe { g.b.build_gep(t, p, &[zero, k], "elem") })?;
    g.set(op, 0, q.into());
    Ok(())
}

pub(super) fn member_ptr(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let base_v = g.ir.operand(op, 0);
    let t = g.ty(g.pointee(g.ir.value_type(base_v))?)?;
    let index = int_prop(g, op, "index")? as u32;
    let p = g.ptr(base_v)?;
    let inkwell::types::BasicTypeEnum::StructType(st) = t else {
        return Err(g.err("lowered.member_ptr needs a pointer to a !qd.struct"));
    };
    if index >= st.count_fields() {
        return Err(g.err("lowered.member_ptr index is out of range"));
    }
    let q = g.ck(g.b.build_struct_gep(st, p, index, "member"))?;
    g.set(op, 0, q.into());
    Ok(())
}
