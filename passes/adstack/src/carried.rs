//! Locals carried across the iterations of a counted loop: `m = m + c` (or `m - c`, or
//! `min(m + c, cap)`, or `max(m - c, floor)`), `c` a literal, stored once per iteration of a
//! `qd.range_for` that also reads `m`. Bounding such a local by its stores would need its own
//! bound; instead, at iteration `j` of a loop over `[begin, end)` the update has run at most
//! `j - begin` times (exactly that many when its store sits directly in the loop's body and no
//! `qd.continue` skips it), so `m` lies between `m0` and `m0 + c * (j - begin)`, `m0` being
//! what the local holds when the loop starts (bounded by its other stores).
//!
//! This module recognises the shape ([`find`]); `value_bound` turns it into bounds.

use crate::locals::{self, Location};
use crate::loops::{enclosing_loop, holds, is_within, loops_inside};
use crate::value_bound::const_of;
use crate::while_bound::after_in_block;
use qd_arith::names as ar;
use qd_frontend::{CONTINUE_OP, RANGE_FOR_OP};
use qd_ir::{Context, OpId, Value};

/// Where the load sits in an iteration, relative to the update.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Position {
    /// Before it: the load reads what the iteration started with.
    Before,
    /// After it, in the same block or below (the update has run in this iteration).
    After,
    /// Either (the update is under a branch that precedes the load, or in the other arm).
    Either,
}

/// A recognised update of a loop-carried local.
#[derive(Clone, Debug)]
pub(crate) struct Update {
    /// The store.
    pub store: OpId,
    /// The `qd.range_for` it updates the local once per iteration of.
    pub lp: OpId,
    /// The literal added per update (negative: subtracted).
    pub step: i64,
    /// The cap: `min(m + c, cap)` for `step >= 0`, `max(m - c, cap)` for `step < 0`.
    pub cap: Option<Value>,
    /// Whether the update runs in every iteration (directly in the body, no continue skips it).
    pub always: bool,
    pub position: Position,
}

/// The update that carries the local `load` reads across a loop around `load`: None when no
/// store of it sits in a loop that holds `load` (the value is not carried); Err with the
/// reason when one does but not in the shape above.
pub(crate) fn find(ctx: &Context, load: OpId, loc: &Location) -> Option<Result<Update, String>> {
    // Loops around the local's allocation give each run a fresh local: they carry nothing.
    let Some(block) = ctx.parent_block(loc.root) else {
        return Some(Err("its local has no block".into()));
    };
    let in_shared_loop = |w: OpId| {
        loops_inside(ctx, w, block)
            .into_iter()
            .any(|l| holds(ctx, l, load))
    };
    let carried: Vec<(OpId, Value)> = loc
        .writers
        .iter()
        .copied()
        .filter(|&(w, _)| in_shared_loop(w))
        .collect();
    if carried.is_empty() {
        return None;
    }
    // The update is the one store in its loop; the others (outside that loop) set the value
    // the loop starts from.
    let mut why = None;
    for &(store, value) in &carried {
        let lp = enclosing_loop(ctx, store);
        let alone = loc
            .writers
            .iter()
            .all(|&(w, _)| w == store || !lp.is_some_and(|l| ctx.is_ancestor(l, w)));
        if !alone {
            continue;
        }
        match update(ctx, load, loc, store, value) {
            Ok(u) => return Some(Ok(u)),
            Err(e) => why = why.or(Some(e)),
        }
    }
    Some(Err(why.unwrap_or_else(|| {
        format!(
            "it is stored {} times in the loops around it",
            carried.len()
        )
    })))
}

fn update(
    ctx: &Context,
    load: OpId,
    loc: &Location,
    store: OpId,
    value: Value,
) -> Result<Update, String> {
    let lp = enclosing_loop(ctx, store).ok_or("its store is in no loop")?;
    if !holds(ctx, lp, load) {
        return Err(
            "its store runs in a loop nested inside the loop that carries it, so it may \
             run many times per iteration"
                .into(),
        );
    }
    if ctx.name(lp) != RANGE_FOR_OP {
        return Err(format!(
            "the loop that carries it is a '{}', not a qd.range_for with a counted index",
            ctx.name(lp)
        ));
    }
    let place = locals::fixed_place(ctx, load).ok_or("it is not one fixed place of a local")?;
    if locals::fixed_place(ctx, store).as_ref() != Some(&place) {
        return Err(
            "its store in the loop writes a place that may differ from the one read".into(),
        );
    }
    let (step, cap) = shape(ctx, lp, value, &place)?;
    starts_known(ctx, loc, lp, store)?;
    let body = ctx.region_entry_block(lp, 0);
    let skipped = ctx.walk_pre_order(lp).into_iter().any(|o| {
        ctx.name(o) == CONTINUE_OP
            && enclosing_loop(ctx, o) == Some(lp)
            && !after_in_block(ctx, store, o)
    });
    let always = ctx.parent_block(store) == body && body.is_some() && !skipped;
    let position = if after_in_block(ctx, store, load) {
        Position::After
    } else if precedes(ctx, load, store) {
        Position::Before
    } else {
        Position::Either
    };
    Ok(Update {
        store,
        lp,
        step,
        cap,
        always,
        position,
    })
}

