//! IRDL (MLIR's IR Definition Language) for qd's dialects, generated from the declarations the
//! ops, types and attributes already have, so that upstream `mlir-opt --irdl-file=...` verifies
//! qd's ops instead of accepting them as unregistered.
//!
//! - [`Irdl`]: a type or attribute constraint as IRDL states it. A [`TypeConstraint`] and a
//!   [`PropKind`] carry one (`irdl`, `IRDL`); a constraint declared without one is
//!   [`Irdl::Unknown`] and emitted as `irdl.any`, the widest sound constraint, with a comment.
//! - [`TypeDecl`] / [`AttrDecl`]: a dialect's types and attributes, listed in its
//!   [`DialectDef`](crate::DialectDef) (`types`, `attrs`) next to its parse and print hooks.
//! - [`print_irdl`]: the `irdl.dialect` text of the dialects upstream MLIR does not define itself.
//! - [`to_irdl_form`]: rewrites a module into the form such IRDL verifies (IRDL-defined ops have no
//!   properties and no traits; see there).
//!
//! What IRDL (MLIR 22) cannot say, and what is emitted instead:
//! - an optional property: IRDL attributes are all required, so it is not listed (a comment
//!   names it); qd's verifier checks it;
//! - a region's "at most one block": `irdl.region with size 1` would reject an empty region, so
//!   the region is unconstrained;
//! - relations between values (a result typed like an operand) and everything an op's verify
//!   hook checks beyond its declared constraints;
//! - a variadic group with values of different types: IRDL binds a group's constraint to its
//!   first value (every value must then be of that type). qd's variadic groups are all one type
//!   (`i32` indices, `i64` bounds), so this never narrows them; the emitter says so in a comment
//!   when a group's constraint is not a single type.
//!
//! [`TypeConstraint`]: crate::op_def::TypeConstraint
//! [`PropKind`]: crate::op_def::PropKind

mod emit;
mod form;

pub use emit::{irdl_dialects, print_irdl, UPSTREAM_DIALECTS};
pub use form::to_irdl_form;

/// A constraint on a type or an attribute, in IRDL's terms.
#[derive(Copy, Clone, Debug)]
pub enum Irdl {
    /// `irdl.any`.
    Any,
    /// `irdl.is T`: exactly this type or attribute (MLIR text, e.g. `i32`, `unit`, `"float"`).
    Is(&'static str),
    /// `irdl.base "!builtin.integer"`: any parameters of a builtin type or attribute kind.
    Base(&'static str),
    /// `irdl.base @dialect::@name`: any parameters of a type or attribute declared in IRDL.
    Dialect(&'static str, &'static str),
    /// `irdl.parametric @dialect::@name<...>`: a declared type with constrained parameters.
    Parametric(&'static str, &'static str, &'static [Irdl]),
    /// `irdl.any_of(...)`.
    AnyOf(&'static [Irdl]),
    /// The given constraint, wider than the declared one for the reason the text gives (emitted
    /// as a comment): sound, not exact.
    Wider(&'static Irdl, &'static str),
    /// Declared without an IRDL form: emitted as `irdl.any`, with a comment.
    Unknown,
}

/// How a [`TypeParam`](crate::TypeParam) is written in IRDL form (IRDL's parameters are
/// attributes, a fixed number per type).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ParamKind {
    /// A type: the type itself.
    Type,
    /// An integer: `n : i64`.
    Int,
    /// A dimension list: `array<i64: 4, 10>`, a dynamic (`?`) dimension as MLIR's
    /// `ShapedType::kDynamic` (`i64::MIN`).
    Dims,
    /// A string: `"s"`.
    Str,
    /// The remaining parameters (any number, possibly none) as one array: `[f32, i32]`. Last only.
    Rest,
}

/// One parameter of a declared type.
#[derive(Copy, Clone, Debug)]
pub struct ParamDecl {
    pub name: &'static str,
    pub kind: ParamKind,
    pub irdl: Irdl,
}

impl ParamDecl {
    /// A type parameter, any type unless narrowed with [`ParamDecl::irdl`].
    pub const fn ty(name: &'static str) -> Self {
        ParamDecl {
            name,
            kind: ParamKind::Type,
            irdl: Irdl::Any,
        }
    }
    pub const fn int(name: &'static str) -> Self {
        ParamDecl {
            name,
            kind: ParamKind::Int,
            irdl: Irdl::Base("#builtin.integer"),
        }
    }
    pub const fn dims(name: &'static str) -> Self {
        ParamDecl {
            name,
            kind: ParamKind::Dims,
            irdl: Irdl::Base("#builtin.dense_array"),
        }
    }
    pub const fn string(name: &'static str) -> Self {
        ParamDecl {
            name,
            kind: ParamKind::Str,
            irdl: Irdl::Base("#builtin.string"),
        }
    }
    pub const fn rest(name: &'static str) -> Self {
        ParamDecl {
            name,
            kind: ParamKind::Rest,
            irdl: Irdl::Base("#builtin.array"),
        }
    }
    /// The parameter's constraint.
    pub const fn irdl(mut self, irdl: Irdl) -> Self {
        self.irdl = irdl;
        self
    }
}

/// A type of a dialect, `!dialect.mnemonic<params>`, as IRDL declares it.
#[derive(Copy, Clone, Debug)]
pub struct TypeDecl {
    pub mnemonic: &'static str,
    pub summary: &'static str,
    pub params: &'static [ParamDecl],
}

/// A typed attribute of a dialect, `#dialect.mnemonic<...>`. IRDL cannot parse qd's attribute
/// syntax: in IRDL form the text between the angle brackets is one string parameter, `body`
/// (checked by qd's parser, not by IRDL).
#[derive(Copy, Clone, Debug)]
pub struct AttrDecl {
    pub mnemonic: &'static str,
    pub summary: &'static str,
}

/// The IRDL name of type (or attribute) `mnemonic` of `dialect`: `mnemonic`, or `mnemonic_type`
/// (`mnemonic_attr`) when the dialect has an op of that name. IRDL's types, attributes and ops
/// share one symbol table, so `!qd.field` is `!qd.field_type` in IRDL (and in the IRDL form).
pub fn irdl_name(ctx: &crate::Context, dialect: &str, mnemonic: &str, is_type: bool) -> String {
    let op = format!("{dialect}.{mnemonic}");
    if ctx.lookup_op_info(&op).is_some() {
        format!("{mnemonic}_{}", if is_type { "type" } else { "attr" })
    } else {
        mnemonic.to_string()
    }
}

#[cfg(test)]
mod tests;
