//! Kernel data and memory: arguments, fields, ndarrays, temporaries, adstack heaps and their
//! metadata, loads, stores, atomics, private memory, and bounds checks (see the module doc of
//! `export` for the memory model).

use super::layout;
use super::status;
use super::{Emit, Param, Ptr, Val, R};
use crate::ir::{self, Blk, V};
use melior::ir::attribute::IntegerAttribute;
use melior::ir::r#type::IntegerType;
use melior::ir::r#type::TypeLike;
use melior::ir::Type;
use qd_ir::{AttrData, OpId};
use qd_lowered as lw;

fn int_prop(e: &Emit<'_, '_>, op: OpId, name: &str) -> R<u64> {
    match e.ir.prop(op, name).map(|a| e.ir.attr_data(a)) {
        Some(AttrData::Integer { value, .. }) if *value >= 0 => Ok(*value as u64),
        _ => Err(e.err(format!(
            "'{}' needs a non-negative integer property '{name}'",
            e.ir.name(op)
        ))),
    }
}

/// The heap a `lowered.adstack_stride` or `lowered.heap_ptr` names (true: float).
fn heap_is_float(e: &Emit<'_, '_>, op: OpId) -> R<bool> {
    match e.ir.prop(op, "heap").map(|a| e.ir.attr_data(a)) {
        Some(AttrData::String(s)) if s == "float" => Ok(true),
        Some(AttrData::String(s)) if s == "int" => Ok(false),
        _ => Err(e.err(format!("'{}' needs a heap (float or int)", e.ir.name(op)))),
    }
}

/// The position of stack `id` in the task's `adstacks`.
fn stack_slot(e: &Emit<'_, '_>, op: OpId) -> R<usize> {
    let id = int_prop(e, op, "id")?;
    e.stacks
        .iter()
        .position(|&s| u64::from(s) == id)
        .ok_or_else(|| e.err(format!("adstack {id} is not in its task's adstacks")))
}

/// A typed pointer at element 0 of `mem`.
fn at_start(e: &mut Emit<'_, '_>, mem: V, pointee: qd_ir::Type) -> R<Ptr> {
    Ok(Ptr {
        mem,
        idx: e.c_index(0)?,
        bytes: false,
        pointee,
    })
}

/// `memref.view` of byte buffer `buf` at byte `off` (index) as `memref<?xT>` of `n` elements.
fn view<'c>(e: &mut Emit<'_, 'c>, block: Blk, buf: V, off: V, n: V, elem: Type<'c>) -> R<V> {
    e.op1(
        block,
        "memref.view",
        &[buf, off, n],
        ir::memref(elem, None),
        &[],
    )
}

/// The typed memref and element index a scalar pointer designates (a view for a byte pointer).
pub(crate) fn element(e: &mut Emit<'_, '_>, block: Blk, p: Ptr) -> R<(V, V)> {
    if !p.bytes {
        return Ok((p.mem, p.idx));
    }
    let elem = e.ty(p.pointee)?;
    let one = e.c_index(1)?;
    let v = view(e, block, p.mem, p.idx, one, elem)?;
    Ok((v, e.c_index(0)?))
}

fn size_of(e: &Emit<'_, '_>, t: qd_ir::Type) -> R<u64> {
    layout::size_align(e.ir, t)
        .map(|s| s.0)
        .ok_or_else(|| e.err("private memory of a type without a layout"))
}

/// `idx + i * scale` (index), `i` an integer of any width.
fn advance(e: &mut Emit<'_, '_>, block: Blk, idx: V, i: V, scale: u64) -> R<V> {
    let i = e.cast_to_index(block, i)?;
    let step = if scale == 1 {
        i
    } else {
        let s = e.c_index(scale as i64)?;
        e.op1(block, "arith.muli", &[i, s], e.index(), &[])?
    };
    e.op1(block, "arith.addi", &[idx, step], e.index(), &[])
}

