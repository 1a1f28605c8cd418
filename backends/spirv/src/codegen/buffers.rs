//! Memory: storage-buffer views, the kernel-data ops (`arg`, `ndarray_ptr`, `ndarray_dim`,
//! `field_ptr`, `temp_ptr`), pointer arithmetic, loads, stores, atomics and private memory.
//!
//! A binding is declared once per element type it is read as (a "view": a `Block` struct of a
//! runtime array of that type); a binding with several views (slot buffers, heaps, a float
//! buffer updated by a compare-exchange on its bits) has them all `Aliased`. Without `Int64`
//! an i64 in a slot buffer or a heap is its low 32-bit word (stores also write the high word,
//! the sign extension, so the host reads the right i64).

use super::{GPtr, Gen, PPtr, Scalar, Val, R};
use crate::abi::{self, ArgSlot, BindingKind};
use qd_frontend::{ArrayType, StructType};
use qd_ir::{AttrData, OpId};
use qd_lowered as lw;
use rspirv::dr::Operand;
use rspirv::spirv::{self, Decoration, MemorySemantics, Scope, StorageClass, Word};

impl Gen<'_> {
    /// The storage-buffer variable of `binding` read as `s` elements, used by the task.
    pub fn view(&mut self, binding: u32, s: Scalar, writes: bool) -> Word {
        *self.used.entry(binding).or_insert(false) |= writes;
        if let Some(&v) = self.views.get(&(binding, s)) {
            self.interface.insert(v);
            return v;
        }
        let elem = self.scalar_ty(s);
        let arr = self.b.type_runtime_array(elem);
        if self.decorated.insert(arr) {
            self.b.decorate(
                arr,
                Decoration::ArrayStride,
                [Operand::LiteralBit32(s.bytes())],
            );
        }
        let st = self.b.type_struct([arr]);
        if self.decorated.insert(st) {
            self.b.decorate(st, Decoration::Block, []);
            self.b
                .member_decorate(st, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        }
        let p = self.ptr_ty(StorageClass::StorageBuffer, st);
        let var = self.global_var(p, StorageClass::StorageBuffer);
        self.b.decorate(
            var,
            Decoration::DescriptorSet,
            [Operand::LiteralBit32(abi::SET)],
        );
        self.b
            .decorate(var, Decoration::Binding, [Operand::LiteralBit32(binding)]);
        let others: Vec<Word> = self
            .views
            .iter()
            .filter(|((b, _), _)| *b == binding)
            .map(|(_, &v)| v)
            .collect();
        if !others.is_empty() {
            for v in others.into_iter().chain([var]) {
                if self.decorated.insert(v) {
                    self.b.decorate(v, Decoration::Aliased, []);
                }
            }
        }
        self.views.insert((binding, s), var);
        self.interface.insert(var);
        var
    }

    /// A pointer to element `index` of `binding`'s view of `s` elements.
    pub fn elem_ptr_of(&mut self, binding: u32, s: Scalar, index: Word, writes: bool) -> R<Word> {
        let var = self.view(binding, s, writes);
        let ty = self.scalar_ty(s);
        let pty = self.ptr_ty(StorageClass::StorageBuffer, ty);
        let zero = self.u32c(0);
        ck!(self, self.b.access_chain(pty, None, var, [zero, index]))
    }

    /// Loads element `index` (index type) of `binding` as `s`.
    pub fn load_elem(&mut self, binding: u32, s: Scalar, index: Word) -> R<Word> {
        let p = self.elem_ptr_of(binding, s, index, false)?;
        let ty = self.scalar_ty(s);
        ck!(self, self.b.load(ty, None, p, None, []))
    }

    /// Stores `v` into element `index` of `binding` as `s`.
    pub fn store_elem(&mut self, binding: u32, s: Scalar, index: Word, v: Word) -> R<()> {
        let p = self.elem_ptr_of(binding, s, index, true)?;
        ck!(self, self.b.store(p, v, None, []))
    }

    /// A slot-buffer pointer: slot `slot` of `binding` read as lowered type `ty`.
    pub fn slot_ptr(&mut self, binding: u32, slot: u32, ty: qd_ir::Type) -> R<GPtr> {
        let (view, scale) = self.global_view(ty)?;
        let per_slot = 8 / (view.bytes() * scale) * scale;
        let index = self.idx_const(i64::from(slot * per_slot));
        Ok(GPtr {
            binding,
            view,
            index,
            scale,
        })
    }

    /// The view and scale of a global pointee of lowered type `ty` (i64 without `Int64`: its
    /// low word, 2 words per element).
    pub fn global_view(&self, ty: qd_ir::Type) -> R<(Scalar, u32)> {
        let s = self.scalar(ty)?;
        if s == Scalar::Bool {
            return Err(self.err("i1 cannot live in global memory"));
        }
        let bytes = self.lowered_bytes(ty)?;
        Ok((s, bytes / s.bytes()))
    }

    /// Metadata slot `slot` of the task as an index-typed value.
    pub fn meta_slot(&mut self, slot: u32) -> R<Word> {
        let s = self.index();
        let per = 8 / s.bytes();
        let i = self.idx_const(i64::from(slot * per));
        self.load_elem(abi::BINDING_METADATA, s, i)
    }
}

