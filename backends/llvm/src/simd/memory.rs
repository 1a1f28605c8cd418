//! Memory in a vectorised task.
//!
//! - Global memory (fields, ndarrays, temporaries): a per-lane address is `<W x i64>`. Where it
//!   is linear with the element's size as stride, an access is one masked vector load or store
//!   (checked at run time when an extension may have wrapped the linear form); else a masked
//!   gather or scatter (a scatter writes lanes in order, so the highest lane wins, as the last
//!   thread does). A per-lane value stored at one uniform address is the highest active lane's.
//! - Per-lane memory (varying slots, adstack heaps) is interleaved: lane l of logical byte `o`,
//!   accessed with size s, lies at `base + o * W + l * s`. Logical offsets follow the scalar
//!   layout of [`size_align`]. A uniform offset is one contiguous vector (slots: load, blend
//!   and store, which LLVM keeps in registers; heaps: a masked store); a per-lane offset is a
//!   gather or scatter, or one vector when at run time every lane has the same offset and all
//!   lanes are active (stacks of equal depth).
//! - Atomics: an add to a uniform address whose old value is unused is one reduction of the
//!   active lanes (in lane order) and one atomic; every other atomic runs lane by lane over the
//!   active lanes in lane order, through the scalar codegen's atomic.

use super::uniform::Slot;
use super::{all, bits, exec, lane_ids, ln, ln_mut, splat, vec_ty, vector, Lin, Off, VVal};
use crate::codegen::{intrinsic, Gen, R};
use crate::frame::{W_HEAP_FLOAT, W_HEAP_INT};
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, BasicValueEnum, IntValue, PointerValue, VectorValue};
use inkwell::IntPredicate;
use qd_frontend::{ArrayType, StructType};
use qd_ir::{AttrData, FloatKind, OpId, Type, TypeData, Value};
use qd_lowered as lw;

/// The bytes and alignment of `ty` in the logical layout of per-lane memory (C layout; `i1` in
/// one byte).
pub(crate) fn size_align(g: &Gen<'_, '_>, ty: Type) -> R<(u64, u64)> {
    let ir = g.ir;
    if let Some(a) = ArrayType::from_type(ir, ty) {
        let (s, al) = size_align(g, a.elem(ir))?;
        return Ok((s * a.len(ir) as u64, al));
    }
    if let Some(st) = StructType::from_type(ir, ty) {
        let (mut off, mut align) = (0u64, 1u64);
        for m in st.members(ir) {
            let (s, al) = size_align(g, m)?;
            off = off.next_multiple_of(al) + s;
            align = align.max(al);
        }
        return Ok((off.next_multiple_of(align), align));
    }
    let s = match ir.type_data(ty) {
        TypeData::Integer { width, .. } => u64::from(width.div_ceil(8)).next_power_of_two(),
        TypeData::Index => 8,
        TypeData::Float(FloatKind::F32) => 4,
        TypeData::Float(FloatKind::F64) => 8,
        _ if lw::types::PtrType::from_type(ir, ty).is_some() => 8,
        _ => return Err(g.err("per-lane memory of a type without a layout")),
    };
    Ok((s, s))
}

/// The logical offset of member `index` of struct `ty`.
fn member_offset(g: &Gen<'_, '_>, ty: Type, index: usize) -> R<u64> {
    let ir = g.ir;
    let st = StructType::from_type(ir, ty)
        .ok_or_else(|| g.err("lowered.member_ptr needs a pointer to a !qd.struct"))?;
    let mut off = 0u64;
    for (i, m) in st.members(ir).into_iter().enumerate() {
        let (s, al) = size_align(g, m)?;
        off = off.next_multiple_of(al);
        if i == index {
            return Ok(off);
        }
        off += s;
    }
    Err(g.err("lowered.member_ptr index is out of range"))
}

fn i64_const<'ctx>(g: &Gen<'_, 'ctx>, v: u64) -> IntValue<'ctx> {
    g.i64().const_int(v, false)
}

/// `lowered.alloca` of a varying slot: W interleaved copies, zeroed where the op runs.
pub(crate) fn alloca(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    if !ln(g).info.varying_slots.contains(&Slot::Alloca(op)) {
        return g.emit_scalar_op(op);
    }
    let ty = g.pointee(g.ir.value_type(g.ir.result(op, 0)))?;
    let (size, _) = size_align(g, ty)?;
    let w = ln(g).w;
    let bytes = size * u64::from(w);
    let storage: BasicTypeEnum = g.llcx.i8_type().array_type(bytes as u32).into();
    let p = g.ck(g.entry.build_alloca(storage, "lanes"))?;
    if let Some(i) = p.as_instruction() {
        i.set_alignment(64).map_err(|e| g.err(e.to_string()))?;
    }
    g.ck(g
        .b
        .build_memset(p, 64, g.llcx.i8_type().const_zero(), i64_const(g, bytes)))?;
    ln_mut(g).slots.insert(Slot::Alloca(op), p);
    let v = VVal::Lane {
        base: p,
        off: Off::Uni(i64_const(g, 0)),
        private: true,
    };
    let r = g.ir.result(op, 0);
    ln_mut(g).vals.insert(r, v);
    Ok(())
}

