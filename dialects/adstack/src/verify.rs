//! The adstack op verifiers. Each reads the IR defensively (counts before indexing, property kinds
//! before use), so that any generic input gets a diagnostic, never a panic. Messages follow MLIR:
//! `'adstack.push' op expects the value type to match the stack element type f32, got f64`.

use crate::types::StackType;
use crate::{ID, MAX_SIZE, SIZE_EXPR};
use qd_ir::verify_helpers::{check_elem_type, expect_simple_shape};
use qd_ir::{AttrData, Context, DiagResult, OpId, Type, TypeData};

pub(crate) use qd_ir::verify_helpers::op_error as err;

pub(crate) fn type_str(ctx: &Context, ty: Type) -> String {
    qd_ir::text::type_to_string(ctx, ty)
}

/// Exactly `operands` operands and `results` results, no regions, no successors, and no
/// properties but `props`.
fn expect_shape(
    ctx: &Context,
    op: OpId,
    operands: usize,
    results: usize,
    props: &[&str],
) -> DiagResult<()> {
    expect_simple_shape(ctx, op, operands, true, results, props)
}

/// Operand 0 must be a stack; returns its type.
fn stack_operand(ctx: &Context, op: OpId) -> DiagResult<StackType> {
    let ty = ctx.value_type(ctx.operand(op, 0));
    StackType::from_type(ctx, ty).ok_or_else(|| {
        err(
            ctx,
            op,
            format!(
                "expects operand 0 to be an !adstack.stack, got {}",
                type_str(ctx, ty)
            ),
        )
    })
}

fn check_elem(ctx: &Context, op: OpId, st: StackType, got: Type, what: &str) -> DiagResult<()> {
    check_elem_type(ctx, op, st.elem(ctx), got, what, "stack")
}

fn check_has_adjoint(ctx: &Context, op: OpId, st: StackType) -> DiagResult<()> {
    if !st.has_adjoint(ctx) {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a float stack (integer and i1 stacks carry no adjoint), got {}",
                type_str(ctx, st.0)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_alloca(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 0, 1, &[ID, MAX_SIZE, SIZE_EXPR])?;
    let ty = ctx.value_type(ctx.result(op, 0));
    if StackType::from_type(ctx, ty).is_none() {
        return Err(err(
            ctx,
            op,
            format!(
                "expects its result to be an !adstack.stack, got {}",
                type_str(ctx, ty)
            ),
        ));
    }
    for name in [ID, MAX_SIZE] {
        let Some(a) = ctx.prop(op, name) else {
            continue;
        };
        let ok = match ctx.attr_data(a) {
            AttrData::Integer { value, ty } => {
                matches!(ctx.type_data(*ty), TypeData::Integer { width: 64, .. }) && *value >= 0
            }
            _ => false,
        };
        if !ok {
            return Err(err(
                ctx,
                op,
                format!("property '{name}' must be a non-negative i64 integer"),
            ));
        }
    }
    if let Some(a) = ctx.prop(op, SIZE_EXPR) {
        crate::size_expr::SizeExpr::from_attr(ctx, a).map_err(|m| {
            err(
                ctx,
                op,
                format!("property 'size_expr' must be a #adstack.size<...>: {m}"),
            )
        })?;
    }
    Ok(())
}

pub(crate) fn verify_push(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 2, 0, &[])?;
    let st = stack_operand(ctx, op)?;
    check_elem(ctx, op, st, ctx.value_type(ctx.operand(op, 1)), "value")
}

pub(crate) fn verify_pop(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, 0, &[])?;
    stack_operand(ctx, op).map(|_| ())
}

pub(crate) fn verify_load_top(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, 1, &[])?;
    let st = stack_operand(ctx, op)?;
    check_elem(ctx, op, st, ctx.value_type(ctx.result(op, 0)), "result")
}

pub(crate) fn verify_load_top_adj(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, 1, &[])?;
    let st = stack_operand(ctx, op)?;
    check_has_adjoint(ctx, op, st)?;
    check_elem(ctx, op, st, ctx.value_type(ctx.result(op, 0)), "result")
}

pub(crate) fn verify_acc_adjoint(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 2, 0, &[])?;
    let st = stack_operand(ctx, op)?;
    check_has_adjoint(ctx, op, st)?;
    check_elem(ctx, op, st, ctx.value_type(ctx.operand(op, 1)), "value")
}
