//! The lowered pointer type `!lowered.ptr<T>` (global memory) and `!lowered.ptr<T, private>`
//! (the thread's private memory).
//!
//! Stored as `TypeData::Dialect { dialect: "lowered", mnemonic: "ptr", params }` with params
//! `[Type(T)]` for a global pointer and `[Type(T), Str("private")]` for a private one.
//!
//! - Global memory (field root buffers and their adjoints, ndarray data, the adstack heaps, the
//!   kernel's temporaries) holds integer and float scalars of a fixed size: `i1` is not
//!   storable there (widen it to `i8`/`i32`), nor is `index`.
//! - Private memory (locals) holds scalars (`i1` included) and the qd local aggregates
//!   `!qd.array<...>` / `!qd.struct<...>`, addressed with `lowered.elem_ptr` /
//!   `lowered.member_ptr` down to a scalar.

use qd_frontend::types::{is_local_value_type, verify_type};
use qd_ir::asm::{AsmParser, AsmPrinter};
use qd_ir::irdl::{Irdl, ParamDecl, TypeDecl};
use qd_ir::{Context, DiagResult, Diagnostic, Type, TypeData, TypeParam};

pub const DIALECT: &str = "lowered";
pub const PTR: &str = "ptr";
/// The keyword of the private memory space.
pub const PRIVATE: &str = "private";

/// The lowered types for IRDL (`qd-opt --print-irdl`). The memory space is the rest of the
/// parameters: `[]` (global) or `["private"]`.
pub const IRDL_TYPES: &[TypeDecl] = &[TypeDecl {
    mnemonic: PTR,
    summary: "a pointer into global memory, or into the thread's private memory",
    params: &[
        ParamDecl::ty("pointee"),
        ParamDecl::rest("space").irdl(Irdl::AnyOf(&[IRDL_GLOBAL, IRDL_PRIVATE])),
    ],
}];
/// The memory-space parameter of a global pointer in IRDL form.
pub const IRDL_GLOBAL: Irdl = Irdl::Is("[]");
/// The memory-space parameter of a private pointer in IRDL form.
pub const IRDL_PRIVATE: Irdl = Irdl::Is("[\"private\"]");

/// Where a pointer points.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MemorySpace {
    /// Device memory shared by every thread of a launch.
    Global,
    /// The running thread's own memory (locals).
    Private,
}

/// `!lowered.ptr<pointee>` in `space`.
pub fn ptr_type(ctx: &mut Context, pointee: Type, space: MemorySpace) -> Type {
    let dialect = ctx.ident(DIALECT);
    let mnemonic = ctx.ident(PTR);
    let mut params = vec![TypeParam::Type(pointee)];
    if space == MemorySpace::Private {
        params.push(TypeParam::Str(PRIVATE.to_string()));
    }
    ctx.intern_type(TypeData::Dialect {
        dialect,
        mnemonic,
        params,
    })
}

/// `!lowered.ptr<pointee>`: a global pointer.
pub fn global_ptr(ctx: &mut Context, pointee: Type) -> Type {
    ptr_type(ctx, pointee, MemorySpace::Global)
}

/// `!lowered.ptr<pointee, private>`.
pub fn private_ptr(ctx: &mut Context, pointee: Type) -> Type {
    ptr_type(ctx, pointee, MemorySpace::Private)
}

/// A scalar that global memory can hold: an integer of 8 to 64 bits or a float.
pub fn is_global_scalar(ctx: &Context, ty: Type) -> bool {
    let d = ctx.type_data(ty);
    match d {
        TypeData::Integer { width, .. } => matches!(width, 8 | 16 | 32 | 64),
        _ => d.is_float(),
    }
}

/// How a field or ndarray element of type `elem` is kept in global memory: `i1` as `i8`, any
/// other scalar as itself.
pub fn storage_type(ctx: &mut Context, elem: Type) -> Type {
    if is_i1(ctx, elem) {
        ctx.integer_type(8)
    } else {
        elem
    }
}

/// Whether `stored` is how `elem` is kept in global memory (see [`storage_type`]).
pub fn is_storage_of(ctx: &Context, stored: Type, elem: Type) -> bool {
    if is_i1(ctx, elem) {
        matches!(ctx.type_data(stored), TypeData::Integer { width: 8, .. })
    } else {
        stored == elem
    }
}

fn is_i1(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.type_data(ty), TypeData::Integer { width: 1, .. })
}

/// An integer (any width, `i1` included) or a float.
pub fn is_scalar(ctx: &Context, ty: Type) -> bool {
    let d = ctx.type_data(ty);
    d.is_integer() || d.is_float()
}

/// Whether `pointee` may be pointed to in `space`, with the reason when not.
pub fn check_pointee(ctx: &Context, pointee: Type, space: MemorySpace) -> Result<(), String> {
    match space {
        MemorySpace::Global if is_global_scalar(ctx, pointee) => Ok(()),
        MemorySpace::Global => Err(format!(
            "a global pointee must be an integer of 8 to 64 bits or a float (i1 is widened), got {}",
            qd_ir::text::type_to_string(ctx, pointee)
        )),
        MemorySpace::Private if is_local_value_type(ctx, pointee) => verify_type(ctx, pointee),
        MemorySpace::Private => Err(format!(
            "a private pointee must be an integer or float scalar, !qd.array or !qd.struct, got {}",
            qd_ir::text::type_to_string(ctx, pointee)
        )),
    }
}

/// A typed view of `!lowered.ptr<T[, private]>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PtrType(pub Type);

