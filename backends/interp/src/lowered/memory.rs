//! Kernel data and global memory: `lowered.arg`, `ndarray_ptr`, `ndarray_dim`, `field_ptr`,
//! `temp_ptr`, `offset`, `load`, `store`, `atomic_*` and `bounds_check`.
//!
//! Pointers are checked when they are made (a field pointer's element type is the field's, an
//! ndarray pointer's the argument's; an i1 buffer is read and written through a wider integer as
//! 0 or 1, the byte a device keeps) and at every access (see `pointer`).

use super::pointer::{self, Scalar, Space, MAX_BUFFER_INDEX};
use super::state::LoweredState;
use super::{index_prop, kernel_params, pointee, state, str_prop, symbol_prop};
use crate::exec::{Compiler, Exec, Flow};
use crate::num::atomic_combine;
use qd_frontend::{AtomicKind, NdarrayType};
use qd_ir::{Diagnostic, OpId, Type};
use qd_lowered as lw;
use qd_runtime::{DType, RuntimeErrorKind};

/// The scalar access through a pointer of type `ptr_ty` (its pointee must be a scalar).
fn access(c: &Compiler<'_>, op: OpId, ptr_ty: Type) -> Result<Scalar, Diagnostic> {
    let t = pointee(c, op, ptr_ty)?;
    Ok(Scalar::new(c.kind(op, t)?))
}

/// Whether a buffer of `buf` elements may be accessed through pointee `ty`: the same type, or
/// an integer of 8 bits or more for an i1 buffer (lowered IR keeps no i1 in global memory).
fn fits(c: &Compiler<'_>, buf: DType, ty: Type) -> bool {
    match DType::from_type(c.ctx(), ty) {
        Ok(t) if t == buf => true,
        Ok(t) => buf == DType::I1 && !t.is_float() && t != DType::I1,
        Err(_) => false,
    }
}

fn mismatch(c: &Compiler<'_>, op: OpId, what: &str, buf: DType, ty: Type) -> Diagnostic {
    c.error(
        op,
        format!(
            "'{}': {what} holds {buf}, not '{}'",
            c.ctx().name(op),
            qd_ir::text::type_to_string(c.ctx(), ty)
        ),
    )
}

/// The ndarray parameter `index` of the kernel: its element dtype and rank.
fn ndarray_param(c: &Compiler<'_>, op: OpId, index: usize) -> Result<(DType, usize), Diagnostic> {
    let ctx = c.ctx();
    let params = kernel_params(c);
    let nd = params
        .get(index)
        .and_then(|&t| NdarrayType::from_type(ctx, t))
        .ok_or_else(|| {
            c.error(
                op,
                format!(
                    "'{}': kernel argument {index} is not an ndarray",
                    ctx.name(op)
                ),
            )
        })?;
    let dtype = DType::from_type(ctx, nd.elem(ctx)).map_err(|e| c.error(op, e))?;
    Ok((dtype, nd.rank(ctx)))
}

/// The index of a buffer a pointer names, checked against what a pointer can hold.
fn buffer_index(c: &Compiler<'_>, op: OpId, index: usize) -> Result<usize, Diagnostic> {
    if index >= MAX_BUFFER_INDEX {
        return Err(c.error(
            op,
            format!("the lowered interpreter addresses at most {MAX_BUFFER_INDEX} buffers"),
        ));
    }
    Ok(index)
}

pub(super) fn arg(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let index = index_prop(c, op, "index")?;
    let ctx = c.ctx();
    let params = kernel_params(c);
    let rt = ctx.value_type(ctx.result(op, 0));
    if params.get(index) != Some(&rt) {
        return Err(c.error(
            op,
            format!(
                "lowered.arg {index}: the kernel has no scalar argument {index} of type '{}'",
                qd_ir::text::type_to_string(ctx, rt)
            ),
        ));
    }
    let sid = state(c);
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        let v = f.state::<LoweredState>(sid).args.get(index).copied();
        f.set(r, v.unwrap_or(0));
        Ok(Flow::Next)
    }))
}

