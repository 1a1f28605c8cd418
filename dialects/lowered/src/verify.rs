//! Checks shared by the lowered ops' verify hooks: where an op sits (its task, its kernel), and
//! the terminator of a region. The structure (counts, constraints, properties) is checked by the
//! declarations themselves.

use crate::{KERNEL_OP, TASK_OP};
use qd_ir::verify_helpers::op_error;
use qd_ir::{Context, DiagResult, Diagnostic, OpId};

pub(crate) fn err(ctx: &Context, op: OpId, msg: impl AsRef<str>) -> Diagnostic {
    op_error(ctx, op, msg)
}

/// The nearest enclosing op named `name`.
fn enclosing(ctx: &Context, op: OpId, name: &str) -> Option<OpId> {
    let mut cur = ctx.parent_op(op);
    while let Some(o) = cur {
        if ctx.name(o) == name {
            return Some(o);
        }
        cur = ctx.parent_op(o);
    }
    None
}

/// The task that holds `op`.
pub fn enclosing_task(ctx: &Context, op: OpId) -> Option<OpId> {
    enclosing(ctx, op, TASK_OP)
}

/// The lowered kernel that holds `op`.
pub fn enclosing_kernel(ctx: &Context, op: OpId) -> Option<OpId> {
    enclosing(ctx, op, KERNEL_OP)
}

/// A task-level op (thread data, adstack metadata) must sit in a task; outside any op (a test
/// building it alone) there is nothing to check.
pub(crate) fn expect_in_task(ctx: &Context, op: OpId) -> DiagResult<Option<OpId>> {
    match enclosing_task(ctx, op) {
        Some(t) => Ok(Some(t)),
        None if ctx.parent_op(op).is_none() => Ok(None),
        None => Err(err(ctx, op, "expects to be nested in a 'lowered.task'")),
    }
}

/// Region `index` of `op`, when it has a block, must end with an op named `term`.
pub(crate) fn expect_terminator(
    ctx: &Context,
    op: OpId,
    index: usize,
    term: &str,
    what: &str,
) -> DiagResult<()> {
    let Some(&r) = ctx.regions(op).get(index) else {
        return Ok(());
    };
    for &b in ctx.region_blocks(r) {
        let last = ctx.last_op(b);
        if last.is_none_or(|t| ctx.name(t) != term) {
            return Err(err(
                ctx,
                op,
                format!("expects its {what} region to end with '{term}'"),
            ));
        }
    }
    Ok(())
}

/// Region `index` of `op` must have exactly one block.
pub(crate) fn expect_block(ctx: &Context, op: OpId, index: usize, what: &str) -> DiagResult<()> {
    let n = ctx
        .regions(op)
        .get(index)
        .map_or(0, |&r| ctx.region_blocks(r).len());
    if n != 1 {
        return Err(err(
            ctx,
            op,
            format!("expects its {what} region to have one block, got {n}"),
        ));
    }
    Ok(())
}
