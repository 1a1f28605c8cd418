//! The adstack ops' own verify hooks, run after the structural checks of their declarations
//! (counts, stack operands and results, property kinds). Messages follow MLIR:
//! `'adstack.push' op expects the value type to match the stack element type f32, got f64`.

use crate::types::StackType;
use crate::{PRIMAL_ELIDED, SIZE_EXPR};
use qd_ir::verify_helpers::{check_elem_type, op_error as err};
use qd_ir::{Context, DiagResult, OpId, Type};

/// The stack of operand 0 (the structure has checked it is one).
fn stack(ctx: &Context, op: OpId) -> Option<StackType> {
    StackType::from_type(ctx, ctx.value_type(ctx.operand(op, 0)))
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
                qd_ir::text::type_to_string(ctx, st.0)
            ),
        ));
    }
    Ok(())
}

/// `size_expr`, when set, must be a `#adstack.size<...>`; an elided stack has no uses.
pub(crate) fn verify_alloca(ctx: &Context, op: OpId) -> DiagResult<()> {
    if ctx.prop(op, PRIMAL_ELIDED).is_some() && ctx.num_results(op) == 1 {
        if let Some(u) = ctx.users(ctx.result(op, 0)).next() {
            return Err(err(
                ctx,
                op,
                format!(
                    "is marked primal_elided but its stack is used by '{}'",
                    ctx.name(u)
                ),
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
    let Some(st) = stack(ctx, op) else {
        return Ok(());
    };
    check_elem(ctx, op, st, ctx.value_type(ctx.operand(op, 1)), "value")
}

pub(crate) fn verify_load_top(ctx: &Context, op: OpId) -> DiagResult<()> {
    let Some(st) = stack(ctx, op) else {
        return Ok(());
    };
    check_elem(ctx, op, st, ctx.value_type(ctx.result(op, 0)), "result")
}

pub(crate) fn verify_load_top_adj(ctx: &Context, op: OpId) -> DiagResult<()> {
    let Some(st) = stack(ctx, op) else {
        return Ok(());
    };
    check_has_adjoint(ctx, op, st)?;
    check_elem(ctx, op, st, ctx.value_type(ctx.result(op, 0)), "result")
}

pub(crate) fn verify_acc_adjoint(ctx: &Context, op: OpId) -> DiagResult<()> {
    let Some(st) = stack(ctx, op) else {
        return Ok(());
    };
    check_has_adjoint(ctx, op, st)?;
    check_elem(ctx, op, st, ctx.value_type(ctx.operand(op, 1)), "value")
}