pub(super) fn emit(e: &mut Emit<'_, '_>, op: OpId, name: &str, block: Blk) -> R<()> {
    let ir = e.ir;
    match name {
        lw::ARG_OP => {
            let index = int_prop(e, op, "index")? as usize;
            let v = e.param(&Param::Scalar { arg: index })?;
            e.set(op, 0, Val::S(v));
        }
        lw::NDARRAY_PTR_OP => {
            let index = int_prop(e, op, "index")? as usize;
            let mem = e.param(&Param::NdData { arg: index })?;
            let pointee = e.pointee(ir.value_type(ir.result(op, 0)))?;
            let p = at_start(e, mem, pointee)?;
            e.set(op, 0, Val::P(p));
        }
        lw::NDARRAY_DIM_OP => {
            let index = int_prop(e, op, "index")? as usize;
            let axis = int_prop(e, op, "axis")? as usize;
            let v = e.param(&Param::NdDim { arg: index, axis })?;
            e.set(op, 0, Val::S(v));
        }
        lw::FIELD_PTR_OP => {
            let (index, grad) = e.field_of(op)?;
            let mem = e.param(&Param::Field { index, grad })?;
            let pointee = e.pointee(ir.value_type(ir.result(op, 0)))?;
            let p = at_start(e, mem, pointee)?;
            e.set(op, 0, Val::P(p));
        }
        lw::TEMP_PTR_OP => {
            let slot = int_prop(e, op, "slot")?;
            let pointee = e.pointee(ir.value_type(ir.result(op, 0)))?;
            let elem = e.ty(pointee)?;
            let temps = e.param(&Param::Temps)?;
            let off = e.c_index((slot * 8) as i64)?;
            let one = e.c_index(1)?;
            let mem = view(e, block, temps, off, one, elem)?;
            let p = at_start(e, mem, pointee)?;
            e.set(op, 0, Val::P(p));
        }
        lw::OFFSET_OP => {
            let p = e.ptr(ir.operand(op, 0))?;
            let i = e.scalar(ir.operand(op, 1))?;
            let scale = if p.bytes { size_of(e, p.pointee)? } else { 1 };
            let idx = advance(e, block, p.idx, i, scale)?;
            e.set(op, 0, Val::P(Ptr { idx, ..p }));
        }
        lw::LOAD_OP => {
            let p = e.ptr(ir.operand(op, 0))?;
            let (mem, idx) = element(e, block, p)?;
            let t = e.ty(p.pointee)?;
            let v = e.op1(block, "memref.load", &[mem, idx], t, &[])?;
            e.set(op, 0, Val::S(v));
        }
        lw::STORE_OP => {
            let v = e.scalar(ir.operand(op, 0))?;
            let p = e.ptr(ir.operand(op, 1))?;
            let (mem, idx) = element(e, block, p)?;
            e.append(block, "memref.store", &[v, mem, idx], &[], &[])?;
        }
        lw::ATOMIC_ADD_OP | lw::ATOMIC_MIN_OP | lw::ATOMIC_MAX_OP => atomic(e, op, name, block)?,
        lw::ALLOCA_OP => alloca(e, op, block)?,
        lw::ELEM_PTR_OP => {
            let p = e.ptr(ir.operand(op, 0))?;
            let k = e.scalar(ir.operand(op, 1))?;
            let pointee = e.pointee(ir.value_type(ir.result(op, 0)))?;
            let stride = size_of(e, pointee)?;
            let idx = advance(e, block, p.idx, k, stride)?;
            e.set(op, 0, Val::P(Ptr { idx, pointee, ..p }));
        }
        lw::MEMBER_PTR_OP => {
            let p = e.ptr(ir.operand(op, 0))?;
            let index = int_prop(e, op, "index")? as usize;
            let off = layout::member_offset(ir, p.pointee, index)
                .ok_or_else(|| e.err("lowered.member_ptr needs a pointer to a !qd.struct"))?;
            let pointee = e.pointee(ir.value_type(ir.result(op, 0)))?;
            let c = e.c_index(off as i64)?;
            let idx = e.op1(block, "arith.addi", &[p.idx, c], e.index(), &[])?;
            e.set(op, 0, Val::P(Ptr { idx, pointee, ..p }));
        }
        lw::ADSTACK_STRIDE_OP => {
            let w = if heap_is_float(e, op)? { 0 } else { 1 };
            let v = meta(e, block, w)?;
            e.set(op, 0, Val::S(v));
        }
        lw::ADSTACK_OFFSET_OP => {
            let w = 2 + 2 * stack_slot(e, op)?;
            let v = meta(e, block, w)?;
            e.set(op, 0, Val::S(v));
        }
        lw::ADSTACK_MAX_SIZE_OP => {
            let w = 3 + 2 * stack_slot(e, op)?;
            let v = meta(e, block, w)?;
            e.set(op, 0, Val::S(v));
        }
        lw::ADSTACK_ROW_OP => {
            let v = e.param(&Param::Row)?;
            e.set(op, 0, Val::S(v));
        }
        lw::HEAP_PTR_OP => {
            let heap = if heap_is_float(e, op)? {
                Param::HeapFloat
            } else {
                Param::HeapInt
            };
            let buf = e.param(&heap)?;
            let pointee = e.pointee(ir.value_type(ir.result(op, 0)))?;
            let elem = e.ty(pointee)?;
            let off = e.scalar(ir.operand(op, 0))?;
            let off = e.cast_to_index(block, off)?;
            // The slice runs to the heap's end: (bytes - off) / size entries.
            let c0 = e.c_index(0)?;
            let bytes = e.op1(block, "memref.dim", &[buf, c0], e.index(), &[])?;
            let left = e.op1(block, "arith.subi", &[bytes, off], e.index(), &[])?;
            let size = e.c_index(size_of(e, pointee)? as i64)?;
            let n = e.op1(block, "arith.divui", &[left, size], e.index(), &[])?;
            let mem = view(e, block, buf, off, n, elem)?;
            let p = at_start(e, mem, pointee)?;
            e.set(op, 0, Val::P(p));
        }
        lw::ADSTACK_OVERFLOW_OP => overflow(e, op, block)?,
        _ => return Err(e.err(format!("the MLIR export does not support '{name}'"))),
    }
    Ok(())
}

