//! Locals: `qd.alloca`, `qd.local_load`, `qd.local_store`, `qd.elem_ptr`, `qd.member_ptr`.
//!
//! Each alloca gets a fixed range of the thread's local cells at compile time (one cell per
//! scalar; arrays and structs are laid out flat, row-major, members in order), as a compiler lays
//! out a stack frame: an alloca executed again (in a loop body) reuses its range, which is sound
//! because loops carry no SSA values, so the previous pointer is dead. A pointer is a cell index;
//! `elem_ptr` checks its index against the array's length.

use crate::exec::{Compiler, Exec, Flow};
use qd_frontend::{
    pointee_of, AllocaOp, ArrayType, ElemPtrOp, LocalLoadOp, LocalStoreOp, MemberPtrOp, StructType,
};
use qd_ir::{Context, Diagnostic, OpId, Type};
use qd_runtime::RuntimeErrorKind;

/// The number of scalar cells of a local type (None on overflow or for a non-local type).
pub(crate) fn cells(ctx: &Context, ty: Type) -> Option<usize> {
    if let Some(a) = ArrayType::from_type(ctx, ty) {
        let n = usize::try_from(a.len(ctx)).ok()?;
        return n.checked_mul(cells(ctx, a.elem(ctx))?);
    }
    if let Some(s) = StructType::from_type(ctx, ty) {
        return s
            .members(ctx)
            .into_iter()
            .try_fold(0usize, |acc, m| acc.checked_add(cells(ctx, m)?));
    }
    crate::num::Kind::of(ctx, ty).map(|_| 1)
}

fn cells_or_err(c: &Compiler<'_>, op: OpId, ty: Type) -> Result<usize, Diagnostic> {
    cells(c.ctx(), ty).ok_or_else(|| {
        c.error(
            op,
            format!(
                "the interpreter cannot lay out a local of type '{}'",
                qd_ir::text::type_to_string(c.ctx(), ty)
            ),
        )
    })
}

pub(super) fn alloca(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let a = AllocaOp(op);
    let n = cells_or_err(c, op, a.pointee(c.ctx()))?;
    let start = c.alloc_locals(op, n)?;
    let r = c.slot(a.result(c.ctx()));
    Ok(Box::new(move |f| {
        f.locals[start..start + n].fill(0);
        f.set(r, start as u64);
        Ok(Flow::Next)
    }))
}

pub(super) fn local_load(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let l = LocalLoadOp(op);
    let p = c.slot(l.ptr(c.ctx()));
    let r = c.slot(l.result(c.ctx()));
    Ok(Box::new(move |f| {
        let v = f.locals[f.get(p) as usize];
        f.set(r, v);
        Ok(Flow::Next)
    }))
}

pub(super) fn local_store(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let s = LocalStoreOp(op);
    let p = c.slot(s.ptr(c.ctx()));
    let v = c.slot(s.value(c.ctx()));
    Ok(Box::new(move |f| {
        let cell = f.get(p) as usize;
        f.locals[cell] = f.get(v);
        Ok(Flow::Next)
    }))
}

pub(super) fn elem_ptr(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let e = ElemPtrOp(op);
    let arr_ty = pointee_of(ctx, e.base(ctx));
    let Some(arr) = ArrayType::from_type(ctx, arr_ty) else {
        return Err(c.error(op, "qd.elem_ptr needs a pointer to a !qd.array"));
    };
    let len = arr.len(ctx);
    let stride = cells_or_err(c, op, arr.elem(ctx))? as u64;
    let ty_text = qd_ir::text::type_to_string(ctx, arr_ty);
    let (base, index) = (c.slot(e.base(ctx)), c.slot(e.index(ctx)));
    let r = c.slot(e.result(ctx));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let k = f.get(index) as i64;
        if k < 0 || k >= len {
            return Err(f.error(
                loc,
                RuntimeErrorKind::OutOfBounds,
                format!("index {k} is out of bounds for local array '{ty_text}' of length {len}"),
            ));
        }
        let p = f.get(base) + k as u64 * stride;
        f.set(r, p);
        Ok(Flow::Next)
    }))
}

pub(super) fn member_ptr(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let m = MemberPtrOp(op);
    let Some(st) = StructType::from_type(ctx, pointee_of(ctx, m.base(ctx))) else {
        return Err(c.error(op, "qd.member_ptr needs a pointer to a !qd.struct"));
    };
    let members = st.members(ctx);
    if m.index(ctx) >= members.len() {
        return Err(c.error(op, "qd.member_ptr index is out of range"));
    }
    let mut offset = 0u64;
    for &t in &members[..m.index(ctx)] {
        offset += cells_or_err(c, op, t)? as u64;
    }
    let base = c.slot(m.base(ctx));
    let r = c.slot(m.result(ctx));
    Ok(Box::new(move |f| {
        let p = f.get(base) + offset;
        f.set(r, p);
        Ok(Flow::Next)
    }))
}
