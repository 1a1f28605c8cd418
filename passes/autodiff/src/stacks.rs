//! Which locals become adstacks.
//!
//! An active scalar float local (`qd.alloca : !qd.ptr<f32>`) that is a loop-carried recurrence
//! of a serial loop (the loop both loads and stores it, and it is declared outside the loop)
//! becomes an adstack, unless it is a *pure accumulator* of that loop: every load of it in the
//! loop feeds a single `addf`/`subf` (as the minuend for `subf`) whose result is only stored back
//! into it (`s = s + e`, `s = s - e`). The stack replaces the local in the gradient kernel: its
//! `qd.alloca` becomes a push of zero (its initial value), each store a push, each load a
//! `load_top`; in reverse a load accumulates into the top entry's adjoint (`acc_adjoint`) and a
//! store hands the top adjoint to the stored value and pops (`load_top_adj`, `pop`). So the stack
//! holds one (primal, adjoint) entry per store, and the reverse pass reads each loaded value back
//! with `load_top` instead of saving it again.
//!
//! A pure accumulator needs no stack: its adjoint is the same for every iteration and no rule
//! reads its values; it keeps a plain adjoint local. Locals that are not recurrences, integer and
//! bool locals, inactive locals and local arrays/structs (which keep element-addressed adjoints)
//! are never turned into stacks; when the reverse pass needs one of their loaded values inside a
//! serial loop, that value is taped on a stack of its own (see `tape`).

use crate::activity::Activity;
use crate::handle_set::HandleSet;
use crate::structure::{is_float, is_serial_loop};
use qd_arith::names::{ADDF, SUBF};
use qd_frontend::{AllocaOp, LOCAL_LOAD_OP, LOCAL_STORE_OP};
use qd_ir::{Context, OpId, Value};

/// The allocas of `kernel` that become adstacks.
/// `ops`: the kernel's ops in pre-order.
pub(crate) fn stacked_locals(ctx: &Context, ops: &[OpId], act: &Activity) -> HandleSet<OpId> {
    let mut out = HandleSet::default();
    for &op in ops {
        let Some(a) = AllocaOp::from_op(ctx, op) else {
            continue;
        };
        if !is_float(ctx, a.pointee(ctx)) || !act.is_active_mem(op) {
            continue;
        }
        let p = a.result(ctx);
        let (loads, stores) = accesses(ctx, p);
        // Only direct scalar loads and stores: anything else keeps the plain local.
        if loads.len() + stores.len() != ctx.uses(p).len() {
            continue;
        }
        if is_recurrence(ctx, op, p, &loads, &stores) {
            out.insert(op);
        }
    }
    out
}

/// The loads of `p` and the stores into `p` (as the pointer operand).
fn accesses(ctx: &Context, p: Value) -> (Vec<OpId>, Vec<OpId>) {
    let mut loads = Vec::new();
    let mut stores = Vec::new();
    for u in ctx.uses(p) {
        match ctx.name(u.op) {
            LOCAL_LOAD_OP => loads.push(u.op),
            LOCAL_STORE_OP if u.index == 1 => stores.push(u.op),
            _ => {}
        }
    }
    (loads, stores)
}

/// Whether some serial loop that does not hold the alloca loads and stores `p`, and `p` is not a
/// pure accumulator of that loop.
fn is_recurrence(ctx: &Context, alloca: OpId, p: Value, loads: &[OpId], stores: &[OpId]) -> bool {
    for &l in loads {
        let mut cur = ctx.parent_op(l);
        while let Some(lp) = cur {
            if lp == alloca || ctx.is_ancestor(lp, alloca) {
                break;
            }
            if is_serial_loop(ctx, lp) && stores.iter().any(|&s| ctx.is_ancestor(lp, s)) {
                let in_loop: Vec<OpId> = loads
                    .iter()
                    .copied()
                    .filter(|&x| ctx.is_ancestor(lp, x))
                    .collect();
                if !in_loop.iter().all(|&x| is_accumulation(ctx, x, p)) {
                    return true;
                }
            }
            cur = ctx.parent_op(lp);
        }
    }
    false
}

/// `%l = local_load p; %n = addf %l, %e (or addf %e, %l, or subf %l, %e); local_store %n, p`,
/// with `%l` and `%n` used nowhere else.
fn is_accumulation(ctx: &Context, load: OpId, p: Value) -> bool {
    let l = ctx.result(load, 0);
    let [u] = ctx.uses(l) else {
        return false;
    };
    let ok_op = match ctx.name(u.op) {
        n if n == ADDF => true,
        n if n == SUBF => u.index == 0,
        _ => false,
    };
    if !ok_op || ctx.num_results(u.op) != 1 {
        return false;
    }
    let n = ctx.result(u.op, 0);
    matches!(ctx.uses(n), [s] if ctx.name(s.op) == LOCAL_STORE_OP && s.index == 0 && ctx.operand(s.op, 1) == p)
}
