//! [`to_irdl_form`]: rewrites a module so that its generic form verifies in `mlir-opt` against the
//! IRDL that [`print_irdl`](super::print_irdl) emits.

use super::{irdl_name, ParamKind, TypeDecl};
use crate::text::{attr_to_string, type_to_string};
use crate::{AttrData, Attribute, Context, OpId, OperationState, Type, TypeData, TypeParam};
use std::collections::HashMap;
use std::fmt::Write;

/// Rewrites the IR under `root` for the IRDL of `dialects` (MLIR 22's IRDL), to be printed in
/// the generic form:
/// - an op of `dialects` keeps its properties in its attribute dictionary: MLIR's extensible
///   dialects have no properties (`<{...}>` is rejected);
/// - each block of a region of such an op ends with `llvm.unreachable`: an IRDL op has no traits,
///   so it is never a terminator (nor `NoTerminator`), and MLIR requires a block of a registered
///   op's region to end in one. The op's own terminator stays just before it, verified as an op;
/// - a type of `dialects` is written with its IRDL parameters ([`ParamKind`]), e.g.
///   `!qd.field<array<i64: 6>, f32>`, and a typed attribute as `#adstack.size<"...">`.
///
/// The result is for printing only: qd's parser and verifier do not accept it back. A type
/// whose parameters do not match its declaration (or that has none) is left as it is, so that
/// mlir-opt rejects it.
pub fn to_irdl_form(ctx: &mut Context, root: OpId, dialects: &[&str]) {
    let mut conv = Converter {
        dialects,
        types: HashMap::new(),
        attrs: HashMap::new(),
    };
    for op in ctx.walk_pre_order(root) {
        for v in ctx.results(op).to_vec() {
            let t = conv.ty(ctx, ctx.value_type(v));
            ctx.set_value_type(v, t);
        }
        let ours = dialects.contains(&ctx.dialect_of(op));
        for r in ctx.regions(op).to_vec() {
            for b in ctx.region_blocks(r).to_vec() {
                for v in ctx.block_args(b).to_vec() {
                    let t = conv.ty(ctx, ctx.value_type(v));
                    ctx.set_value_type(v, t);
                }
                if ours {
                    let loc = ctx.loc(op);
                    let closer = ctx.create_op(OperationState::new("llvm.unreachable", loc));
                    ctx.append_op(b, closer);
                }
            }
        }
        for (name, a) in ctx.attrs(op).to_vec() {
            let a = conv.attr(ctx, a);
            let name = ctx.ident_str(name).to_string();
            ctx.set_attr(op, &name, a);
        }
        for (name, a) in ctx.properties(op).to_vec() {
            let a = conv.attr(ctx, a);
            let name = ctx.ident_str(name).to_string();
            if ours {
                ctx.remove_prop(op, &name);
                ctx.set_attr(op, &name, a);
            } else {
                ctx.set_prop(op, &name, a);
            }
        }
    }
}

struct Converter<'a> {
    dialects: &'a [&'a str],
    types: HashMap<Type, Type>,
    attrs: HashMap<Attribute, Attribute>,
}

