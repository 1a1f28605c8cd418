//! Private memory: `lowered.alloca`, `lowered.elem_ptr`, `lowered.member_ptr`.
//!
//! The qd interpreter's local layout: one cell per scalar, arrays row-major, members in order;
//! each alloca owns a fixed range of the thread's cells (laid out at compile time, zeroed each
//! time the op runs). A private pointer is a cell index ([`Space::Private`]). `elem_ptr` does not
//! check its index: the lowering emits a `lowered.bounds_check` before it.

use super::pointee;
use super::pointer::{self, Space};
use crate::exec::{Compiler, Exec, Flow};
use crate::qd::local_cells;
use qd_frontend::{ArrayType, StructType};
use qd_ir::{Diagnostic, OpId, Type};

fn cells(c: &Compiler<'_>, op: OpId, ty: Type) -> Result<u64, Diagnostic> {
    local_cells(c.ctx(), ty).map(|n| n as u64).ok_or_else(|| {
        c.error(
            op,
            format!(
                "the interpreter cannot lay out private memory of type '{}'",
                qd_ir::text::type_to_string(c.ctx(), ty)
            ),
        )
    })
}

pub(super) fn alloca(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let ty = pointee(c, op, ctx.value_type(ctx.result(op, 0)))?;
    let n = cells(c, op, ty)? as usize;
    let start = c.alloc_locals(op, n)?;
    let r = c.result_slot(op, 0);
    let p = pointer::encode(Space::Private, start as u64);
    Ok(Box::new(move |f| {
        f.locals[start..start + n].fill(0);
        f.set(r, p);
        Ok(Flow::Next)
    }))
}

pub(super) fn elem_ptr(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let base_ty = pointee(c, op, ctx.value_type(ctx.operand(op, 0)))?;
    let Some(arr) = ArrayType::from_type(ctx, base_ty) else {
        return Err(c.error(op, "lowered.elem_ptr needs a pointer to a !qd.array"));
    };
    let stride = cells(c, op, arr.elem(ctx))? as i64;
    let (base, index) = (c.slot(ctx.operand(op, 0)), c.slot(ctx.operand(op, 1)));
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        let k = f.get(index) as i64;
        let p = pointer::add(f.get(base), k.wrapping_mul(stride));
        f.set(r, p);
        Ok(Flow::Next)
    }))
}

pub(super) fn member_ptr(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let base_ty = pointee(c, op, ctx.value_type(ctx.operand(op, 0)))?;
    let Some(st) = StructType::from_type(ctx, base_ty) else {
        return Err(c.error(op, "lowered.member_ptr needs a pointer to a !qd.struct"));
    };
    let members = st.members(ctx);
    let index = super::index_prop(c, op, "index")?;
    if index >= members.len() {
        return Err(c.error(op, "lowered.member_ptr index is out of range"));
    }
    let mut offset = 0i64;
    for &t in &members[..index] {
        offset += cells(c, op, t)? as i64;
    }
    let base = c.slot(ctx.operand(op, 0));
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        f.set(r, pointer::add(f.get(base), offset));
        Ok(Flow::Next)
    }))
}
