//! Values in temporaries slots: the store of a spilled value (or a range bound) by the task that
//! computes it, and the load by a task that uses it. A slot is 8 bytes; `i1` is stored as `i8`
//! (global memory holds no `i1`) and `index` as `i64`.

use crate::emit;
use crate::lowerer::{Lowerer, R};
use qd_arith::names::{EXTUI, INDEX_CAST, TRUNCI};
use qd_ir::{Type, TypeData, Value};

/// The type a value of type `ty` has in a slot, and whether it is `i1` / `index`.
fn slot_type(lw: &mut Lowerer, ty: Type) -> Type {
    match lw.ctx.type_data(ty) {
        TypeData::Integer { width: 1, .. } => lw.ctx.integer_type(8),
        TypeData::Index => lw.ctx.i64_type(),
        _ => ty,
    }
}

/// Stores `v` (a lowered value) into slot `slot`.
pub fn store(lw: &mut Lowerer, v: Value, slot: u32) {
    let ty = lw.ctx.value_type(v);
    let st = slot_type(lw, ty);
    let stored = if st == ty {
        v
    } else if lw.ctx.type_data(ty).is_index() {
        lw.cast(INDEX_CAST, v, st)
    } else {
        lw.cast(EXTUI, v, st)
    };
    let p = emit::temp_ptr(lw, slot, st);
    emit::store(lw, stored, p);
}

/// Loads a value of type `ty` from slot `slot`.
pub fn reload(lw: &mut Lowerer, slot: u32, ty: Type) -> R<Value> {
    let st = slot_type(lw, ty);
    let p = emit::temp_ptr(lw, slot, st);
    let v = emit::load(lw, p)?;
    Ok(if st == ty {
        v
    } else if lw.ctx.type_data(ty).is_index() {
        lw.cast(INDEX_CAST, v, ty)
    } else {
        lw.cast(TRUNCI, v, ty)
    })
}
