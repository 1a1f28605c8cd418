//! The rules of differentiable kernels other than the access rule (`access_rule`), checked before
//! a kernel is differentiated; a violation is a compile error at the offending op.
//!
//! Rejected here, because the gradient kernel could not reproduce them: a used result of an
//! atomic (the old value depends on the order of the threads and on what the forward pass left),
//! memory writes in a `qd.while` condition, a kernel-level local used inside a parallel loop
//! (locals are per thread), ops with regions other than qd's control flow, and kernels that
//! already contain ad/adstack ops (other than the element accesses `element-access-ad` makes).

use crate::structure::parallel_ancestor;
use qd_frontend::{global_write, is_loop, KernelOp, ALLOCA_OP, IF_OP, LOCAL_STORE_OP, WHILE_OP};
use qd_ir::{Context, Diagnostic, OpId};

/// Every violation in `kernel` (whose ops, in pre-order, are `ops`), in program order.
pub(crate) fn check(ctx: &Context, kernel: KernelOp, ops: &[OpId]) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let name = kernel.name(ctx).to_string();
    for &op in ops {
        let d = ctx.dialect_of(op);
        let element = matches!(
            ctx.name(op),
            qd_ad::LOAD_ELEMENT_OP | qd_ad::STORE_ELEMENT_OP
        );
        if (d == "ad" || d == "adstack") && !element {
            diags.push(err(
                ctx,
                op,
                format!(
                    "kernel @{name} already contains reverse-mode op '{}'; reverse-mode-ad differentiates frontend kernels only",
                    ctx.name(op)
                ),
            ));
            continue;
        }
        if !ctx.regions(op).is_empty() && !is_loop(ctx, op) && ctx.name(op) != IF_OP {
            diags.push(err(
                ctx,
                op,
                format!(
                    "reverse-mode-ad does not support op '{}' with regions",
                    ctx.name(op)
                ),
            ));
        }
        if let Some(w) = global_write(ctx, op) {
            if w.old.is_some_and(|v| ctx.has_uses(v)) {
                diags.push(err(
                    ctx,
                    op,
                    format!(
                        "the value '{}' returns is used; the gradient kernel cannot replay it (it depends on the order of the threads and on what the forward pass wrote)",
                        ctx.name(op)
                    ),
                ));
            }
        }
        if ctx.name(op) == WHILE_OP {
            check_while_condition(ctx, op, &mut diags);
        }
        if ctx.name(op) == ALLOCA_OP && parallel_ancestor(ctx, op).is_none() {
            let r = ctx.result(op, 0);
            if ctx.users(r).any(|u| parallel_ancestor(ctx, u).is_some()) {
                diags.push(err(
                    ctx,
                    op,
                    "a local defined at the kernel's top level is used inside a parallel loop; declare it inside the loop (locals are per thread)",
                ));
            }
        }
    }
    diags
}

fn err(ctx: &Context, op: OpId, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(ctx.loc(op), msg)
}

/// Memory writes in a while's condition region.
fn check_while_condition(ctx: &Context, op: OpId, diags: &mut Vec<Diagnostic>) {
    let Some(&cond) = ctx.regions(op).first() else {
        return;
    };
    for b in ctx.region_blocks(cond).to_vec() {
        for o in ctx.block_ops(b) {
            for n in ctx.walk_pre_order(o) {
                // Global writes (field and ndarray stores and atomics) and local ones.
                let writes = global_write(ctx, n).is_some()
                    || matches!(ctx.name(n), LOCAL_STORE_OP | qd_ad::STORE_ELEMENT_OP);
                if writes {
                    diags.push(err(
                        ctx,
                        n,
                        "reverse-mode-ad does not support memory writes in a qd.while condition; move them into the loop body",
                    ));
                }
            }
        }
    }
}
