//! Property kinds: what a declared property's attribute must be, its typed value (for the
//! generated getters, setters and builders), and its custom form in an assembly format.
//!
//! A kind is a type implementing [`PropKind`]; the ones here cover qd's dialects. A dialect may
//! define its own (a typed dialect attribute, for instance) the same way.

use crate::asm::{OpAsmParser, OpAsmPrinter};
use crate::irdl::Irdl;
use crate::{AttrData, Attribute, Context, DiagResult, Type, TypeData};
use std::marker::PhantomData;

/// The untyped part of a property kind, stored in the op's static definition.
#[derive(Copy, Clone)]
pub struct PropSpec {
    /// A noun phrase for `property 'p' must be {expected}`.
    pub expected: &'static str,
    pub check: fn(&Context, Attribute) -> bool,
    /// Parses `$p` in a format.
    pub parse: fn(&mut dyn OpAsmParser) -> DiagResult<Attribute>,
    /// Prints `$p` in a format. Must not panic on an attribute that fails `check`.
    pub print: fn(&mut dyn OpAsmPrinter, Attribute),
    /// Prints the value of `p = value` in `attr-dict`.
    pub print_in_dict: fn(&mut dyn OpAsmPrinter, Attribute),
}

/// A property kind: the check and syntax ([`PropKind::SPEC`]) and the typed value.
pub trait PropKind: 'static {
    const SPEC: PropSpec;
    /// The attribute's constraint in IRDL ([`crate::irdl`]); by default none (`irdl.any`).
    const IRDL: Irdl = Irdl::Unknown;
    type Value<'a>;
    /// The typed value of a well-formed attribute (None otherwise).
    fn get(ctx: &Context, a: Attribute) -> Option<Self::Value<'_>>;
    fn make(ctx: &mut Context, v: Self::Value<'_>) -> Attribute;
}

fn parse_any(p: &mut dyn OpAsmParser) -> DiagResult<Attribute> {
    p.parse_attribute(None)
}
fn print_any(p: &mut dyn OpAsmPrinter, a: Attribute) {
    p.print_attribute(a)
}

fn i64_of(ctx: &Context, a: Attribute) -> Option<i64> {
    match ctx.attr_data(a) {
        AttrData::Integer { value, ty } if is_i64(ctx, *ty) => Some(*value),
        _ => None,
    }
}
fn is_i64(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.type_data(ty), TypeData::Integer { width: 64, .. })
}
/// A bare integer literal, as i64 (what the text parser makes of `n` without `: type`).
fn parse_i64(p: &mut dyn OpAsmParser) -> DiagResult<Attribute> {
    let n = p.parse_integer()?;
    let t = p.ctx().i64_type();
    Ok(p.ctx().integer_attr(n, t))
}
/// An i64 prints bare (it parses back as i64); any other attribute in full.
fn print_int(p: &mut dyn OpAsmPrinter, a: Attribute) {
    if i64_of(p.ctx(), a).is_some() {
        p.print_attribute_without_type(a)
    } else {
        p.print_attribute(a)
    }
}

/// Any attribute.
pub struct AnyAttr;
impl PropKind for AnyAttr {
    const IRDL: Irdl = Irdl::Any;
    const SPEC: PropSpec = PropSpec {
        expected: "an attribute",
        check: |_, _| true,
        parse: parse_any,
        print: print_any,
        print_in_dict: print_any,
    };
    type Value<'a> = Attribute;
    fn get(_: &Context, a: Attribute) -> Option<Attribute> {
        Some(a)
    }
    fn make(_: &mut Context, v: Attribute) -> Attribute {
        v
    }
}

/// An integer of any type; set as i64. Prints bare when i64.
pub struct Int;
impl PropKind for Int {
    const IRDL: Irdl = Irdl::Base("#builtin.integer");
    const SPEC: PropSpec = PropSpec {
        expected: "an integer",
        check: |ctx, a| matches!(ctx.attr_data(a), AttrData::Integer { .. }),
        parse: parse_i64,
        print: print_int,
        print_in_dict: print_int,
    };
    type Value<'a> = i64;
    fn get(ctx: &Context, a: Attribute) -> Option<i64> {
        ctx.attr_data(a).as_int()
    }
    fn make(ctx: &mut Context, v: i64) -> Attribute {
        let t = ctx.i64_type();
        ctx.integer_attr(v, t)
    }
}

