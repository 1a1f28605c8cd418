//! `dce`: dead code elimination. Erases ops that are trivially dead (results unused, no memory
//! effects), users before their operands so that chains go in one sweep, and blocks unreachable
//! from their region's entry in CFG regions (regions of registered ops that are not graph
//! regions); repeats until nothing changes.

use qd_ir::dominance::{is_graph_region, DominanceInfo};
use qd_ir::greedy::is_trivially_dead;
use qd_ir::registry::OpTraits;
use qd_ir::OpInfo;
use qd_ir::{BlockId, Context, OpId, RegionId};
use qd_pass::{Pass, PassInfo, PassOutcome, PassResult, Statistic};
use std::collections::HashSet;

pub fn dce_pass_info() -> PassInfo {
    PassInfo::new(
        "dce",
        "Eliminate dead operations and unreachable blocks",
        |_| Ok(Box::new(DcePass::default())),
    )
}

#[derive(Default)]
pub struct DcePass {
    num_ops: u64,
    num_blocks: u64,
}

impl Pass for DcePass {
    fn name(&self) -> &'static str {
        "dce"
    }
    fn description(&self) -> &'static str {
        "Eliminate dead operations and unreachable blocks"
    }
    fn display_name(&self) -> String {
        "DCE".into()
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        let (ops_before, blocks_before) = (self.num_ops, self.num_blocks);
        // Usually there is nothing to do (dce after canonicalize): one read-only walk that finds
        // so replaces the two walks of a round that erases nothing.
        if !has_work(ctx, op) {
            return Ok(PassOutcome::changed(false));
        }
        loop {
            let blocks = self.erase_unreachable_blocks(ctx, op);
            let ops = self.erase_dead_ops_in(ctx, op);
            if blocks + ops == 0 {
                break;
            }
        }
        let changed = self.num_ops != ops_before || self.num_blocks != blocks_before;
        Ok(PassOutcome::changed(changed))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-dce'd",
                description: "Number of operations erased",
                value: self.num_ops,
            },
            Statistic {
                name: "num-blocks",
                description: "Number of unreachable blocks erased",
                value: self.num_blocks,
            },
        ]
    }
}

impl DcePass {
    fn erase_dead_ops_in(&mut self, ctx: &mut Context, op: OpId) -> u64 {
        let erased = erase_dead_ops(ctx, op);
        self.num_ops += erased;
        erased
    }

    /// Erases unreachable blocks in every CFG region nested in `op`; returns how many.
    fn erase_unreachable_blocks(&mut self, ctx: &mut Context, op: OpId) -> u64 {
        let erased = erase_unreachable_blocks_in(ctx, op);
        self.num_blocks += erased;
        erased
    }
}

/// Erases unreachable blocks in `op`'s CFG regions, then in the ops nested in what is left, in
/// pre-order. Recursing instead of collecting every op first (`walk_pre_order`) keeps a
/// million-op block from costing two million-entry vectors: only ops with regions are entered.
fn erase_unreachable_blocks_in(ctx: &mut Context, op: OpId) -> u64 {
    if ctx.regions(op).is_empty() {
        return 0;
    }
    let mut erased = 0;
    if ctx.is_registered(op) {
        for r in ctx.regions(op).to_vec() {
            if may_have_unreachable_blocks(ctx, r) {
                erased += erase_unreachable_in_region(ctx, r);
            }
        }
    }
    for ri in 0..ctx.regions(op).len() {
        let r = ctx.region(op, ri);
        for bi in 0..ctx.region_blocks(r).len() {
            let mut cur = ctx.first_op(ctx.region_blocks(r)[bi]);
            while let Some(o) = cur {
                // Nested erasure stays inside `o`, so its successor link is still valid.
                erased += erase_unreachable_blocks_in(ctx, o);
                cur = ctx.next_op(o);
            }
        }
    }
    erased
}

/// Whether a round would erase anything under `op`: a CFG region with more than one block
/// (which may have unreachable ones), or a trivially dead op nested in `op` (`op` itself is
/// never erased). Without either, the IR does not change, so nothing becomes dead later.
fn has_work(ctx: &Context, op: OpId) -> bool {
    if ctx.parent_block(op).is_none() {
        has_work_in_root(ctx, op)
    } else {
        // Nested anchors (a pass per kernel) stay local: never a pass over the whole context.
        scan(ctx, op).is_err()
    }
}