impl PtrType {
    /// The view when `ty` is a well-formed pointer type (its parameters are laid out as above;
    /// the pointee rules are checked by [`check_pointee`]).
    pub fn from_type(ctx: &Context, ty: Type) -> Option<Self> {
        match ctx.type_data(ty) {
            TypeData::Dialect {
                dialect,
                mnemonic,
                params,
            } if ctx.ident_str(*dialect) == DIALECT && ctx.ident_str(*mnemonic) == PTR => {
                match params.as_slice() {
                    [TypeParam::Type(_)] => Some(PtrType(ty)),
                    [TypeParam::Type(_), TypeParam::Str(s)] if s == PRIVATE => Some(PtrType(ty)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
    pub fn pointee(self, ctx: &Context) -> Type {
        match ctx.type_data(self.0) {
            TypeData::Dialect { params, .. } => match params.first() {
                Some(TypeParam::Type(t)) => *t,
                _ => self.0,
            },
            _ => self.0,
        }
    }
    pub fn space(self, ctx: &Context) -> MemorySpace {
        match ctx.type_data(self.0) {
            TypeData::Dialect { params, .. } if params.len() == 2 => MemorySpace::Private,
            _ => MemorySpace::Global,
        }
    }
    pub fn is_private(self, ctx: &Context) -> bool {
        self.space(ctx) == MemorySpace::Private
    }
}

/// The pointee of `ty` when it is a pointer.
pub fn pointee(ctx: &Context, ty: Type) -> Option<Type> {
    PtrType::from_type(ctx, ty).map(|p| p.pointee(ctx))
}

/// `DialectDef::parse_type` of lowered: `ptr<T>` or `ptr<T, private>`.
pub fn parse_type(p: &mut dyn AsmParser, mnemonic: &str) -> DiagResult<Vec<TypeParam>> {
    let loc = p.current_loc();
    if mnemonic != PTR {
        return Err(Diagnostic::error(
            loc,
            format!("unknown lowered type '!lowered.{mnemonic}' (expected ptr)"),
        ));
    }
    p.parse_punct("<")?;
    let elem_loc = p.current_loc();
    let pointee = p.parse_type()?;
    let space = if p.parse_optional_punct(",") {
        let kw_loc = p.current_loc();
        let kw = p.parse_any_keyword()?;
        if kw != PRIVATE {
            return Err(Diagnostic::error(
                kw_loc,
                format!("expected memory space 'private', got '{kw}'"),
            ));
        }
        MemorySpace::Private
    } else {
        MemorySpace::Global
    };
    p.parse_punct(">")?;
    check_pointee(p.ctx_ref(), pointee, space)
        .map_err(|m| Diagnostic::error(elem_loc, format!("invalid !lowered.ptr type: {m}")))?;
    let mut params = vec![TypeParam::Type(pointee)];
    if space == MemorySpace::Private {
        params.push(TypeParam::Str(PRIVATE.to_string()));
    }
    Ok(params)
}

/// `DialectDef::print_type` of lowered. A malformed parameter list (built by hand) still prints,
/// in a form the parser rejects.
pub fn print_type(mnemonic: &str, params: &[TypeParam], p: &mut dyn AsmPrinter) {
    p.write(mnemonic);
    p.write("<");
    for (i, param) in params.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        match param {
            TypeParam::Type(t) => p.print_type(*t),
            TypeParam::Int(n) => p.write(&n.to_string()),
            TypeParam::Dims(d) => p.print_dimension_list(d),
            // The memory space is a bare keyword; anything else is quoted so it cannot pass.
            TypeParam::Str(s) if s == PRIVATE => p.write(s),
            TypeParam::Str(s) => p.print_string(s),
        }
    }
    p.write(">");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_views_and_rules() {
        let mut ctx = Context::new();
        let f32t = ctx.f32_type();
        let i1 = ctx.i1_type();
        let g = global_ptr(&mut ctx, f32t);
        let p = private_ptr(&mut ctx, f32t);
        assert_ne!(g, p);
        let gv = PtrType::from_type(&ctx, g).unwrap();
        assert_eq!(
            (gv.pointee(&ctx), gv.space(&ctx)),
            (f32t, MemorySpace::Global)
        );
        let pv = PtrType::from_type(&ctx, p).unwrap();
        assert_eq!(
            (pv.pointee(&ctx), pv.space(&ctx)),
            (f32t, MemorySpace::Private)
        );
        assert!(pv.is_private(&ctx));
        assert_eq!(global_ptr(&mut ctx, f32t), g);
        assert!(check_pointee(&ctx, i1, MemorySpace::Private).is_ok());
        assert!(check_pointee(&ctx, i1, MemorySpace::Global)
            .unwrap_err()
            .contains("i1 is widened"));
        let arr = qd_frontend::array_type(&mut ctx, 4, f32t);
        assert!(check_pointee(&ctx, arr, MemorySpace::Private).is_ok());
        assert!(check_pointee(&ctx, arr, MemorySpace::Global).is_err());
        let idx = ctx.index_type();
        assert!(check_pointee(&ctx, idx, MemorySpace::Private).is_err());
        assert!(PtrType::from_type(&ctx, f32t).is_none());
        assert_eq!(pointee(&ctx, g), Some(f32t));
    }

    #[test]
    fn malformed_params_are_not_pointers() {
        let mut ctx = Context::new();
        let dialect = ctx.ident(DIALECT);
        let mnemonic = ctx.ident(PTR);
        for params in [
            vec![],
            vec![TypeParam::Int(3)],
            vec![
                TypeParam::Type(ctx.f32_type()),
                TypeParam::Str("shared".into()),
            ],
        ] {
            let t = ctx.intern_type(TypeData::Dialect {
                dialect,
                mnemonic,
                params,
            });
            assert!(PtrType::from_type(&ctx, t).is_none());
        }
    }
}
