//! Locals: `qd.alloca` becomes a private `lowered.alloca` (zeroed each time it runs, as qd's),
//! `qd.local_load` / `qd.local_store` private loads and stores, `qd.elem_ptr` /
//! `qd.member_ptr` GEP-like `lowered.elem_ptr` (after a bounds check on the index) /
//! `lowered.member_ptr`; `ad.load_element` / `ad.store_element` the same chain for their path,
//! then the access. Pointers convert from `!qd.ptr<T>` to `!lowered.ptr<T, private>`.

use super::access::{local_index, What};
use super::emit::{Em, R};
use qd_ad::{element_access, PathIndex, LOAD_ELEMENT_OP};
use qd_frontend::{pointee_of, AllocaOp, ArrayType, MemberPtrOp, StructType};
use qd_ir::{OpId, Type, Value};
use qd_lowered::{
    private_ptr, AllocaOp as LAlloca, ElemPtrOp, LoadOp, MemberPtrOp as LMember, StoreOp,
};

pub fn alloca(em: &mut Em, op: OpId, _: &[Value]) -> R<()> {
    let pointee = AllocaOp(op).pointee(em.ctx());
    let loc = em.loc;
    let ty = em.rw.intern(|ctx| private_ptr(ctx, pointee));
    let p = em.b(|b| LAlloca::build(b, ty, loc).result(b.ctx));
    em.rw.replace_op(op, &[p]);
    Ok(())
}

pub fn local_load(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let loc = em.loc;
    let v = em.b(|b| LoadOp::build(b, operands[0], loc).result(b.ctx));
    em.rw.replace_op(op, &[v]);
    Ok(())
}

pub fn local_store(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let loc = em.loc;
    em.b(|b| StoreOp::build(b, operands[0], operands[1], loc));
    em.rw.erase_op(op);
    Ok(())
}

/// The pointer to element `index` (fact `k` of the op) of the array `base` points to.
fn array_elem(em: &mut Em, base: Value, arr: ArrayType, k: usize, index: Value) -> R<Value> {
    let len = arr.len(em.ctx());
    let i = local_index(em, k, index, len, What::LocalArray(arr.0))?;
    let loc = em.loc;
    Ok(em.b(|b| ElemPtrOp::build(b, base, i, loc).result(b.ctx)))
}

/// The array type a (qd) pointer operand points to.
fn array_of(em: &Em, op: OpId) -> R<ArrayType> {
    let base = em.ctx().operand(op, 0);
    ArrayType::from_type(em.ctx(), pointee_of(em.ctx(), base))
        .ok_or_else(|| em.internal("qd.elem_ptr of a pointer to a non-array"))
}

pub fn elem_ptr(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let arr = array_of(em, op)?;
    let p = array_elem(em, operands[0], arr, 0, operands[1])?;
    em.rw.replace_op(op, &[p]);
    Ok(())
}

fn member_ptr_to(em: &mut Em, base: Value, index: usize, member: Type) -> R<Value> {
    let loc = em.loc;
    let ty = em.rw.intern(|ctx| private_ptr(ctx, member));
    let index = u32::try_from(index).map_err(|_| em.internal("member index out of range"))?;
    Ok(em.b(|b| LMember::build(b, base, ty, index, loc).result(b.ctx)))
}

pub fn member_ptr(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let m = MemberPtrOp(op);
    let index = m.index(em.ctx());
    let base_ty = pointee_of(em.ctx(), m.base(em.ctx()));
    let Some(member) =
        StructType::from_type(em.ctx(), base_ty).and_then(|s| s.member(em.ctx(), index))
    else {
        return Err(em.internal("qd.member_ptr out of its struct"));
    };
    let p = member_ptr_to(em, operands[0], index, member)?;
    em.rw.replace_op(op, &[p]);
    Ok(())
}

/// One step of an element path, resolved before anything is emitted.
enum Step {
    Elem {
        arr: ArrayType,
        index: Result<i64, (usize, Value)>,
    },
    Member {
        index: usize,
        ty: Type,
    },
}

/// `ad.load_element` / `ad.store_element`: the elem_ptr / member_ptr chain of the path (a
/// literal array index needs no check: the verifier keeps it in range), then the access.
pub fn element(em: &mut Em, op: OpId, operands: &[Value]) -> R<()> {
    let Some((qbase, path)) = element_access(em.ctx(), op) else {
        return Err(em.internal("malformed element access"));
    };
    let is_load = em.ctx().name(op) == LOAD_ELEMENT_OP;
    // Converted operands: [value,] base, then one per value index of the path.
    let base_at = usize::from(!is_load);
    let mut values = operands[base_at + 1..].iter().copied();
    let mut ty = pointee_of(em.ctx(), qbase);
    let mut steps = Vec::new();
    let mut k = 0;
    for step in path {
        let ctx = em.ctx();
        if let Some(arr) = ArrayType::from_type(ctx, ty) {
            let index = match step {
                PathIndex::Const(c) => Ok(c),
                PathIndex::Value(_) => {
                    let v = values
                        .next()
                        .ok_or_else(|| em.internal("an element path lacks an index operand"))?;
                    k += 1;
                    Err((k - 1, v))
                }
            };
            ty = arr.elem(ctx);
            steps.push(Step::Elem { arr, index });
        } else if let Some(s) = StructType::from_type(ctx, ty) {
            let member = match step {
                PathIndex::Const(c) => usize::try_from(c)
                    .ok()
                    .and_then(|c| s.member(ctx, c).map(|m| (c, m))),
                PathIndex::Value(_) => None,
            };
            let Some((index, m)) = member else {
                return Err(em.internal("an element path does not fit its struct"));
            };
            ty = m;
            steps.push(Step::Member { index, ty: m });
        } else {
            return Err(em.internal("an element path goes below a scalar"));
        }
    }
    let mut p = operands[base_at];
    for s in steps {
        p = match s {
            Step::Elem { index: Ok(c), .. } => {
                let i = em.const_i64(c);
                let loc = em.loc;
                em.b(|b| ElemPtrOp::build(b, p, i, loc).result(b.ctx))
            }
            Step::Elem {
                arr,
                index: Err((k, v)),
            } => array_elem(em, p, arr, k, v)?,
            Step::Member { index, ty } => member_ptr_to(em, p, index, ty)?,
        };
    }
    let loc = em.loc;
    if is_load {
        let v = em.b(|b| LoadOp::build(b, p, loc).result(b.ctx));
        em.rw.replace_op(op, &[v]);
    } else {
        let v = operands[0];
        em.b(|b| StoreOp::build(b, v, p, loc));
        em.rw.erase_op(op);
    }
    Ok(())
}