/// A non-negative i64, read as `T` (`NonNeg<i64>`, `NonNeg<u32>`: a value that does not fit `T`
/// reads as absent). Prints bare.
pub struct NonNeg<T>(PhantomData<T>);
impl<T: TryFrom<i64> + Into<i64> + 'static> PropKind for NonNeg<T> {
    const IRDL: Irdl = Irdl::Wider(
        &Irdl::Base("#builtin.integer"),
        "IRDL cannot require a non-negative i64",
    );
    const SPEC: PropSpec = PropSpec {
        expected: "a non-negative i64 integer",
        check: |ctx, a| i64_of(ctx, a).is_some_and(|v| v >= 0),
        parse: parse_i64,
        print: print_int,
        print_in_dict: print_int,
    };
    type Value<'a> = T;
    fn get(ctx: &Context, a: Attribute) -> Option<T> {
        i64_of(ctx, a)
            .filter(|v| *v >= 0)
            .and_then(|v| T::try_from(v).ok())
    }
    fn make(ctx: &mut Context, v: T) -> Attribute {
        let t = ctx.i64_type();
        ctx.integer_attr(v.into(), t)
    }
}

/// A string; `$p` in a format is a string literal.
pub struct Str;
impl PropKind for Str {
    const IRDL: Irdl = Irdl::Base("#builtin.string");
    const SPEC: PropSpec = PropSpec {
        expected: "a string",
        check: |ctx, a| matches!(ctx.attr_data(a), AttrData::String(_)),
        parse: |p| {
            let s = p.parse_string()?;
            Ok(p.ctx().string_attr(&s))
        },
        print: |p, a| match p.ctx().attr_data(a) {
            AttrData::String(s) => {
                let s = s.clone();
                p.print_string(&s)
            }
            _ => p.print_attribute(a),
        },
        print_in_dict: print_any,
    };
    type Value<'a> = &'a str;
    fn get(ctx: &Context, a: Attribute) -> Option<&str> {
        match ctx.attr_data(a) {
            AttrData::String(s) => Some(s),
            _ => None,
        }
    }
    fn make(ctx: &mut Context, v: &str) -> Attribute {
        ctx.string_attr(v)
    }
}

/// A symbol's own name (`sym_name`): a string property written `@name` in a format.
pub struct SymbolName;
impl PropKind for SymbolName {
    const IRDL: Irdl = Irdl::Base("#builtin.string");
    const SPEC: PropSpec = PropSpec {
        expected: "a string",
        check: Str::SPEC.check,
        parse: |p| {
            let s = p.parse_symbol_name()?;
            Ok(p.ctx().string_attr(&s))
        },
        print: |p, a| match p.ctx().attr_data(a) {
            AttrData::String(s) => {
                let s = s.clone();
                p.print_symbol_name(&s)
            }
            _ => p.print_attribute(a),
        },
        print_in_dict: print_any,
    };
    type Value<'a> = &'a str;
    fn get(ctx: &Context, a: Attribute) -> Option<&str> {
        Str::get(ctx, a)
    }
    fn make(ctx: &mut Context, v: &str) -> Attribute {
        ctx.string_attr(v)
    }
}

/// A flat symbol reference (`field = @x`), read as the symbol's name; `@x` in a format.
pub struct SymbolRef;
impl PropKind for SymbolRef {
    const IRDL: Irdl = Irdl::Wider(
        &Irdl::Base("#builtin.symbol_ref"),
        "IRDL cannot exclude nested references",
    );
    const SPEC: PropSpec = PropSpec {
        expected: "a flat symbol reference",
        check: |ctx, a| matches!(ctx.attr_data(a), AttrData::SymbolRef { nested, .. } if nested.is_empty()),
        parse: |p| {
            let s = p.parse_symbol_name()?;
            Ok(p.ctx().symbol_ref_attr(&s))
        },
        print: print_any,
        print_in_dict: print_any,
    };
    type Value<'a> = &'a str;
    fn get(ctx: &Context, a: Attribute) -> Option<&str> {
        match ctx.attr_data(a) {
            AttrData::SymbolRef { root, .. } => Some(ctx.ident_str(*root)),
            _ => None,
        }
    }
    fn make(ctx: &mut Context, v: &str) -> Attribute {
        ctx.symbol_ref_attr(v)
    }
}