/// Metadata slot `slot` (an i64 of the task's metadata).
pub(super) fn metadata(g: &mut Gen<'_>, slot: u32) -> R<Word> {
    g.meta_slot(slot)
}

fn int_prop(g: &Gen<'_>, op: OpId, name: &str) -> R<u32> {
    match g.ir.prop(op, name).map(|a| g.ir.attr_data(a)) {
        Some(AttrData::Integer { value, .. }) => u32::try_from(*value).ok(),
        _ => None,
    }
    .ok_or_else(|| g.err(format!("'{}' needs a property '{name}'", g.ir.name(op))))
}

fn result_pointee(g: &Gen<'_>, op: OpId) -> R<qd_ir::Type> {
    lw::types::pointee(g.ir, g.ir.value_type(g.ir.result(op, 0)))
        .ok_or_else(|| g.err("expected a !lowered.ptr result"))
}

pub(super) fn arg(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let i = int_prop(g, op, "index")? as usize;
    let Some(ArgSlot::Scalar { slot, .. }) = g.args.get(i).cloned() else {
        return Err(g.err(format!("kernel argument #{i} is not a scalar")));
    };
    let ty = g.ir.value_type(g.ir.result(op, 0));
    g.data_scalar(ty)?;
    if g.scalar(ty)? == Scalar::Bool {
        // An i1 argument is its slot's low word != 0.
        let idx = g.idx_const(i64::from(slot * 2));
        let w = g.load_elem(abi::BINDING_ARGS, Scalar::I(32), idx)?;
        let zero = g.u32c(0);
        let bt = g.scalar_ty(Scalar::Bool);
        let v = ck!(g, g.b.i_not_equal(bt, None, w, zero))?;
        g.set_id(op, v);
        return Ok(());
    }
    let p = g.slot_ptr(abi::BINDING_ARGS, slot, ty)?;
    let v = load(g, &p)?;
    g.set_id(op, v);
    Ok(())
}

pub(super) fn ndarray_ptr(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let i = int_prop(g, op, "index")? as usize;
    let Some(ArgSlot::Ndarray { binding, .. }) = g.args.get(i).cloned() else {
        return Err(g.err(format!("kernel argument #{i} is not an ndarray")));
    };
    let ty = result_pointee(g, op)?;
    g.data_scalar(ty)?;
    let (view, scale) = g.global_view(ty)?;
    let index = g.idx_const(0);
    g.set(
        op,
        0,
        Val::Global(GPtr {
            binding,
            view,
            index,
            scale,
        }),
    );
    Ok(())
}

pub(super) fn ndarray_dim(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let i = int_prop(g, op, "index")? as usize;
    let axis = int_prop(g, op, "axis")?;
    let Some(ArgSlot::Ndarray { dims, rank, .. }) = g.args.get(i).cloned() else {
        return Err(g.err(format!("kernel argument #{i} is not an ndarray")));
    };
    if axis >= rank {
        return Err(g.err(format!("ndarray #{i} has no axis {axis}")));
    }
    let ty = g.ir.value_type(g.ir.result(op, 0));
    let p = g.slot_ptr(abi::BINDING_ARGS, dims + axis, ty)?;
    let v = load(g, &p)?;
    g.set_id(op, v);
    Ok(())
}

