//! Pieces of custom syntax and verification shared by the func ops: functional types, attribute
//! dictionaries that carry some properties (ODS `attr-dict`), type lists, MLIR-worded errors.
//! Printers read the IR defensively: they only run on ops that verified, but never panic.

use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::text::type_to_string;
use qd_ir::{
    AttrData, Attribute, Context, DiagResult, Diagnostic, Ident, OpId, OperationState, Type,
    TypeData,
};

/// `'T'` as MLIR quotes a type in a message.
pub(crate) fn quoted(ctx: &Context, ty: Type) -> String {
    format!("'{}'", type_to_string(ctx, ty))
}

/// `'T', 'U'` for a list of types (MLIR's way of streaming a TypeRange into a diagnostic).
pub(crate) fn quoted_list(ctx: &Context, tys: &[Type]) -> String {
    tys.iter()
        .map(|&t| quoted(ctx, t))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `'op' op {msg}` at the op.
pub(crate) fn op_err(ctx: &Context, op: OpId, msg: impl AsRef<str>) -> Diagnostic {
    qd_ir::verify_helpers::op_error(ctx, op, msg)
}

/// An error of a custom parser, worded as MLIR's (`custom op 'func.func' {msg}`).
pub(crate) fn custom_err(p: &mut dyn OpAsmParser, loc: qd_ir::Location, msg: &str) -> Diagnostic {
    let name = p.op_info().map_or("?", |i| i.name);
    Diagnostic::error(loc, format!("custom op '{name}' {msg}"))
}

/// The inputs and results of a function type.
pub(crate) fn signature(ctx: &Context, ty: Type) -> Option<(&[Type], &[Type])> {
    match ctx.type_data(ty) {
        TypeData::Function { inputs, results } => Some((inputs, results)),
        _ => None,
    }
}

/// The type held by a type-attribute property, if it is one.
pub(crate) fn type_prop(ctx: &Context, op: OpId, name: &str) -> Option<Type> {
    match ctx.attr_data(ctx.prop(op, name)?) {
        AttrData::Type(t) => Some(*t),
        _ => None,
    }
}

/// The name of a flat symbol-reference property.
pub(crate) fn flat_symbol_prop<'c>(ctx: &'c Context, op: OpId, name: &str) -> Option<&'c str> {
    match ctx.attr_data(ctx.prop(op, name)?) {
        AttrData::SymbolRef { root, nested } if nested.is_empty() => Some(ctx.ident_str(*root)),
        _ => None,
    }
}

/// ODS's check of an optional flat symbol reference / unit / dictionary-array property, with
/// its messages (`requires attribute 'callee'`, `attribute 'x' failed to satisfy constraint: …`).
pub(crate) fn check_prop(
    ctx: &Context,
    op: OpId,
    name: &str,
    required: bool,
    kind: PropCheck,
) -> DiagResult<()> {
    let Some(a) = ctx.prop(op, name) else {
        if required {
            return Err(op_err(ctx, op, format!("requires attribute '{name}'")));
        }
        return Ok(());
    };
    let (ok, what) = match kind {
        PropCheck::FlatSymbolRef => (
            matches!(ctx.attr_data(a), AttrData::SymbolRef { nested, .. } if nested.is_empty()),
            "flat symbol reference attribute",
        ),
        PropCheck::Unit => (matches!(ctx.attr_data(a), AttrData::Unit), "unit attribute"),
        PropCheck::DictArray => (is_dict_array(ctx, a), "Array of dictionary attributes"),
        PropCheck::Str => (
            matches!(ctx.attr_data(a), AttrData::String(_)),
            "string attribute",
        ),
        PropCheck::FunctionType => (
            matches!(ctx.attr_data(a), AttrData::Type(t) if signature(ctx, *t).is_some()),
            "type attribute of function type",
        ),
    };
    if ok {
        Ok(())
    } else {
        Err(op_err(
            ctx,
            op,
            format!("attribute '{name}' failed to satisfy constraint: {what}"),
        ))
    }
}

#[derive(Copy, Clone)]
pub(crate) enum PropCheck {
    FlatSymbolRef,
    Unit,
    DictArray,
    Str,
    FunctionType,
}

fn is_dict_array(ctx: &Context, a: Attribute) -> bool {
    match ctx.attr_data(a) {
        AttrData::Array(xs) => xs
            .iter()
            .all(|&x| matches!(ctx.attr_data(x), AttrData::Dict(_))),
        _ => false,
    }
}

