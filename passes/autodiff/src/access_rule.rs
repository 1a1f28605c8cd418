//! The global data access rule of differentiable kernels, in its exact form (see
//! docs/access-rule.md): refuse a kernel only when its gradient would replay a read with a value
//! that a later write of the forward pass destroyed.
//!
//! The gradient kernel writes no primal data: its forward replay (and any read the reverse pass
//! recomputes) reads fields and ndarrays as the forward kernel left them. A replayed read sees
//! the value the forward read saw exactly when no write to that element came after the read.
//! Writes before a read (read-after-write), and several writes of one element (the last one
//! wins; the reverse of a `qd.store` takes the element's adjoint and zeroes it, so earlier
//! writes get none) are handled by reversing in the opposite order. So the errors are:
//! - a write that may run after a read of the same element, when the gradient needs the value
//!   read (a derivative rule reads it, or it feeds an index, a branch, a loop bound, a stored
//!   local, ... see `needs::replay_needed`): in the same thread (a later iteration of a serial
//!   loop, or later in program order and not in the other arm of the same `qd.if`), or in a
//!   later task (top-level loops run in order);
//! - a write (store or atomic) and a read of the same element in different threads of one
//!   parallel loop, needed or not: a data race, what the forward pass reads depends on the
//!   order of the threads. Two atomics, or two reads, of one element are fine; two stores of
//!   one element in different threads are the forward kernel's own race and not diagnosed.
//!
//! "Same element" is decided by `dependence`. Distinct fields, and distinct ndarray parameters,
//! are distinct memory: a kernel with a gradient must not get one ndarray for two parameters
//! (the runtime refuses it: `qd_runtime`'s gradient launches and its tape).

use crate::activity::Activity;
use crate::dependence::{iv_range, may_meet, Affine, Rel, Var};
use crate::field_set::field_ident;
use crate::needs::replay_needed;
use crate::structure::parallel_ancestor;
use qd_frontend::{
    global_write, is_loop, KernelOp, LoadOp, NdarrayLoadOp, WriteTarget, IF_OP, LOAD_OP,
    NDARRAY_LOAD_OP, RANGE_FOR_OP, STRUCT_FOR_OP,
};
use qd_ir::fast_hash::{FastMap, FastSet};
use qd_ir::text::loc_to_string;
use qd_ir::{Context, Diagnostic, Ident, OpId, Value, ValueDef};
use std::collections::HashMap;

/// The memory an access addresses: a field by the identifier its reference holds (None: no
/// reference), which costs no copy or hash of its name.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Target {
    Field(Option<Ident>),
    Ndarray(Value),
}

/// One load, store or atomic of a field or ndarray element.
struct Access {
    op: OpId,
    target: Target,
    index: Vec<Affine>,
}

/// Every violation in `kernel`, ordered by write, then read.
/// `ops`: the kernel's ops in pre-order.
pub(crate) fn check(
    ctx: &Context,
    kernel: KernelOp,
    ops: &[OpId],
    act: &Activity,
) -> Vec<Diagnostic> {
    let (reads, writes) = accesses(ctx, ops);
    // No write and read of one target: nothing to check, and no need to find what the
    // replay needs (a walk over the whole kernel).
    if reads.is_empty() || writes.is_empty() {
        return Vec::new();
    }
    // Reads by target, in program order: only pairs of one target can conflict, and comparing
    // every write with every read would be quadratic in a kernel of many accesses.
    let mut by_target: FastMap<&Target, Vec<&Access>> = FastMap::default();
    for r in &reads {
        by_target.entry(&r.target).or_default().push(r);
    }
    let needed = replay_needed(ctx, ops, act);
    let mut diags = Vec::new();
    for w in &writes {
        for r in by_target.get(&w.target).into_iter().flatten() {
            let need = needed.contains(&ctx.result(r.op, 0));
            if let Some(d) = conflict(ctx, kernel, w, r, need) {
                diags.push(d);
            }
        }
    }
    diags
}

