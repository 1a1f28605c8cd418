//! The adstack type `!adstack.stack<T>`: a per-thread LIFO stack of `T` entries, each with an
//! adjoint slot when `T` is a float.
//!
//! Stored as `TypeData::Dialect { dialect: "adstack", mnemonic: "stack", params: [Type(T)] }`.
//! `T` is an integer (any width, `i1` included) or a float; `index` is excluded because it has no
//! fixed storage size on a device.

use qd_ir::asm::{AsmParser, AsmPrinter};
use qd_ir::irdl::{ParamDecl, TypeDecl};
use qd_ir::{Context, DiagResult, Diagnostic, Type, TypeData, TypeParam};

pub const DIALECT: &str = "adstack";
pub const STACK: &str = "stack";

/// The adstack types for IRDL (`qd-opt --print-irdl`).
pub const IRDL_TYPES: &[TypeDecl] = &[TypeDecl {
    mnemonic: STACK,
    summary: "a per-thread LIFO stack of entries, each with an adjoint slot when a float",
    params: &[ParamDecl::ty("elem").irdl(qd_ir::op_def::constraint::IRDL_INT_OR_FLOAT)],
}];

/// `!adstack.stack<elem>`.
pub fn stack_type(ctx: &mut Context, elem: Type) -> Type {
    let dialect = ctx.ident(DIALECT);
    let mnemonic = ctx.ident(STACK);
    ctx.intern_type(TypeData::Dialect {
        dialect,
        mnemonic,
        params: vec![TypeParam::Type(elem)],
    })
}

/// Whether `ty` may be a stack element: an integer or a float scalar.
pub fn is_valid_elem(ctx: &Context, ty: Type) -> bool {
    let d = ctx.type_data(ty);
    d.is_integer() || d.is_float()
}

/// A typed view of `!adstack.stack<T>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct StackType(pub Type);

impl StackType {
    /// The view when `ty` is a well-formed stack type (its element is checked by
    /// [`is_valid_elem`], so that an accessor never sees a malformed type).
    pub fn from_type(ctx: &Context, ty: Type) -> Option<Self> {
        match ctx.type_data(ty) {
            TypeData::Dialect {
                dialect,
                mnemonic,
                params,
            } if ctx.ident_str(*dialect) == DIALECT && ctx.ident_str(*mnemonic) == STACK => {
                match params.as_slice() {
                    [TypeParam::Type(t)] if is_valid_elem(ctx, *t) => Some(StackType(ty)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
    pub fn elem(self, ctx: &Context) -> Type {
        match ctx.type_data(self.0) {
            TypeData::Dialect { params, .. } => match params.as_slice() {
                [TypeParam::Type(t)] => *t,
                _ => self.0,
            },
            _ => self.0,
        }
    }
    /// Float stacks carry an adjoint per entry; integer and i1 stacks do not.
    pub fn has_adjoint(self, ctx: &Context) -> bool {
        ctx.type_data(self.elem(ctx)).is_float()
    }
}

/// `DialectDef::parse_type` of adstack: `stack<T>`.
pub fn parse_type(p: &mut dyn AsmParser, mnemonic: &str) -> DiagResult<Vec<TypeParam>> {
    let loc = p.current_loc();
    if mnemonic != STACK {
        return Err(Diagnostic::error(
            loc,
            format!("unknown adstack type '!adstack.{mnemonic}' (expected stack)"),
        ));
    }
    p.parse_punct("<")?;
    let elem_loc = p.current_loc();
    let elem = p.parse_type()?;
    p.parse_punct(">")?;
    if !is_valid_elem(p.ctx_ref(), elem) {
        let t = qd_ir::text::type_to_string(p.ctx_ref(), elem);
        return Err(Diagnostic::error(
            elem_loc,
            format!(
                "invalid !adstack.stack type: the element must be an integer or float, got {t}"
            ),
        ));
    }
    Ok(vec![TypeParam::Type(elem)])
}

/// `DialectDef::print_type` of adstack. A malformed parameter list (built by hand) still prints,
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
            TypeParam::Str(s) => p.print_string(s),
        }
    }
    p.write(">");
}
