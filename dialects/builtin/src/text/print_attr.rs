//! Printing types, attributes, locations, symbol names and keys.

use super::float_fmt;
use super::lexer::{escape_into, is_bare_identifier};
use super::naming::push_u32;
use super::printer::Printer;
use crate::attributes::AttrData;
use crate::entity::*;
use crate::location::LocData;
use crate::types::{FloatKind, Signedness, TypeData, TypeParam};
use std::fmt::Write;

impl Printer<'_> {
    pub(crate) fn write_type(&mut self, ty: Type) {
        let ctx = self.ctx;
        match ctx.type_data(ty) {
            TypeData::Integer { width, signedness } => {
                self.out.push_str(match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                });
                push_u32(&mut self.out, *width);
            }
            TypeData::Index => self.out.push_str("index"),
            TypeData::Float(k) => self.out.push_str(k.keyword()),
            TypeData::None => self.out.push_str("none"),
            TypeData::Function { inputs, results } => {
                self.out.push('(');
                for (i, &t) in inputs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.write_type(t);
                }
                self.out.push_str(") -> ");
                self.write_result_types(results.len(), |i| results[i]);
            }
            TypeData::Complex(t) => {
                self.out.push_str("complex<");
                self.write_type(*t);
                self.out.push('>');
            }
            TypeData::Tuple(ts) => {
                self.out.push_str("tuple<");
                for (i, &t) in ts.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.write_type(t);
                }
                self.out.push('>');
            }
            TypeData::Vector(v) => self.write_vector_type(v),
            TypeData::Tensor(t) => self.write_tensor_type(t),
            TypeData::MemRef(m) => self.write_memref_type(m),
            TypeData::Dialect {
                dialect,
                mnemonic,
                params,
            } => {
                let ns = ctx.ident_str(*dialect);
                let mnemonic = ctx.ident_str(*mnemonic);
                self.out.push('!');
                self.out.push_str(ns);
                self.out.push('.');
                match ctx.dialect(ns).and_then(|d| d.print_type) {
                    Some(print) => print(mnemonic, params, self),
                    None => self.write_type_params_fallback(mnemonic, params),
                }
            }
            TypeData::Opaque { dialect, body } => {
                self.out.push('!');
                self.out.push_str(ctx.ident_str(*dialect));
                if !body.starts_with('<') {
                    self.out.push('.');
                }
                self.out.push_str(body);
            }
        }
    }

    /// `mnemonic<p, q>` for a dialect type whose dialect has no print hook.
    fn write_type_params_fallback(&mut self, mnemonic: &str, params: &[TypeParam]) {
        self.out.push_str(mnemonic);
        if params.is_empty() {
            return;
        }
        self.out.push('<');
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match p {
                TypeParam::Type(t) => self.write_type(*t),
                TypeParam::Int(n) => {
                    let _ = write!(self.out, "{n}");
                }
                TypeParam::Dims(dims) => {
                    for (j, d) in dims.iter().enumerate() {
                        if j > 0 {
                            self.out.push('x');
                        }
                        match d {
                            Some(n) => {
                                let _ = write!(self.out, "{n}");
                            }
                            None => self.out.push('?'),
                        }
                    }
                }
                TypeParam::Str(s) => escape_into(&mut self.out, s),
            }
        }
        self.out.push('>');
    }

    /// An integer value of type `ty` as MLIR prints it: i1 as `true`/`false`, unsigned types as
    /// unsigned, others signed.
    fn write_int_value(&mut self, value: i64, ty: Type) {
        match self.ctx.type_data(ty) {
            TypeData::Integer {
                width: 1,
                signedness: Signedness::Signless,
            } => self.out.push_str(if value != 0 { "true" } else { "false" }),
            TypeData::Integer {
                width,
                signedness: Signedness::Unsigned,
            } if *width > 64 => {
                let words = crate::apint::from_i64(value, *width);
                self.out
                    .push_str(&crate::apint::to_unsigned_decimal(&words, *width));
            }
            TypeData::Integer {
                width,
                signedness: Signedness::Unsigned,
            } => {
                let v = if *width >= 64 {
                    value as u64
                } else {
                    value as u64 & ((1u64 << width) - 1)
                };
                let _ = write!(self.out, "{v}");
            }
            _ => {
                let _ = write!(self.out, "{value}");
            }
        }
    }

    fn float_kind(&self, ty: Type) -> FloatKind {
        match self.ctx.type_data(ty) {
            TypeData::Float(k) => *k,
            _ => FloatKind::F64,
        }
    }

    fn is_i1(&self, ty: Type) -> bool {
        matches!(
            self.ctx.type_data(ty),
            TypeData::Integer {
                width: 1,
                signedness: Signedness::Signless
            }
        )
    }

    /// An attribute; numeric literals carry `: type` when `with_type`.
    pub(crate) fn write_attr(&mut self, attr: Attribute, with_type: bool) {
        let ctx = self.ctx;
        match ctx.attr_data(attr) {
            AttrData::Unit => self.out.push_str("unit"),
            AttrData::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            AttrData::Integer { value, ty } => {
                self.write_int_value(*value, *ty);
                if with_type && !self.is_i1(*ty) {
                    self.out.push_str(" : ");
                    self.write_type(*ty);
                }
            }
            AttrData::WideInteger { words, ty } => {
                self.write_wide_int(words, *ty);
                if with_type {
                    self.out.push_str(" : ");
                    self.write_type(*ty);
                }
            }
            AttrData::DenseElements(d) => {
                self.write_dense(d);
                if with_type {
                    self.out.push_str(" : ");
                    self.write_type(d.ty);
                }
            }
            AttrData::AffineMap(m) => match self.aliases.as_mut() {
                Some(aliases) => {
                    let n = aliases.map_index(attr);
                    super::aliases::write_alias_name(&mut self.out, "map", n);
                }
                None => self.write_affine_map(m),
            },
            AttrData::Strided { strides, offset } => self.write_strided(strides, *offset),
            AttrData::Float { bits, ty } => {
                let text = float_fmt::format(self.float_kind(*ty), f64::from_bits(*bits));
                self.out.push_str(&text);
                if with_type {
                    self.out.push_str(" : ");
                    self.write_type(*ty);
                }
            }
            AttrData::String(s) => escape_into(&mut self.out, s),
            AttrData::Type(t) => self.write_type(*t),
            AttrData::Array(elems) => {
                self.out.push('[');
                for (i, &e) in elems.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    // Elements elide the default types i64 and f64, as MLIR's
                    // `AttrTypeElision::May`.
                    self.write_attr_may_elide(e);
                }
                self.out.push(']');
            }
            AttrData::Dict(entries) => self.write_dict(entries, &[]),
            AttrData::SymbolRef { root, nested } => {
                self.write_symbol(ctx.ident_str(*root));
                for n in nested {
                    self.out.push_str("::");
                    self.write_symbol(ctx.ident_str(*n));
                }
            }
            AttrData::DenseIntArray { elem, values } => {
                self.out.push_str("array<");
                self.write_type(*elem);
                for (i, &v) in values.iter().enumerate() {
                    self.out.push_str(if i == 0 { ": " } else { ", " });
                    self.write_int_value(v, *elem);
                }
                self.out.push('>');
            }
            AttrData::DenseFloatArray { elem, values } => {
                self.out.push_str("array<");
                self.write_type(*elem);
                let kind = self.float_kind(*elem);
                for (i, &v) in values.iter().enumerate() {
                    self.out.push_str(if i == 0 { ": " } else { ", " });
                    self.out
                        .push_str(&float_fmt::format(kind, f64::from_bits(v)));
                }
                self.out.push('>');
            }
            AttrData::Dialect { dialect, body } => {
                self.out.push('#');
                self.out.push_str(ctx.ident_str(*dialect));
                if !body.starts_with('<') {
                    self.out.push('.');
                }
                self.out.push_str(body);
            }
            AttrData::Typed(t) => {
                self.out.push('#');
                self.out.push_str(t.value().dialect());
                let at = self.out.len();
                t.print_body(&mut self.out);
                if !self.out[at..].starts_with('<') {
                    self.out.insert(at, '.');
                }
            }
        }
    }

    /// An attribute whose type is left out when it is i64 or f64 (MLIR's
    /// `AttrTypeElision::May`: array elements, memref memory spaces).
    pub(crate) fn write_attr_may_elide(&mut self, attr: Attribute) {
        let ty = match self.ctx.attr_data(attr) {
            AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } => Some(*ty),
            _ => None,
        };
        let default = ty.is_some_and(|t| {
            matches!(
                self.ctx.type_data(t),
                TypeData::Integer {
                    width: 64,
                    signedness: Signedness::Signless
                } | TypeData::Float(FloatKind::F64)
            )
        });
        self.write_attr(attr, !default);
    }

    /// `loc(...)`.
    pub(crate) fn write_loc(&mut self, loc: Location) {
        self.out.push_str("loc(");
        self.write_loc_inst(loc);
        self.out.push(')');
    }

    /// An op's trailing location: `loc(#loc<n>)` when it has an alias.
    pub(crate) fn write_op_loc(&mut self, loc: Location) {
        match self.locs.as_ref().and_then(|l| l.number_of(loc)) {
            Some(n) if !self.collecting_locs => {
                self.out.push_str("loc(");
                super::aliases::write_alias_name(&mut self.out, "loc", n);
                self.out.push(')');
            }
            _ => self.write_loc(loc),
        }
    }

    /// A block argument's location: written out (MLIR prints it inline even when it has an
    /// alias), its children by alias.
    pub(crate) fn write_arg_loc(&mut self, loc: Location) {
        if self.collecting_locs {
            if let Some(locs) = self.locs.as_mut() {
                locs.visit(self.ctx, loc, false);
            }
        }
        self.write_loc(loc);
    }

    /// A location nested in another: its alias when it has one.
    fn write_loc_child(&mut self, loc: Location) {
        match self.locs.as_ref().and_then(|l| l.number_of(loc)) {
            Some(n) if !self.collecting_locs => {
                super::aliases::write_alias_name(&mut self.out, "loc", n)
            }
            _ => self.write_loc_inst(loc),
        }
    }

    /// The body of `loc(...)`.
    pub(crate) fn write_loc_inst(&mut self, loc: Location) {
        let ctx = self.ctx;
        match ctx.loc_data(loc) {
            LocData::Unknown => self.out.push_str("unknown"),
            LocData::FileLineCol { file, line, col } => {
                escape_into(&mut self.out, ctx.ident_str(*file));
                self.out.push(':');
                push_u32(&mut self.out, *line);
                self.out.push(':');
                push_u32(&mut self.out, *col);
            }
            LocData::Name { name, child } => {
                escape_into(&mut self.out, ctx.ident_str(*name));
                // An unknown child is not printed, as MLIR's.
                if let Some(c) = child.filter(|&c| !super::loc_aliases::is_unknown(ctx, c)) {
                    self.out.push('(');
                    self.write_loc_child(c);
                    self.out.push(')');
                }
            }
            LocData::Fused { locs, metadata } => {
                self.out.push_str("fused");
                if let Some(m) = metadata {
                    self.out.push('<');
                    self.write_attr(*m, true);
                    self.out.push('>');
                }
                self.out.push('[');
                for (i, &l) in locs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.write_loc_child(l);
                }
                self.out.push(']');
            }
            LocData::CallSite { callee, caller } => {
                self.out.push_str("callsite(");
                self.write_loc_child(*callee);
                self.out.push_str(" at ");
                self.write_loc_child(*caller);
                self.out.push(')');
            }
        }
    }

    /// `@name`, quoted when it is not a bare identifier.
    pub(crate) fn write_symbol(&mut self, name: &str) {
        self.out.push('@');
        self.write_keyword_or_string(name);
    }

    pub(crate) fn write_keyword_or_string(&mut self, s: &str) {
        if is_bare_identifier(s) {
            self.out.push_str(s);
        } else {
            escape_into(&mut self.out, s);
        }
    }
}