/// The kernel's reads and writes of fields and ndarrays, in program order, keeping only those of
/// a target that is both read and written (no other pair can conflict; in a kernel that reads
/// many fields and writes others, the index analysis of every access would be for nothing).
fn accesses(ctx: &Context, ops: &[OpId]) -> (Vec<Access>, Vec<Access>) {
    // (op, target, the indices of a write); a read's indices are read when it is kept.
    let mut found: Vec<(OpId, Target, Option<Vec<Value>>)> = Vec::new();
    for &op in ops {
        match ctx.name(op) {
            LOAD_OP => found.push((op, Target::Field(field_ident(ctx, op)), None)),
            NDARRAY_LOAD_OP => {
                found.push((op, Target::Ndarray(NdarrayLoadOp(op).array(ctx)), None));
            }
            _ => {
                if let Some(w) = global_write(ctx, op) {
                    let t = match w.target {
                        WriteTarget::Field(_) => Target::Field(field_ident(ctx, op)),
                        WriteTarget::Ndarray(a) => Target::Ndarray(a),
                    };
                    found.push((op, t, Some(w.indices)));
                }
            }
        }
    }
    let mut read: FastSet<&Target> = FastSet::default();
    let mut written: FastSet<&Target> = FastSet::default();
    for (_, t, w) in &found {
        if w.is_some() {
            written.insert(t);
        } else {
            read.insert(t);
        }
    }
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    for (op, target, w) in &found {
        let (op, both) = (*op, read.contains(target) && written.contains(target));
        if !both {
            continue;
        }
        let access = |index: &[Value]| Access {
            op,
            target: target.clone(),
            index: index.iter().map(|&v| Affine::of(ctx, v)).collect(),
        };
        match w {
            Some(indices) => writes.push(access(indices)),
            None if ctx.name(op) == LOAD_OP => reads.push(access(&LoadOp(op).indices(ctx))),
            None => reads.push(access(&NdarrayLoadOp(op).indices(ctx))),
        }
    }
    (reads, writes)
}

/// The violation of write `w` against read `r` (`need`: the gradient needs the value read).
fn conflict(
    ctx: &Context,
    kernel: KernelOp,
    w: &Access,
    r: &Access,
    need: bool,
) -> Option<Diagnostic> {
    let (pw, pr) = (parallel_ancestor(ctx, w.op), parallel_ancestor(ctx, r.op));
    if pw == pr {
        if let Some(p) = pw {
            if other_thread(ctx, p, w, r) {
                return Some(race(ctx, w, r));
            }
        }
        let owner = pw.unwrap_or(kernel.0);
        return (need && later_in_thread(ctx, owner, w, r))
            .then(|| overwrite(ctx, w, r, "earlier in the same thread"));
    }
    // Different tasks (or a task and the kernel's loose statements) run in program order.
    let later = top_position(ctx, kernel, w.op) > top_position(ctx, kernel, r.op);
    let rel = |x: Var| match x {
        Var::Sym(v) if defined_in(ctx, v, kernel.0) => Rel::Same,
        _ => Rel::Free,
    };
    (need && later && may_meet(ctx, &w.index, &r.index, &rel))
        .then(|| overwrite(ctx, w, r, "in an earlier task"))
}

/// Whether `w` and `r` may reach one element from two different threads of parallel loop `p`.
fn other_thread(ctx: &Context, p: OpId, w: &Access, r: &Access) -> bool {
    let ivs = induction_vars(ctx, p);
    // Two threads differ in at least one of the loop's induction variables (one that takes
    // more than one value).
    let several = |&&t: &&Value| iv_range(ctx, Var::Iv(t)).is_none_or(|(l, h)| l < h);
    ivs.iter().filter(several).any(|&t| {
        let rel = |x: Var| match x {
            Var::Iv(v) if v == t => Rel::Differs,
            Var::Sym(v) if !inside(ctx, v, p) => Rel::Same,
            _ => Rel::Free,
        };
        may_meet(ctx, &w.index, &r.index, &rel)
    })
}