/// `lowered.heap_ptr`: a count header (a varying count: W i64 in the entry block, zero at the
/// start as the scalar count is) or a pointer into the interleaved heap.
pub(crate) fn heap_ptr(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    if let Some(id) = super::uniform::count_header(ir, op) {
        if !ln(g).info.varying_slots.contains(&Slot::Count(id)) {
            return g.emit_scalar_op(op);
        }
        let p = match ln(g).slots.get(&Slot::Count(id)) {
            Some(&p) => p,
            None => {
                let vt = g.i64().vec_type(ln(g).w);
                let p = g.ck(g.entry.build_alloca(vt, &format!("counts{id}")))?;
                g.ck(g.entry.build_store(p, vt.const_zero()))?;
                ln_mut(g).slots.insert(Slot::Count(id), p);
                p
            }
        };
        let v = VVal::Lane {
            base: p,
            off: Off::Uni(i64_const(g, 0)),
            private: true,
        };
        ln_mut(g).vals.insert(ir.result(op, 0), v);
        return Ok(());
    }
    let float = match ir.prop(op, "heap").map(|a| ir.attr_data(a)) {
        Some(AttrData::String(s)) => s == "float",
        _ => return Err(g.err("lowered.heap_ptr needs a heap property 'float' or 'int'")),
    };
    let base = g.word_ptr(if float { W_HEAP_FLOAT } else { W_HEAP_INT })?;
    let o = ir.operand(op, 0);
    let off = match ln(g).vals.get(&o) {
        Some(VVal::Vec(v, _)) => match uniform_plus_lanes(g, o)? {
            Some((u, x)) => Off::Vary(u, x),
            None => Off::Vary(i64_const(g, 0), *v),
        },
        Some(_) => return Err(g.err("lowered.heap_ptr of a per-lane pointer")),
        None => Off::Uni(g.int(o)?),
    };
    let v = VVal::Lane {
        base,
        off,
        private: false,
    };
    ln_mut(g).vals.insert(ir.result(op, 0), v);
    Ok(())
}

/// `o` as `u + x` (u uniform, x per lane, both i64) where `o` is an `arith.addi` of a uniform
/// and a per-lane i64 operand (a stack row's offset plus the per-lane depth's bytes).
fn uniform_plus_lanes<'ctx>(
    g: &Gen<'_, 'ctx>,
    o: Value,
) -> R<Option<(IntValue<'ctx>, VectorValue<'ctx>)>> {
    let ir = g.ir;
    let Some(def) = ir.defining_op(o) else {
        return Ok(None);
    };
    if ir.name(def) != "arith.addi" || ir.operands(def).count() != 2 {
        return Ok(None);
    }
    let (a, b) = (ir.operand(def, 0), ir.operand(def, 1));
    let (u, x) = match (ln(g).vals.get(&a), ln(g).vals.get(&b)) {
        (None, Some(VVal::Vec(x, _))) => (a, *x),
        (Some(VVal::Vec(x, _)), None) => (b, *x),
        _ => return Ok(None),
    };
    let wide = x
        .get_type()
        .get_element_type()
        .into_int_type()
        .get_bit_width()
        == 64;
    let u = g.int(u)?;
    if !wide || u.get_type().get_bit_width() != 64 {
        return Ok(None);
    }
    Ok(Some((u, x)))
}

/// An integer operand as i64 (sign-extended), uniform or per lane.
enum Idx<'ctx> {
    Uni(IntValue<'ctx>),
    Vary(VectorValue<'ctx>, Option<Lin<'ctx>>),
}

fn index<'ctx>(g: &Gen<'_, 'ctx>, v: Value) -> R<Idx<'ctx>> {
    match ln(g).vals.get(&v) {
        Some(VVal::Vec(x, lin)) => {
            let et = x.get_type().get_element_type().into_int_type();
            if et.get_bit_width() == 64 {
                Ok(Idx::Vary(*x, *lin))
            } else {
                let w = g.ck(g.b.build_int_s_extend(*x, g.i64().vec_type(ln(g).w), "w"))?;
                let lin = match lin {
                    Some(l) => Some(super::widen(g, l, g.i64(), false)?),
                    None => None,
                };
                Ok(Idx::Vary(w, lin))
            }
        }
        Some(_) => Err(g.err("a per-lane pointer used as an index")),
        None => Ok(Idx::Uni(g.to_i64(g.int(v)?)?)),
    }
}

/// `a * k` for an index `a` (per lane or not) and a constant `k`.
fn scale<'ctx>(g: &Gen<'_, 'ctx>, a: &Idx<'ctx>, k: u64) -> R<Idx<'ctx>> {
    let kc = i64_const(g, k);
    Ok(match a {
        Idx::Uni(x) => Idx::Uni(g.ck(g.b.build_int_mul(*x, kc, "sc"))?),
        Idx::Vary(x, lin) => {
            let ks = splat(g, kc.into())?;
            let v = g.ck(g.b.build_int_mul(*x, ks, "sc"))?;
            let lin = match lin {
                Some(l) => Some(Lin {
                    base: g.ck(g.b.build_int_mul(l.base, kc, "sc"))?,
                    stride: l.stride.wrapping_mul(k as i64),
                    ..*l
                }),
                None => None,
            };
            Idx::Vary(v, lin)
        }
    })
}