/// [`has_work`] for an op without a parent (a module), by one pass over every live op of the
/// context in index order instead of a walk down the nest: on a million-op kernel the walk
/// waits on memory for each op's record (each found from the previous one), while records read
/// in order load side by side. The same answer as [`scan`]: an op whose nest holds an op that
/// is not harmless is marked, upwards through RECURSIVE_EFFECTS ops (each op marked once, so
/// linear in any nest); the few ops that might be dead or hold a CFG region are then kept only
/// when inside `root` (their parent chain ends there).
///
/// A parent comes after its body in index order when the parser made it (an op is created once
/// its regions are parsed), and its record lies a body away from the op that found it: reading
/// it then would wait on memory for each block with a store. So a parent later in the order is
/// only noted (PENDING) and marked when the pass reaches it, its record read in order; one
/// already passed is marked at once, as the climb does. A block's ops after its first that is
/// not harmless add nothing (their parent is the same), and are not climbed from.
fn has_work_in_root(ctx: &Context, root: OpId) -> bool {
    let recursive = |o: OpId| ctx.has_trait(o, OpTraits::RECURSIVE_EFFECTS);
    // Per op: HARMFUL_NEST, a registered RECURSIVE_EFFECTS op with a nested op that is not
    // harmless; PENDING, an op later in index order with a nested op that is not harmless or
    // that has such a nest.
    const HARMFUL_NEST: u8 = 1;
    const PENDING: u8 = 2;
    let mut marks = vec![0u8; ctx.num_op_slots()];
    // Marks the ops above `o` (the op at `at` in index order, or one above it) whose nest is
    // harmful, from `o`'s parent up.
    let mark_above = |o: OpId, at: usize, marks: &mut Vec<u8>| {
        let mut p = ctx.parent_op(o);
        while let Some(q) = p.filter(|&q| marks[q.index()] & HARMFUL_NEST == 0) {
            if q.index() > at {
                marks[q.index()] |= PENDING;
                return;
            }
            if !recursive(q) {
                return;
            }
            marks[q.index()] |= HARMFUL_NEST;
            p = ctx.parent_op(q);
        }
    };
    // Ops with unused results that are dead unless their nest says otherwise, and ops with a
    // region where blocks may be unreachable.
    let (mut dead, mut cfg) = (Vec::new(), Vec::new());
    // The block of the last op that was not harmless: the ops above a second one in that block
    // are marked already, or pending.
    let mut marked_from = None;
    for o in ctx.live_ops() {
        let at = o.index();
        let info = ctx.info(o);
        if marks[at] == PENDING && info.is_some_and(|i| i.has_trait(OpTraits::RECURSIVE_EFFECTS)) {
            marks[at] |= HARMFUL_NEST;
            mark_above(o, at, &mut marks);
        }
        if info.is_some()
            && ctx
                .regions(o)
                .iter()
                .any(|&r| may_have_unreachable_blocks(ctx, r))
        {
            cfg.push(o);
        }
        if !harmless_itself(info) {
            let block = ctx.parent_block(o);
            if block.is_none() || block != marked_from {
                marked_from = block;
                mark_above(o, at, &mut marks);
            }
            continue;
        }
        if erasable_when_harmless(ctx, o) {
            dead.push(o);
        }
    }
    let top = |mut o: OpId| {
        while let Some(p) = ctx.parent_op(o) {
            o = p;
        }
        o
    };
    cfg.iter().any(|&o| top(o) == root)
        || dead
            .iter()
            .any(|&o| o != root && marks[o.index()] & HARMFUL_NEST == 0 && top(o) == root)
}

/// A round of dce would erase something.
struct Work;

