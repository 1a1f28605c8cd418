//! Locals: `qd.alloca` becomes a private `lowered.alloca` (zeroed each time it runs, as qd's),
//! `qd.local_load` / `qd.local_store` private loads and stores, `qd.elem_ptr` /
//! `qd.member_ptr` GEP-like `lowered.elem_ptr` (after a bounds check on the index) /
//! `lowered.member_ptr`; `ad.load_element` / `ad.store_element` the same chain for their path.

use crate::access::local_index;
use crate::emit;
use crate::lowerer::{Lowerer, R};
use qd_ad::{element_access, PathIndex, LOAD_ELEMENT_OP};
use qd_frontend::{
    AllocaOp, ArrayType, ElemPtrOp, LocalLoadOp, LocalStoreOp, MemberPtrOp, StructType,
};
use qd_ir::{OpId, Type, Value};

pub fn alloca(lw: &mut Lowerer, op: OpId) -> R<()> {
    let a = AllocaOp(op);
    let pointee = a.pointee(lw.ctx);
    let p = emit::alloca(lw, pointee);
    lw.map.map(a.result(lw.ctx), p);
    Ok(())
}

pub fn local_load(lw: &mut Lowerer, op: OpId) -> R<()> {
    let l = LocalLoadOp(op);
    let p = lw.get(l.ptr(lw.ctx))?;
    let v = emit::load(lw, p)?;
    lw.map.map(l.result(lw.ctx), v);
    Ok(())
}

pub fn local_store(lw: &mut Lowerer, op: OpId) -> R<()> {
    let s = LocalStoreOp(op);
    let v = lw.get(s.value(lw.ctx))?;
    let p = lw.get(s.ptr(lw.ctx))?;
    emit::store(lw, v, p);
    Ok(())
}

/// The message of a local array's bounds check, as the interpreter names it.
fn array_what(lw: &Lowerer, arr: Type) -> String {
    format!("local array '{}'", lw.type_str(arr))
}

/// The pointer to element `index` (a qd value) of the array `base` points to.
fn array_elem(lw: &mut Lowerer, base: Value, arr: ArrayType, index: Value) -> R<Value> {
    let len = arr.len(lw.ctx);
    let what = array_what(lw, arr.0);
    let k = local_index(lw, index, len, &what)?;
    Ok(emit::elem_ptr(lw, base, k))
}

pub fn elem_ptr(lw: &mut Lowerer, op: OpId) -> R<()> {
    let e = ElemPtrOp(op);
    let qbase = e.base(lw.ctx);
    let ty = lw.pointee(qbase)?;
    let Some(arr) = ArrayType::from_type(lw.ctx, ty) else {
        return Err(lw.internal("qd.elem_ptr of a pointer to a non-array"));
    };
    let base = lw.get(qbase)?;
    let p = array_elem(lw, base, arr, e.index(lw.ctx))?;
    lw.map.map(e.result(lw.ctx), p);
    Ok(())
}

pub fn member_ptr(lw: &mut Lowerer, op: OpId) -> R<()> {
    let m = MemberPtrOp(op);
    let qbase = m.base(lw.ctx);
    let ty = lw.pointee(qbase)?;
    let index = m.index(lw.ctx);
    let Some(member) = StructType::from_type(lw.ctx, ty).and_then(|s| s.member(lw.ctx, index))
    else {
        return Err(lw.internal("qd.member_ptr out of its struct"));
    };
    let base = lw.get(qbase)?;
    let p = emit::member_ptr(lw, base, index, member)?;
    lw.map.map(m.result(lw.ctx), p);
    Ok(())
}

/// `ad.load_element` / `ad.store_element`: the elem_ptr / member_ptr chain of the path (a
/// literal array index needs no check: the verifier keeps it in range), then the access.
pub fn element(lw: &mut Lowerer, op: OpId) -> R<()> {
    let Some((qbase, path)) = element_access(lw.ctx, op) else {
        return Err(lw.internal("malformed element access"));
    };
    let mut ty = lw.pointee(qbase)?;
    let mut p = lw.get(qbase)?;
    for step in path {
        if let Some(arr) = ArrayType::from_type(lw.ctx, ty) {
            let elem = arr.elem(lw.ctx);
            p = match step {
                PathIndex::Const(k) => {
                    let k = lw.const_i64(k);
                    emit::elem_ptr(lw, p, k)
                }
                PathIndex::Value(v) => array_elem(lw, p, arr, v)?,
            };
            ty = elem;
        } else if let Some(s) = StructType::from_type(lw.ctx, ty) {
            let member = match step {
                PathIndex::Const(k) => usize::try_from(k)
                    .ok()
                    .and_then(|k| s.member(lw.ctx, k).map(|m| (k, m))),
                PathIndex::Value(_) => None,
            };
            let Some((k, m)) = member else {
                return Err(lw.internal("an element path does not fit its struct"));
            };
            p = emit::member_ptr(lw, p, k, m)?;
            ty = m;
        } else {
            return Err(lw.internal("an element path goes below a scalar"));
        }
    }
    if lw.ctx.name(op) == LOAD_ELEMENT_OP {
        let v = emit::load(lw, p)?;
        let r = lw.ctx.result(op, 0);
        lw.map.map(r, v);
    } else {
        let qv = lw.ctx.operand(op, 0);
        let v = lw.get(qv)?;
        emit::store(lw, v, p);
    }
    Ok(())
}
