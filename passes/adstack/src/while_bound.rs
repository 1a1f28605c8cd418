//! Trip counts of `qd.while` loops. A while loop has none in general; it has one when its
//! condition is (a conjunction that includes) `k < n` or `k <= n` on a counter `k` that the
//! loop only ever increases by a literal step of at least 1, once per iteration:
//!
//! ```text
//! qd.while { %k = qd.local_load %p; %c = arith.cmpi slt, %k, %n; ...; qd.condition %c }
//! do { ...; %k1 = arith.addi (qd.local_load %p), 1; qd.local_store %k1, %p; ... }
//! ```
//!
//! The counter may also be a scalar of a local aggregate (`ad.load_element` /
//! `ad.store_element` of one path). The store must sit directly in the body (not under a branch), no `qd.continue` may skip it
//! (a continue nested in an op that follows the store in the body runs after it, so it may
//! stay), and it must be the loop's only store to the counter. Then the trip count is at most
//! `hi(n) - lo(k0)` (plus one for `<=`), `k0` being any value the counter can start from: a
//! store before the loop, or 0 when the counter may be read unset (an earlier run of the loop
//! only leaves it higher).

use crate::locals;
use crate::value_bound::{const_of, Bounder, Dir, Unbounded};
use qd_adstack::size_expr::SizeExpr;
use qd_arith::names as ar;
use qd_frontend::{CONDITION_OP, CONTINUE_OP, LOCAL_LOAD_OP};
use qd_ir::{AttrData, Context, OpId, Value};

/// An upper bound on how many times the body of while loop `w` runs.
pub(crate) fn trip_count(b: &mut Bounder, w: OpId) -> Result<SizeExpr, Unbounded> {
    let ctx = b.ctx;
    let cond_block = ctx.regions(w).first().and_then(|&r| ctx.entry_block(r));
    let cond = cond_block
        .and_then(|bl| ctx.last_op(bl))
        .filter(|&t| ctx.name(t) == CONDITION_OP && ctx.num_operands(t) == 1)
        .map(|t| ctx.operand(t, 0));
    let Some(cond) = cond else {
        return Err(Unbounded::op(w, "the qd.while has no condition"));
    };
    let mut conjuncts = Vec::new();
    split_and(ctx, cond, &mut conjuncts);
    for c in conjuncts {
        if let Some(t) = counted(b, w, c) {
            return Ok(t);
        }
    }
    Err(Unbounded::value(
        cond,
        "the trip count of the qd.while it controls has no provable bound (no counter \
         `k < n` that the loop increases by a literal step)",
    ))
}

/// The terms of `a && b && ...`.
fn split_and(ctx: &Context, v: Value, out: &mut Vec<Value>) {
    match ctx.defining_op(v) {
        Some(op) if ctx.name(op) == ar::ANDI && out.len() < 64 => {
            split_and(ctx, ctx.operand(op, 0), out);
            split_and(ctx, ctx.operand(op, 1), out);
        }
        _ => out.push(v),
    }
}

/// MLIR's `arith.cmpi` predicates.
const SLT: i64 = 2;
const SLE: i64 = 3;
const SGT: i64 = 4;
const SGE: i64 = 5;
const ULT: i64 = 6;
const ULE: i64 = 7;
const UGT: i64 = 8;
const UGE: i64 = 9;

/// The trip bound when `c` is a counter test the loop provably drives to false.
fn counted(b: &mut Bounder, w: OpId, c: Value) -> Option<SizeExpr> {
    let ctx = b.ctx;
    let cmp = ctx.defining_op(c).filter(|&o| ctx.name(o) == ar::CMPI)?;
    let pred = match ctx.attr_data(ctx.prop_or_attr(cmp, "predicate")?) {
        AttrData::Integer { value, .. } => *value,
        _ => return None,
    };
    let (x, y) = (ctx.operand(cmp, 0), ctx.operand(cmp, 1));
    // (counter, limit, inclusive, unsigned)
    let (k, n, inclusive, unsigned) = match pred {
        SLT => (x, y, false, false),
        SLE => (x, y, true, false),
        SGT => (y, x, false, false),
        SGE => (y, x, true, false),
        ULT => (x, y, false, true),
        ULE => (x, y, true, true),
        UGT => (y, x, false, true),
        UGE => (y, x, true, true),
        _ => return None,
    };
    let load = ctx
        .defining_op(k)
        .filter(|&o| is_load(ctx, o) && ctx.is_ancestor(w, o))?;
    let loc = locals::location_of(ctx, load).ok()?;
    let body = ctx.region_entry_block(w, 1)?;
    let inside: Vec<(OpId, Value)> = loc
        .writers
        .iter()
        .copied()
        .filter(|&(s, _)| ctx.is_ancestor(w, s))
        .collect();
    let [(step_store, stepped)] = inside[..] else {
        return None;
    };
    if ctx.parent_block(step_store) != Some(body) || !is_increment(ctx, stepped, load) {
        return None;
    }
    let skips = ctx.walk_pre_order(w).into_iter().any(|o| {
        ctx.name(o) == CONTINUE_OP
            && crate::loops::enclosing_loop(ctx, o) == Some(w)
            && !after_in_block(ctx, step_store, o)
    });
    if skips {
        return None;
    }
    let at = crate::loops::enclosing_loop(ctx, cmp);
    let start = b.memory(load, Dir::Lo, Some(step_store)).ok()?;
    let limit = b.bound(n, Dir::Hi, at).ok()?;
    if unsigned {
        // Unsigned compares agree with signed ones only on values that are surely >= 0.
        let vars = b.var_ranges(at);
        if !start.interval(&vars).is_non_negative() || !b.non_negative(n, at) {
            return None;
        }
    }
    let limit = if inclusive {
        limit.add(&crate::diff::Diff::constant(1))
    } else {
        limit
    };
    Some(crate::diff::trip_count(&start, &limit))
}