/// Looks at `op`'s nested ops once, bottom-up: `Err(Work)` at the first sign of work (see
/// [`has_work`]), else whether `op` is harmless as `would_op_be_trivially_dead` counts it
/// (registered, and with RECURSIVE_EFFECTS every nested op harmless, else PURE or READ_ONLY).
/// Computing that from the nested ops' answers, rather than asking `is_trivially_dead` of each
/// op with regions (which walks its body again), keeps the walk linear in a deep loop nest.
fn scan(ctx: &Context, op: OpId) -> Result<bool, Work> {
    let info = ctx.info(op);
    let regions = ctx.regions(op);
    let mut nested_harmless = true;
    if !regions.is_empty() {
        if info.is_some() && regions.iter().any(|&r| may_have_unreachable_blocks(ctx, r)) {
            return Err(Work);
        }
        for &r in regions {
            for &b in ctx.region_blocks(r) {
                for o in ctx.block_ops(b) {
                    let harmless = scan(ctx, o)?;
                    nested_harmless &= harmless;
                    if harmless && erasable_when_harmless(ctx, o) {
                        return Err(Work);
                    }
                }
            }
        }
    }
    Ok(harmless_itself(info)
        && (nested_harmless || !info.is_some_and(|i| i.has_trait(OpTraits::RECURSIVE_EFFECTS))))
}

/// A region whose blocks form a CFG with more than one block: some may be unreachable.
fn may_have_unreachable_blocks(ctx: &Context, r: RegionId) -> bool {
    ctx.region_blocks(r).len() > 1 && !is_graph_region(ctx, r)
}

/// Harmless by its own traits, as `would_op_be_trivially_dead` counts an op: registered, and
/// PURE, READ_ONLY, or RECURSIVE_EFFECTS (then its nested ops decide).
fn harmless_itself(info: Option<&OpInfo>) -> bool {
    info.is_some_and(|i| {
        i.has_trait(OpTraits::RECURSIVE_EFFECTS)
            || i.has_trait(OpTraits::PURE)
            || i.has_trait(OpTraits::READ_ONLY)
    })
}

/// Dead if harmless: its results are unused and it is neither a terminator nor a symbol.
fn erasable_when_harmless(ctx: &Context, o: OpId) -> bool {
    !ctx.has_trait(o, OpTraits::TERMINATOR)
        && !ctx.has_trait(o, OpTraits::SYMBOL)
        && ctx.results(o).iter().all(|&v| !ctx.has_uses(v))
}

/// Erases dead ops nested in `op` (not `op` itself); returns how many.
fn erase_dead_ops(ctx: &mut Context, op: OpId) -> u64 {
    let mut erased = 0;
    for r in ctx.regions(op).to_vec() {
        for b in ctx.region_blocks(r).to_vec().into_iter().rev() {
            let mut cur = ctx.last_op(b);
            while let Some(o) = cur {
                cur = ctx.prev_op(o);
                // Inner ops first: emptying a region can make its op dead.
                erased += erase_dead_ops(ctx, o);
                if is_trivially_dead(ctx, o) {
                    ctx.erase_op(o);
                    erased += 1;
                }
            }
        }
    }
    erased
}

fn erase_unreachable_in_region(ctx: &mut Context, region: RegionId) -> u64 {
    let dom = DominanceInfo::new(ctx, region);
    let dead: Vec<BlockId> = ctx
        .region_blocks(region)
        .iter()
        .copied()
        .filter(|&b| !dom.is_reachable(b))
        .collect();
    if dead.is_empty() {
        return 0;
    }
    // Every op (at any depth) in the dead blocks.
    let mut ops = Vec::new();
    for &b in &dead {
        for o in ctx.block_ops(b) {
            ops.extend(ctx.walk_pre_order(o));
        }
    }
    // In valid IR only unreachable code uses values defined in unreachable blocks; if something
    // else does, the IR is invalid and erasing would leave dangling uses: leave it alone.
    let inside: HashSet<OpId> = ops.iter().copied().collect();
    let defs = dead
        .iter()
        .flat_map(|&b| ctx.block_args(b).iter().copied())
        .chain(ops.iter().flat_map(|&o| ctx.results(o).iter().copied()));
    if defs
        .flat_map(|v| ctx.uses(v).iter())
        .any(|u| !inside.contains(&u.op))
    {
        return 0;
    }
    // Drop the uses among the dead ops first: they may form cycles through the CFG.
    for &o in &ops {
        ctx.set_operands(o, &[]);
    }
    for &b in &dead {
        ctx.erase_block(b);
    }
    dead.len() as u64
}

#[cfg(test)]
#[path = "dce_tests.rs"]
mod tests;