/// The step and cap of the stored value: `m + c`, `c + m`, `m - c`, `min(m + c, cap)` or
/// `max(m - c, cap)` (either operand order), `m` a load of `place` inside the loop.
fn shape(
    ctx: &Context,
    lp: OpId,
    value: Value,
    place: &(OpId, Vec<locals::Step>),
) -> Result<(i64, Option<Value>), String> {
    let op = ctx
        .defining_op(value)
        .ok_or("the value stored in the loop is a block argument")?;
    let name = ctx.name(op);
    if matches!(name, ar::MINSI | ar::MAXSI) {
        let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
        for (inner, cap) in [(a, b), (b, a)] {
            if let Ok((step, None)) = shape(ctx, lp, inner, place) {
                return match (name == ar::MINSI, step >= 0) {
                    (true, true) | (false, false) => Ok((step, Some(cap))),
                    (true, false) => Err("it decreases and is capped by a min".into()),
                    (false, true) => Err("it increases and is floored by a max".into()),
                };
            }
        }
        return Err(format!(
            "it is stored '{name}' of values neither of which is `m + c` or `m - c` by a literal c"
        ));
    }
    let own = |v: Value| {
        ctx.defining_op(v).is_some_and(|o| {
            holds(ctx, lp, o) && locals::fixed_place(ctx, o).as_ref() == Some(place)
        })
    };
    let (a, b) = match name {
        ar::ADDI | ar::SUBI => (ctx.operand(op, 0), ctx.operand(op, 1)),
        _ => {
            return Err(format!(
                "it is stored '{name}' of its own value, not `m + c` or `m - c` by a literal c"
            ))
        }
    };
    let step = match (name, own(a), own(b)) {
        (ar::ADDI, true, _) => const_of(ctx, b),
        (ar::ADDI, false, true) => const_of(ctx, a),
        (ar::SUBI, true, _) => const_of(ctx, b).and_then(i64::checked_neg),
        _ => {
            return Err(format!(
                "it is stored '{name}' of values that are not its own value read in the loop \
                 and a literal"
            ))
        }
    };
    step.map(|s| (s, None)).ok_or_else(|| {
        format!("it is stored '{name}' of its own value and a step that is not a literal")
    })
}

/// The value at the loop's start must come from stores outside it: the loop runs once per
/// allocation of the local (no loop between the local and it), or a store sits before it in
/// its block and resets the local each time.
fn starts_known(ctx: &Context, loc: &Location, lp: OpId, store: OpId) -> Result<(), String> {
    let Some(block) = ctx.parent_block(loc.root) else {
        return Err("its local has no block".into());
    };
    if !is_within(ctx, lp, block) {
        return Err("its local is allocated inside the loop that carries it".into());
    }
    if loops_inside(ctx, lp, block).is_empty() {
        return Ok(());
    }
    let reset = loc.writers.iter().any(|&(w, _)| {
        w != store
            && ctx.parent_block(w) == ctx.parent_block(lp)
            && std::iter::successors(ctx.next_op(w), |&x| ctx.next_op(x)).any(|x| x == lp)
    });
    if reset {
        return Ok(());
    }
    Err(
        "the loop that carries it runs several times per allocation of its local and no store \
         before it resets the local, so the value it starts from is carried too"
            .into(),
    )
}

/// Whether `a` runs before `b` in every iteration that runs both: in the deepest block that
/// holds both, the op holding `a` comes first.
fn precedes(ctx: &Context, a: OpId, b: OpId) -> bool {
    let mut bs = Vec::new();
    let mut cur = Some(b);
    while let Some(o) = cur {
        bs.push(o);
        cur = ctx.parent_op(o);
    }
    let mut cur = Some(a);
    while let Some(x) = cur {
        if let Some(&y) = bs
            .iter()
            .find(|&&y| ctx.parent_block(y).is_some() && ctx.parent_block(y) == ctx.parent_block(x))
        {
            return x != y
                && std::iter::successors(ctx.next_op(x), |&o| ctx.next_op(o)).any(|o| o == y);
        }
        cur = ctx.parent_op(x);
    }
    false
}