/// Word `w` of `%meta`.
fn meta(e: &mut Emit<'_, '_>, block: Blk, w: usize) -> R<V> {
    let m = e.param(&Param::Meta)?;
    let i = e.c_index(w as i64)?;
    e.op1(block, "memref.load", &[m, i], e.i64(), &[])
}

/// `lowered.adstack_overflow id`: the first overflow (thread, stack) goes into `%status`.
fn overflow(e: &mut Emit<'_, '_>, op: OpId, block: Blk) -> R<()> {
    let id = int_prop(e, op, "id")?;
    let st = e.param(&Param::Status)?;
    let w = e.c_index(status::OVF_THREAD as i64)?;
    let none = e.c_i64(status::NONE)?;
    let cur = e.op1(block, "memref.load", &[st, w], e.i64(), &[])?;
    let first = e.cmpi(block, 0, cur, none)?;
    let (_, then) = e.guard(block, first, false)?;
    let t = e.thread_i64;
    e.append(then, "memref.store", &[t, st, w], &[], &[])?;
    let ws = e.c_index(status::OVF_STACK as i64)?;
    let idv = e.c_i64(id as i64)?;
    e.append(then, "memref.store", &[idv, st, ws], &[], &[])?;
    e.yield_(then, &[])
}

/// The `arith.atomic_rmw` kinds (MLIR's `AtomicRMWKind` numbers).
mod kind {
    pub const ADDF: i64 = 0;
    pub const ADDI: i64 = 1;
    pub const MAXNUMF: i64 = 5;
    pub const MAXS: i64 = 6;
    pub const MAXU: i64 = 7;
    pub const MINNUMF: i64 = 9;
    pub const MINS: i64 = 10;
    pub const MINU: i64 = 11;
}

