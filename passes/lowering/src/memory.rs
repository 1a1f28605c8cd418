//! Global memory: `qd.load` / `qd.store` / `qd.atomic_*` on fields, `qd.ndarray_*`, and the ad
//! dialect's adjoint accesses (`ad.load_field_adjoint`, `ad.acc_field_adjoint`,
//! `ad.store_field_adjoint`: the field's adjoint buffer; `ad.acc_ndarray_adjoint`: the adjoint
//! ndarray argument). Accumulations are atomic adds, as on a device.

use crate::access::{
    field_element, load_elem, ndarray_arg, ndarray_dim, ndarray_element, stored_value,
};
use crate::emit;
use crate::lowerer::{Lowerer, R};
use qd_ad::{AccNdarrayAdjointOp, FieldAdjointWriteOp, LoadFieldAdjointOp};
use qd_frontend::{
    AtomicKind, AtomicOp, LoadOp, NdarrayLoadOp, NdarrayShapeOp, NdarrayStoreOp, StoreOp,
};
use qd_ir::{OpId, TypeData, Value, ValueDef};
use qd_lowered::{ATOMIC_ADD_OP, ATOMIC_MAX_OP, ATOMIC_MIN_OP};

pub fn field_load(lw: &mut Lowerer, op: OpId) -> R<()> {
    let l = LoadOp(op);
    let name = l.field_name(lw.ctx).to_string();
    let idx = l.indices(lw.ctx);
    let (p, elem) = field_element(lw, op, &name, false, &idx)?;
    let v = load_elem(lw, p, elem)?;
    lw.map.map(l.result(lw.ctx), v);
    Ok(())
}

pub fn field_store(lw: &mut Lowerer, op: OpId) -> R<()> {
    let s = StoreOp(op);
    let name = s.field_name(lw.ctx).to_string();
    let idx = s.indices(lw.ctx);
    let v = lw.get(s.value(lw.ctx))?;
    let (p, _) = field_element(lw, op, &name, false, &idx)?;
    let v = stored_value(lw, v, p);
    emit::store(lw, v, p);
    Ok(())
}

fn atomic_name(kind: AtomicKind) -> &'static str {
    match kind {
        AtomicKind::Add => ATOMIC_ADD_OP,
        AtomicKind::Min => ATOMIC_MIN_OP,
        AtomicKind::Max => ATOMIC_MAX_OP,
    }
}

/// Atomics on `i1` would need a read-modify-write of a byte the devices do not have.
fn check_atomic_type(lw: &Lowerer, v: Value) -> R<()> {
    let ty = lw.ctx.value_type(v);
    if matches!(lw.ctx.type_data(ty), TypeData::Integer { width: 1, .. }) {
        return Err(lw.error("cannot lower an atomic on an i1 element"));
    }
    Ok(())
}

pub fn field_atomic(lw: &mut Lowerer, op: OpId) -> R<()> {
    let a = AtomicOp(op);
    let name = a.field_name(lw.ctx).to_string();
    let idx = a.indices(lw.ctx);
    let value = a.value(lw.ctx);
    check_atomic_type(lw, value)?;
    let v = lw.get(value)?;
    let (p, _) = field_element(lw, op, &name, false, &idx)?;
    let old = emit::atomic(lw, atomic_name(a.kind(lw.ctx)), v, p);
    if let Some(r) = a.old_value(lw.ctx) {
        lw.map.map(r, old);
    }
    Ok(())
}

/// `ndarray argument N` (or `adjoint ndarray argument N`), as the interpreter names it.
fn ndarray_what(lw: &Lowerer, arr: Value, adjoint: bool) -> String {
    let prefix = if adjoint {
        "adjoint ndarray"
    } else {
        "ndarray"
    };
    match lw.ctx.value_def(arr) {
        ValueDef::BlockArg { index, .. } => format!("{prefix} argument {index}"),
        ValueDef::OpResult { .. } => prefix.to_string(),
    }
}

pub fn ndarray_load(lw: &mut Lowerer, op: OpId) -> R<()> {
    let l = NdarrayLoadOp(op);
    let arr = l.array(lw.ctx);
    let idx = l.indices(lw.ctx);
    let what = ndarray_what(lw, arr, false);
    let (p, elem) = ndarray_element(lw, arr, &idx, &what)?;
    let v = load_elem(lw, p, elem)?;
    lw.map.map(l.result(lw.ctx), v);
    Ok(())
}

pub fn ndarray_store(lw: &mut Lowerer, op: OpId) -> R<()> {
    let s = NdarrayStoreOp(op);
    let arr = s.array(lw.ctx);
    let idx = s.indices(lw.ctx);
    let v = lw.get(s.value(lw.ctx))?;
    let what = ndarray_what(lw, arr, false);
    let (p, _) = ndarray_element(lw, arr, &idx, &what)?;
    let v = stored_value(lw, v, p);
    emit::store(lw, v, p);
    Ok(())
}

/// `qd.ndarray_shape %a, k` (an i32): the i64 extent, truncated.
pub fn ndarray_shape(lw: &mut Lowerer, op: OpId) -> R<()> {
    let s = NdarrayShapeOp(op);
    let arg = ndarray_arg(lw, s.array(lw.ctx))?;
    let axis = u32::try_from(s.axis(lw.ctx)).map_err(|_| lw.error("axis out of range"))?;
    let d = ndarray_dim(lw, arg, axis);
    let r = s.result(lw.ctx);
    let ty = lw.ctx.value_type(r);
    let v = lw.narrow_i64(d, ty)?;
    lw.map.map(r, v);
    Ok(())
}

pub fn load_field_adjoint(lw: &mut Lowerer, op: OpId) -> R<()> {
    let l = LoadFieldAdjointOp(op);
    let name = l.field_name(lw.ctx).to_string();
    let idx = l.indices(lw.ctx);
    let (p, elem) = field_element(lw, op, &name, true, &idx)?;
    let v = load_elem(lw, p, elem)?;
    lw.map.map(l.result(lw.ctx), v);
    Ok(())
}

/// `ad.acc_field_adjoint` (an atomic add) and `ad.store_field_adjoint` (a store).
pub fn write_field_adjoint(lw: &mut Lowerer, op: OpId) -> R<()> {
    let w = FieldAdjointWriteOp(op);
    let name = w.field_name(lw.ctx).to_string();
    let idx = w.indices(lw.ctx);
    let v = lw.get(w.value(lw.ctx))?;
    let (p, _) = field_element(lw, op, &name, true, &idx)?;
    if w.is_accumulate(lw.ctx) {
        emit::atomic(lw, ATOMIC_ADD_OP, v, p);
    } else {
        emit::store(lw, v, p);
    }
    Ok(())
}

pub fn acc_ndarray_adjoint(lw: &mut Lowerer, op: OpId) -> R<()> {
    let a = AccNdarrayAdjointOp(op);
    let arr = a.array(lw.ctx);
    let idx = a.indices(lw.ctx);
    let v = lw.get(a.value(lw.ctx))?;
    let what = ndarray_what(lw, arr, true);
    let (p, _) = ndarray_element(lw, arr, &idx, &what)?;
    emit::atomic(lw, ATOMIC_ADD_OP, v, p);
    Ok(())
}
