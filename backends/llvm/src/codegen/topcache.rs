//! A write-through cache, in registers, of adstack heap slots just written or read.
//!
//! A loop of pushes and top reads (the forward sweep of a gradient: `v = f(top); push v`) or of
//! adjoint accumulations (the reverse sweep: `a = top_adj; pop; acc_adjoint g(a)`) reads back at
//! every step the slot the step before wrote. Through memory, each step waits for the store to
//! be forwarded to the load; LLVM cannot keep the value in a register itself, since the slot's
//! address goes through a count that a push only bumps when the stack is not full.
//!
//! So each heap access is given a key: its byte offset's base (`base` in `base + index * size`,
//! else the offset itself), with its heap and element type. Per key the task function keeps the
//! byte offset and the value of the last access through that key (two allocas, which LLVM keeps
//! in registers). A load whose offset equals its key's cached offset takes the cached value
//! (a branch: a predictable one, off the value's dependency chain); else it reads memory and
//! caches what it read. A store writes memory (stores are never elided) and its key's entry; it
//! also invalidates, at run time, every other entry of its heap whose bytes it overlaps.
//!
//! This is sound for any lowered IR: the only writes to a heap are `lowered.store`s through
//! `lowered.heap_ptr` pointers (fields, ndarrays, temporaries and private memory are other
//! allocations, and the device writes heaps only between tasks), and a heap whose pointers have
//! any other use (an atomic, an offset, stored as a value) is not cached. So an entry's value is
//! what memory holds at its offset, from the access that set it until a store overlaps it. Count
//! headers are not heap accesses here (see `adstack`: they live in their own locals).

use super::{adstack, Gen, R};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use inkwell::IntPredicate;
use qd_arith::names::{ADDI, MULI};
use qd_ir::{AttrData, OpId, Type, Value};
use qd_lowered as lw;

/// An offset no access has (so an entry holding it misses).
const INVALID: i64 = i64::MIN;
/// Heaps with more keys than this are not cached: every store checks every entry of its heap.
const MAX_KEYS: usize = 8;

struct Entry<'ctx> {
    float_heap: bool,
    key: Value,
    ty: Type,
    bytes: i64,
    off: PointerValue<'ctx>,
    val: PointerValue<'ctx>,
}

/// The cache of one task function.
#[derive(Default)]
pub(crate) struct HeapCache<'ctx> {
    entries: Vec<Entry<'ctx>>,
}

fn is_float_heap(g: &Gen<'_, '_>, op: OpId) -> bool {
    matches!(g.ir.prop(op, "heap").map(|a| g.ir.attr_data(a)), Some(AttrData::String(s)) if s == "float")
}

/// The key of a heap access at byte offset `off`: `base` when `off = base + index * size` (the
/// operands of the add in either order), else `off`.
fn key_of(g: &Gen<'_, '_>, off: Value) -> Value {
    let ir = g.ir;
    let Some(add) = ir.defining_op(off).filter(|&d| ir.name(d) == ADDI) else {
        return off;
    };
    let is_mul = |v: Value| ir.defining_op(v).is_some_and(|d| ir.name(d) == MULI);
    match (is_mul(ir.operand(add, 0)), is_mul(ir.operand(add, 1))) {
        (false, true) => ir.operand(add, 0),
        (true, false) => ir.operand(add, 1),
        _ => off,
    }
}

/// The `lowered.heap_ptr` that `ptr` comes from, when it is a cached heap access (not a count
/// header): the op, its heap and its key.
fn access(g: &Gen<'_, '_>, ptr: Value) -> Option<(bool, Value, Type)> {
    let hp =
        g.ir.defining_op(ptr)
            .filter(|&d| g.ir.name(d) == lw::HEAP_PTR_OP)?;
    if matches!(adstack::count_header(g, hp), Ok(Some(_))) {
        return None;
    }
    let ty = g.pointee(g.ir.value_type(ptr)).ok()?;
    Some((is_float_heap(g, hp), key_of(g, g.ir.operand(hp, 0)), ty))
}

impl<'ctx> HeapCache<'ctx> {
    fn find(&self, float_heap: bool, key: Value, ty: Type) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.float_heap == float_heap && e.key == key && e.ty == ty)
    }
}

