//! [`TypeConstraint`]: what an operand or result type must be (MLIR ODS's `TypeConstraint`), with
//! how to build the type when it is fixed (ODS's `BuildableType`) and, optionally, a custom form
//! for `type($x)` in an assembly format (such as a stack printed as its element type).

use crate::asm::{OpAsmParser, OpAsmPrinter};
use crate::irdl::Irdl;
use crate::{Context, DiagResult, Type, TypeData};

/// A predicate on a type, described for messages: `expects operand 0 to be {description}, got T`.
#[derive(Copy, Clone)]
pub struct TypeConstraint {
    /// A noun phrase: "an !adstack.stack", "i32".
    pub description: &'static str,
    pub check: fn(&Context, Type) -> bool,
    /// Builds the only type the constraint allows; the custom form then needs no `type($x)`.
    pub build: Option<fn(&mut Context) -> Type>,
    /// Parses `type($x)` in a format (default: any type).
    pub parse: Option<fn(&mut dyn OpAsmParser) -> DiagResult<Type>>,
    /// Prints `type($x)` in a format (default: the type). Must not panic on any type: the printer
    /// may see an op that does not verify.
    pub print: Option<fn(&mut dyn OpAsmPrinter, Type)>,
    /// The constraint in IRDL ([`crate::irdl`]); [`Irdl::Unknown`] becomes `irdl.any`.
    pub irdl: Irdl,
}

impl TypeConstraint {
    pub const fn new(description: &'static str, check: fn(&Context, Type) -> bool) -> Self {
        TypeConstraint {
            description,
            check,
            build: None,
            parse: None,
            print: None,
            irdl: Irdl::Unknown,
        }
    }
    /// The constraint in IRDL.
    pub const fn irdl(mut self, irdl: Irdl) -> Self {
        self.irdl = irdl;
        self
    }
    /// The type is fixed: `build` makes it.
    pub const fn buildable(mut self, build: fn(&mut Context) -> Type) -> Self {
        self.build = Some(build);
        self
    }
    /// A custom form for `type($x)` in assembly formats.
    pub const fn syntax(
        mut self,
        parse: fn(&mut dyn OpAsmParser) -> DiagResult<Type>,
        print: fn(&mut dyn OpAsmPrinter, Type),
    ) -> Self {
        self.parse = Some(parse);
        self.print = Some(print);
        self
    }
    pub fn is_satisfied(&self, ctx: &Context, ty: Type) -> bool {
        (self.check)(ctx, ty)
    }
    pub(crate) fn parse_type(&self, p: &mut dyn OpAsmParser) -> DiagResult<Type> {
        match self.parse {
            Some(f) => f(p),
            None => p.parse_type(),
        }
    }
    pub(crate) fn print_type(&self, p: &mut dyn OpAsmPrinter, ty: Type) {
        match self.print {
            Some(f) => f(p, ty),
            None => p.print_type(ty),
        }
    }
}

impl std::fmt::Debug for TypeConstraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.description)
    }
}

fn any(_: &Context, _: Type) -> bool {
    true
}
fn is_i1(ctx: &Context, t: Type) -> bool {
    is_int_of(ctx, t, 1)
}
fn is_i32(ctx: &Context, t: Type) -> bool {
    is_int_of(ctx, t, 32)
}
fn is_i64(ctx: &Context, t: Type) -> bool {
    is_int_of(ctx, t, 64)
}
fn is_int_of(ctx: &Context, t: Type, width: u32) -> bool {
    matches!(ctx.type_data(t), TypeData::Integer { width: w, .. } if *w == width)
}
fn is_index(ctx: &Context, t: Type) -> bool {
    ctx.type_data(t).is_index()
}
fn is_integer(ctx: &Context, t: Type) -> bool {
    ctx.type_data(t).is_integer()
}
fn is_float(ctx: &Context, t: Type) -> bool {
    ctx.type_data(t).is_float()
}
fn is_int_or_float(ctx: &Context, t: Type) -> bool {
    is_integer(ctx, t) || is_float(ctx, t)
}
fn build_i1(ctx: &mut Context) -> Type {
    ctx.i1_type()
}
fn build_i32(ctx: &mut Context) -> Type {
    ctx.i32_type()
}
fn build_i64(ctx: &mut Context) -> Type {
    ctx.i64_type()
}
fn build_index(ctx: &mut Context) -> Type {
    ctx.index_type()
}

/// Any type.
pub const ANY: TypeConstraint = TypeConstraint::new("any type", any).irdl(Irdl::Any);
/// `i1`.
pub const I1: TypeConstraint = TypeConstraint::new("i1", is_i1)
    .buildable(build_i1)
    .irdl(Irdl::Is("i1"));
/// `i32`.
pub const I32: TypeConstraint = TypeConstraint::new("i32", is_i32)
    .buildable(build_i32)
    .irdl(Irdl::Is("i32"));
/// `i64`.
pub const I64: TypeConstraint = TypeConstraint::new("i64", is_i64)
    .buildable(build_i64)
    .irdl(Irdl::Is("i64"));
/// `index`.
pub const INDEX: TypeConstraint = TypeConstraint::new("index", is_index)
    .buildable(build_index)
    .irdl(Irdl::Is("index"));
/// Any integer type (`i1` included).
pub const INTEGER: TypeConstraint =
    TypeConstraint::new("an integer", is_integer).irdl(Irdl::Base("!builtin.integer"));
/// Any float type.
pub const FLOAT: TypeConstraint = TypeConstraint::new("a float", is_float).irdl(IRDL_FLOAT);
/// An integer or a float.
pub const INT_OR_FLOAT: TypeConstraint =
    TypeConstraint::new("an integer or float", is_int_or_float).irdl(IRDL_INT_OR_FLOAT);

/// The float types qd has (`FloatKind`), in IRDL.
pub const IRDL_FLOAT: Irdl = Irdl::AnyOf(&[
    Irdl::Is("f16"),
    Irdl::Is("bf16"),
    Irdl::Is("f32"),
    Irdl::Is("f64"),
]);
/// An integer (any width and signedness) or one of qd's floats, in IRDL.
pub const IRDL_INT_OR_FLOAT: Irdl = Irdl::AnyOf(&[
    Irdl::Base("!builtin.integer"),
    Irdl::Is("f16"),
    Irdl::Is("bf16"),
    Irdl::Is("f32"),
    Irdl::Is("f64"),
]);
