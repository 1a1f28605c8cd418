//! Helpers shared by the op verifiers. Every check reads the IR defensively (counts before
//! indexing, property kinds before use), so that any generic input gets a diagnostic, never a panic.
//! Messages follow MLIR: `'qd.load' op expects 2 indices for field @x of rank 2, got 1`.

use crate::types::{verify_type, FieldType};
use crate::FIELD_OP;
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{
    AttrData, Attribute, BlockId, Context, DiagResult, Ident, OpId, OpTraits, Type, Value,
};

pub(crate) use qd_ir::verify_helpers::{op_error as err, plural};

/// Property `name`, which must be present.
pub(crate) fn required_prop(ctx: &Context, op: OpId, name: &str) -> DiagResult<Attribute> {
    ctx.prop(op, name)
        .ok_or_else(|| err(ctx, op, format!("requires property '{name}'")))
}

/// A flat symbol reference property (`field = @x`): the symbol name's identifier, as the
/// reference holds it (symbol tables are keyed by it).
pub(crate) fn symbol_ref_ident_prop(ctx: &Context, op: OpId, name: &str) -> DiagResult<Ident> {
    let a = required_prop(ctx, op, name)?;
    match ctx.attr_data(a) {
        AttrData::SymbolRef { root, nested } if nested.is_empty() => Ok(*root),
        _ => Err(err(
            ctx,
            op,
            format!("property '{name}' must be a flat symbol reference"),
        )),
    }
}

/// An integer property (`axis`, `index`).
pub(crate) fn int_prop(ctx: &Context, op: OpId, name: &str) -> DiagResult<i64> {
    let a = required_prop(ctx, op, name)?;
    match ctx.attr_data(a) {
        AttrData::Integer { value, .. } => Ok(*value),
        _ => Err(err(
            ctx,
            op,
            format!("property '{name}' must be an integer"),
        )),
    }
}

/// A type property (`type`, `function_type`).
pub(crate) fn type_prop(ctx: &Context, op: OpId, name: &str) -> DiagResult<Type> {
    let a = required_prop(ctx, op, name)?;
    match ctx.attr_data(a) {
        AttrData::Type(t) => Ok(*t),
        _ => Err(err(ctx, op, format!("property '{name}' must be a type"))),
    }
}

/// Checks a type with [`verify_type`], naming the role of the value in the message.
pub(crate) fn check_type(ctx: &Context, op: OpId, ty: Type, role: &str) -> DiagResult<()> {
    verify_type(ctx, ty).map_err(|m| err(ctx, op, format!("{role}: {m}")))
}

/// The type as text, for messages.
pub fn type_str(ctx: &Context, ty: Type) -> String {
    qd_ir::text::type_to_string(ctx, ty)
}

/// Looks up `name` from `from`: the nearest enclosing symbol table that defines it. A scan of
/// the tables: verifier hooks resolve through their [`SymbolTableCollection`] instead.
pub fn lookup_symbol(ctx: &Context, from: OpId, name: &str) -> Option<OpId> {
    qd_ir::symbol_table::lookup_symbol_from(ctx, from, name)
}

