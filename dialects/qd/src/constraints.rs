//! Type constraints of qd values for `qd_ir::declare_op!` declarations (shared with dialects built
//! on qd, such as ad).
//!
//! Several are [`checked_by_op`]: they give the text form (a fixed type when parsed or built, a
//! type that must parse as an ndarray or a pointer) while the op's own hook checks the type, so
//! that qd keeps its messages, which name the value's role (`expects the condition to be i1`,
//! `expects index 0 to be i32`, `expects a !qd.ndarray operand`).

use crate::types::{NdarrayType, PtrType};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::irdl::Irdl;
use qd_ir::op_def::constraint;
use qd_ir::op_def::TypeConstraint;
use qd_ir::{Context, DiagResult, Diagnostic, Type};

fn any(_: &Context, _: Type) -> bool {
    true
}

/// `c` with its syntax, but any type passes the structure: the op's hook checks it.
pub const fn checked_by_op(c: TypeConstraint) -> TypeConstraint {
    TypeConstraint { check: any, ..c }
}

/// An index of a field, ndarray or local array: `i32` when parsed or built; each op's hook checks
/// the indices with their count, rank and bounds (`expects index 0 to be i32, got i64`).
pub const INDEX: TypeConstraint = checked_by_op(constraint::I32);

/// A condition: `i1` when parsed or built (`expects the condition to be i1, got f32`).
pub const CONDITION: TypeConstraint = checked_by_op(constraint::I1);

fn is_ndarray(ctx: &Context, ty: Type) -> bool {
    NdarrayType::from_type(ctx, ty).is_some()
}

/// A type that must be a `!qd.ndarray` in the text (checked when parsed: values take its element
/// type).
fn parse_ndarray(p: &mut dyn OpAsmParser) -> DiagResult<Type> {
    let loc = p.current_loc();
    let ty = p.parse_type()?;
    if !is_ndarray(p.ctx_ref(), ty) {
        let t = qd_ir::text::type_to_string(p.ctx_ref(), ty);
        return Err(Diagnostic::error(
            loc,
            format!("expected a !qd.ndarray type, got {t}"),
        ));
    }
    Ok(ty)
}

/// A type that must be a `!qd.ptr` in the text (checked when parsed: values take its pointee).
fn parse_ptr(p: &mut dyn OpAsmParser) -> DiagResult<Type> {
    let loc = p.current_loc();
    let ty = p.parse_type()?;
    if PtrType::from_type(p.ctx_ref(), ty).is_none() {
        return Err(Diagnostic::error(loc, "expected a !qd.ptr type"));
    }
    Ok(ty)
}

fn print_type(p: &mut dyn OpAsmPrinter, ty: Type) {
    p.print_type(ty)
}

/// `!qd.ndarray<...>`.
pub const NDARRAY: TypeConstraint = TypeConstraint::new("a !qd.ndarray", is_ndarray)
    .syntax(parse_ndarray, print_type)
    .irdl(Irdl::Dialect(crate::types::DIALECT, crate::types::NDARRAY));

/// A `!qd.ndarray` in the text, checked by the op (`expects a !qd.ndarray operand, got f32`).
pub const NDARRAY_OPERAND: TypeConstraint = checked_by_op(NDARRAY);

/// A `!qd.ptr` in the text, checked by the op (`expects the pointer to be a !qd.ptr, got f32`).
pub const PTR_OPERAND: TypeConstraint = checked_by_op(
    TypeConstraint::new("a !qd.ptr", |ctx, t| PtrType::from_type(ctx, t).is_some())
        .syntax(parse_ptr, print_type)
        .irdl(Irdl::Dialect(crate::types::DIALECT, crate::types::PTR)),
);

/// The pointee of a pointer type (the type itself otherwise), for `= pointee(ptr)`.
pub fn pointee(ctx: &mut Context, ty: Type) -> Type {
    PtrType::from_type(ctx, ty).map_or(ty, |p| p.pointee(ctx))
}

/// The same type, for a value typed like another (`= same(value)`).
pub fn same(_: &mut Context, ty: Type) -> Type {
    ty
}

/// The element type of an ndarray type (the type itself otherwise), for `= ndarray_elem(array)`.
pub fn ndarray_elem(ctx: &mut Context, ty: Type) -> Type {
    NdarrayType::from_type(ctx, ty).map_or(ty, |a| a.elem(ctx))
}

/// The element an atomic (field or ndarray) combines in place: an integer wider than i1 (no
/// atomic read-modify-write of a single bit) or a float.
pub(crate) fn check_atomic_elem(ctx: &Context, op: qd_ir::OpId, elem: Type) -> DiagResult<()> {
    let d = ctx.type_data(elem);
    if d.is_float() || (d.is_integer() && d.bit_width() != Some(1)) {
        return Ok(());
    }
    Err(crate::verify::err(
        ctx,
        op,
        format!(
            "expects an integer (wider than i1) or float element, got {}",
            crate::verify::type_str(ctx, elem)
        ),
    ))
}
