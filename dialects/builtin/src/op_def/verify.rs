//! The structural verifier of every declared op, then its own hook. Reads the IR defensively
//! (counts before indexing), so that any generic input gets a diagnostic, never a panic. Order and
//! messages follow the hand-written verifiers it replaces (MLIR style):
//!
//! 1. operand count: `expects 2 operands, got 1` (`at least` with a variadic group, `1 to 2` with
//!    an optional one); 2. result count, likewise; 3. region count: `expects no regions, got 1`;
//!    4. `expects no successors`; 5. `has unknown property 'p'`; 6. `requires property 'p'`;
//!    7. `property 'p' must be {kind}`; 8. operand and result types: `expects operand 0 to be
//!    {constraint}, got T` (`its result` for an op with one result); 9. single-block regions:
//!    `expects its body region to have at most one block, got 2`; 10. the declaration's hook.

use super::def::{segment, Arity, OpDef, ValueDef};
use crate::verify_helpers::{expect_no_successors, op_error, plural};
use crate::{Context, DiagResult, OpId};

/// `OpInfo::verify` of every declared op.
pub(crate) fn verify(ctx: &Context, op: OpId) -> DiagResult<()> {
    let Some(def) = OpDef::of_op(ctx, op) else {
        return Ok(());
    };
    verify_structure(def, ctx, op)?;
    match def.verify {
        Some(f) => f(ctx, op),
        None => Ok(()),
    }
}

/// Steps 1 to 9 for `op` against `def`.
pub fn verify_structure(def: &OpDef, ctx: &Context, op: OpId) -> DiagResult<()> {
    count(ctx, op, def.operands, ctx.num_operands(op), "operand")?;
    count(ctx, op, def.results, ctx.num_results(op), "result")?;
    let regions = ctx.regions(op).len();
    if regions != def.regions.len() {
        let want = match def.regions.len() {
            0 => "no regions".to_string(),
            n => plural(n, "region"),
        };
        return Err(op_error(ctx, op, format!("expects {want}, got {regions}")));
    }
    expect_no_successors(ctx, op)?;
    for (k, _) in ctx.properties(op) {
        let k = ctx.ident_str(*k);
        if def.prop(k).is_none() {
            return Err(op_error(ctx, op, format!("has unknown property '{k}'")));
        }
    }
    for p in def.props {
        match ctx.prop(op, p.name) {
            None if p.required => {
                return Err(op_error(ctx, op, format!("requires property '{}'", p.name)))
            }
            Some(a) if !(p.spec.check)(ctx, a) => {
                return Err(op_error(
                    ctx,
                    op,
                    format!("property '{}' must be {}", p.name, p.spec.expected),
                ))
            }
            _ => {}
        }
    }
    let operand_types: Vec<_> = ctx.operands(op).map(|v| ctx.value_type(v)).collect();
    types(ctx, op, def.operands, &operand_types, |i, _| {
        format!("operand {i}")
    })?;
    let result_types: Vec<_> = ctx.results(op).iter().map(|&v| ctx.value_type(v)).collect();
    let one_result = def.results.len() == 1 && def.results[0].arity == Arity::Single;
    types(ctx, op, def.results, &result_types, |i, _| {
        if one_result {
            "its result".to_string()
        } else {
            format!("result {i}")
        }
    })?;
    for (r, rd) in ctx.regions(op).iter().zip(def.regions) {
        let n = ctx.region_blocks(*r).len();
        if rd.single_block && n > 1 {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects its {} region to have at most one block, got {n}",
                    rd.name
                ),
            ));
        }
    }
    Ok(())
}

/// The number of values against the groups' arities.
fn count(ctx: &Context, op: OpId, groups: &[ValueDef], got: usize, what: &str) -> DiagResult<()> {
    let singles = groups.iter().filter(|v| v.arity == Arity::Single).count();
    let optional = groups.iter().any(|v| v.arity == Arity::Optional);
    let variadic = groups.iter().any(|v| v.arity == Arity::Variadic);
    let want = if variadic {
        (got < singles).then(|| format!("at least {}", plural(singles, what)))
    } else if optional {
        (got < singles || got > singles + 1)
            .then(|| format!("{singles} to {} {what}s", singles + 1))
    } else {
        (got != singles).then(|| plural(singles, what))
    };
    match want {
        Some(w) => Err(op_error(ctx, op, format!("expects {w}, got {got}"))),
        None => Ok(()),
    }
}

/// Each value's type against its group's constraint; `role(i, def)` names value `i`.
fn types(
    ctx: &Context,
    op: OpId,
    groups: &[ValueDef],
    tys: &[crate::Type],
    role: impl Fn(usize, &ValueDef) -> String,
) -> DiagResult<()> {
    let arity: Vec<Arity> = groups.iter().map(|v| v.arity).collect();
    for (g, vd) in groups.iter().enumerate() {
        for i in segment(&arity, g, tys.len()) {
            let Some(&t) = tys.get(i) else { continue };
            if !vd.constraint.is_satisfied(ctx, t) {
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "expects {} to be {}, got {}",
                        role(i, vd),
                        vd.constraint.description,
                        crate::text::type_to_string(ctx, t)
                    ),
                ));
            }
        }
    }
    Ok(())
}
