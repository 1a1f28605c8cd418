//! Adjoint writes a caller need not prepare. reverse-mode-ad's gradient kernel accumulates into
//! every input's adjoint (`ad.acc_ndarray_adjoint`: the buffer must hold zeros first) and, for an
//! output, reads its adjoint and resets it to zero (the primal store overwrote the element). When
//! the gradient of a generated kernel provably touches each element of an adjoint from one
//! iteration of its parallel loop only, a caller that owns the buffers (qd-jit's executable) can
//! skip both preparations:
//!
//! - an accumulation that every iteration `i` of the loop over the whole array makes exactly once
//!   at `A[i]` becomes the write `A[i] = 0.0 + v` (the sum it made into a zeroed buffer, bit for
//!   bit): the buffer's old contents are never read, so it need not be zeroed;
//! - resets `A[i] = 0` of an adjoint that iteration `i` only reads at `A[i]` before them are
//!   dropped: every value read is the same, and only what the buffer holds after the launch
//!   changes, which a caller that never reads it again does not see.
//!
//! Each rewrite is proved on the gradient kernel itself (the ops that touch the adjoint, where
//! they sit, their indices and the loop's bounds); the caller says only what holds outside the
//! kernel: which adjoints no other kernel writes, which it never reads after the launch, and the
//! length of each array.

use qd_ad::{find_reverse, ACC_NDARRAY_ADJOINT_OP};
use qd_arith::patterns::int_const;
use qd_frontend::{KernelOp, NdarrayStoreOp, RangeForOp};
use qd_ir::{Builder, Context, OpId, Value};

/// What the caller knows of one parameter of the primal kernel, outside the kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdjointUse {
    /// The number of elements of the array bound to the parameter at every launch (None: not
    /// known, or not an array).
    pub len: Option<u64>,
    /// No other kernel writes this adjoint in the backward that launches the gradient, and
    /// nothing reads it before the gradient runs: the gradient may write it instead of adding
    /// into it.
    pub sole_writer: bool,
    /// Nothing reads this adjoint after the gradient's launch (until the caller sets it again):
    /// the gradient need not leave it reset.
    pub dead_after: bool,
}

/// What [`overwrite_adjoints`] made of one parameter's adjoint in the gradient kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AdjointWrite {
    /// As reverse-mode-ad made it (or the parameter has no adjoint): the caller zeroes or seeds
    /// the buffer before the launch, as before.
    #[default]
    Unchanged,
    /// Every element written once from `0.0 + v`: the buffer's contents before the launch do not
    /// matter.
    Overwritten,
    /// Read only (its resets dropped): the buffer holds after the launch what it held before.
    ReadOnly,
}

/// Rewrites the adjoint writes of the gradient of kernel `kernel` of `module` (made by
/// reverse-mode-ad, before `privatize_adjoints`) as the module docs say, given `uses` (one per
/// parameter of the primal kernel); returns what became of each parameter's adjoint. A kernel
/// without a gradient, or a parameter that does not meet every condition, is left as it was.
pub fn overwrite_adjoints(
    ctx: &mut Context,
    module: OpId,
    kernel: &str,
    uses: &[AdjointUse],
) -> Vec<AdjointWrite> {
    let mut out = vec![AdjointWrite::Unchanged; uses.len()];
    let Some(r) = find_reverse(ctx, module, kernel) else {
        return out;
    };
    let (Some(primal), Some(grad)) = (r.kernel(ctx), r.gradient(ctx)) else {
        return out;
    };
    let arg_types = primal.arg_types(ctx);
    if arg_types.len() != uses.len() {
        return out;
    }
    let activity = r.activity(ctx, &arg_types);
    let Some((lp, trip)) = only_parallel_loop(ctx, grad) else {
        return out;
    };
    let gargs = grad.args(ctx);
    // Gradient parameters: the primal's, then one adjoint per active parameter, in order.
    let mut next = arg_types.len();
    for (p, &active) in activity.iter().enumerate() {
        if !active {
            continue;
        }
        let Some(&adj) = gargs.get(next) else {
            return out;
        };
        next += 1;
        let u = uses[p];
        // An overwrite must reach every element: the loop runs once per element of the array.
        if u.sole_writer && u.len == Some(trip) && overwrite(ctx, lp, adj) {
            out[p] = AdjointWrite::Overwritten;
        } else if u.dead_after && drop_resets(ctx, lp, adj) {
            out[p] = AdjointWrite::ReadOnly;
        }
    }
    out
}