pub(super) fn field_ptr(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let kind = super::field_kind(g.ir, op)?;
    let Some(binding) = g.data.iter().find(|d| d.kind == kind).map(|d| d.binding) else {
        return Err(g.err("internal error: a field without a binding"));
    };
    let ty = result_pointee(g, op)?;
    g.data_scalar(ty)?;
    let (view, scale) = g.global_view(ty)?;
    let index = g.idx_const(0);
    g.set(
        op,
        0,
        Val::Global(GPtr {
            binding,
            view,
            index,
            scale,
        }),
    );
    Ok(())
}

pub(super) fn temp_ptr(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let slot = int_prop(g, op, "slot")?;
    let ty = result_pointee(g, op)?;
    let p = g.slot_ptr(abi::BINDING_TEMPS, slot, ty)?;
    g.set(op, 0, Val::Global(p));
    Ok(())
}

pub(super) fn offset(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let i = g.operand(op, 1)?;
    let it = g.index();
    let ity = g.scalar_ty(it);
    let v = match g.val(g.ir.operand(op, 0))? {
        Val::Global(mut p) => {
            let step = if p.scale == 1 {
                i
            } else {
                let s = g.idx_const(i64::from(p.scale));
                ck!(g, g.b.i_mul(ity, None, i, s))?
            };
            p.index = ck!(g, g.b.i_add(ity, None, p.index, step))?;
            Val::Global(p)
        }
        Val::Private(mut p) => {
            // Offsetting a private scalar moves along the array that holds it.
            let Some(last) = p.chain.pop() else {
                return Err(
                    g.err("the SPIR-V backend offsets a private pointer only within an array")
                );
            };
            let n = ck!(g, g.b.i_add(ity, None, last, i))?;
            p.chain.push(n);
            Val::Private(p)
        }
        Val::Id(_) => return Err(g.err("lowered.offset needs a pointer")),
    };
    g.set(op, 0, v);
    Ok(())
}

/// Loads a global scalar.
pub(super) fn load(g: &mut Gen<'_>, p: &GPtr) -> R<Word> {
    g.load_elem(p.binding, p.view, p.index)
}

/// Stores a global scalar (an i64 kept as its low word gets its high word too).
pub(super) fn store(g: &mut Gen<'_>, p: &GPtr, v: Word) -> R<()> {
    g.store_elem(p.binding, p.view, p.index, v)?;
    if p.scale == 2 {
        let it = g.index();
        let ity = g.scalar_ty(it);
        let sh = g.u32c(31);
        let hi = ck!(g, g.b.shift_right_arithmetic(ity, None, v, sh))?;
        let one = g.idx_const(1);
        let i = ck!(g, g.b.i_add(ity, None, p.index, one))?;
        g.store_elem(p.binding, p.view, i, hi)?;
    }
    Ok(())
}

/// The `Function` pointer of a private pointer (an access chain when it has indices).
fn private_ptr(g: &mut Gen<'_>, p: &PPtr) -> R<Word> {
    if p.chain.is_empty() {
        return Ok(p.var);
    }
    let ty = g.private_ty(p.pointee)?;
    let pty = g.ptr_ty(StorageClass::Function, ty);
    ck!(g, g.b.access_chain(pty, None, p.var, p.chain.clone()))
}

pub(super) fn load_op(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let v = match g.val(g.ir.operand(op, 0))? {
        Val::Global(p) => load(g, &p)?,
        Val::Private(p) => {
            let ty = g.private_ty(p.pointee)?;
            let q = private_ptr(g, &p)?;
            ck!(g, g.b.load(ty, None, q, None, []))?
        }
        Val::Id(_) => return Err(g.err("lowered.load needs a pointer")),
    };
    g.set_id(op, v);
    Ok(())
}

pub(super) fn store_op(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let v = g.operand(op, 0)?;
    match g.val(g.ir.operand(op, 1))? {
        Val::Global(p) => store(g, &p, v),
        Val::Private(p) => {
            let q = private_ptr(g, &p)?;
            ck!(g, g.b.store(q, v, None, []))
        }
        Val::Id(_) => Err(g.err("lowered.store needs a pointer")),
    }
}