pub(super) fn ndarray_ptr(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let index = buffer_index(c, op, index_prop(c, op, "index")?)?;
    let (dtype, _) = ndarray_param(c, op, index)?;
    let ty = pointee(c, op, c.ctx().value_type(c.ctx().result(op, 0)))?;
    if !fits(c, dtype, ty) {
        return Err(mismatch(
            c,
            op,
            &format!("ndarray argument {index}"),
            dtype,
            ty,
        ));
    }
    let p = pointer::encode(Space::Ndarray(index), 0);
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        f.set(r, p);
        Ok(Flow::Next)
    }))
}

pub(super) fn ndarray_dim(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let index = index_prop(c, op, "index")?;
    let axis = index_prop(c, op, "axis")?;
    let (_, rank) = ndarray_param(c, op, index)?;
    if axis >= rank {
        return Err(c.error(
            op,
            format!("lowered.ndarray_dim: axis {axis} of an ndarray of rank {rank}"),
        ));
    }
    let sid = state(c);
    let r = c.result_slot(op, 0);
    let loc = c.ctx().loc(op);
    Ok(Box::new(move |f| {
        let id = f.state::<LoweredState>(sid).ndarray(index);
        let d = id
            .and_then(|id| f.mem.ndarray(id))
            .and_then(|nd| nd.shape().get(axis).copied());
        let Some(d) = d else {
            return Err(f.error(
                loc,
                RuntimeErrorKind::Device,
                format!("ndarray argument {index} has no axis {axis} in this launch"),
            ));
        };
        f.set(r, d as u64);
        Ok(Flow::Next)
    }))
}

pub(super) fn field_ptr(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let Some(name) = symbol_prop(c, op, "field") else {
        return Err(c.error(op, "lowered.field_ptr needs a field symbol"));
    };
    let Some(index) = c.memory().field_index(name) else {
        return Err(c.error(op, format!("lowered.field_ptr of unknown field @{name}")));
    };
    let index = buffer_index(c, op, index)?;
    let slot = c.memory().field(index);
    let grad = ctx.prop(op, "grad").is_some();
    if grad && slot.grad.is_none() {
        return Err(c.error(
            op,
            format!("field @{name} has no adjoint: it is not needs_grad"),
        ));
    }
    let ty = pointee(c, op, ctx.value_type(ctx.result(op, 0)))?;
    if !fits(c, slot.info.dtype, ty) {
        return Err(mismatch(
            c,
            op,
            &format!("field @{name}"),
            slot.info.dtype,
            ty,
        ));
    }
    let space = if grad {
        Space::FieldGrad(index)
    } else {
        Space::Field(index)
    };
    let p = pointer::encode(space, 0);
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        f.set(r, p);
        Ok(Flow::Next)
    }))
}

/// The kernel's `temps` property: its number of 8-byte temporaries slots.
pub(super) fn temps_of(c: &Compiler<'_>, kernel: OpId) -> Result<usize, Diagnostic> {
    match c.ctx().prop(kernel, "temps") {
        None => Ok(0),
        Some(_) => index_prop(c, kernel, "temps"),
    }
}

pub(super) fn temp_ptr(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let slot = index_prop(c, op, "slot")?;
    let temps = temps_of(c, c.kernel())?;
    let s = access(c, op, c.ctx().value_type(c.ctx().result(op, 0)))?;
    if slot >= temps || s.bytes == 0 || s.bytes > 8 {
        return Err(c.error(
            op,
            format!("lowered.temp_ptr {slot}: the kernel has {temps} 8-byte slots"),
        ));
    }
    let p = pointer::encode(Space::Temps, slot as u64 * 8);
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        f.set(r, p);
        Ok(Flow::Next)
    }))
}

pub(super) fn offset(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let s = access(c, op, ctx.value_type(ctx.operand(op, 0)))?;
    let (p, i) = (c.slot(ctx.operand(op, 0)), c.slot(ctx.operand(op, 1)));
    let r = c.result_slot(op, 0);
    let bytes = s.bytes as i64;
    Ok(Box::new(move |f| {
        let base = f.get(p);
        let k = f.get(i) as i64;
        // Byte-addressed buffers move by the element's size, the others by one element.
        let delta = match pointer::decode(base).0 {
            Some(space) if space.is_bytes() => k.wrapping_mul(bytes),
            _ => k,
        };
        f.set(r, pointer::add(base, delta));
        Ok(Flow::Next)
    }))
}

