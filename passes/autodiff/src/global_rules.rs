//! The global data access rules of differentiable kernels (Taichi's), checked before a kernel is
//! differentiated; a violation is a compile error at the offending op, naming the field.
//!
//! The gradient kernel replays the forward computation from global memory as the forward pass
//! left it, so:
//! - A kernel must not read a field (or ndarray) that it also writes: a read after a write sees
//!   the new value, and the replay of any read sees the values the forward pass left behind. (We
//!   judge per field, not per element: conservative, and clear.)
//! - Accumulation into a `needs_grad` field is by `qd.atomic_add`: a `qd.store` that writes an
//!   element a second time (a store inside a serial loop whose indices do not change in that
//!   loop, or a store after another write to the same indices) is an error. Writes in the two
//!   exclusive arms of one `qd.if` are not "after" each other: only one of them runs.
//!
//! Also rejected here, because the gradient kernel could not reproduce them: a used result of an
//! atomic (the old value depends on the order of the threads and on what the forward pass left),
//! memory writes in a `qd.while` condition, a kernel-level local used inside a parallel loop
//! (locals are per thread), ops with regions other than qd's control flow, and kernels that
//! already contain ad/adstack ops (other than the element accesses `element-access-ad` makes).

use crate::structure::{is_serial_loop, kernel_ops, parallel_ancestor};
use qd_frontend::{
    is_loop, AtomicOp, KernelOp, LoadOp, NdarrayLoadOp, NdarrayStoreOp, StoreOp, ALLOCA_OP, IF_OP,
    LOAD_OP, LOCAL_STORE_OP, NDARRAY_LOAD_OP, NDARRAY_STORE_OP, STORE_OP, WHILE_OP,
};
use qd_ir::text::loc_to_string;
use qd_ir::{Context, Diagnostic, OpId, OpTraits, Value, ValueDef};
use std::collections::HashSet;

