//! Helpers shared by the ad op verifiers. Every check reads the IR defensively (counts before
//! indexing, property kinds before use), so that any generic input gets a diagnostic, never a
//! panic. Messages follow MLIR: `'ad.load_field_adjoint' op expects field @x to be needs_grad`.

use qd_frontend::verify::resolve_field;
use qd_frontend::{FieldOp, FieldType};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{Context, DiagResult, OpId};

pub(crate) use qd_frontend::verify::{check_access_indices as check_indices, is_i32, type_str};
pub(crate) use qd_ir::verify_helpers::{check_elem_type as check_elem, op_error as err};

/// Resolves symbol `name` from `op` and checks that it is a `want` op. None when it does not
/// resolve inside a symbol table: the IR verifier's symbol-use check reports that, and one error
/// per mistake is enough. For `verify_symbol_uses` hooks: resolves through the verifier's tables.
pub(crate) fn resolve_symbol(
    ctx: &Context,
    op: OpId,
    name: &str,
    want: &str,
    what: &str,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<Option<OpId>> {
    let Some(def) = symbols.lookup_symbol_from(ctx, op, name) else {
        if symbols.nearest_symbol_table(ctx, op).is_some() {
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
pub(crate) fn adjoint_field(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<Option<(String, FieldType)>> {
    let Some((name, def, field)) = resolve_field(ctx, op, symbols)? else {
        return Ok(None);
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