/// Plans the cache of task `task`: one entry per key of its heap accesses, its locals made in the
/// entry block (offset INVALID), or none for a heap that cannot be cached.
pub(super) fn plan(g: &mut Gen<'_, '_>, task: OpId) -> R<()> {
    let mut keys: Vec<(bool, Value, Type)> = Vec::new();
    let mut uncached = [false, false];
    for op in g.ir.walk_pre_order(task) {
        if g.ir.name(op) != lw::HEAP_PTR_OP || adstack::count_header(g, op)?.is_some() {
            continue;
        }
        let float_heap = is_float_heap(g, op);
        let result = g.ir.result(op, 0);
        let plain = g.ir.uses(result).iter().all(|u| {
            let name = g.ir.name(u.op);
            (name == lw::LOAD_OP && u.index == 0) || (name == lw::STORE_OP && u.index == 1)
        });
        if !plain {
            uncached[usize::from(float_heap)] = true;
            continue;
        }
        if let Some(k) = access(g, result) {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    for heap in [false, true] {
        if keys.iter().filter(|k| k.0 == heap).count() > MAX_KEYS {
            uncached[usize::from(heap)] = true;
        }
    }
    keys.retain(|k| !uncached[usize::from(k.0)]);
    let i64t = g.i64();
    for (float_heap, key, ty) in keys {
        let llty = g.ty(ty)?;
        let bytes = i64::from(
            g.ir.type_data(ty)
                .bit_width()
                .ok_or_else(|| g.err("a heap access of an unsized type"))?
                .div_ceil(8),
        );
        let off = g.ck(g.entry.build_alloca(i64t, "cache.off"))?;
        g.ck(g
            .entry
            .build_store(off, i64t.const_int(INVALID as u64, true)))?;
        let val = g.ck(g.entry.build_alloca(llty, "cache.val"))?;
        g.ck(g.entry.build_store(val, zero_of(llty)))?;
        g.cache.entries.push(Entry {
            float_heap,
            key,
            ty,
            bytes,
            off,
            val,
        });
    }
    Ok(())
}

fn zero_of(t: BasicTypeEnum<'_>) -> BasicValueEnum<'_> {
    match t {
        BasicTypeEnum::FloatType(f) => f.const_zero().into(),
        BasicTypeEnum::IntType(i) => i.const_zero().into(),
        BasicTypeEnum::PointerType(p) => p.const_null().into(),
        other => other.const_zero(),
    }
}

/// The entry of the access through `ptr` (a lowered pointer), and its byte offset.
fn entry_of<'ctx>(g: &Gen<'_, 'ctx>, ptr: Value) -> R<Option<(usize, IntValue<'ctx>)>> {
    let Some((float_heap, key, ty)) = access(g, ptr) else {
        return Ok(None);
    };
    let Some(i) = g.cache.find(float_heap, key, ty) else {
        return Ok(None);
    };
    let hp =
        g.ir.defining_op(ptr)
            .expect("a heap access has its heap_ptr");
    Ok(Some((i, g.int(g.ir.operand(hp, 0))?)))
}

/// A load through `ptr` (lowered) at `p` (LLVM), from the cache when it holds that offset; None
/// when the access is not cached.
pub(super) fn load<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    ptr: Value,
    p: PointerValue<'ctx>,
) -> R<Option<BasicValueEnum<'ctx>>> {
    let Some((i, at)) = entry_of(g, ptr)? else {
        return Ok(None);
    };
    let (off, val) = (g.cache.entries[i].off, g.cache.entries[i].val);
    let llty = g.ty(g.cache.entries[i].ty)?;
    let i64t = g.i64();
    let cached = g
        .ck(g.b.build_load(i64t, off, "cached.off"))?
        .into_int_value();
    let hit = g.ck(g.b.build_int_compare(IntPredicate::EQ, cached, at, "hit"))?;
    let hit_bb = g.llcx.append_basic_block(g.func, "cache.hit");
    let miss_bb = g.llcx.append_basic_block(g.func, "cache.miss");
    let join = g.llcx.append_basic_block(g.func, "cache.done");
    g.ck(g.b.build_conditional_branch(hit, hit_bb, miss_bb))?;
    g.b.position_at_end(hit_bb);
    let v_hit = g.ck(g.b.build_load(llty, val, "cached"))?;
    g.ck(g.b.build_unconditional_branch(join))?;
    g.b.position_at_end(miss_bb);
    let v_miss = g.ck(g.b.build_load(llty, p, "v"))?;
    // What was read is what memory holds there until a store overlaps it.
    g.ck(g.b.build_store(off, at))?;
    g.ck(g.b.build_store(val, v_miss))?;
    g.ck(g.b.build_unconditional_branch(join))?;
    g.b.position_at_end(join);
    let phi = g.ck(g.b.build_phi(llty, "v"))?;
    phi.add_incoming(&[(&v_hit, hit_bb), (&v_miss, miss_bb)]);
    Ok(Some(phi.as_basic_value()))
}

/// After a store of `v` through `ptr` (lowered; memory is already written): its entry holds it,
/// and every other entry of the heap that the store's bytes overlap is invalidated. Returns
/// whether the access is cached.
pub(super) fn store<'ctx>(g: &mut Gen<'_, 'ctx>, ptr: Value, v: BasicValueEnum<'ctx>) -> R<bool> {
    let Some((i, at)) = entry_of(g, ptr)? else {
        return Ok(false);
    };
    let i64t = g.i64();
    let (float_heap, bytes) = (g.cache.entries[i].float_heap, g.cache.entries[i].bytes);
    let end = g.ck(g
        .b
        .build_int_add(at, i64t.const_int(bytes as u64, true), "end"))?;
    let invalid = i64t.const_int(INVALID as u64, true);
    for j in 0..g.cache.entries.len() {
        let e = &g.cache.entries[j];
        if j == i || e.float_heap != float_heap {
            continue;
        }
        let (off, ebytes) = (e.off, e.bytes);
        let o = g.ck(g.b.build_load(i64t, off, "o"))?.into_int_value();
        let oend = g.ck(g
            .b
            .build_int_add(o, i64t.const_int(ebytes as u64, true), "oend"))?;
        // [at, end) and [o, oend) overlap.
        let a = g.ck(g.b.build_int_compare(IntPredicate::SLT, at, oend, "a"))?;
        let b = g.ck(g.b.build_int_compare(IntPredicate::SLT, o, end, "b"))?;
        let both = g.ck(g.b.build_and(a, b, "overlap"))?;
        let kept = g.ck(g.b.build_select(both, invalid, o, "kept"))?;
        g.ck(g.b.build_store(off, kept))?;
    }
    let e = &g.cache.entries[i];
    let (off, val) = (e.off, e.val);
    g.ck(g.b.build_store(off, at))?;
    g.ck(g.b.build_store(val, v))?;
    Ok(true)
}