/// `lowered.atomic_*`: `memref.atomic_rmw`, integers by the pointee's signedness, floats
/// IEEE minNum/maxNum (a NaN loses to a number).
fn atomic(e: &mut Emit<'_, '_>, op: OpId, name: &str, block: Blk) -> R<()> {
    let ir = e.ir;
    let v = e.scalar(ir.operand(op, 0))?;
    let p = e.ptr(ir.operand(op, 1))?;
    let (mem, idx) = element(e, block, p)?;
    let (float, unsigned) = match ir.type_data(p.pointee) {
        qd_ir::TypeData::Float(_) => (true, false),
        qd_ir::TypeData::Integer { signedness, .. } => {
            (false, *signedness == qd_ir::Signedness::Unsigned)
        }
        _ => return Err(e.err("an atomic on a non-scalar pointee")),
    };
    let k = match (name, float, unsigned) {
        (lw::ATOMIC_ADD_OP, true, _) => kind::ADDF,
        (lw::ATOMIC_ADD_OP, false, _) => kind::ADDI,
        (lw::ATOMIC_MIN_OP, true, _) => kind::MINNUMF,
        (lw::ATOMIC_MAX_OP, true, _) => kind::MAXNUMF,
        (lw::ATOMIC_MIN_OP, false, false) => kind::MINS,
        (lw::ATOMIC_MIN_OP, false, true) => kind::MINU,
        (_, false, false) => kind::MAXS,
        _ => kind::MAXU,
    };
    let t = e.ty(p.pointee)?;
    let ka = IntegerAttribute::new(e.i64(), k).into();
    let old = e.op1(
        block,
        "memref.atomic_rmw",
        &[v, mem, idx],
        t,
        &[("kind", ka)],
    )?;
    if !ir.results(op).is_empty() {
        e.set(op, 0, Val::S(old));
    }
    Ok(())
}

/// `lowered.alloca`: a `memref.alloca` in the entry block, zeroed here.
fn alloca(e: &mut Emit<'_, '_>, op: OpId, block: Blk) -> R<()> {
    let ir = e.ir;
    let pointee = e.pointee(ir.value_type(ir.result(op, 0)))?;
    if layout::is_scalar(ir, pointee) {
        let t = e.ty(pointee)?;
        let ty = ir::memref(t, Some(1));
        let a =
            e.b.insert_before(
                e.entry,
                e.anchor,
                "memref.alloca",
                &[],
                &[ty],
                &[("operandSegmentSizes", dense_segments(e, &[0, 0]))],
            )
            .map_err(|m| e.err(m))?;
        let a = ir::result(a, 0);
        let dyn_ty = ir::memref(t, None);
        let mem =
            e.b.insert_before(e.entry, e.anchor, "memref.cast", &[a], &[dyn_ty], &[])
                .map_err(|m| e.err(m))?;
        let mem = ir::result(mem, 0);
        let zero = zero_of(e, t, block)?;
        let c0 = e.c_index(0)?;
        e.append(block, "memref.store", &[zero, mem, c0], &[], &[])?;
        let p = at_start(e, mem, pointee)?;
        e.set(op, 0, Val::P(p));
        return Ok(());
    }
    let (size, _) = layout::size_align(ir, pointee)
        .ok_or_else(|| e.err("lowered.alloca of a type without a layout"))?;
    // Whole 8-byte words, zeroed a word at a time.
    let words = size.div_ceil(8).max(1);
    let i8t: Type = IntegerType::new(e.b.cx, 8).into();
    let ty = ir::memref(i8t, Some((words * 8) as i64));
    let align = IntegerAttribute::new(e.i64(), 16).into();
    let a =
        e.b.insert_before(
            e.entry,
            e.anchor,
            "memref.alloca",
            &[],
            &[ty],
            &[
                ("operandSegmentSizes", dense_segments(e, &[0, 0])),
                ("alignment", align),
            ],
        )
        .map_err(|m| e.err(m))?;
    let a = ir::result(a, 0);
    let mem =
        e.b.insert_before(e.entry, e.anchor, "memref.cast", &[a], &[e.bytes_ty()], &[])
            .map_err(|m| e.err(m))?;
    let mem = ir::result(mem, 0);
    let c0 = e.c_index(0)?;
    let nw = e.c_index(words as i64)?;
    let i64t = e.i64();
    let w = view(e, block, mem, c0, nw, i64t)?;
    let c1 = e.c_index(1)?;
    let (body_r, body) = e.b.region(&[e.index()]);
    let z = e.c_i64(0)?;
    let iv = ir::block_arg(body, 0);
    e.append(body, "memref.store", &[z, w, iv], &[], &[])?;
    e.yield_(body, &[])?;
    e.b.append(block, "scf.for", &[c0, nw, c1], &[], &[], vec![body_r])
        .map_err(|m| e.err(m))?;
    e.set(
        op,
        0,
        Val::P(Ptr {
            mem,
            idx: c0,
            bytes: true,
            pointee,
        }),
    );
    Ok(())
}