/// Resolves the op's `field` property to a `qd.field` and its (valid) field type. None when the
/// symbol does not resolve inside a symbol table: the IR verifier's symbol-use check reports that
/// (`'qd.load' op '@z' does not reference a valid symbol`), and one error per mistake is enough.
/// For `verify_symbol_uses` hooks: resolves through the verifier's `symbols`.
pub(crate) fn referenced_field(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<Option<(String, FieldType)>> {
    Ok(resolve_field(ctx, op, symbols)?.map(|(name, _, field)| (name, field)))
}

/// As `referenced_field`, also returning the `qd.field` op (for dialects that read its flags).
pub fn resolve_field(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<Option<(String, OpId, FieldType)>> {
    let id = symbol_ref_ident_prop(ctx, op, "field")?;
    let name = ctx.ident_str(id);
    let Some(def) = symbols.lookup_ident_from(ctx, op, id) else {
        if symbols.nearest_symbol_table(ctx, op).is_some() {
            return Ok(None);
        }
        return Err(err(ctx, op, format!("references undefined field @{name}")));
    };
    if ctx.name(def) != FIELD_OP {
        return Err(err(
            ctx,
            op,
            format!(
                "expects @{name} to be a '{FIELD_OP}', got '{}'",
                ctx.name(def)
            ),
        ));
    }
    let field = ctx
        .prop(def, "type")
        .and_then(|a| match ctx.attr_data(a) {
            AttrData::Type(t) => Some(*t),
            _ => None,
        })
        .and_then(|t| FieldType::from_type(ctx, t))
        .filter(|f| verify_type(ctx, f.0).is_ok());
    match field {
        Some(f) => Ok(Some((name.to_string(), def, f))),
        None => Err(err(
            ctx,
            op,
            format!("references field @{name}, which has no valid field type"),
        )),
    }
}

/// The value of a constant integer (an op with the CONSTANT_LIKE trait and an integer `value`).
pub fn constant_int(ctx: &Context, v: Value) -> Option<i64> {
    let def = ctx.defining_op(v)?;
    if !ctx.has_trait(def, OpTraits::CONSTANT_LIKE) {
        return None;
    }
    match ctx.attr_data(ctx.prop(def, "value")?) {
        AttrData::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

/// Checks the index count against `rank` (`target` names the indexed value in the message,
/// e.g. `field @x`), then the indices as [`check_indices`] does.
pub fn check_access_indices(
    ctx: &Context,
    op: OpId,
    indices: &[Value],
    rank: usize,
    target: &str,
) -> DiagResult<()> {
    if indices.len() != rank {
        let want = if rank == 1 {
            "1 index".to_string()
        } else {
            format!("{rank} indices")
        };
        return Err(err(
            ctx,
            op,
            format!(
                "expects {want} for {target} of rank {rank}, got {}",
                indices.len()
            ),
        ));
    }
    check_indices(ctx, op, indices)
}

/// Checks that every index is an `i32`. An index out of bounds is an error at run time, never
/// here, even when it is a constant: the verifier does not look at the ops defining the
/// operands, since folding may make a constant of an index that verified (or sat in code that
/// never runs), and every pass must leave IR that verifies.
pub fn check_indices(ctx: &Context, op: OpId, indices: &[Value]) -> DiagResult<()> {
    for (k, &v) in indices.iter().enumerate() {
        let ty = ctx.value_type(v);
        if !is_i32(ctx, ty) {
            return Err(err(
                ctx,
                op,
                format!("expects index {k} to be i32, got {}", type_str(ctx, ty)),
            ));
        }
    }
    Ok(())
}

/// Checks that the region at `region_index` has at most one block, whose arguments have the
/// `expected` types; the block must exist when arguments are expected. Returns the block, if any.
pub(crate) fn check_body(
    ctx: &Context,
    op: OpId,
    region_index: usize,
    expected: &[Type],
    what: &str,
) -> DiagResult<Option<BlockId>> {
    check_body_with(ctx, op, region_index, expected.len(), what, &|i, t| {
        if t == expected[i] {
            Ok(())
        } else {
            Err(type_str(ctx, expected[i]))
        }
    })
}

/// As [`check_body`], with `n` arguments of type `i32`.
pub(crate) fn check_body_i32(
    ctx: &Context,
    op: OpId,
    region_index: usize,
    n: usize,
    what: &str,
) -> DiagResult<Option<BlockId>> {
    check_body_with(ctx, op, region_index, n, what, &|_, t| {
        if is_i32(ctx, t) {
            Ok(())
        } else {
            Err("i32".to_string())
        }
    })
}

/// Whether `ty` is the signless `i32`.
pub fn is_i32(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_data(ty),
        qd_ir::TypeData::Integer {
            width: 32,
            signedness: qd_ir::Signedness::Signless
        }
    )
}

/// `arg_ok(i, ty)` returns the expected type's text when argument `i` has the wrong type.
fn check_body_with(
    ctx: &Context,
    op: OpId,
    region_index: usize,
    n: usize,
    what: &str,
    arg_ok: &dyn Fn(usize, Type) -> Result<(), String>,
) -> DiagResult<Option<BlockId>> {
    let Some(&region) = ctx.regions(op).get(region_index) else {
        return Err(err(ctx, op, format!("expects a {what} region")));
    };
    let blocks = ctx.region_blocks(region);
    if blocks.len() > 1 {
        return Err(err(
            ctx,
            op,
            format!(
                "expects its {what} region to have at most one block, got {}",
                blocks.len()
            ),
        ));
    }
    let Some(&block) = blocks.first() else {
        if n == 0 {
            return Ok(None);
        }
        return Err(err(
            ctx,
            op,
            format!(
                "expects its {what} region to have a block with {}",
                plural(n, "argument")
            ),
        ));
    };
    let args = ctx.block_args(block);
    if args.len() != n {
        return Err(err(
            ctx,
            op,
            format!(
                "expects its {what} block to have {}, got {}",
                plural(n, "argument"),
                args.len()
            ),
        ));
    }
    for (i, &a) in args.iter().enumerate() {
        let t = ctx.value_type(a);
        if let Err(want) = arg_ok(i, t) {
            return Err(err(
                ctx,
                op,
                format!(
                    "expects {what} block argument {i} to have type {want}, got {}",
                    type_str(ctx, t)
                ),
            ));
        }
    }
    Ok(Some(block))
}