/// A type (`type = !qd.field<f32>`); a bare type in a format.
pub struct TypeAttr;
impl PropKind for TypeAttr {
    const IRDL: Irdl = Irdl::Base("#builtin.type");
    const SPEC: PropSpec = PropSpec {
        expected: "a type",
        check: |ctx, a| matches!(ctx.attr_data(a), AttrData::Type(_)),
        parse: |p| {
            let t = p.parse_type()?;
            Ok(p.ctx().type_attr(t))
        },
        print: |p, a| match p.ctx().attr_data(a) {
            AttrData::Type(t) => {
                let t = *t;
                p.print_type(t)
            }
            _ => p.print_attribute(a),
        },
        print_in_dict: print_any,
    };
    type Value<'a> = Type;
    fn get(ctx: &Context, a: Attribute) -> Option<Type> {
        match ctx.attr_data(a) {
            AttrData::Type(t) => Some(*t),
            _ => None,
        }
    }
    fn make(ctx: &mut Context, v: Type) -> Attribute {
        ctx.type_attr(v)
    }
}

/// A unit attribute: a flag that is set by being present (`{needs_grad}`).
pub struct Flag;
impl PropKind for Flag {
    const IRDL: Irdl = Irdl::Is("unit");
    const SPEC: PropSpec = PropSpec {
        expected: "a unit attribute",
        check: |ctx, a| matches!(ctx.attr_data(a), AttrData::Unit),
        parse: |p| Ok(p.ctx().unit_attr()),
        print: |_, _| {},
        print_in_dict: print_any,
    };
    type Value<'a> = ();
    fn get(ctx: &Context, a: Attribute) -> Option<()> {
        matches!(ctx.attr_data(a), AttrData::Unit).then_some(())
    }
    fn make(ctx: &mut Context, _: ()) -> Attribute {
        ctx.unit_attr()
    }
}

/// An array of booleans (`[true, false]`).
pub struct BoolArray;
impl PropKind for BoolArray {
    const IRDL: Irdl = Irdl::Wider(
        &Irdl::Base("#builtin.array"),
        "IRDL cannot constrain the elements of an array",
    );
    const SPEC: PropSpec = PropSpec {
        expected: "an array of booleans",
        check: |ctx, a| BoolArray::get(ctx, a).is_some(),
        parse: parse_any,
        print: print_any,
        print_in_dict: print_any,
    };
    type Value<'a> = Vec<bool>;
    fn get(ctx: &Context, a: Attribute) -> Option<Vec<bool>> {
        match ctx.attr_data(a) {
            AttrData::Array(elems) => elems
                .iter()
                .map(|&e| match ctx.attr_data(e) {
                    AttrData::Bool(b) => Some(*b),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }
    fn make(ctx: &mut Context, v: Vec<bool>) -> Attribute {
        let elems = v.into_iter().map(|b| ctx.bool_attr(b)).collect();
        ctx.array_attr(elems)
    }
}

/// `array<i64: ...>` (MLIR's DenseI64ArrayAttr).
pub struct DenseI64Array;
impl PropKind for DenseI64Array {
    const IRDL: Irdl = Irdl::Wider(
        &Irdl::Base("#builtin.dense_array"),
        "IRDL cannot constrain a dense array's element type",
    );
    const SPEC: PropSpec = PropSpec {
        expected: "an array<i64: ...>",
        check: |ctx, a| DenseI64Array::get(ctx, a).is_some(),
        parse: parse_any,
        print: print_any,
        print_in_dict: print_any,
    };
    type Value<'a> = Vec<i64>;
    fn get(ctx: &Context, a: Attribute) -> Option<Vec<i64>> {
        match ctx.attr_data(a) {
            AttrData::DenseIntArray { elem, values } if is_i64(ctx, *elem) => Some(values.clone()),
            _ => None,
        }
    }
    fn make(ctx: &mut Context, v: Vec<i64>) -> Attribute {
        let elem = ctx.i64_type();
        ctx.intern_attr(AttrData::DenseIntArray { elem, values: v })
    }
}