/// Whether `op` runs after `first` whenever it runs: `first` sits directly in a block and
/// `op` is nested in an op that follows it there. A continue placed so cannot skip the store.
pub(crate) fn after_in_block(ctx: &Context, first: OpId, op: OpId) -> bool {
    let Some(block) = ctx.parent_block(first) else {
        return false;
    };
    let mut cur = Some(op);
    while let Some(o) = cur {
        if ctx.parent_block(o) == Some(block) {
            return std::iter::successors(ctx.next_op(first), |&x| ctx.next_op(x)).any(|x| x == o);
        }
        cur = ctx.parent_op(o);
    }
    false
}

/// Whether `v` is `load' + s` (either order) for a literal `s >= 1` and a load `load'` of the
/// same place as `load`.
fn is_increment(ctx: &Context, v: Value, load: OpId) -> bool {
    let Some(add) = ctx.defining_op(v).filter(|&o| ctx.name(o) == ar::ADDI) else {
        return false;
    };
    let (a, b) = (ctx.operand(add, 0), ctx.operand(add, 1));
    let same_place = |x: Value| {
        ctx.defining_op(x)
            .filter(|&o| ctx.name(o) == ctx.name(load) && is_load(ctx, o))
            .is_some_and(|o| {
                if ctx.name(o) == qd_ad::LOAD_ELEMENT_OP {
                    return same_element(ctx, o, load);
                }
                ctx.operand(o, 0) == ctx.operand(load, 0) || same_ptr(ctx, o, load)
            })
    };
    (same_place(a) && const_of(ctx, b).is_some_and(|s| s >= 1))
        || (same_place(b) && const_of(ctx, a).is_some_and(|s| s >= 1))
}

/// A load of a scalar local or of an aggregate's scalar.
fn is_load(ctx: &Context, op: OpId) -> bool {
    matches!(ctx.name(op), LOCAL_LOAD_OP | qd_ad::LOAD_ELEMENT_OP)
}

/// Whether two element loads read the same place: one base, equal paths (entry by entry the
/// same value or equal literals).
fn same_element(ctx: &Context, a: OpId, b: OpId) -> bool {
    let (Some((ba, pa)), Some((bb, pb))) =
        (qd_ad::element_access(ctx, a), qd_ad::element_access(ctx, b))
    else {
        return false;
    };
    let lit = |p: &qd_ad::PathIndex| match *p {
        qd_ad::PathIndex::Const(c) => Some(c),
        qd_ad::PathIndex::Value(v) => const_of(ctx, v),
    };
    ba == bb
        && pa.len() == pb.len()
        && pa
            .iter()
            .zip(&pb)
            .all(|(x, y)| x == y || lit(x).is_some_and(|c| lit(y) == Some(c)))
}

/// Whether two loads read the same place (pointers built the same way from the same local).
fn same_ptr(ctx: &Context, a: OpId, b: OpId) -> bool {
    let (pa, pb) = (ctx.operand(a, 0), ctx.operand(b, 0));
    let (Some(oa), Some(ob)) = (ctx.defining_op(pa), ctx.defining_op(pb)) else {
        return false;
    };
    ctx.name(oa) == ctx.name(ob)
        && ctx.properties(oa) == ctx.properties(ob)
        && ctx.num_operands(oa) == ctx.num_operands(ob)
        && ctx
            .operands(oa)
            .zip(ctx.operands(ob))
            .all(|(x, y)| x == y || const_of(ctx, x).is_some_and(|c| const_of(ctx, y) == Some(c)))
        && matches!(
            ctx.name(oa),
            qd_frontend::MEMBER_PTR_OP | qd_frontend::ELEM_PTR_OP
        )
}