pub(super) fn alloca(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let ty = result_pointee(g, op)?;
    let sty = g.private_ty(ty)?;
    let pty = g.ptr_ty(StorageClass::Function, sty);
    let var = g.local_var(pty);
    // Zeroed every time the op runs (Taichi's locals).
    let zero = g.b.constant_null(sty);
    ck!(g, g.b.store(var, zero, None, []))?;
    g.set(
        op,
        0,
        Val::Private(PPtr {
            var,
            chain: Vec::new(),
            pointee: ty,
        }),
    );
    Ok(())
}

fn private_operand(g: &Gen<'_>, op: OpId) -> R<PPtr> {
    match g.val(g.ir.operand(op, 0))? {
        Val::Private(p) => Ok(p),
        _ => Err(g.err(format!("'{}' needs a private pointer", g.ir.name(op)))),
    }
}

pub(super) fn elem_ptr(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let mut p = private_operand(g, op)?;
    let Some(a) = ArrayType::from_type(g.ir, p.pointee) else {
        return Err(g.err("lowered.elem_ptr needs a pointer to an array"));
    };
    let k = g.operand(op, 1)?;
    p.chain.push(k);
    p.pointee = a.elem(g.ir);
    g.set(op, 0, Val::Private(p));
    Ok(())
}

pub(super) fn member_ptr(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let mut p = private_operand(g, op)?;
    let Some(s) = StructType::from_type(g.ir, p.pointee) else {
        return Err(g.err("lowered.member_ptr needs a pointer to a struct"));
    };
    let i = int_prop(g, op, "index")?;
    let members = s.members(g.ir);
    let Some(&m) = members.get(i as usize) else {
        return Err(g.err("lowered.member_ptr index is out of range"));
    };
    // Struct members are indexed by 32-bit constants.
    let c = g.u32c(i);
    p.chain.push(c);
    p.pointee = m;
    g.set(op, 0, Val::Private(p));
    Ok(())
}

/// Relaxed atomics at device scope: (scope, semantics) constants.
pub(super) fn relaxed(g: &mut Gen<'_>) -> (Word, Word) {
    let scope = g.u32c(Scope::Device as u32);
    let sem = g.u32c(MemorySemantics::empty().bits());
    (scope, sem)
}

pub(super) fn atomic(g: &mut Gen<'_>, op: OpId, name: &str) -> R<()> {
    let v = g.operand(op, 0)?;
    let Val::Global(p) = g.val(g.ir.operand(op, 1))? else {
        return Err(g.err(format!("'{name}' needs a global pointer")));
    };
    let ty = g.ir.value_type(g.ir.operand(op, 0));
    let s = g.data_scalar(ty)?;
    if p.scale != 1 {
        return Err(g.err(format!(
            "the SPIR-V backend has no {}-bit atomics",
            g.lowered_width(ty).unwrap_or(s.width())
        )));
    }
    if s.width() < 32 && !s.is_float() {
        let unsigned = g.is_unsigned(ty);
        let add = name == lw::ATOMIC_ADD_OP;
        let old = narrow_cas(g, &p, s, v, add, name == lw::ATOMIC_MIN_OP, unsigned)?;
        g.set_id(op, old);
        return Ok(());
    }
    if s.width() == 64 {
        g.need(spirv::Capability::Int64Atomics);
    }
    let (add, min) = (name == lw::ATOMIC_ADD_OP, name == lw::ATOMIC_MIN_OP);
    let old = if s.is_float() {
        if add && g.opts.atomic_float_add {
            g.extension("SPV_EXT_shader_atomic_float_add");
            g.need(if s.width() == 64 {
                spirv::Capability::AtomicFloat64AddEXT
            } else {
                spirv::Capability::AtomicFloat32AddEXT
            });
            let ptr = g.elem_ptr_of(p.binding, s, p.index, true)?;
            let (scope, sem) = relaxed(g);
            let fty = g.scalar_ty(s);
            ck!(g, g.b.atomic_f_add_ext(fty, None, ptr, scope, sem, v))?
        } else {
            float_cas(g, &p, s, v, add, min)?
        }
    } else {
        let ptr = g.elem_ptr_of(p.binding, s, p.index, true)?;
        let (scope, sem) = relaxed(g);
        let ity = g.scalar_ty(s);
        let unsigned = g.is_unsigned(ty);
        let b = &mut g.b;
        let r = match (add, min, unsigned) {
            (true, _, _) => b.atomic_i_add(ity, None, ptr, scope, sem, v),
            (false, true, false) => b.atomic_s_min(ity, None, ptr, scope, sem, v),
            (false, true, true) => b.atomic_u_min(ity, None, ptr, scope, sem, v),
            (false, false, false) => b.atomic_s_max(ity, None, ptr, scope, sem, v),
            (false, false, true) => b.atomic_u_max(ity, None, ptr, scope, sem, v),
        };
        g.ck(r)?
    };
    g.set_id(op, old);
    Ok(())
}