/// `array<i32: ...>` for `operandSegmentSizes`.
fn dense_segments<'c>(e: &Emit<'_, 'c>, sizes: &[i32]) -> melior::ir::Attribute<'c> {
    melior::ir::attribute::DenseI32ArrayAttribute::new(e.b.cx, sizes).into()
}

/// The zero of scalar type `t`.
pub(crate) fn zero_of<'c>(e: &mut Emit<'_, 'c>, t: Type<'c>, block: Blk) -> R<V> {
    if t.is_float() {
        let a = melior::ir::attribute::FloatAttribute::new(e.b.cx, t, 0.0).into();
        return e.op1(block, "arith.constant", &[], t, &[("value", a)]);
    }
    e.const_int(t, 0)
}

/// `lowered.bounds_check [i..] in [n..]`: fails unless `0 <= i < n` on every axis (signed,
/// as i64).
pub(super) fn bounds_check(e: &mut Emit<'_, '_>, op: OpId, block: Blk) -> R<()> {
    let ir = e.ir;
    let n = ir.num_operands(op);
    if n == 0 || !n.is_multiple_of(2) {
        return Err(e.err("lowered.bounds_check needs indices and as many extents"));
    }
    let mut values = Vec::new();
    for i in 0..n {
        let v = e.scalar(ir.operand(op, i))?;
        values.push(to_i64(e, block, v)?);
    }
    let zero = e.c_i64(0)?;
    let mut bad: Option<V> = None;
    for k in 0..n / 2 {
        let (i, ext) = (values[k], values[n / 2 + k]);
        // slt = 2, sge = 5.
        let neg = e.cmpi(block, 2, i, zero)?;
        let far = e.cmpi(block, 5, i, ext)?;
        let out = e.op1(block, "arith.ori", &[neg, far], e.i1(), &[])?;
        bad = Some(match bad {
            None => out,
            Some(b) => e.op1(block, "arith.ori", &[b, out], e.i1(), &[])?,
        });
    }
    let bad = bad.ok_or_else(|| e.err("lowered.bounds_check without indices"))?;
    e.fail_if(block, op, bad, &values)
}

/// An integer as i64: sign-extended (the interpreter's reading), `index` cast.
pub(crate) fn to_i64(e: &mut Emit<'_, '_>, block: Blk, v: V) -> R<V> {
    let t = ir::type_of(v);
    if t == e.i64() {
        return Ok(v);
    }
    if t == e.index() {
        return e.op1(block, "arith.index_cast", &[v], e.i64(), &[]);
    }
    e.op1(block, "arith.extsi", &[v], e.i64(), &[])
}