/// `a + b` for indices.
fn add<'ctx>(g: &Gen<'_, 'ctx>, a: &Idx<'ctx>, b: &Idx<'ctx>) -> R<Idx<'ctx>> {
    Ok(match (a, b) {
        (Idx::Uni(x), Idx::Uni(y)) => Idx::Uni(g.ck(g.b.build_int_add(*x, *y, "o"))?),
        (Idx::Vary(x, lin), Idx::Uni(y)) | (Idx::Uni(y), Idx::Vary(x, lin)) => {
            let ys = splat(g, (*y).into())?;
            let v = g.ck(g.b.build_int_add(*x, ys, "o"))?;
            let lin = match lin {
                Some(l) => Some(Lin {
                    base: g.ck(g.b.build_int_add(l.base, *y, "o"))?,
                    ..*l
                }),
                None => None,
            };
            Idx::Vary(v, lin)
        }
        (Idx::Vary(x, lx), Idx::Vary(y, ly)) => {
            let v = g.ck(g.b.build_int_add(*x, *y, "o"))?;
            let lin = match (lx, ly) {
                (Some(a), Some(b)) => {
                    let (exact, when) = super::join_exact(g, a, b)?;
                    Some(Lin {
                        base: g.ck(g.b.build_int_add(a.base, b.base, "o"))?,
                        stride: a.stride.wrapping_add(b.stride),
                        exact,
                        when,
                    })
                }
                _ => None,
            };
            Idx::Vary(v, lin)
        }
    })
}

/// `offset`, `elem_ptr` and `member_ptr` with a per-lane operand.
pub(crate) fn address(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let base_v = ir.operand(op, 0);
    let pointee = g.pointee(ir.value_type(base_v))?;
    let delta = match ir.name(op) {
        lw::OFFSET_OP => {
            let (s, _) = size_align(g, pointee)?;
            let i = index(g, ir.operand(op, 1))?;
            scale(g, &i, s)?
        }
        lw::ELEM_PTR_OP => {
            let elem = ArrayType::from_type(ir, pointee)
                .map(|a| a.elem(ir))
                .ok_or_else(|| g.err("lowered.elem_ptr needs a pointer to a !qd.array"))?;
            let (s, _) = size_align(g, elem)?;
            let i = index(g, ir.operand(op, 1))?;
            scale(g, &i, s)?
        }
        _ => {
            let index = match ir.prop(op, "index").map(|a| ir.attr_data(a)) {
                Some(AttrData::Integer { value, .. }) if *value >= 0 => *value as usize,
                _ => return Err(g.err("lowered.member_ptr needs an index")),
            };
            Idx::Uni(i64_const(g, member_offset(g, pointee, index)?))
        }
    };
    let result = match ln(g).vals.get(&base_v).copied() {
        Some(VVal::Lane { base, off, private }) => {
            let off = match (off, &delta) {
                (Off::Uni(o), Idx::Uni(d)) => Off::Uni(g.ck(g.b.build_int_add(o, *d, "o"))?),
                (Off::Uni(o), Idx::Vary(d, _)) => Off::Vary(o, *d),
                (Off::Vary(u, x), Idx::Uni(d)) => {
                    Off::Vary(g.ck(g.b.build_int_add(u, *d, "o"))?, x)
                }
                (Off::Vary(u, x), Idx::Vary(d, _)) => {
                    Off::Vary(u, g.ck(g.b.build_int_add(x, *d, "o"))?)
                }
            };
            VVal::Lane { base, off, private }
        }
        Some(VVal::Addr(a, lin)) => match add(g, &Idx::Vary(a, lin), &delta)? {
            Idx::Vary(a, lin) => VVal::Addr(a, lin),
            Idx::Uni(_) => unreachable!("a per-lane address stays per lane"),
        },
        Some(VVal::Vec(..)) => return Err(g.err("a per-lane value used as a pointer")),
        None => {
            let p = g.ptr(base_v)?;
            let a = g.ck(g.b.build_ptr_to_int(p, g.i64(), "a"))?;
            match add(g, &Idx::Uni(a), &delta)? {
                Idx::Vary(a, lin) => VVal::Addr(a, lin),
                Idx::Uni(_) => return Err(g.err("internal error: a uniform address")),
            }
        }
    };
    ln_mut(g).vals.insert(ir.result(op, 0), result);
    Ok(())
}

/// Calls `name` overloaded on `tys`, with `align` bytes on pointer argument `ptr_arg`.
fn masked<'ctx>(
    g: &Gen<'_, 'ctx>,
    name: &str,
    tys: &[BasicTypeEnum<'ctx>],
    args: &[BasicValueEnum<'ctx>],
    ptr_arg: u32,
    align: u64,
) -> R<Option<BasicValueEnum<'ctx>>> {
    let f = inkwell::intrinsics::Intrinsic::find(name)
        .and_then(|i| i.get_declaration(g.module, tys))
        .ok_or_else(|| g.err(format!("LLVM has no intrinsic {name}")))?;
    let args: Vec<_> = args.iter().map(|&a| a.into()).collect();
    let call = g.ck(g.b.build_call(f, &args, ""))?;
    let kind = Attribute::get_named_enum_kind_id("align");
    call.add_attribute(
        AttributeLoc::Param(ptr_arg),
        g.llcx.create_enum_attribute(kind, align),
    );
    Ok(call.try_as_basic_value().basic())
}

