//! Which primal values the reverse pass may ask for (a superset), before it is emitted: the plan
//! of element accesses needs it to decide which stores must save what they overwrite (see
//! `element`).
//!
//! A value is needed when one of its uses reads its primal in reverse: a derivative rule that
//! asks for it (`ReverseRule::primal_needs`, operands and results), an index of any memory
//! access, a branch condition, a loop bound, any use by an op the reverse does not know. The
//! value stored by a store is not (its reverse moves adjoints only), nor a `qd.while`'s
//! condition (the reverse runs the loop over its recorded trip count). A needed result of an op the
//! reverse recomputes (pure ops, field and ndarray reads) or re-reads (`ad.load_element`) needs
//! that op's operands too.
//!
//! `replay_needed` widens this to what the reverse pass depends on through the forward replay
//! (the access rule, `access_rule`, asks it which reads must see the value the forward pass
//! read): also a `qd.while`'s condition (the replay records the trip count from it), every
//! operand of an op whose result is needed (the replay computes it from them), and, for a needed
//! load of a local or of an element of a local aggregate, every value stored into that local
//! (the replay's stacks and aggregates hold them).

use crate::activity::{rule_of, Activity};
use crate::structure::{local_read, local_write, root_alloca};
use qd_ad::{LOAD_ELEMENT_OP, STORE_ELEMENT_OP};
use qd_frontend::{
    global_write, CONDITION_OP, LOAD_OP, LOCAL_LOAD_OP, LOCAL_STORE_OP, NDARRAY_LOAD_OP,
};
use qd_ir::fast_hash::{FastMap, FastSet};
use qd_ir::{Context, OpId, OpTraits, Value};

/// The values of `kernel` whose primal the reverse pass may read.
pub(crate) fn needed_primals(ctx: &Context, ops: &[OpId], act: &Activity) -> FastSet<Value> {
    let mut needed = FastSet::default();
    for &op in ops {
        direct_needs(ctx, op, act, &mut needed);
    }
    loop {
        let mut changed = false;
        for &op in ops.iter().rev() {
            if recomputed(ctx, op) && ctx.results(op).iter().any(|r| needed.contains(r)) {
                for v in ctx.operand_vec(op) {
                    changed |= needed.insert(v);
                }
            }
        }
        if !changed {
            return needed;
        }
    }
}

/// The values whose forward-replay value the reverse pass depends on (a superset of
/// `needed_primals`, see the module doc).
pub(crate) fn replay_needed(ctx: &Context, ops: &[OpId], act: &Activity) -> FastSet<Value> {
    let mut needed = FastSet::default();
    // Per local (its `qd.alloca`): the values stored into it.
    let mut stored: FastMap<OpId, Vec<Value>> = FastMap::default();
    for &op in ops {
        direct_needs(ctx, op, act, &mut needed);
        if ctx.name(op) == CONDITION_OP {
            needed.extend(ctx.operands(op));
        }
        if let Some((v, p)) = local_write(ctx, op) {
            if let Some(a) = root_alloca(ctx, p) {
                stored.entry(a).or_default().push(v);
            }
        }
    }
    let mut work: Vec<Value> = needed.iter().copied().collect();
    while let Some(v) = work.pop() {
        let Some(d) = ctx.defining_op(v) else {
            continue;
        };
        let mut more = ctx.operand_vec(d);
        if let Some((_, p)) = local_read(ctx, d) {
            if let Some(vs) = root_alloca(ctx, p).and_then(|a| stored.get(&a)) {
                more.extend(vs);
            }
        }
        for m in more {
            if needed.insert(m) {
                work.push(m);
            }
        }
    }
    needed
}

/// Ops whose results the reverse rebuilds from their operands' primals.
fn recomputed(ctx: &Context, op: OpId) -> bool {
    ctx.regions(op).is_empty()
        && (ctx.has_trait(op, OpTraits::PURE)
            || matches!(ctx.name(op), LOAD_OP | NDARRAY_LOAD_OP | LOAD_ELEMENT_OP))
}

/// The operands (and results) `op`'s own reverse reads.
fn direct_needs(ctx: &Context, op: OpId, act: &Activity, needed: &mut FastSet<Value>) {
    if let Some(rule) = rule_of(ctx, op) {
        let operands = ctx.operand_vec(op);
        let active: Vec<bool> = operands.iter().map(|&v| act.is_active(v)).collect();
        let needs = rule.primal_needs(ctx, op, &active);
        for (i, &v) in operands.iter().enumerate() {
            if needs.operands.get(i).copied().unwrap_or(false) {
                needed.insert(v);
            }
        }
        for (i, &r) in ctx.results(op).iter().enumerate() {
            if needs.results.get(i).copied().unwrap_or(false) {
                needed.insert(r);
            }
        }
        return;
    }
    if ctx.has_trait(op, OpTraits::PURE) {
        // Only through their results.
        return;
    }
    // Everything else but what the reverse never reads: stored values and local pointers (the
    // reverse of a read reads its indices: that is where the adjoint goes).
    let skip = match ctx.name(op) {
        // The reverse runs a while loop over its recorded trip count: the condition is not read.
        CONDITION_OP => return,
        LOCAL_STORE_OP => 2,
        STORE_ELEMENT_OP => 2,
        LOCAL_LOAD_OP | LOAD_ELEMENT_OP => 1,
        // A global write's operand 0 is the value stored or combined.
        _ if global_write(ctx, op).is_some() => 1,
        _ => 0,
    };
    for v in ctx.operands(op).skip(skip) {
        needed.insert(v);
    }
}