/// The entries of a dictionary attribute (empty for anything else).
pub(crate) fn dict_entries(ctx: &Context, a: Option<Attribute>) -> Vec<(Ident, Attribute)> {
    match a.map(|a| ctx.attr_data(a)) {
        Some(AttrData::Dict(es)) => es.clone(),
        _ => Vec::new(),
    }
}

/// Element `i` of an array-of-dictionaries property, as entries.
pub(crate) fn dict_at(ctx: &Context, op: OpId, prop: &str, i: usize) -> Vec<(Ident, Attribute)> {
    let elem = ctx.prop(op, prop).and_then(|a| match ctx.attr_data(a) {
        AttrData::Array(xs) => xs.get(i).copied(),
        _ => None,
    });
    dict_entries(ctx, elem)
}

/// `[{...}, {...}]` when some dictionary is not empty, None otherwise (MLIR drops all-empty
/// argument and result attribute arrays).
pub(crate) fn dict_array(
    ctx: &mut Context,
    dicts: Vec<Vec<(Ident, Attribute)>>,
) -> Option<Attribute> {
    if dicts.iter().all(|d| d.is_empty()) {
        return None;
    }
    let elems = dicts.into_iter().map(|d| ctx.dict_attr(d)).collect();
    Some(ctx.array_attr(elems))
}

/// ODS `attr-dict` of an op whose properties `props` are not spelled elsewhere: those come
/// first, then the discardable attributes.
pub(crate) fn print_attr_dict(p: &mut dyn OpAsmPrinter, op: OpId, props: &[&str]) {
    let ctx = p.ctx();
    let mut entries: Vec<(Ident, Attribute)> = ctx
        .properties(op)
        .iter()
        .filter(|(k, _)| props.contains(&ctx.ident_str(*k)))
        .copied()
        .collect();
    entries.extend_from_slice(ctx.attrs(op));
    p.print_optional_attr_dict(&entries, &[]);
}

/// Reads an optional `attr-dict`: entries named in `props` become properties.
pub(crate) fn parse_attr_dict(
    p: &mut dyn OpAsmParser,
    st: &mut OperationState,
    props: &[&str],
) -> DiagResult<()> {
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    for (k, v) in entries {
        if props.contains(&p.ctx_ref().ident_str(k)) {
            st.properties.push((k, v));
        } else {
            st.attributes.push((k, v));
        }
    }
    Ok(())
}

/// `T, U` (at least one type).
pub(crate) fn parse_type_list(p: &mut dyn OpAsmParser) -> DiagResult<Vec<Type>> {
    let mut tys = vec![p.parse_type()?];
    while p.parse_optional_punct(",") {
        tys.push(p.parse_type()?);
    }
    Ok(tys)
}

/// Prints `T, U`.
pub(crate) fn print_type_list(p: &mut dyn OpAsmPrinter, tys: &[Type]) {
    for (i, &t) in tys.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
    }
}

/// A function type `(T) -> U` after `:`; returns it with its inputs and results.
pub(crate) fn parse_function_type(
    p: &mut dyn OpAsmParser,
) -> DiagResult<(Type, Vec<Type>, Vec<Type>)> {
    let loc = p.current_loc();
    let ty = p.parse_type()?;
    match signature(p.ctx_ref(), ty) {
        Some((ins, outs)) => Ok((ty, ins.to_vec(), outs.to_vec())),
        None => Err(Diagnostic::error(loc, "expected function type")),
    }
}

/// Prints `(T, U) -> R` (one non-function result bare, otherwise parenthesised), as MLIR's
/// `functional-type`.
pub(crate) fn print_functional_type(p: &mut dyn OpAsmPrinter, ins: &[Type], outs: &[Type]) {
    p.write("(");
    print_type_list(p, ins);
    p.write(") -> ");
    print_results(p, outs);
}

/// `T` for one non-function type, `(T, U)` otherwise.
pub(crate) fn print_results(p: &mut dyn OpAsmPrinter, outs: &[Type]) {
    let bare = outs.len() == 1 && signature(p.ctx(), outs[0]).is_none();
    if bare {
        p.print_type(outs[0]);
    } else {
        p.write("(");
        print_type_list(p, outs);
        p.write(")");
    }
}

/// The value types of some values.
pub(crate) fn value_types(ctx: &Context, vs: impl Iterator<Item = qd_ir::Value>) -> Vec<Type> {
    vs.map(|v| ctx.value_type(v)).collect()
}