impl Converter<'_> {
    fn ty(&mut self, ctx: &mut Context, t: Type) -> Type {
        if let Some(&c) = self.types.get(&t) {
            return c;
        }
        let c = match ctx.type_data(t).clone() {
            TypeData::Dialect {
                dialect,
                mnemonic,
                params,
            } => {
                let d = ctx.ident_str(dialect).to_string();
                let m = ctx.ident_str(mnemonic).to_string();
                let decl = ctx
                    .dialect(&d)
                    .filter(|_| self.dialects.contains(&d.as_str()))
                    .and_then(|def| def.types.iter().find(|t| t.mnemonic == m));
                match decl.copied() {
                    Some(decl) => match self.body(ctx, &d, &decl, &params) {
                        Some(body) => ctx.intern_type(TypeData::Opaque { dialect, body }),
                        None => t,
                    },
                    None => t,
                }
            }
            TypeData::Function { inputs, results } => {
                let inputs = inputs.iter().map(|&i| self.ty(ctx, i)).collect();
                let results = results.iter().map(|&r| self.ty(ctx, r)).collect();
                ctx.function_type(inputs, results)
            }
            _ => t,
        };
        self.types.insert(t, c);
        c
    }

    /// `mnemonic<p, ...>` with each parameter as its declaration says, or None when they do not
    /// match it.
    fn body(
        &mut self,
        ctx: &mut Context,
        dialect: &str,
        decl: &TypeDecl,
        params: &[TypeParam],
    ) -> Option<String> {
        let mut parts = Vec::new();
        let mut rest = params;
        for p in decl.params {
            if p.kind == ParamKind::Rest {
                let all: Vec<String> = rest.iter().map(|q| self.param(ctx, q)).collect();
                parts.push(format!("[{}]", all.join(", ")));
                rest = &[];
                break;
            }
            let (first, tail) = rest.split_first()?;
            let fits = matches!(
                (p.kind, first),
                (ParamKind::Type, TypeParam::Type(_))
                    | (ParamKind::Int, TypeParam::Int(_))
                    | (ParamKind::Dims, TypeParam::Dims(_))
                    | (ParamKind::Str, TypeParam::Str(_))
            );
            if !fits {
                return None;
            }
            parts.push(self.param(ctx, first));
            rest = tail;
        }
        if !rest.is_empty() {
            return None;
        }
        let mut out = irdl_name(ctx, dialect, decl.mnemonic, true);
        if !parts.is_empty() {
            let _ = write!(out, "<{}>", parts.join(", "));
        }
        Some(out)
    }

    /// One parameter as an MLIR attribute.
    fn param(&mut self, ctx: &mut Context, p: &TypeParam) -> String {
        match p {
            TypeParam::Type(t) => {
                let t = self.ty(ctx, *t);
                type_to_string(ctx, t)
            }
            TypeParam::Int(n) => format!("{n} : i64"),
            TypeParam::Dims(dims) => {
                let dims: Vec<String> = dims
                    .iter()
                    .map(|d| d.unwrap_or(i64::MIN).to_string())
                    .collect();
                if dims.is_empty() {
                    "array<i64>".to_string()
                } else {
                    format!("array<i64: {}>", dims.join(", "))
                }
            }
            TypeParam::Str(s) => {
                let a = ctx.string_attr(s);
                attr_to_string(ctx, a)
            }
        }
    }

    fn attr(&mut self, ctx: &mut Context, a: Attribute) -> Attribute {
        if let Some(&c) = self.attrs.get(&a) {
            return c;
        }
        let c = match ctx.attr_data(a).clone() {
            AttrData::Type(t) => {
                let t = self.ty(ctx, t);
                ctx.type_attr(t)
            }
            AttrData::Array(elems) => {
                let elems = elems.iter().map(|&e| self.attr(ctx, e)).collect();
                ctx.array_attr(elems)
            }
            AttrData::Dict(entries) => {
                let entries = entries
                    .iter()
                    .map(|&(k, v)| (k, self.attr(ctx, v)))
                    .collect();
                ctx.dict_attr(entries)
            }
            AttrData::Typed(typed) if self.dialects.contains(&typed.value().dialect()) => {
                let dialect = typed.value().dialect();
                let mut body = String::new();
                typed.print_body(&mut body);
                // `mnemonic<text>` becomes `mnemonic<"text">`.
                match body.split_once('<') {
                    Some((m, inner)) if inner.ends_with('>') => {
                        let s = ctx.string_attr(&inner[..inner.len() - 1]);
                        let name = irdl_name(ctx, dialect, m, false);
                        let body = format!("{name}<{}>", attr_to_string(ctx, s));
                        let dialect = ctx.ident(dialect);
                        ctx.intern_attr(AttrData::Dialect { dialect, body })
                    }
                    _ => a,
                }
            }
            _ => a,
        };
        self.attrs.insert(a, c);
        c
    }
}
