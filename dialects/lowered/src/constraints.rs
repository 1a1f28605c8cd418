//! Type constraints and result-type inference of the lowered ops (for `qd_ir::declare_op!`).

use crate::types::{is_global_scalar, is_scalar, private_ptr, MemorySpace, PtrType};
use crate::types::{DIALECT, IRDL_GLOBAL, IRDL_PRIVATE, PTR as PTR_TYPE};
use qd_frontend::{ArrayType, NdarrayType};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::irdl::Irdl;
use qd_ir::op_def::{constraint, TypeConstraint};
use qd_ir::{Context, DiagResult, Diagnostic, Type};

fn is_ptr(ctx: &Context, ty: Type) -> bool {
    PtrType::from_type(ctx, ty).is_some()
}
fn is_global_ptr(ctx: &Context, ty: Type) -> bool {
    PtrType::from_type(ctx, ty).is_some_and(|p| p.space(ctx) == MemorySpace::Global)
}
fn is_private_ptr(ctx: &Context, ty: Type) -> bool {
    PtrType::from_type(ctx, ty).is_some_and(|p| p.space(ctx) == MemorySpace::Private)
}

/// A type that must be a `!lowered.ptr` in the text (the ops infer other types from it).
fn parse_ptr(p: &mut dyn OpAsmParser) -> DiagResult<Type> {
    let loc = p.current_loc();
    let ty = p.parse_type()?;
    if !is_ptr(p.ctx_ref(), ty) {
        let t = qd_ir::text::type_to_string(p.ctx_ref(), ty);
        return Err(Diagnostic::error(
            loc,
            format!("expected a !lowered.ptr type, got {t}"),
        ));
    }
    Ok(ty)
}

fn print_type(p: &mut dyn OpAsmPrinter, ty: Type) {
    p.print_type(ty)
}

/// `!lowered.ptr<T>` or `!lowered.ptr<T, private>`.
pub const PTR: TypeConstraint = TypeConstraint::new("a !lowered.ptr", is_ptr)
    .syntax(parse_ptr, print_type)
    .irdl(Irdl::Dialect(DIALECT, PTR_TYPE));
/// `!lowered.ptr<T>` (global memory).
pub const GLOBAL_PTR: TypeConstraint = TypeConstraint::new("a global !lowered.ptr", is_global_ptr)
    .syntax(parse_ptr, print_type)
    .irdl(Irdl::Parametric(
        DIALECT,
        PTR_TYPE,
        &[Irdl::Any, IRDL_GLOBAL],
    ));
/// `!lowered.ptr<T, private>`.
pub const PRIVATE_PTR: TypeConstraint =
    TypeConstraint::new("a private !lowered.ptr", is_private_ptr)
        .syntax(parse_ptr, print_type)
        .irdl(Irdl::Parametric(
            DIALECT,
            PTR_TYPE,
            &[Irdl::Any, IRDL_PRIVATE],
        ));
/// An integer (`i1` included) or a float.
pub const SCALAR: TypeConstraint =
    TypeConstraint::new("an integer or float", is_scalar).irdl(constraint::IRDL_INT_OR_FLOAT);
/// What global memory holds: an integer of 8 to 64 bits or a float.
pub const GLOBAL_SCALAR: TypeConstraint =
    TypeConstraint::new("an integer of 8 to 64 bits or a float", is_global_scalar).irdl(
        Irdl::AnyOf(&[
            Irdl::Is("i8"),
            Irdl::Is("si8"),
            Irdl::Is("ui8"),
            Irdl::Is("i16"),
            Irdl::Is("si16"),
            Irdl::Is("ui16"),
            Irdl::Is("i32"),
            Irdl::Is("si32"),
            Irdl::Is("ui32"),
            Irdl::Is("i64"),
            Irdl::Is("si64"),
            Irdl::Is("ui64"),
            Irdl::Is("f16"),
            Irdl::Is("bf16"),
            Irdl::Is("f32"),
            Irdl::Is("f64"),
        ]),
    );

fn any(_: &Context, _: Type) -> bool {
    true
}
fn is_ndarray(ctx: &Context, ty: Type) -> bool {
    NdarrayType::from_type(ctx, ty).is_some()
}
fn is_arg_type(ctx: &Context, ty: Type) -> bool {
    is_scalar(ctx, ty) || is_ndarray(ctx, ty)
}

/// A kernel argument: a scalar or a `!qd.ndarray`.
pub const ARG_TYPE: TypeConstraint =
    TypeConstraint::new("an integer or float scalar or a !qd.ndarray", is_arg_type).irdl(
        Irdl::AnyOf(&[
            Irdl::Base("!builtin.integer"),
            constraint::IRDL_FLOAT,
            Irdl::Dialect(qd_frontend::types::DIALECT, qd_frontend::types::NDARRAY),
        ]),
    );
/// Any type (for values whose relation to another is checked by the op's hook).
pub const ANY: TypeConstraint = TypeConstraint::new("any type", any).irdl(Irdl::Any);

/// The pointee of a pointer type (the type itself otherwise), for `= pointee(ptr)`.
pub fn pointee(ctx: &mut Context, ty: Type) -> Type {
    PtrType::from_type(ctx, ty).map_or(ty, |p| p.pointee(ctx))
}

/// A pointer to the element of the array a private pointer points to (the type itself
/// otherwise), for `= elem_ptr_of(base)`.
pub fn elem_ptr_of(ctx: &mut Context, ty: Type) -> Type {
    let Some(p) = PtrType::from_type(ctx, ty) else {
        return ty;
    };
    match ArrayType::from_type(ctx, p.pointee(ctx)) {
        Some(a) => {
            let elem = a.elem(ctx);
            private_ptr(ctx, elem)
        }
        None => ty,
    }
}