/// Whether, in one thread (of parallel loop `owner`, or of the kernel's loose statements when
/// `owner` is the kernel), `w` may write the element `r` read after `r` read it.
fn later_in_thread(ctx: &Context, owner: OpId, w: &Access, r: &Access) -> bool {
    let chain_w = ancestors(ctx, w.op, owner);
    let chain_r = ancestors(ctx, r.op, owner);
    let common = chain_w
        .iter()
        .copied()
        .find(|a| chain_r.contains(a))
        .unwrap_or(owner);
    // The serial loops holding both, outermost first, one level per induction variable.
    let mut levels: Vec<(OpId, Option<Value>)> = Vec::new();
    for &l in chain_w
        .iter()
        .skip_while(|&&a| a != common)
        .filter(|&&a| is_loop(ctx, a))
    {
        let ivs = induction_vars(ctx, l);
        if ivs.is_empty() {
            levels.push((l, None));
        }
        for v in ivs.into_iter().rev() {
            levels.push((l, Some(v)));
        }
    }
    levels.reverse();
    let level_of: HashMap<Value, usize> = levels
        .iter()
        .enumerate()
        .filter_map(|(i, &(_, v))| v.map(|v| (v, i)))
        .collect();
    let mut deepest: HashMap<OpId, usize> = HashMap::new();
    for (i, &(l, _)) in levels.iter().enumerate() {
        deepest.insert(l, i);
    }
    // Scenario k: the same iteration of the levels above k, a later one of level k (k =
    // levels.len(): the same iteration of every common loop, `w` after `r` in program order).
    let meets = |k: usize| {
        let rel = |x: Var| match x {
            Var::Iv(v) => match level_of.get(&v) {
                Some(&j) if j < k => Rel::Same,
                // A range_for counts up; a serial struct_for's order is not relied on.
                Some(&j) if j == k && ctx.name(levels[j].0) == STRUCT_FOR_OP => Rel::Differs,
                Some(&j) if j == k => Rel::Later,
                Some(_) => Rel::Free,
                // The thread's own induction variables, or those of loops only one access is in.
                None if !inside(ctx, v, owner) || is_iv_of(ctx, v, owner) => Rel::Same,
                None => Rel::Free,
            },
            Var::Sym(v) => {
                // One instance for both accesses when every loop around its definition (in
                // the thread) is a common loop in the same iteration.
                let same = loops_around(ctx, v, owner)
                    .iter()
                    .all(|l| deepest.get(l).is_some_and(|&j| j < k));
                if same {
                    Rel::Same
                } else {
                    Rel::Free
                }
            }
        };
        may_meet(ctx, &w.index, &r.index, &rel)
    };
    (0..levels.len()).any(meets) || (after_in(ctx, common, w.op, r.op) && meets(levels.len()))
}

/// Whether, in one run of `x`'s regions, `w` runs after `r` (both inside `x`): not when they lie
/// in the two arms of a `qd.if`.
fn after_in(ctx: &Context, x: OpId, w: OpId, r: OpId) -> bool {
    let (Some(aw), Some(ar)) = (child_of(ctx, x, w), child_of(ctx, x, r)) else {
        return false;
    };
    let (gw, gr) = (ctx.parent_region(aw), ctx.parent_region(ar));
    if gw != gr {
        if ctx.name(x) == IF_OP {
            return false;
        }
        let pos = |g| ctx.regions(x).iter().position(|&q| Some(q) == g);
        return pos(gw) > pos(gr);
    }
    let (bw, br) = (ctx.parent_block(aw), ctx.parent_block(ar));
    if bw != br {
        let Some(g) = gw else { return false };
        let pos = |b| ctx.region_blocks(g).iter().position(|&q| Some(q) == b);
        return pos(bw) > pos(br);
    }
    let mut cur = ctx.next_op(ar);
    while let Some(o) = cur {
        if o == aw {
            return true;
        }
        cur = ctx.next_op(o);
    }
    false
}

/// The op directly inside `x` that holds (or is) `op`.
fn child_of(ctx: &Context, x: OpId, op: OpId) -> Option<OpId> {
    let mut cur = op;
    loop {
        let p = ctx.parent_op(cur)?;
        if p == x {
            return Some(cur);
        }
        cur = p;
    }
}

/// The ops holding `op`, innermost first, below `owner` (excluded).
fn ancestors(ctx: &Context, op: OpId, owner: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if p == owner {
            break;
        }
        out.push(p);
        cur = ctx.parent_op(p);
    }
    out
}

