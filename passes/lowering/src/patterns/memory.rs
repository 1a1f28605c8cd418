//! Global memory: `qd.load` / `qd.store` / `qd.atomic_*` on fields, `qd.ndarray_*` (an atomic sub
//! is an atomic add of the negated value: `0 - v` wraps as the subtraction does), and the ad
//! dialect's adjoint accesses (`ad.load_field_adjoint`, `ad.acc_field_adjoint`,
//! `ad.store_field_adjoint`: the field's adjoint buffer; `ad.acc_ndarray_adjoint`: the adjoint
//! ndarray argument). Accumulations are atomic adds, as on a device. Each conversion gets the
//! op's converted operands.

use super::access::{
    field_element, field_info, load_elem, ndarray_arg, ndarray_dim, ndarray_element, stored_value,
};
use super::emit::{Em, R};
use qd_ad::FieldAdjointWriteOp;
use qd_arith::names::{NEGF, SUBI};
use qd_frontend::{AtomicKind, AtomicOp, NdarrayAtomicOp, NdarrayShapeOp};
use qd_ir::{OpId, TypeData, Value};
use qd_lowered::{AtomicAddOp, AtomicMaxOp, AtomicMinOp, StoreOp as LStore};

fn store(em: &mut Em, v: Value, p: Value) {
    let loc = em.loc;
    em.b(|b| LStore::build(b, v, p, loc));
}

fn atomic(em: &mut Em, kind: AtomicKind, v: Value, p: Value) -> Value {
    let loc = em.loc;
    let v = match kind {
        AtomicKind::Sub => {
            let ty = em.ctx().value_type(v);
            if em.ctx().type_data(ty).is_float() {
                em.arith(NEGF, &[v])
            } else {
                let z = em.zero(ty);
                em.arith(SUBI, &[z, v])
            }
        }
        _ => v,
    };
    em.b(|b| match kind {
        AtomicKind::Add | AtomicKind::Sub => AtomicAddOp::build(b, v, p, loc).old(b.ctx),
        AtomicKind::Min => AtomicMinOp::build(b, v, p, loc).old(b.ctx),
        AtomicKind::Max => AtomicMaxOp::build(b, v, p, loc).old(b.ctx),
    })
}

pub fn field_load(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let f = field_info(em, op)?;
    let (p, elem) = field_element(em, &f, false, operands)?;
    let v = load_elem(em, p, elem);
    em.rw.replace_op(op, &[v]);
    Ok(())
}

pub fn field_store(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let f = field_info(em, op)?;
    let (p, _) = field_element(em, &f, false, &operands[1..])?;
    let v = stored_value(em, operands[0], p);
    store(em, v, p);
    em.rw.erase_op(op);
    Ok(())
}

pub fn field_atomic(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let kind = AtomicOp(op).kind(em.ctx());
    let f = field_info(em, op)?;
    // Atomics on i1 would need a read-modify-write of a byte the devices do not have.
    if matches!(
        em.ctx().type_data(f.elem),
        TypeData::Integer { width: 1, .. }
    ) {
        return Err(em.error("cannot lower an atomic on an i1 element"));
    }
    let (p, _) = field_element(em, &f, false, &operands[1..])?;
    let old = atomic(em, kind, operands[0], p);
    if em.ctx().num_results(op) > 0 {
        em.rw.replace_op(op, &[old]);
    } else {
        em.rw.erase_op(op);
    }
    Ok(())
}

pub fn ndarray_load(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let (p, elem) = ndarray_element(em, operands[0], &operands[1..], false)?;
    let v = load_elem(em, p, elem);
    em.rw.replace_op(op, &[v]);
    Ok(())
}

pub fn ndarray_store(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let (p, _) = ndarray_element(em, operands[1], &operands[2..], false)?;
    let v = stored_value(em, operands[0], p);
    store(em, v, p);
    em.rw.erase_op(op);
    Ok(())
}

pub fn ndarray_atomic(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let kind = NdarrayAtomicOp(op).kind(em.ctx());
    let (p, elem) = ndarray_element(em, operands[1], &operands[2..], false)?;
    // The verifier refuses i1 elements; a generic-form module that was not verified may not.
    if matches!(em.ctx().type_data(elem), TypeData::Integer { width: 1, .. }) {
        return Err(em.error("cannot lower an atomic on an i1 element"));
    }
    let old = atomic(em, kind, operands[0], p);
    if em.ctx().num_results(op) > 0 {
        em.rw.replace_op(op, &[old]);
    } else {
        em.rw.erase_op(op);
    }
    Ok(())
}

/// `qd.ndarray_shape %a, k` (an i32): the i64 extent, truncated.
pub fn ndarray_shape(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let s = NdarrayShapeOp(op);
    let arg = ndarray_arg(em, operands[0])?;
    let axis = u32::try_from(s.axis(em.ctx())).map_err(|_| em.error("axis out of range"))?;
    let ty = em.ctx().value_type(s.result(em.ctx()));
    let d = ndarray_dim(em, arg, axis);
    let v = em.narrow_i64(d, ty);
    em.rw.replace_op(op, &[v]);
    Ok(())
}

pub fn load_field_adjoint(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let f = field_info(em, op)?;
    let (p, elem) = field_element(em, &f, true, operands)?;
    let v = load_elem(em, p, elem);
    em.rw.replace_op(op, &[v]);
    Ok(())
}

/// `ad.acc_field_adjoint` (an atomic add) and `ad.store_field_adjoint` (a store).
pub fn write_field_adjoint(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let accumulate = FieldAdjointWriteOp(op).is_accumulate(em.ctx());
    let f = field_info(em, op)?;
    let (p, _) = field_element(em, &f, true, &operands[1..])?;
    if accumulate {
        atomic(em, AtomicKind::Add, operands[0], p);
    } else {
        store(em, operands[0], p);
    }
    em.rw.erase_op(op);
    Ok(())
}

pub fn acc_ndarray_adjoint(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let (p, _) = ndarray_element(em, operands[1], &operands[2..], true)?;
    atomic(em, AtomicKind::Add, operands[0], p);
    em.rw.erase_op(op);
    Ok(())
}