/// Every violation in `kernel`, in program order.
pub(crate) fn check(
    ctx: &Context,
    kernel: KernelOp,
    needs_grad: &HashSet<String>,
) -> Vec<Diagnostic> {
    let ops = kernel_ops(ctx, kernel);
    let mut diags = Vec::new();
    let name = kernel.name(ctx).to_string();
    for (pos, &op) in ops.iter().enumerate() {
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
        if let Some(a) = AtomicOp::from_op(ctx, op) {
            if a.old_value(ctx).is_some_and(|v| ctx.has_uses(v)) {
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
        if let Some(a) = qd_frontend::NdarrayAtomicOp::from_op(ctx, op) {
            if a.old_value(ctx).is_some_and(|v| ctx.has_uses(v)) {
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
        read_after_write(ctx, &ops, pos, op, &mut diags);
        if ctx.name(op) == STORE_OP && needs_grad.contains(StoreOp(op).field_name(ctx)) {
            repeated_store(ctx, &ops, pos, op, &mut diags);
        }
    }
    diags
}

fn err(ctx: &Context, op: OpId, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(ctx.loc(op), msg)
}

/// A field's or ndarray's read when the kernel also writes it.
fn read_after_write(
    ctx: &Context,
    ops: &[OpId],
    pos: usize,
    op: OpId,
    diags: &mut Vec<Diagnostic>,
) {
    let (what, writes): (String, Vec<(usize, OpId)>) = match ctx.name(op) {
        LOAD_OP => {
            let f = LoadOp(op).field_name(ctx);
            let w = ops
                .iter()
                .enumerate()
                .filter(|(_, &o)| field_written(ctx, o) == Some(f))
                .map(|(i, &o)| (i, o))
                .collect();
            (format!("field @{f}"), w)
        }
        NDARRAY_LOAD_OP => {
            let a = NdarrayLoadOp(op).array(ctx);
            let w = ops
                .iter()
                .enumerate()
                .filter(|(_, &o)| {
                    (ctx.name(o) == NDARRAY_STORE_OP && NdarrayStoreOp(o).array(ctx) == a)
                        || qd_frontend::NdarrayAtomicOp::from_op(ctx, o)
                            .is_some_and(|w| w.array(ctx) == a)
                })
                .map(|(i, &o)| (i, o))
                .collect();
            (format!("ndarray argument #{}", arg_index(ctx, a)), w)
        }
        _ => return,
    };
    let Some(&(_, first)) = writes.first() else {
        return;
    };
    let earlier = writes.iter().find(|(i, _)| *i < pos).copied();
    let d = match earlier {
        Some((_, w)) => err(
            ctx,
            op,
            format!(
                "global data access rule violated: {what} is read after this kernel writes it; a differentiable kernel must not read a field element after writing it (accumulate with qd.atomic_add instead)"
            ),
        )
        .with_note(ctx.loc(w), format!("{what} is written here")),
        None => {
            err(
                ctx,
                op,
                format!(
                    "global data access rule violated: {what} is read and also written by this kernel; the gradient kernel would replay this read with the values the forward pass wrote"
                ),
            )
            .with_note(ctx.loc(first), format!("{what} is written here"))
        }
    };
    diags.push(d);
}

/// The field a store or atomic writes.
fn field_written(ctx: &Context, op: OpId) -> Option<&str> {
    if ctx.name(op) == STORE_OP {
        return Some(StoreOp(op).field_name(ctx));
    }
    AtomicOp::from_op(ctx, op).map(|a| a.field_name(ctx))
}

fn arg_index(ctx: &Context, v: Value) -> u32 {
    match ctx.value_def(v) {
        ValueDef::BlockArg { index, .. } => index,
        ValueDef::OpResult { index, .. } => index,
    }
}

/// A `qd.store` to a needs_grad field that writes an element a second time.
fn repeated_store(ctx: &Context, ops: &[OpId], pos: usize, op: OpId, diags: &mut Vec<Diagnostic>) {
    let s = StoreOp(op);
    let field = s.field_name(ctx).to_string();
    let idx = s.indices(ctx);
    // Inside a serial loop with indices that do not change in that loop.
    let mut cur = ctx.parent_op(op);
    while let Some(l) = cur {
        if ctx.name(l) == qd_frontend::KERNEL_OP {
            break;
        }
        if is_serial_loop(ctx, l) && idx.iter().all(|&v| !varies_in(ctx, v, l)) {
            let loop_loc = loc_to_string(ctx, ctx.loc(l));
            diags.push(
                err(
                    ctx,
                    op,
                    format!(
                        "global data access rule violated: this qd.store writes the same element of @{field} on every iteration of a serial loop; accumulate into a needs_grad field with qd.atomic_add"
                    ),
                )
                .with_note(ctx.loc(l), format!("the loop at {loop_loc}")),
            );
            return;
        }
        if qd_frontend::is_parallel_loop(ctx, l) {
            break;
        }
        cur = ctx.parent_op(l);
    }
    // After another write of the same element (same index values) in the same thread.
    let segment = parallel_ancestor(ctx, op);
    for &w in &ops[..pos] {
        if field_written(ctx, w) != Some(field.as_str())
            || parallel_ancestor(ctx, w) != segment
            || exclusive_arms(ctx, w, op)
        {
            continue;
        }
        let widx: Vec<Value> = ctx.operands(w).skip(1).collect();
        if widx == idx {
            diags.push(
                err(
                    ctx,
                    op,
                    format!(
                        "global data access rule violated: this qd.store writes an element of @{field} that this kernel already wrote; from the second write on, a differentiable kernel accumulates with qd.atomic_add"
                    ),
                )
                .with_note(ctx.loc(w), "first written here"),
            );
            return;
        }
    }
}

/// Whether `a` and `b` lie in different arms of one `qd.if` (then vs else, at any depth inside
/// each): in one iteration only one of them runs, so together they write an element once. The
/// `qd.if` must be their innermost common ancestor: an enclosing loop around an if that holds
/// both would let both arms run, in different iterations.
fn exclusive_arms(ctx: &Context, a: OpId, b: OpId) -> bool {
    let mut cur = ctx.parent_op(a);
    while let Some(p) = cur {
        if ctx.is_ancestor(p, b) {
            return ctx.name(p) == IF_OP && arm_of(ctx, p, a) != arm_of(ctx, p, b);
        }
        cur = ctx.parent_op(p);
    }
    false
}

/// The region of `op` that holds `inner` (a descendant of `op`).
fn arm_of(ctx: &Context, op: OpId, inner: OpId) -> Option<qd_ir::RegionId> {
    let mut cur = inner;
    while let Some(p) = ctx.parent_op(cur) {
        if p == op {
            return ctx.parent_region(cur);
        }
        cur = p;
    }
    None
}

/// Whether `v` may take different values in different iterations of loop `l`: it is `l`'s
/// induction variable, the induction variable of a nested loop whose bounds vary in `l`, a
/// memory read or another impure op inside `l`, or computed from such a value. (The induction
/// variables of a nested loop with fixed bounds run over the same values in every iteration.)
fn varies_in(ctx: &Context, v: Value, l: OpId) -> bool {
    match ctx.value_def(v) {
        ValueDef::BlockArg { block, .. } => match ctx.block_parent_op(block) {
            Some(p) if p == l => true,
            Some(p) if ctx.is_ancestor(l, p) => ctx.operands(p).any(|b| varies_in(ctx, b, l)),
            _ => false,
        },
        ValueDef::OpResult { op, .. } => {
            if !ctx.is_ancestor(l, op) {
                return false;
            }
            if !ctx.has_trait(op, OpTraits::PURE) {
                return true;
            }
            ctx.operands(op).any(|o| varies_in(ctx, o, l))
        }
    }
}

/// Memory writes in a while's condition region.
fn check_while_condition(ctx: &Context, op: OpId, diags: &mut Vec<Diagnostic>) {
    let Some(&cond) = ctx.regions(op).first() else {
        return;
    };
    for b in ctx.region_blocks(cond).to_vec() {
        for o in ctx.block_ops(b) {
            for n in ctx.walk_pre_order(o) {
                let writes = matches!(
                    ctx.name(n),
                    STORE_OP | LOCAL_STORE_OP | NDARRAY_STORE_OP | qd_ad::STORE_ELEMENT_OP
                ) || AtomicOp::from_op(ctx, n).is_some();
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