/// The element type of a per-lane access to memory of lowered type `ty`: in memory (i1 as i8)
/// and as a value.
fn mem_types<'ctx>(
    g: &Gen<'_, 'ctx>,
    ty: Type,
) -> R<(BasicTypeEnum<'ctx>, BasicTypeEnum<'ctx>, u64)> {
    let t = g.ty(ty)?;
    let (s, _) = size_align(g, ty)?;
    let is_i1 = matches!(t, BasicTypeEnum::IntType(i) if i.get_bit_width() == 1);
    let m = if is_i1 { g.llcx.i8_type().into() } else { t };
    Ok((m, t, s))
}

/// `<W x ptr>` of the per-lane byte addresses `a`.
fn ptrs<'ctx>(g: &Gen<'_, 'ctx>, a: VectorValue<'ctx>) -> R<VectorValue<'ctx>> {
    let pt = g.ptr_ty().vec_type(ln(g).w);
    g.ck(g.b.build_int_to_ptr(a, pt, "ptrs"))
}

/// The addresses of lanes in per-lane memory at logical offsets `u + o`, with access size `s`.
fn lane_addrs<'ctx>(
    g: &Gen<'_, 'ctx>,
    base: PointerValue<'ctx>,
    u: IntValue<'ctx>,
    o: VectorValue<'ctx>,
    s: u64,
) -> R<VectorValue<'ctx>> {
    let w = u64::from(ln(g).w);
    let row = lane_row(g, base, u)?;
    let b = g.ck(g.b.build_ptr_to_int(row, g.i64(), "b"))?;
    let bs = splat(g, b.into())?;
    let ws = splat(g, i64_const(g, w).into())?;
    let ow = g.ck(g.b.build_int_mul(o, ws, "ow"))?;
    let ids = lane_ids(g, g.i64());
    let ss = splat(g, i64_const(g, s).into())?;
    let ls = g.ck(g.b.build_int_mul(ids, ss, "ls"))?;
    let a = g.ck(g.b.build_int_add(bs, ow, "a"))?;
    g.ck(g.b.build_int_add(a, ls, "a"))
}

/// The start of the W lanes of logical offset `o` (uniform).
fn lane_row<'ctx>(
    g: &Gen<'_, 'ctx>,
    base: PointerValue<'ctx>,
    o: IntValue<'ctx>,
) -> R<PointerValue<'ctx>> {
    let w = i64_const(g, u64::from(ln(g).w));
    let ow = g.ck(g.b.build_int_mul(o, w, "ow"))?;
    // SAFETY: address arithmetic within the slot or the worker's heap rows.
    g.ck(unsafe { g.b.build_gep(g.llcx.i8_type(), base, &[ow], "lanes") })
}

/// The run-time test that every lane of `o` equals lane 0's and every lane is active, and the
/// offset `u + o` of lane 0.
fn same_and_full<'ctx>(
    g: &Gen<'_, 'ctx>,
    u: IntValue<'ctx>,
    o: VectorValue<'ctx>,
    m: VectorValue<'ctx>,
) -> R<(IntValue<'ctx>, IntValue<'ctx>)> {
    let o0 = g
        .ck(g.b.build_extract_element(o, g.i64().const_zero(), "o0"))?
        .into_int_value();
    let s = splat(g, o0.into())?;
    let eq = g.ck(g.b.build_int_compare(IntPredicate::EQ, o, s, "eq"))?;
    let full = all(g, m)?;
    let same = all(g, eq)?;
    let at = g.ck(g.b.build_int_add(u, o0, "o0"))?;
    Ok((g.ck(g.b.build_and(full, same, "one"))?, at))
}

/// Branches on `c` to two emitters of a value (or none) and joins them.
fn branch<'ctx>(
    g: &Gen<'_, 'ctx>,
    c: IntValue<'ctx>,
    yes: impl FnOnce(&Gen<'_, 'ctx>) -> R<Option<BasicValueEnum<'ctx>>>,
    no: impl FnOnce(&Gen<'_, 'ctx>) -> R<Option<BasicValueEnum<'ctx>>>,
) -> R<Option<BasicValueEnum<'ctx>>> {
    let yb = g.llcx.append_basic_block(g.func, "contig");
    let nb = g.llcx.append_basic_block(g.func, "gather");
    let end = g.llcx.append_basic_block(g.func, "mem.done");
    g.ck(g.b.build_conditional_branch(c, yb, nb))?;
    g.b.position_at_end(yb);
    let a = yes(g)?;
    let ya = g.b.get_insert_block().unwrap_or(yb);
    g.ck(g.b.build_unconditional_branch(end))?;
    g.b.position_at_end(nb);
    let b = no(g)?;
    let na = g.b.get_insert_block().unwrap_or(nb);
    g.ck(g.b.build_unconditional_branch(end))?;
    g.b.position_at_end(end);
    Ok(match (a, b) {
        (Some(a), Some(b)) => {
            let phi = g.ck(g.b.build_phi(a.get_type(), "v"))?;
            phi.add_incoming(&[(&a, ya), (&b, na)]);
            Some(phi.as_basic_value())
        }
        _ => None,
    })
}