/// A relaxed float read-modify-write by compare-exchange on the bits (the buffer's unsigned
/// view); min/max are the interpreter's minNum/maxNum (the new value wins when the old one is
/// NaN or it is smaller, larger). Returns the old value.
fn float_cas(g: &mut Gen<'_>, p: &GPtr, s: Scalar, v: Word, add: bool, min: bool) -> R<Word> {
    let bits = Scalar::I(s.width());
    let bty = g.scalar_ty(bits);
    let fty = g.scalar_ty(s);
    let bool_t = g.scalar_ty(Scalar::Bool);
    let ptr = g.elem_ptr_of(p.binding, bits, p.index, true)?;
    let (scope, sem) = relaxed(g);
    let header = g.b.id();
    let body = g.b.id();
    let cont = g.b.id();
    let merge = g.b.id();
    let passes = g.begin_loop_count()?;
    ck!(g, g.b.branch(header))?;
    ck!(g, g.b.begin_block(Some(header)))?;
    g.count_loop_pass(passes)?;
    ck!(g, g.b.loop_merge(merge, cont, spirv::LoopControl::NONE, []))?;
    ck!(g, g.b.branch(body))?;
    ck!(g, g.b.begin_block(Some(body)))?;
    let cur_bits = ck!(g, g.b.atomic_load(bty, None, ptr, scope, sem))?;
    let cur = ck!(g, g.b.bitcast(fty, None, cur_bits))?;
    let new = if add {
        ck!(g, g.b.f_add(fty, None, cur, v))?
    } else {
        let nan = ck!(g, g.b.is_nan(bool_t, None, cur))?;
        let better = if min {
            ck!(g, g.b.f_ord_less_than(bool_t, None, v, cur))?
        } else {
            ck!(g, g.b.f_ord_greater_than(bool_t, None, v, cur))?
        };
        let take = ck!(g, g.b.logical_or(bool_t, None, nan, better))?;
        ck!(g, g.b.select(fty, None, take, v, cur))?
    };
    let new_bits = ck!(g, g.b.bitcast(bty, None, new))?;
    let seen = ck!(
        g,
        g.b.atomic_compare_exchange(bty, None, ptr, scope, sem, sem, new_bits, cur_bits,)
    )?;
    let ok = ck!(g, g.b.i_equal(bool_t, None, seen, cur_bits))?;
    ck!(g, g.b.branch_conditional(ok, merge, cont, []))?;
    ck!(g, g.b.begin_block(Some(cont)))?;
    ck!(g, g.b.branch(header))?;
    ck!(g, g.b.begin_block(Some(merge)))?;
    g.check_loop_count(g.op, passes)?;
    Ok(cur)
}

