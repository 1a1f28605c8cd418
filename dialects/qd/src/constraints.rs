//! Type constraints of qd values for `qd_ir::declare_op!` declarations (shared with dialects built
//! on qd, such as ad).

use crate::types::NdarrayType;
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::TypeConstraint;
use qd_ir::{Context, DiagResult, Diagnostic, Type};

fn any(_: &Context, _: Type) -> bool {
    true
}
fn i32_type(ctx: &mut Context) -> Type {
    ctx.i32_type()
}

/// An index of a field, ndarray or local array: `i32` when parsed or built. The structure accepts
/// any type: each op's hook checks the indices with their count, rank and bounds in the message
/// (`expects index 0 to be i32, got i64`).
pub const INDEX: TypeConstraint = TypeConstraint::new("an i32 index", any).buildable(i32_type);

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

fn print_type(p: &mut dyn OpAsmPrinter, ty: Type) {
    p.print_type(ty)
}

/// `!qd.ndarray<...>`.
pub const NDARRAY: TypeConstraint =
    TypeConstraint::new("a !qd.ndarray", is_ndarray).syntax(parse_ndarray, print_type);

/// The element type of an ndarray type (the type itself otherwise), for `= ndarray_elem(array)`.
pub fn ndarray_elem(ctx: &mut Context, ty: Type) -> Type {
    NdarrayType::from_type(ctx, ty).map_or(ty, |a| a.elem(ctx))
}