fn gather<'ctx>(
    g: &Gen<'_, 'ctx>,
    m_ty: BasicTypeEnum<'ctx>,
    a: VectorValue<'ctx>,
    mask: VectorValue<'ctx>,
    s: u64,
) -> R<BasicValueEnum<'ctx>> {
    let vt = vec_ty(g, m_ty)?;
    let p = ptrs(g, a)?;
    masked(
        g,
        "llvm.masked.gather",
        &[vt.into(), p.get_type().into()],
        &[p.into(), mask.into(), vt.get_poison().into()],
        0,
        s,
    )?
    .ok_or_else(|| g.err("llvm.masked.gather returns nothing"))
}

fn scatter<'ctx>(
    g: &Gen<'_, 'ctx>,
    v: VectorValue<'ctx>,
    a: VectorValue<'ctx>,
    mask: VectorValue<'ctx>,
    s: u64,
) -> R<()> {
    let p = ptrs(g, a)?;
    masked(
        g,
        "llvm.masked.scatter",
        &[v.get_type().into(), p.get_type().into()],
        &[v.into(), p.into(), mask.into()],
        1,
        s,
    )?;
    Ok(())
}

fn masked_load<'ctx>(
    g: &Gen<'_, 'ctx>,
    m_ty: BasicTypeEnum<'ctx>,
    p: PointerValue<'ctx>,
    mask: VectorValue<'ctx>,
    s: u64,
) -> R<BasicValueEnum<'ctx>> {
    let vt = vec_ty(g, m_ty)?;
    masked(
        g,
        "llvm.masked.load",
        &[vt.into(), g.ptr_ty().into()],
        &[p.into(), mask.into(), vt.get_poison().into()],
        0,
        s,
    )?
    .ok_or_else(|| g.err("llvm.masked.load returns nothing"))
}

fn masked_store<'ctx>(
    g: &Gen<'_, 'ctx>,
    v: VectorValue<'ctx>,
    p: PointerValue<'ctx>,
    mask: VectorValue<'ctx>,
    s: u64,
) -> R<()> {
    masked(
        g,
        "llvm.masked.store",
        &[v.get_type().into(), g.ptr_ty().into()],
        &[v.into(), p.into(), mask.into()],
        1,
        s,
    )?;
    Ok(())
}

/// A vector load of `<W x m_ty>` at `p`, aligned to `s`.
fn plain_load<'ctx>(
    g: &Gen<'_, 'ctx>,
    m_ty: BasicTypeEnum<'ctx>,
    p: PointerValue<'ctx>,
    s: u64,
) -> R<BasicValueEnum<'ctx>> {
    let vt = vec_ty(g, m_ty)?;
    let v = g.ck(g.b.build_load(vt, p, "v"))?;
    if let Some(i) = v.as_instruction_value() {
        i.set_alignment(s as u32)
            .map_err(|e| g.err(e.to_string()))?;
    }
    Ok(v)
}

fn plain_store<'ctx>(
    g: &Gen<'_, 'ctx>,
    v: VectorValue<'ctx>,
    p: PointerValue<'ctx>,
    s: u64,
) -> R<()> {
    let i = g.ck(g.b.build_store(p, v))?;
    i.set_alignment(s as u32)
        .map_err(|e| g.err(e.to_string()))?;
    Ok(())
}

/// A contiguous store of `v` at `p` that is non-temporal when `on` (the launch streams), every
/// lane of `mask` is active and `p` is aligned to the vector's bytes (at most 64: x86's `movnt`
/// needs an aligned address, and the stores of a 64-byte aligned group fill whole cache lines);
/// else the masked store.
fn stream_store<'ctx>(
    g: &Gen<'_, 'ctx>,
    v: VectorValue<'ctx>,
    p: PointerValue<'ctx>,
    mask: VectorValue<'ctx>,
    s: u64,
    on: IntValue<'ctx>,
) -> R<()> {
    let align = (s * u64::from(v.get_type().get_size())).min(64);
    let a = g.ck(g.b.build_ptr_to_int(p, g.i64(), "a"))?;
    let low = g.ck(g.b.build_and(a, i64_const(g, align - 1), "low"))?;
    let aligned = g.ck(g
        .b
        .build_int_compare(IntPredicate::EQ, low, i64_const(g, 0), "aligned"))?;
    let full = all(g, mask)?;
    let ok = g.ck(g.b.build_and(on, aligned, "nt"))?;
    let ok = g.ck(g.b.build_and(ok, full, "nt"))?;
    let nt = g.llcx.append_basic_block(g.func, "nt.store");
    let plain = g.llcx.append_basic_block(g.func, "nt.not");
    let join = g.llcx.append_basic_block(g.func, "nt.done");
    g.ck(g.b.build_conditional_branch(ok, nt, plain))?;
    g.b.position_at_end(nt);
    let st = g.ck(g.b.build_store(p, v))?;
    st.set_alignment(align as u32)
        .map_err(|e| g.err(e.to_string()))?;
    let one = g.llcx.i32_type().const_int(1, false);
    let node = g.llcx.metadata_node(&[one.into()]);
    st.set_metadata(node, g.llcx.get_kind_id("nontemporal"))
        .map_err(|e| g.err(e.to_string()))?;
    g.ck(g.b.build_unconditional_branch(join))?;
    g.b.position_at_end(plain);
    masked_store(g, v, p, mask, s)?;
    g.ck(g.b.build_unconditional_branch(join))?;
    g.b.position_at_end(join);
    Ok(())
}