/// A relaxed 8- or 16-bit integer read-modify-write (Vulkan has no narrower atomics): a
/// compare-exchange loop on the 32-bit word holding the element (little-endian, so element
/// `i` is bits `(i % n) * width` of word `i / n`, n = 32 / width; the device's buffers are
/// whole words), replacing only its bits. Returns the old value.
fn narrow_cas(
    g: &mut Gen<'_>,
    p: &GPtr,
    s: Scalar,
    v: Word,
    add: bool,
    min: bool,
    unsigned: bool,
) -> R<Word> {
    let w = s.width();
    let per = i64::from(32 / w);
    let u32_t = g.scalar_ty(Scalar::I(32));
    let nty = g.scalar_ty(s);
    let ity = g.scalar_ty(g.index());
    let bool_t = g.scalar_ty(Scalar::Bool);
    let per_c = g.idx_const(per);
    let word = ck!(g, g.b.u_div(ity, None, p.index, per_c))?;
    let lane = ck!(g, g.b.u_mod(ity, None, p.index, per_c))?;
    let lane = if g.index() == Scalar::I(32) {
        lane
    } else {
        ck!(g, g.b.u_convert(u32_t, None, lane))?
    };
    let width_c = g.u32c(w);
    let shift = ck!(g, g.b.i_mul(u32_t, None, lane, width_c))?;
    let mask = g.u32c((1u32 << w) - 1);
    let mask_at = ck!(g, g.b.shift_left_logical(u32_t, None, mask, shift))?;
    let keep = ck!(g, g.b.not(u32_t, None, mask_at))?;
    let ptr = g.elem_ptr_of(p.binding, Scalar::I(32), word, true)?;
    let (scope, sem) = relaxed(g);
    let header = g.b.id();
    let body = g.b.id();
    let cont = g.b.id();
    let merge = g.b.id();
    let passes = g.begin_loop_count()?;
    ck!(g, g.b.branch(header))?;
    ck!(g, g.b.begin_block(Some(header)))?;
    g.count_loop_pass(passes)?;
    ck!(g, g.b.loop_merge(merge, cont, spirv::LoopControl::NONE, []))?;
    ck!(g, g.b.branch(body))?;
    ck!(g, g.b.begin_block(Some(body)))?;
    let cur = ck!(g, g.b.atomic_load(u32_t, None, ptr, scope, sem))?;
    let bits = ck!(g, g.b.shift_right_logical(u32_t, None, cur, shift))?;
    let old = ck!(g, g.b.u_convert(nty, None, bits))?;
    let new = if add {
        ck!(g, g.b.i_add(nty, None, old, v))?
    } else {
        let b = &mut g.b;
        let better = match (min, unsigned) {
            (true, false) => b.s_less_than(bool_t, None, v, old),
            (true, true) => b.u_less_than(bool_t, None, v, old),
            (false, false) => b.s_greater_than(bool_t, None, v, old),
            (false, true) => b.u_greater_than(bool_t, None, v, old),
        };
        let better = g.ck(better)?;
        ck!(g, g.b.select(nty, None, better, v, old))?
    };
    let wide = ck!(g, g.b.u_convert(u32_t, None, new))?;
    let placed = ck!(g, g.b.shift_left_logical(u32_t, None, wide, shift))?;
    let kept = ck!(g, g.b.bitwise_and(u32_t, None, cur, keep))?;
    let next = ck!(g, g.b.bitwise_or(u32_t, None, kept, placed))?;
    let seen = ck!(
        g,
        g.b.atomic_compare_exchange(u32_t, None, ptr, scope, sem, sem, next, cur)
    )?;
    let ok = ck!(g, g.b.i_equal(bool_t, None, seen, cur))?;
    ck!(g, g.b.branch_conditional(ok, merge, cont, []))?;
    ck!(g, g.b.begin_block(Some(cont)))?;
    ck!(g, g.b.branch(header))?;
    ck!(g, g.b.begin_block(Some(merge)))?;
    g.check_loop_count(g.op, passes)?;
    Ok(old)
}

/// The binding kind of `binding` (for the task's binding list).
pub(super) fn binding_kind(g: &Gen<'_>, binding: u32) -> BindingKind {
    match binding {
        abi::BINDING_ARGS => BindingKind::Args,
        abi::BINDING_TEMPS => BindingKind::Temps,
        abi::BINDING_METADATA => BindingKind::Metadata,
        abi::BINDING_HEAP_FLOAT => BindingKind::HeapFloat,
        abi::BINDING_HEAP_INT => BindingKind::HeapInt,
        abi::BINDING_ERRORS => BindingKind::Errors,
        abi::BINDING_OVERFLOW => BindingKind::Overflow,
        b => g
            .data
            .iter()
            .find(|d| d.binding == b)
            .map(|d| d.kind.clone())
            .unwrap_or(BindingKind::Args),
    }
}
