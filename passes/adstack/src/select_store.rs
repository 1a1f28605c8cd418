//! A local that holds `x` (stored first, directly in its block) and then `y` (stored directly
//! inside a `qd.if %c` that follows, `%c` an `arith.cmpi` of values exact at launch): a load
//! after the `qd.if` reads `select(c, y, x)`, which the launch's data decides, instead of
//! `max(x, y)`.

use crate::diff::Diff;
use crate::locals::Location;
use crate::loops::enclosing_loop;
use crate::value_bound::{Bounder, Dir, Unbounded};
use qd_adstack::size_expr::{CmpPred, SizeExpr};
use qd_arith::names as ar;
use qd_ir::{AttrData, OpId};

/// The bound of `load` in that shape, None when the shape does not hold.
pub(crate) fn decided(
    b: &mut Bounder,
    load: OpId,
    loc: &Location,
    dir: Dir,
) -> Result<Option<Diff>, Unbounded> {
    let ctx = b.ctx;
    let Some(block) = ctx.parent_block(loc.root) else {
        return Ok(None);
    };
    if !loc.initialized || loc.writers.len() != 2 || ctx.name(loc.root) != qd_frontend::ALLOCA_OP {
        return Ok(None);
    }
    let follows = |first: OpId, op: OpId| {
        std::iter::successors(ctx.next_op(first), |&o| ctx.next_op(o)).any(|o| o == op)
    };
    // The op of `block` that holds `op`.
    let top = |op: OpId| {
        let mut cur = Some(op);
        while let Some(o) = cur {
            if ctx.parent_block(o) == Some(block) {
                return Some(o);
            }
            cur = ctx.parent_op(o);
        }
        None
    };
    let [(w0, v0), (w1, v1)] = [loc.writers[0], loc.writers[1]];
    let ((wx, x), (wy, y)) = if ctx.parent_block(w0) == Some(block) {
        ((w0, v0), (w1, v1))
    } else {
        ((w1, v1), (w0, v0))
    };
    let Some(f) = ctx
        .parent_op(wy)
        .filter(|&f| ctx.name(f) == qd_frontend::IF_OP)
    else {
        return Ok(None);
    };
    let arm = (0..2).find(|&r| ctx.region_entry_block(f, r) == ctx.parent_block(wy));
    let (Some(arm), Some(lt)) = (arm, top(load)) else {
        return Ok(None);
    };
    if ctx.parent_block(wx) != Some(block)
        || ctx.parent_block(f) != Some(block)
        || !follows(wx, f)
        || !follows(f, lt)
    {
        return Ok(None);
    }
    let Some(cmp) = ctx
        .defining_op(ctx.operand(f, 0))
        .filter(|&c| ctx.name(c) == ar::CMPI)
    else {
        return Ok(None);
    };
    let pred = match ctx.prop_or_attr(cmp, "predicate").map(|a| ctx.attr_data(a)) {
        Some(AttrData::Integer { value, .. }) => *value,
        _ => return Ok(None),
    };
    // MLIR's predicates: eq, ne, slt, sle, sgt, sge (the greater ones with operands swapped).
    let (p, swap) = match pred {
        0 => (CmpPred::Eq, false),
        1 => (CmpPred::Ne, false),
        2 => (CmpPred::Lt, false),
        3 => (CmpPred::Le, false),
        4 => (CmpPred::Lt, true),
        5 => (CmpPred::Le, true),
        _ => return Ok(None),
    };
    let at = enclosing_loop(ctx, f);
    let (l, r) = (ctx.operand(cmp, 0), ctx.operand(cmp, 1));
    let (Some(mut a), Some(mut c)) = (b.exact(l, at), b.exact(r, at)) else {
        return Ok(None);
    };
    if swap {
        std::mem::swap(&mut a, &mut c);
    }
    let then = b.bound(y, dir, enclosing_loop(ctx, wy))?;
    let other = b.bound(x, dir, enclosing_loop(ctx, wx))?;
    let (then, other) = if arm == 0 {
        (then, other)
    } else {
        (other, then)
    };
    // a - an < c - cn iff a + cn < c + an; the values' difference is kept as in Diff::max.
    let (lhs, rhs) = (a.pos.add(&c.neg), c.pos.add(&a.neg));
    Ok(Some(Diff {
        pos: SizeExpr::select(
            p,
            &lhs,
            &rhs,
            &then.pos.add(&other.neg),
            &other.pos.add(&then.neg),
        ),
        neg: then.neg.add(&other.neg),
    }))
}