/// Whether an address with linear form `lin` is contiguous for elements of `s` bytes: known
/// (`Some(true)`), to test at run time (`None`), or not (`Some(false)`).
fn contiguous(lin: Option<Lin<'_>>, s: u64) -> Option<bool> {
    match lin {
        Some(l) if l.stride == s as i64 => l.exact.then_some(true),
        _ => Some(false),
    }
}

/// The run-time test that the active lanes of `a` are `base + l * s`.
fn linear_now<'ctx>(
    g: &Gen<'_, 'ctx>,
    a: VectorValue<'ctx>,
    base: IntValue<'ctx>,
    s: u64,
    mask: VectorValue<'ctx>,
) -> R<IntValue<'ctx>> {
    let bs = splat(g, base.into())?;
    let ids = lane_ids(g, g.i64());
    let ss = splat(g, i64_const(g, s).into())?;
    let ls = g.ck(g.b.build_int_mul(ids, ss, "ls"))?;
    let want = g.ck(g.b.build_int_add(bs, ls, "want"))?;
    let eq = g.ck(g.b.build_int_compare(IntPredicate::EQ, a, want, "eq"))?;
    let off = g.ck(g.b.build_not(mask, "off"))?;
    let ok = g.ck(g.b.build_or(eq, off, "ok"))?;
    all(g, ok)
}

/// The value in memory form (i1 widened to i8).
fn to_mem<'ctx>(g: &Gen<'_, 'ctx>, v: VectorValue<'ctx>) -> R<VectorValue<'ctx>> {
    let et = v.get_type().get_element_type();
    if et.is_int_type() && et.into_int_type().get_bit_width() == 1 {
        let vt = g.llcx.i8_type().vec_type(ln(g).w);
        return g.ck(g.b.build_int_z_extend(v, vt, "b"));
    }
    Ok(v)
}

fn from_mem<'ctx>(
    g: &Gen<'_, 'ctx>,
    v: BasicValueEnum<'ctx>,
    t: BasicTypeEnum<'ctx>,
) -> R<VectorValue<'ctx>> {
    let v = v.into_vector_value();
    if matches!(t, BasicTypeEnum::IntType(i) if i.get_bit_width() == 1) {
        let vt = g.llcx.bool_type().vec_type(ln(g).w);
        return g.ck(g.b.build_int_truncate(v, vt, "b"));
    }
    Ok(v)
}

