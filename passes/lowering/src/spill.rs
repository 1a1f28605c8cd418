//! Values in temporaries slots: the store of a spilled value (or a range bound) by the task that
//! computes it, and the load by a task that uses it. A slot is 8 bytes; `i1` is stored as `i8`
//! (global memory holds no `i1`) and `index` as `i64`.

use qd_arith::names::{EXTUI, INDEX_CAST, TRUNCI};
use qd_ir::{Builder, Context, Location, Type, TypeData, Value};
use qd_lowered::{global_ptr, LoadOp, StoreOp, TempPtrOp};

/// The type a value of type `ty` has in a slot.
fn slot_type(ctx: &mut Context, ty: Type) -> Type {
    match ctx.type_data(ty) {
        TypeData::Integer { width: 1, .. } => ctx.integer_type(8),
        TypeData::Index => ctx.i64_type(),
        _ => ty,
    }
}

/// Stores `v` into slot `slot`.
pub fn store(b: &mut Builder, v: Value, slot: u32, loc: Location) {
    let ty = b.ctx.value_type(v);
    let st = slot_type(b.ctx, ty);
    let stored = if st == ty {
        v
    } else if b.ctx.type_data(ty).is_index() {
        qd_arith::build_cast(b, INDEX_CAST, v, st, loc)
    } else {
        qd_arith::build_cast(b, EXTUI, v, st, loc)
    };
    let pty = global_ptr(b.ctx, st);
    let p = TempPtrOp::build(b, pty, slot, loc).result(b.ctx);
    StoreOp::build(b, stored, p, loc);
}

/// Loads a value of type `ty` from slot `slot`.
pub fn reload(b: &mut Builder, slot: u32, ty: Type, loc: Location) -> Value {
    let st = slot_type(b.ctx, ty);
    let pty = global_ptr(b.ctx, st);
    let p = TempPtrOp::build(b, pty, slot, loc).result(b.ctx);
    let v = LoadOp::build(b, p, loc).result(b.ctx);
    if st == ty {
        v
    } else if b.ctx.type_data(ty).is_index() {
        qd_arith::build_cast(b, INDEX_CAST, v, ty, loc)
    } else {
        qd_arith::build_cast(b, TRUNCI, v, ty, loc)
    }
}