/// The loops around the definition of `v` below `owner` (none when it is defined outside).
fn loops_around(ctx: &Context, v: Value, owner: OpId) -> Vec<OpId> {
    let start = match ctx.value_def(v) {
        ValueDef::OpResult { op, .. } => ctx.parent_op(op),
        ValueDef::BlockArg { block, .. } => ctx.block_parent_op(block),
    };
    let mut out = Vec::new();
    let mut cur = start;
    while let Some(p) = cur {
        if p == owner {
            return out;
        }
        if is_loop(ctx, p) {
            out.push(p);
        }
        cur = ctx.parent_op(p);
    }
    // Not inside `owner`: one value for the whole thread.
    Vec::new()
}

/// Whether `v` is defined inside `op` (in one of its regions, at any depth).
fn inside(ctx: &Context, v: Value, op: OpId) -> bool {
    let holder = match ctx.value_def(v) {
        ValueDef::OpResult { op: d, .. } => ctx.parent_op(d),
        ValueDef::BlockArg { block, .. } => ctx.block_parent_op(block),
    };
    holder.is_some_and(|h| ctx.is_ancestor(op, h))
}

/// Whether `v` is defined directly in `op`'s body (a kernel argument or a top-level value when
/// `op` is the kernel).
fn defined_in(ctx: &Context, v: Value, op: OpId) -> bool {
    match ctx.value_def(v) {
        ValueDef::OpResult { op: d, .. } => ctx.parent_op(d) == Some(op),
        ValueDef::BlockArg { block, .. } => ctx.block_parent_op(block) == Some(op),
    }
}

fn is_iv_of(ctx: &Context, v: Value, l: OpId) -> bool {
    induction_vars(ctx, l).contains(&v)
}

/// The induction variables of a `range_for` or `struct_for` (none for a `qd.while`).
fn induction_vars(ctx: &Context, l: OpId) -> Vec<Value> {
    if !matches!(ctx.name(l), RANGE_FOR_OP | STRUCT_FOR_OP) {
        return Vec::new();
    }
    ctx.region_entry_block(l, 0)
        .map(|b| ctx.block_args(b).to_vec())
        .unwrap_or_default()
}

/// The position in the kernel's body of the top-level op that holds `op`.
fn top_position(ctx: &Context, kernel: KernelOp, op: OpId) -> Option<usize> {
    let top = child_of(ctx, kernel.0, op)?;
    let body = ctx.parent_block(top)?;
    ctx.block_ops(body).position(|o| o == top)
}

/// Where `op` is, for a message: `LINE:COL` (the other op of the pair is in the same file).
fn place(ctx: &Context, op: OpId) -> String {
    match ctx.file_line_col(ctx.loc(op)) {
        Some((_, line, col)) => format!("{line}:{col}"),
        None => loc_to_string(ctx, ctx.loc(op)),
    }
}

/// How a diagnostic names the memory an access addresses.
fn describe(ctx: &Context, a: &Access) -> String {
    match &a.target {
        Target::Field(f) => format!("@{}", f.map_or("", |f| ctx.ident_str(f))),
        Target::Ndarray(v) => match ctx.value_def(*v) {
            ValueDef::BlockArg { index, .. } => format!("ndarray argument #{index}"),
            ValueDef::OpResult { .. } => "an ndarray".to_string(),
        },
    }
}

/// `w` may destroy what `r` read, and the gradient needs it.
fn overwrite(ctx: &Context, w: &Access, r: &Access, when: &str) -> Diagnostic {
    let what = describe(ctx, w);
    Diagnostic::error(
        ctx.loc(w.op),
        format!(
            "global data access rule violated: this {} may overwrite an element of {what} that the {} at {} read {when}, and the gradient needs the value read; the gradient kernel would replay that read with the overwritten value (write the new values to another field or ndarray)",
            ctx.name(w.op),
            ctx.name(r.op),
            place(ctx, r.op),
        ),
    )
    .with_note(
        ctx.loc(r.op),
        format!("the element of {what} read here; the gradient needs its value"),
    )
}

/// A store and a read of one element in two threads of one parallel loop.
fn race(ctx: &Context, w: &Access, r: &Access) -> Diagnostic {
    let what = describe(ctx, w);
    Diagnostic::error(
        ctx.loc(w.op),
        format!(
            "global data access rule violated: this {} may write an element of {what} that the {} at {} reads in another thread of this parallel loop (a data race)",
            ctx.name(w.op),
            ctx.name(r.op),
            place(ctx, r.op),
        ),
    )
    .with_note(ctx.loc(r.op), format!("the element of {what} read here"))
}
