//! Adstack heaps and metadata: `lowered.adstack_stride`, `adstack_offset`, `adstack_max_size`
//! and `adstack_row` read the launch context (published by the device before each task from the
//! runtime's `HeapLayout`; the row is the worker's), `heap_ptr` is the heap's base plus a byte
//! offset, and `adstack_overflow` records the first overflow of the worker (thread and stack id)
//! in its own context, which no other thread writes; the device keeps the overflow of the lowest
//! thread, as the interpreter, running threads in order, reports the first.
//!
//! A stack's count header (`heap_ptr` at the stack's base, `row * stride + offset`) is private
//! to the running thread and read by nothing but the thread's own adstack code: it lives in a
//! function-local i64 (one per stack) instead of the heap, so that LLVM keeps the count in a
//! register and push, pop and top reads carry no memory dependence through it (as Quadrants'
//! release codegen does). The heap's header word stays as the device zeroed it, which is what a
//! stack of capacity 0 reads in place of entry 0.

use super::{Gen, R};
use crate::frame::{
    NONE, W_HEAP_FLOAT, W_HEAP_INT, W_OVF_STACK, W_OVF_THREAD, W_ROW, W_STRIDE_FLOAT, W_STRIDE_INT,
};
use inkwell::values::PointerValue;
use inkwell::IntPredicate;
use qd_arith::names::{ADDI, MULI};
use qd_ir::{AttrData, OpId, Value};
use qd_lowered as lw;

fn heap_is_float(g: &Gen<'_, '_>, op: OpId) -> R<bool> {
    match g.ir.prop(op, "heap").map(|a| g.ir.attr_data(a)) {
        Some(AttrData::String(s)) if s == "float" => Ok(true),
        Some(AttrData::String(s)) if s == "int" => Ok(false),
        _ => Err(g.err(format!(
            "'{}' needs a heap property 'float' or 'int'",
            g.ir.name(op)
        ))),
    }
}

fn stack_word(g: &Gen<'_, '_>, op: OpId) -> R<(u32, u32)> {
    let id = match g.ir.prop(op, "id").map(|a| g.ir.attr_data(a)) {
        Some(AttrData::Integer { value, .. }) => u32::try_from(*value).ok(),
        _ => None,
    }
    .ok_or_else(|| g.err(format!("'{}' needs a stack id", g.ir.name(op))))?;
    let w = g
        .frame
        .stacks
        .get(&id)
        .copied()
        .ok_or_else(|| g.err(format!("adstack id {id} is not a stack of the kernel")))?;
    Ok((id, w))
}

pub(super) fn meta(g: &mut Gen<'_, '_>, op: OpId, name: &str) -> R<()> {
    let w = match name {
        lw::ADSTACK_STRIDE_OP => {
            if heap_is_float(g, op)? {
                W_STRIDE_FLOAT
            } else {
                W_STRIDE_INT
            }
        }
        lw::ADSTACK_OFFSET_OP => stack_word(g, op)?.1,
        lw::ADSTACK_MAX_SIZE_OP => stack_word(g, op)?.1 + 1,
        _ => W_ROW,
    };
    let v = g.word_int(w)?;
    g.set(op, 0, v.into());
    Ok(())
}

pub(super) fn heap_ptr(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let w = if heap_is_float(g, op)? {
        W_HEAP_FLOAT
    } else {
        W_HEAP_INT
    };
    if g.ir.num_operands(op) != 1 {
        return Err(g.err("lowered.heap_ptr needs one byte offset"));
    }
    if let Some(id) = count_header(g, op)? {
        let p = count_slot(g, id)?;
        g.set(op, 0, p.into());
        return Ok(());
    }
    let base = g.word_ptr(w)?;
    let off = g.int(g.ir.operand(op, 0))?;
    let i8t = g.llcx.i8_type();
    // SAFETY: a plain GEP is address arithmetic; the offset lies in the worker's row.
    let p = g.ck(unsafe { g.b.build_gep(i8t, base, &[off], "heap") })?;
    g.set(op, 0, p.into());
    Ok(())
}

/// The op defining `v` when it is named `name`.
fn def_named(g: &Gen<'_, '_>, v: Value, name: &str) -> Option<OpId> {
    g.ir.defining_op(v).filter(|&d| g.ir.name(d) == name)
}

/// The stack whose count header `heap_ptr` addresses: an i64 pointer at byte
/// `row * stride + adstack_offset k` of its heap (operands in either order), stack k.
pub(super) fn count_header(g: &Gen<'_, '_>, op: OpId) -> R<Option<u32>> {
    let ty = g.pointee(g.ir.value_type(g.ir.result(op, 0)))?;
    if !matches!(g.ty(ty)?, inkwell::types::BasicTypeEnum::IntType(t) if t.get_bit_width() == 64) {
        return Ok(None);
    }
    let Some(add) = def_named(g, g.ir.operand(op, 0), ADDI) else {
        return Ok(None);
    };
    let (a, b) = (g.ir.operand(add, 0), g.ir.operand(add, 1));
    for (row_start, off) in [(a, b), (b, a)] {
        let (Some(mul), Some(off)) = (
            def_named(g, row_start, MULI),
            def_named(g, off, lw::ADSTACK_OFFSET_OP),
        ) else {
            continue;
        };
        let names: Vec<&str> =
            g.ir.operands(mul)
                .filter_map(|v| g.ir.defining_op(v))
                .map(|d| g.ir.name(d))
                .collect();
        let row_times_stride = names.len() == 2
            && names.contains(&lw::ADSTACK_ROW_OP)
            && names.contains(&lw::ADSTACK_STRIDE_OP);
        if row_times_stride {
            return Ok(Some(stack_word(g, off)?.0));
        }
    }
    Ok(None)
}

/// The function-local count of stack `id`: an i64 in the entry block, 0 at the function's start
/// (as the device's zeroed rows are; every stack's alloca resets it before use).
fn count_slot<'ctx>(g: &mut Gen<'_, 'ctx>, id: u32) -> R<PointerValue<'ctx>> {
    if let Some(&p) = g.counts.get(&id) {
        return Ok(p);
    }
    let i64t = g.i64();
    let p = g.ck(g.entry.build_alloca(i64t, &format!("count{id}")))?;
    g.ck(g.entry.build_store(p, i64t.const_zero()))?;
    g.counts.insert(id, p);
    Ok(p)
}

pub(super) fn overflow(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let (id, _) = stack_word(g, op)?;
    if g.simt.is_some() {
        return crate::simd::overflow(g, id);
    }
    let i64t = g.i64();
    let p = g.word_addr(W_OVF_THREAD)?;
    let cur = g.ck(g.b.build_load(i64t, p, "ovf"))?.into_int_value();
    let none = i64t.const_int(NONE, false);
    let empty = g.ck(g.b.build_int_compare(IntPredicate::EQ, cur, none, "first"))?;
    let rec = g.llcx.append_basic_block(g.func, "overflow");
    let cont = g.llcx.append_basic_block(g.func, "overflow.done");
    g.ck(g.b.build_conditional_branch(empty, rec, cont))?;
    g.b.position_at_end(rec);
    g.ck(g.b.build_store(p, g.thread))?;
    let q = g.word_addr(W_OVF_STACK)?;
    g.ck(g.b.build_store(q, i64t.const_int(u64::from(id), false)))?;
    g.ck(g.b.build_unconditional_branch(cont))?;
    g.b.position_at_end(cont);
    Ok(())
}