/// Where the elements of a per-lane access lie.
#[derive(Clone, Copy)]
enum At<'ctx> {
    /// The W elements of a lane slot's row (a uniform offset), the inactive lanes' too; `true`
    /// for a slot of the task function.
    Row(PointerValue<'ctx>, bool),
    /// W consecutive elements, every lane active.
    Full(PointerValue<'ctx>),
    /// W consecutive elements, for the active lanes.
    Contig(PointerValue<'ctx>),
    /// One address per lane (`<W x i64>`), for the active lanes.
    Lanes(VectorValue<'ctx>),
}

/// Emits access `f` of `s`-byte elements at per-lane pointer `p` (lane memory or addresses)
/// where its lanes' elements lie, with a run-time branch where that is known only then: loads
/// and stores share this.
fn per_lane<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    p: VVal<'ctx>,
    s: u64,
    mask: VectorValue<'ctx>,
    f: impl Fn(&Gen<'_, 'ctx>, At<'ctx>) -> R<Option<BasicValueEnum<'ctx>>>,
) -> R<Option<BasicValueEnum<'ctx>>> {
    let f = &f;
    match p {
        VVal::Lane { base, off, private } => match off {
            Off::Uni(o) => {
                let p = lane_row(g, base, o)?;
                f(g, At::Row(p, private))
            }
            Off::Vary(u, o) => {
                let (one, o0) = same_and_full(g, u, o, mask)?;
                branch(
                    g,
                    one,
                    |g| f(g, At::Full(lane_row(g, base, o0)?)),
                    |g| f(g, At::Lanes(lane_addrs(g, base, u, o, s)?)),
                )
            }
        },
        VVal::Addr(a, lin) => match (contiguous(lin, s), lin) {
            (Some(true), Some(l)) => {
                let p = g.ck(g.b.build_int_to_ptr(l.base, g.ptr_ty(), "p"))?;
                f(g, At::Contig(p))
            }
            (None, Some(l)) => {
                // A scalar test of the narrow sequences where there is one (no wrap within
                // the group), else a test of every lane's address.
                let lin_now = match l.when {
                    Some(c) => c,
                    None => linear_now(g, a, l.base, s, mask)?,
                };
                // A full group yet without effect restarts as a partial group, which gathers.
                if super::restart_unless(g, lin_now)? {
                    let p = g.ck(g.b.build_int_to_ptr(l.base, g.ptr_ty(), "p"))?;
                    return f(g, At::Contig(p));
                }
                branch(
                    g,
                    lin_now,
                    |g| {
                        let p = g.ck(g.b.build_int_to_ptr(l.base, g.ptr_ty(), "p"))?;
                        f(g, At::Contig(p))
                    },
                    |g| f(g, At::Lanes(a)),
                )
            }
            _ => f(g, At::Lanes(a)),
        },
        VVal::Vec(..) => Err(g.err("a per-lane value used as a pointer")),
    }
}

pub(crate) fn load(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let pv = ir.operand(op, 0);
    let (m_ty, t, s) = mem_types(g, g.pointee(ir.value_type(pv))?)?;
    let mask = exec(g)?;
    let raw = match ln(g).vals.get(&pv).copied() {
        Some(p @ (VVal::Lane { .. } | VVal::Addr(..))) => per_lane(g, p, s, mask, |g, at| {
            Ok(Some(match at {
                At::Row(p, _) | At::Full(p) => plain_load(g, m_ty, p, s)?,
                At::Contig(p) => masked_load(g, m_ty, p, mask, s)?,
                At::Lanes(a) => gather(g, m_ty, a, mask, s)?,
            }))
        })?
        .ok_or_else(|| g.err("internal error: a load without a value"))?,
        _ => return Err(g.err("internal error: a per-lane load of a uniform pointer")),
    };
    let v = from_mem(g, raw, t)?;
    ln_mut(g).vals.insert(ir.result(op, 0), VVal::Vec(v, None));
    Ok(())
}

pub(crate) fn store(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let (vv, pv) = (ir.operand(op, 0), ir.operand(op, 1));
    let (m_ty, _, s) = mem_types(g, g.pointee(ir.value_type(pv))?)?;
    let mask = exec(g)?;
    let v = to_mem(g, vector(g, vv)?)?;
    // Whether this store may be non-temporal (see `driver`): vectors of 32 bytes or more.
    let stream = match &ln(g).stream {
        Some((ops, on)) if ops.contains(&op) && s * u64::from(ln(g).w) >= 32 => Some(*on),
        _ => None,
    };
    match ln(g).vals.get(&pv).copied() {
        Some(p) => {
            per_lane(g, p, s, mask, |g, at| {
                match at {
                    At::Row(p, true) => {
                        // Load, blend, store: LLVM keeps a slot so written in registers.
                        let old = plain_load(g, m_ty, p, s)?;
                        let new =
                            g.ck(g.b.build_select(mask, v, old.into_vector_value(), "blend"))?;
                        plain_store(g, new.into_vector_value(), p, s)?;
                    }
                    At::Contig(p) if stream.is_some() => {
                        stream_store(g, v, p, mask, s, stream.expect("some"))?
                    }
                    At::Row(p, false) | At::Contig(p) => masked_store(g, v, p, mask, s)?,
                    At::Full(p) => plain_store(g, v, p, s)?,
                    At::Lanes(a) => scatter(g, v, a, mask, s)?,
                }
                Ok(None)
            })?;
        }
        None => {
            // One uniform address: the last thread's value stays, the highest active lane's.
            let p = g.ptr(pv)?;
            let b = bits(g, mask)?;
            let lz = intrinsic(
                g,
                "llvm.ctlz",
                &[b.get_type().into()],
                &[b.into(), g.llcx.bool_type().const_int(1, false).into()],
            )?
            .into_int_value();
            let top = b.get_type().const_int(u64::from(ln(g).w) - 1, false);
            let lane = g.ck(g.b.build_int_sub(top, lz, "lane"))?;
            let x = g.ck(g.b.build_extract_element(v, lane, "last"))?;
            g.ck(g.b.build_store(p, x))?;
        }
    }
    Ok(())
}

/// The per-lane result and operands of an atomic, lane by lane in lane order over the active
/// lanes, through the scalar codegen's atomic.
fn atomic_lanes(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let (vv, pv) = (ir.operand(op, 0), ir.operand(op, 1));
    let w = ln(g).w;
    let mask = exec(g)?;
    let vals = vector(g, vv)?;
    let addrs: VectorValue = match ln(g).vals.get(&pv).copied() {
        Some(VVal::Addr(a, _)) => a,
        None => {
            let p = g.ptr(pv)?;
            let a = g.ck(g.b.build_ptr_to_int(p, g.i64(), "a"))?;
            splat(g, a.into())?
        }
        _ => return Err(g.err("an atomic on per-lane memory is not vectorised")),
    };
    let result = ir.results(op).first().copied();
    let res_slot = match result {
        Some(r) => {
            let vt = vec_ty(g, g.ty(ir.value_type(r))?)?;
            Some((g.ck(g.entry.build_alloca(vt, "old"))?, vt))
        }
        None => None,
    };
    let it = g.int_ty(w)?;
    let pre = g.b.get_insert_block().unwrap();
    let b0 = bits(g, mask)?;
    let head = g.llcx.append_basic_block(g.func, "lane");
    let body = g.llcx.append_basic_block(g.func, "lane.do");
    let done = g.llcx.append_basic_block(g.func, "lane.done");
    g.ck(g.b.build_unconditional_branch(head))?;
    g.b.position_at_end(head);
    let rest = g.ck(g.b.build_phi(it, "rest"))?;
    rest.add_incoming(&[(&b0, pre)]);
    let r = rest.as_basic_value().into_int_value();
    let more = g.ck(g
        .b
        .build_int_compare(IntPredicate::NE, r, it.const_zero(), "more"))?;
    g.ck(g.b.build_conditional_branch(more, body, done))?;
    g.b.position_at_end(body);
    let lane = intrinsic(
        g,
        "llvm.cttz",
        &[it.into()],
        &[r.into(), g.llcx.bool_type().const_int(1, false).into()],
    )?
    .into_int_value();
    let a = g
        .ck(g.b.build_extract_element(addrs, lane, "a"))?
        .into_int_value();
    let p = g.ck(g.b.build_int_to_ptr(a, g.ptr_ty(), "p"))?;
    let x = g.ck(g.b.build_extract_element(vals, lane, "x"))?;
    // The scalar atomic reads its operands from the uniform values: bind this lane's.
    let saved: Vec<_> = [vv, pv]
        .iter()
        .map(|v| (*v, g.values.get(v).copied()))
        .collect();
    g.values.insert(vv, x);
    g.values.insert(pv, p.into());
    let r_emit = g.emit_scalar_op(op);
    for (v, old) in saved {
        match old {
            Some(o) => g.values.insert(v, o),
            None => g.values.remove(&v),
        };
    }
    r_emit?;
    if let (Some(res), Some((slot, vt))) = (result, res_slot) {
        let old = g
            .values
            .remove(&res)
            .ok_or_else(|| g.err("internal error: an atomic without its old value"))?;
        let cur = g.ck(g.b.build_load(vt, slot, "olds"))?.into_vector_value();
        let cur = g.ck(g.b.build_insert_element(cur, old, lane, "olds"))?;
        g.ck(g.b.build_store(slot, cur))?;
    }
    let one = it.const_int(1, false);
    let rm1 = g.ck(g.b.build_int_sub(r, one, "r1"))?;
    let next = g.ck(g.b.build_and(r, rm1, "next"))?;
    let end = g.b.get_insert_block().unwrap();
    rest.add_incoming(&[(&next, end)]);
    g.ck(g.b.build_unconditional_branch(head))?;
    g.b.position_at_end(done);
    if let (Some(res), Some((slot, vt))) = (result, res_slot) {
        let v = g.ck(g.b.build_load(vt, slot, "old"))?.into_vector_value();
        ln_mut(g).vals.insert(res, VVal::Vec(v, None));
    }
    Ok(())
}

pub(crate) fn atomic(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let (vv, pv) = (ir.operand(op, 0), ir.operand(op, 1));
    let unused = ir.results(op).iter().all(|&r| !ir.has_uses(r));
    let uniform_addr = !ln(g).vals.contains_key(&pv);
    let elem = g.pointee(ir.value_type(pv))?;
    let float = g.is_float(elem);
    let add = ir.name(op) == lw::ATOMIC_ADD_OP;
    if !(unused && uniform_addr && (add || !float)) {
        return atomic_lanes(g, op);
    }
    // One reduction of the active lanes, then the scalar atomic with it.
    let mask = exec(g)?;
    let v = vector(g, vv)?;
    let et = v.get_type().get_element_type();
    let unsigned = g.is_unsigned(elem);
    let (name, neutral): (&str, BasicValueEnum) = if float {
        let ft = et.into_float_type();
        ("llvm.vector.reduce.fadd", ft.const_float(-0.0).into())
    } else {
        let it = et.into_int_type();
        let bw = it.get_bit_width();
        match (ir.name(op), unsigned) {
            (lw::ATOMIC_ADD_OP, _) => ("llvm.vector.reduce.add", it.const_zero().into()),
            (lw::ATOMIC_MIN_OP, false) => (
                "llvm.vector.reduce.smin",
                it.const_int(((1u128 << (bw - 1)) - 1) as u64, false).into(),
            ),
            (lw::ATOMIC_MIN_OP, true) => ("llvm.vector.reduce.umin", it.const_all_ones().into()),
            (_, false) => (
                "llvm.vector.reduce.smax",
                it.const_int(1u64 << (bw - 1), false).into(),
            ),
            (_, true) => ("llvm.vector.reduce.umax", it.const_zero().into()),
        }
    };
    let ns = splat(g, neutral)?;
    let vm = g
        .ck(g.b.build_select(mask, v, ns, "act"))?
        .into_vector_value();
    let red = if float {
        // Ordered (no reassociation flag): lane 0 first.
        intrinsic(g, name, &[v.get_type().into()], &[neutral, vm.into()])?
    } else {
        intrinsic(g, name, &[v.get_type().into()], &[vm.into()])?
    };
    let saved = g.values.get(&vv).copied();
    g.values.insert(vv, red);
    let r = g.emit_scalar_op(op);
    match saved {
        Some(o) => g.values.insert(vv, o),
        None => g.values.remove(&vv),
    };
    for &res in ir.results(op) {
        g.values.remove(&res);
    }
    r
}
