//! Helpers shared by the ad op verifiers. Every check reads the IR defensively (counts before
//! indexing, property kinds before use), so that any generic input gets a diagnostic, never a
//! panic. Messages follow MLIR: `'ad.load_field_adjoint' op expects field @x to be needs_grad`.

use qd_frontend::verify::{constant_int, lookup_symbol};
use qd_frontend::{FieldOp, FieldType};
use qd_ir::{AttrData, Context, DiagResult, Diagnostic, OpId, Signedness, Type, TypeData, Value};

/// An error at `op`'s location, prefixed with `'name' op`.
pub(crate) fn err(ctx: &Context, op: OpId, msg: impl AsRef<str>) -> Diagnostic {
    Diagnostic::error(
        ctx.loc(op),
        format!("'{}' op {}", ctx.name(op), msg.as_ref()),
    )
}

pub(crate) fn type_str(ctx: &Context, ty: Type) -> String {
    qd_ir::text::type_to_string(ctx, ty)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// At least `operands` operands, exactly `results` results, no regions or successors, and no
/// properties but `props`.
pub(crate) fn expect_shape(
    ctx: &Context,
    op: OpId,
    operands: usize,
    exact_operands: bool,
    results: usize,
    props: &[&str],
) -> DiagResult<()> {
    let n = ctx.num_operands(op);
    if exact_operands && n != operands {
        return Err(err(
            ctx,
            op,
            format!("expects {}, got {n}", plural(operands, "operand")),
        ));
    }
    if n < operands {
        return Err(err(
            ctx,
            op,
            format!("expects at least {}, got {n}", plural(operands, "operand")),
        ));
    }
    let r = ctx.num_results(op);
    if r != results {
        return Err(err(
            ctx,
            op,
            format!("expects {}, got {r}", plural(results, "result")),
        ));
    }
    if !ctx.regions(op).is_empty() {
        return Err(err(
            ctx,
            op,
            format!("expects no regions, got {}", ctx.regions(op).len()),
        ));
    }
    if !ctx.successors(op).is_empty() {
        return Err(err(ctx, op, "expects no successors"));
    }
    for (k, _) in ctx.properties(op) {
        let k = ctx.ident_str(*k);
        if !props.contains(&k) {
            return Err(err(ctx, op, format!("has unknown property '{k}'")));
        }
    }
    Ok(())
}

/// A flat symbol-reference property: its name, None when absent.
pub(crate) fn opt_symbol_prop(ctx: &Context, op: OpId, name: &str) -> DiagResult<Option<String>> {
    let Some(a) = ctx.prop(op, name) else {
        return Ok(None);
    };
    match ctx.attr_data(a) {
        AttrData::SymbolRef { root, nested } if nested.is_empty() => {
            Ok(Some(ctx.ident_str(*root).to_string()))
        }
        _ => Err(err(
            ctx,
            op,
            format!("property '{name}' must be a flat symbol reference"),
        )),
    }
}

pub(crate) fn symbol_prop(ctx: &Context, op: OpId, name: &str) -> DiagResult<String> {
    opt_symbol_prop(ctx, op, name)?
        .ok_or_else(|| err(ctx, op, format!("requires property '{name}'")))
}

/// Resolves symbol `name` from `op` and checks that it is a `want` op. None when it does not
/// resolve inside a symbol table: the IR verifier's symbol-use check reports that, and one error
/// per mistake is enough.
pub(crate) fn resolve_symbol(
    ctx: &Context,
    op: OpId,
    name: &str,
    want: &str,
    what: &str,
) -> DiagResult<Option<OpId>> {
    let Some(def) = lookup_symbol(ctx, op, name) else {
        if qd_ir::symbol_table::nearest_symbol_table(ctx, op).is_some() {
            return Ok(None);
        }
        return Err(err(ctx, op, format!("references undefined {what} @{name}")));
    };
    if ctx.name(def) != want {
        return Err(err(
            ctx,
            op,
            format!("expects @{name} to be a '{want}', got '{}'", ctx.name(def)),
        ));
    }
    Ok(Some(def))
}

/// The `field` property resolved to a needs_grad `qd.field` with a valid float field type.
pub(crate) fn adjoint_field(ctx: &Context, op: OpId) -> DiagResult<Option<(String, FieldType)>> {
    let name = symbol_prop(ctx, op, "field")?;
    let Some(def) = resolve_symbol(ctx, op, &name, qd_frontend::FIELD_OP, "field")? else {
        return Ok(None);
    };
    let field = ctx
        .prop(def, "type")
        .and_then(|a| match ctx.attr_data(a) {
            AttrData::Type(t) => Some(*t),
            _ => None,
        })
        .and_then(|t| FieldType::from_type(ctx, t))
        .filter(|f| qd_frontend::verify_type(ctx, f.0).is_ok());
    let Some(field) = field else {
        return Err(err(
            ctx,
            op,
            format!("references field @{name}, which has no valid field type"),
        ));
    };
    if !FieldOp(def).needs_grad(ctx) {
        return Err(err(
            ctx,
            op,
            format!("expects field @{name} to be needs_grad (only those have an adjoint field)"),
        ));
    }
    let elem = field.elem(ctx);
    if !ctx.type_data(elem).is_float() {
        return Err(err(
            ctx,
            op,
            format!(
                "expects field @{name} to have a float element type, got {}",
                type_str(ctx, elem)
            ),
        ));
    }
    Ok(Some((name, field)))
}

pub(crate) fn is_i32(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_data(ty),
        TypeData::Integer {
            width: 32,
            signedness: Signedness::Signless
        }
    )
}

/// Checks the index count against `rank` (`target` names the array in the message), that every
/// index is an `i32`, and that constant indices lie within `bounds` (None: known at launch).
pub(crate) fn check_indices(
    ctx: &Context,
    op: OpId,
    indices: &[Value],
    bounds: &[Option<i64>],
    target: &str,
) -> DiagResult<()> {
    if indices.len() != bounds.len() {
        let want = if bounds.len() == 1 {
            "1 index".to_string()
        } else {
            format!("{} indices", bounds.len())
        };
        return Err(err(
            ctx,
            op,
            format!(
                "expects {want} for {target} of rank {}, got {}",
                bounds.len(),
                indices.len()
            ),
        ));
    }
    for (k, &v) in indices.iter().enumerate() {
        let ty = ctx.value_type(v);
        if !is_i32(ctx, ty) {
            return Err(err(
                ctx,
                op,
                format!("expects index {k} to be i32, got {}", type_str(ctx, ty)),
            ));
        }
        if let (Some(c), Some(Some(n))) = (constant_int(ctx, v), bounds.get(k)) {
            if c < 0 || c >= *n {
                return Err(err(
                    ctx,
                    op,
                    format!("index {k} is out of bounds: {c} is not in [0, {n})"),
                ));
            }
        }
    }
    Ok(())
}

/// `got` must equal the element type `elem`.
pub(crate) fn check_elem(
    ctx: &Context,
    op: OpId,
    elem: Type,
    got: Type,
    what: &str,
    of: &str,
) -> DiagResult<()> {
    if got != elem {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the {what} type to match the {of} element type {}, got {}",
                type_str(ctx, elem),
                type_str(ctx, got)
            ),
        ));
    }
    Ok(())
}