/// The gradient's one parallel `range_for` over `[0, n)` (n a constant), when every other op of
/// its body is a constant: each of its iterations then runs once, and the ops directly in its
/// body run once per iteration (`qd.break` and `qd.continue` cannot leave a parallel loop).
fn only_parallel_loop(ctx: &Context, grad: KernelOp) -> Option<(RangeForOp, u64)> {
    let body = grad.body(ctx)?;
    let mut found = None;
    for op in ctx.block_op_vec(body) {
        if ctx.name(op) == qd_arith::names::CONSTANT {
            continue;
        }
        if ctx.name(op) != RangeForOp::NAME || found.is_some() {
            return None;
        }
        let l = RangeForOp(op);
        if !l.is_parallel(ctx) {
            return None;
        }
        let lo = int_const(ctx, ctx.operand(op, 0))?;
        let hi = int_const(ctx, ctx.operand(op, 1))?;
        if !lo.is_zero() {
            return None;
        }
        found = Some((l, u64::try_from(hi.sext()).ok()?));
    }
    found
}

/// Whether `op`, an access at `index`, sits directly in `lp`'s body (runs once per iteration) at
/// its induction variable.
fn at_own_index(ctx: &Context, lp: RangeForOp, op: OpId, index: &[Value]) -> bool {
    ctx.parent_block(op) == Some(lp.body(ctx)) && index == [lp.induction_var(ctx)]
}

/// Turns the one accumulation into `adj` (every use of it) into a write of `0.0 + v`, when that
/// accumulation sits directly in `lp`'s body at its induction variable.
fn overwrite(ctx: &mut Context, lp: RangeForOp, adj: Value) -> bool {
    let users: Vec<OpId> = ctx.users(adj).collect();
    let [acc] = users[..] else {
        return false;
    };
    let ops = ctx.operand_vec(acc);
    if ctx.name(acc) != ACC_NDARRAY_ADJOINT_OP
        || ops.len() != 3
        || ops[1] != adj
        || !at_own_index(ctx, lp, acc, &ops[2..])
    {
        return false;
    }
    let loc = ctx.loc(acc);
    let v = ops[0];
    let ty = ctx.value_type(v);
    if qd_arith::consts::float_kind(ctx, ty).is_none() {
        return false;
    }
    let mut b = Builder::before(ctx, acc);
    // +0.0 + v is what the accumulation into a zeroed buffer computed (-0.0 becomes +0.0).
    let zero = qd_arith::build_constant_float(&mut b, 0.0, ty, loc);
    let sum = qd_arith::build_binary(&mut b, qd_arith::names::ADDF, zero, v, loc);
    NdarrayStoreOp::build(&mut b, sum, adj, &ops[2..], loc);
    ctx.erase_op(acc);
    true
}

/// Erases the resets of `adj` when its only uses are loads and stores of constant zero, directly
/// in `lp`'s body at its induction variable, every load before every store.
fn drop_resets(ctx: &mut Context, lp: RangeForOp, adj: Value) -> bool {
    let users: Vec<OpId> = ctx.users(adj).collect();
    let mut stores = Vec::new();
    for &u in &users {
        let ops = ctx.operand_vec(u);
        let ok = match ctx.name(u) {
            qd_frontend::NDARRAY_LOAD_OP => ops[0] == adj && at_own_index(ctx, lp, u, &ops[1..]),
            qd_frontend::NDARRAY_STORE_OP => {
                ops.len() == 3
                    && ops[1] == adj
                    && ops[0] != adj
                    && is_zero(ctx, ops[0])
                    && at_own_index(ctx, lp, u, &ops[2..])
            }
            _ => false,
        };
        if !ok {
            return false;
        }
        if ctx.name(u) == qd_frontend::NDARRAY_STORE_OP {
            stores.push(u);
        }
    }
    if stores.is_empty() {
        return false;
    }
    // In block order: no load after the first store (a later load would read the reset).
    let body = ctx.block_op_vec(lp.body(ctx));
    let first_store = body.iter().position(|o| stores.contains(o));
    let last_load = body
        .iter()
        .rposition(|o| users.contains(o) && !stores.contains(o));
    if let (Some(s), Some(l)) = (first_store, last_load) {
        if l > s {
            return false;
        }
    }
    for s in stores {
        ctx.erase_op(s);
    }
    true
}

/// Whether `v` is a floating-point or integer constant zero (either sign).
fn is_zero(ctx: &Context, v: Value) -> bool {
    let Some(d) = ctx.defining_op(v) else {
        return false;
    };
    if ctx.name(d) != qd_arith::names::CONSTANT {
        return false;
    }
    if let Some(i) = int_const(ctx, v) {
        return i.is_zero();
    }
    ctx.prop_or_attr(d, "value")
        .and_then(|a| qd_arith::consts::float_value(ctx, a))
        .is_some_and(|f| f == 0.0)
}