pub(super) fn load(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let s = access(c, op, ctx.value_type(ctx.operand(op, 0)))?;
    let p = c.slot(ctx.operand(op, 0));
    let r = c.result_slot(op, 0);
    let sid = state(c);
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let ptr = f.get(p);
        let v = pointer::load(f, sid, ptr, s, loc)?;
        f.set(r, v);
        Ok(Flow::Next)
    }))
}

pub(super) fn store(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let s = access(c, op, ctx.value_type(ctx.operand(op, 1)))?;
    let (v, p) = (c.slot(ctx.operand(op, 0)), c.slot(ctx.operand(op, 1)));
    let sid = state(c);
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let (ptr, bits) = (f.get(p), f.get(v));
        pointer::update(f, sid, ptr, s, loc, |_| bits)?;
        Ok(Flow::Next)
    }))
}

/// `lowered.atomic_add/min/max`, as `qd.atomic_*`: integers wrap (add) and compare by their
/// signedness; floats add in their precision and take IEEE minNum/maxNum.
pub(super) fn atomic(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let name = ctx.name(op);
    let kind = c.kind(op, ctx.value_type(ctx.operand(op, 0)))?;
    let which = match name {
        lw::ATOMIC_ADD_OP => AtomicKind::Add,
        lw::ATOMIC_MIN_OP => AtomicKind::Min,
        _ => AtomicKind::Max,
    };
    let combine = atomic_combine(kind, which);
    let s = access(c, op, ctx.value_type(ctx.operand(op, 1)))?;
    let (v, p) = (c.slot(ctx.operand(op, 0)), c.slot(ctx.operand(op, 1)));
    let old = ctx.results(op).first().map(|&r| c.slot(r));
    let sid = state(c);
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let (ptr, value) = (f.get(p), f.get(v));
        let prev = pointer::update(f, sid, ptr, s, loc, |x| combine(x, value))?;
        if let Some(r) = old {
            f.set(r, prev);
        }
        Ok(Flow::Next)
    }))
}

/// `lowered.bounds_check`: indices then as many extents. When an index is out of its extent the
/// thread stops with the qd interpreter's error for the access it guards: `index [i, j] is out
/// of bounds for field @x of shape [4, 10]`, or with the unit property `local` (`what` =
/// `local array '!qd.array<10xf32>'`) `index 12 is out of bounds for local array '...' of
/// length 10`.
pub(super) fn bounds_check(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let n = ctx.num_operands(op);
    if n == 0 || !n.is_multiple_of(2) {
        return Err(c.error(op, "lowered.bounds_check needs indices and as many extents"));
    }
    let what = str_prop(c, op, "what").unwrap_or("an array").to_string();
    let slots = c.operand_slots(op);
    let (idx, ext) = slots.split_at(n / 2);
    let (idx, ext) = (idx.to_vec(), ext.to_vec());
    let local = lw::BoundsCheckOp(op).is_local(ctx);
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let inside = idx.iter().zip(&ext).all(|(&i, &e)| {
            let (i, e) = (f.get(i) as i64, f.get(e) as i64);
            0 <= i && i < e
        });
        if inside {
            return Ok(Flow::Next);
        }
        let values: Vec<i64> = idx.iter().map(|&s| f.get(s) as i64).collect();
        let shape: Vec<i64> = ext.iter().map(|&s| f.get(s) as i64).collect();
        let message = if local && values.len() == 1 {
            format!(
                "index {} is out of bounds for {what} of length {}",
                values[0], shape[0]
            )
        } else {
            format!("index {values:?} is out of bounds for {what} of shape {shape:?}")
        };
        Err(f.error(loc, RuntimeErrorKind::OutOfBounds, message))
    }))
}
