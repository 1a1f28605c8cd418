//! `cse`: common subexpression elimination, as MLIR's. Two ops are equivalent when they have the
//! same name, operands (commutative ops: in any order), result types, properties and discardable
//! attributes, no regions and no successors, and no memory effects. The later one is replaced by
//! the earlier one when the earlier one dominates it.
//!
//! Scopes follow dominance: a block sees the ops of the blocks that dominate it (walking the
//! region's dominator tree) and, for a nested region, the ops before its parent op; regions of
//! ops that are isolated from above (or unregistered, which might be) start empty. Unreachable
//! blocks are left alone. As MLIR's CSE, ops found trivially dead on the way are erased too.

use crate::cse_table::{self, KnownOps, Spare};
use qd_ir::dominance::{is_graph_region, DominanceInfo};
use qd_ir::fast_hash::{FastBuild, FastSet};
use qd_ir::greedy::{is_memory_effect_free, is_trivially_dead};
use qd_ir::{
    Attribute, BlockId, Context, Ident, LocData, OpId, OpName, OpTraits, RegionId, Type, Value,
};
use qd_pass::{Pass, PassInfo, PassOutcome, PassResult, Statistic};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};

pub fn cse_pass_info() -> PassInfo {
    PassInfo::new("cse", "Eliminate common sub-expressions", |_| {
        Ok(Box::new(CsePass::default()))
    })
}

#[derive(Default)]
pub struct CsePass {
    num_cse: u64,
    num_dce: u64,
}

impl Pass for CsePass {
    fn name(&self) -> &'static str {
        "cse"
    }
    fn description(&self) -> &'static str {
        "Eliminate common sub-expressions"
    }
    fn display_name(&self) -> String {
        "CSE".into()
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        let mut driver = Driver {
            scopes: Vec::new(),
            hot: FastSet::default(),
            bufs: (Vec::new(), Vec::new()),
            spare: Vec::new(),
            order: Vec::new(),
            num_cse: 0,
            num_dce: 0,
        };
        for r in ctx.regions(op).to_vec() {
            driver.simplify_region(ctx, r);
        }
        self.num_cse += driver.num_cse;
        self.num_dce += driver.num_dce;
        Ok(PassOutcome::changed(driver.num_cse + driver.num_dce > 0))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-cse'd",
                description: "Number of operations CSE'd",
                value: self.num_cse,
            },
            Statistic {
                name: "num-dce'd",
                description: "Number of operations DCE'd",
                value: self.num_dce,
            },
        ]
    }
}

/// What makes two ops interchangeable.
#[derive(PartialEq, Eq, Hash)]
struct OpKey {
    name: OpName,
    operands: Vec<Value>,
    result_types: Vec<Type>,
    properties: Vec<(Ident, Attribute)>,
    attributes: Vec<(Ident, Attribute)>,
}

impl OpKey {
    fn of(ctx: &Context, op: OpId) -> OpKey {
        let mut operands = ctx.operand_vec(op);
        if ctx.has_trait(op, OpTraits::COMMUTATIVE) {
            operands.sort();
        }
        OpKey {
            name: ctx.op_name_of(op),
            operands,
            result_types: ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect(),
            // Both lists are kept sorted by name, so equal sets compare equal.
            properties: ctx.properties(op).to_vec(),
            attributes: ctx.attrs(op).to_vec(),
        }
    }
}

/// The ops a scope knows. In a CFG region an op's operands never change once it is known (only
/// ops after it use a replaced op's results), so the op itself stands for its key: it is found
/// by the hash of its key (computed from the IR, without building the key) and compared with
/// the IR. That spares the key's lists per op, which made most of the pass's time on big
/// blocks. In a graph region a later replacement may change a known op's operands, so there the
/// scope keeps each key as it was when the op became known, as it always did.
#[derive(Default)]
struct Scope {
    /// CFG regions: known ops (made for the scope's block, sized by its ops).
    known: Option<KnownOps>,
    /// Graph regions: known ops by their key at the time.
    snapshots: HashMap<OpKey, OpId>,
    graph: bool,
    /// The block whose ops the scope knows.
    block: Option<BlockId>,
}

/// Where an op's key is looked up and inserted in [`KnownOps`]: a home bucket. An op with
/// operands is placed by its newest operand (its anchor; equal keys have equal operands, so the
/// same anchor) with the other ops placed by nearby anchors, which in a block are ops near it:
/// the table is then read almost in order. An anchor with more than [`CROWDED`] users is *hot*
/// from then on for the run: ops placed by it go to a home by hash, so that one anchor's users
/// do not pile up at one home (past its buckets they would go to the table's hash map). An op
/// with a hot anchor is looked up at both homes, as an equal op may have been placed by the
/// anchor before it became hot.
struct Probe {
    hash: u64,
    /// The block defining the anchor: no scope further out knows an op using it.
    anchor_block: Option<BlockId>,
    local: Option<usize>,
    hashed: Option<usize>,
}

/// The users an anchor may have while ops are placed by it.
const CROWDED: usize = 8;

/// Ops of a block taken at a time (see [`Driver::simplify_block`]).
const CHUNK: usize = 64;

/// The largest table memory kept for reuse (entries: a block of about 2k ops), and how many.
const SPARE_ENTRIES: usize = 1 << 12;
const SPARE_TABLES: usize = 16;

/// `op`'s operands into `buf`, sorted for a commutative op (as in [`OpKey`]).
fn key_operands(ctx: &Context, op: OpId, buf: &mut Vec<Value>) {
    buf.clear();
    buf.extend(ctx.operands(op));
    if ctx.has_trait(op, OpTraits::COMMUTATIVE) {
        buf.sort();
    }
}

/// Whether `a` and `b` have equal [`OpKey`]s, read from the IR.
fn same_key(ctx: &Context, a: OpId, b: OpId, bufs: &mut (Vec<Value>, Vec<Value>)) -> bool {
    if ctx.op_name_of(a) != ctx.op_name_of(b)
        || ctx.num_operands(a) != ctx.num_operands(b)
        || ctx.properties(a) != ctx.properties(b)
        || ctx.attrs(a) != ctx.attrs(b)
        || !ctx
            .results(a)
            .iter()
            .map(|&r| ctx.value_type(r))
            .eq(ctx.results(b).iter().map(|&r| ctx.value_type(r)))
    {
        return false;
    }
    key_operands(ctx, a, &mut bufs.0);
    key_operands(ctx, b, &mut bufs.1);
    bufs.0 == bufs.1
}

struct Driver {
    /// Known ops, innermost scope last.
    scopes: Vec<Scope>,
    /// Anchors that have been hot (see [`Probe`]).
    hot: FastSet<Value>,
    /// Scratch operand lists.
    bufs: (Vec<Value>, Vec<Value>),
    /// Memory of the tables of scopes that ended, cleared, for the next blocks' tables.
    spare: Vec<Spare>,
    /// The ops of the blocks being simplified, a chunk per block, innermost last.
    order: Vec<OpId>,
    num_cse: u64,
    num_dce: u64,
}

enum Step {
    Enter(BlockId),
    Exit,
}

impl Driver {
    /// Where `op`'s [`OpKey`] goes, from its hash and anchor read from the IR.
    fn probe_of(&mut self, ctx: &Context, op: OpId) -> Probe {
        let mut h = FastBuild::default().build_hasher();
        ctx.op_name_of(op).hash(&mut h);
        key_operands(ctx, op, &mut self.bufs.0);
        self.bufs.0.hash(&mut h);
        ctx.num_results(op).hash(&mut h);
        for &r in ctx.results(op) {
            ctx.value_type(r).hash(&mut h);
        }
        ctx.properties(op).hash(&mut h);
        ctx.attrs(op).hash(&mut h);
        let hash = h.finish();
        let Some(&anchor) = self.bufs.0.iter().max() else {
            return Probe {
                hash,
                anchor_block: None,
                local: None,
                hashed: Some(cse_table::hashed_home(hash)),
            };
        };
        let hot = self.hot.contains(&anchor)
            || (ctx.uses(anchor).len() > CROWDED && self.hot.insert(anchor));
        Probe {
            hash,
            anchor_block: ctx.value_block(anchor),
            local: Some(cse_table::local_home(anchor.index())),
            hashed: hot.then(|| cse_table::hashed_home(hash)),
        }
    }

    /// The known op interchangeable with `op` (whose key goes to `probe`), innermost first,
    /// out to the scope of the block defining its anchor (an op known further out cannot use
    /// the anchor, so it is not equal: looking there anyway read tables that hold nothing for
    /// this anchor, a cache miss or page fault each in a big outer block).
    fn lookup(&mut self, ctx: &Context, op: OpId, probe: &Probe) -> Option<OpId> {
        let mut key: Option<OpKey> = None;
        for i in (0..self.scopes.len()).rev() {
            let s = &self.scopes[i];
            let found = if s.graph {
                let k = key.get_or_insert_with(|| OpKey::of(ctx, op));
                s.snapshots.get(k).copied()
            } else if let Some(known) = &s.known {
                let bufs = &mut self.bufs;
                probe
                    .local
                    .into_iter()
                    .chain(probe.hashed)
                    .find_map(|home| known.find(home, probe.hash, |o| same_key(ctx, o, op, bufs)))
            } else {
                None
            };
            if found.is_some() || (s.block.is_some() && s.block == probe.anchor_block) {
                return found;
            }
        }
        None
    }

    /// Makes `op` known in the innermost scope.
    fn insert(&mut self, ctx: &Context, op: OpId, probe: &Probe) {
        let Some(s) = self.scopes.last_mut() else {
            return;
        };
        if s.graph {
            s.snapshots.insert(OpKey::of(ctx, op), op);
        } else if let Some(known) = &mut s.known {
            // A hot anchor's ops go to the hashed home (see [`Probe`]).
            let home = probe.hashed.or(probe.local).expect("a probe has a home");
            known.insert(home, probe.hash, op);
        }
    }

    fn simplify_region(&mut self, ctx: &mut Context, region: RegionId) {
        let blocks = ctx.region_blocks(region).to_vec();
        let graph = is_graph_region(ctx, region);
        if blocks.len() <= 1 {
            for b in blocks {
                self.scopes.push(Scope {
                    graph,
                    ..Scope::default()
                });
                self.simplify_block(ctx, b, graph);
                self.pop_scope();
            }
            return;
        }
        // Walk the dominator tree: each block inherits the scopes of its dominators.
        let dom = DominanceInfo::new(ctx, region);
        let Some(entry) = dom.entry() else { return };
        let mut stack = vec![Step::Enter(entry)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Enter(b) => {
                    self.scopes.push(Scope {
                        graph,
                        ..Scope::default()
                    });
                    self.simplify_block(ctx, b, graph);
                    stack.push(Step::Exit);
                    stack.extend(dom.children(b).iter().rev().map(|&c| Step::Enter(c)));
                }
                Step::Exit => self.pop_scope(),
            }
        }
    }

    /// Ends the innermost scope, keeping its table's memory for the next blocks (but not a
    /// big block's: few blocks are big, and clearing it would cost what a fresh one does).
    fn pop_scope(&mut self) {
        let known = self.scopes.pop().and_then(|s| s.known);
        if let Some(k) = known.filter(|k| k.capacity() <= SPARE_ENTRIES) {
            if self.spare.len() < SPARE_TABLES {
                self.spare.push(k.into_spare());
            }
        }
    }

    /// Simplifies the ops of `block` in order. They are taken a chunk at a time (listing a
    /// million-op block first cost a vector as long as the block): simplifying an op erases
    /// only that op or ops nested in it, so the op after a chunk stays in the block.
    fn simplify_block(&mut self, ctx: &mut Context, block: BlockId, graph: bool) {
        // The block's scope holds at most one entry per op: sized once, it never grows.
        if let Some(scope) = self.scopes.last_mut() {
            scope.block = Some(block);
            if !scope.graph {
                let slots = self.spare.pop().unwrap_or_default();
                scope.known = Some(KnownOps::reusing(ctx.block_len(block), slots));
            }
        }
        let mut next = ctx.first_op(block);
        while next.is_some() {
            let base = self.order.len();
            while let Some(o) = next.filter(|_| self.order.len() - base < CHUNK) {
                self.order.push(o);
                next = ctx.next_op(o);
            }
            // Nested blocks push their chunks above this one and take them off again.
            for i in base..self.order.len() {
                let op = self.order[i];
                self.simplify_nested_and_op(ctx, op, graph);
            }
            self.order.truncate(base);
        }
    }

    /// Simplifies the regions of `op`, then `op`.
    fn simplify_nested_and_op(&mut self, ctx: &mut Context, op: OpId, graph: bool) {
        if !ctx.regions(op).is_empty() {
            // Unregistered ops might be isolated from above: do not leak outer values in.
            let isolated =
                !ctx.is_registered(op) || ctx.has_trait(op, OpTraits::ISOLATED_FROM_ABOVE);
            let saved = isolated.then(|| std::mem::take(&mut self.scopes));
            for r in ctx.regions(op).to_vec() {
                self.simplify_region(ctx, r);
            }
            if let Some(s) = saved {
                self.scopes = s;
            }
        }
        self.simplify_op(ctx, op, graph);
    }

    fn simplify_op(&mut self, ctx: &mut Context, op: OpId, graph: bool) {
        if ctx.has_trait(op, OpTraits::TERMINATOR) || !ctx.successors(op).is_empty() {
            return;
        }
        if is_trivially_dead(ctx, op) {
            ctx.erase_op(op);
            self.num_dce += 1;
            return;
        }
        if !ctx.regions(op).is_empty() || !is_memory_effect_free(ctx, op) {
            return;
        }
        let probe = self.probe_of(ctx, op);
        match self.lookup(ctx, op, &probe) {
            Some(existing) => {
                // In a graph region the earlier op may use the later one's results: keep both.
                if graph
                    && ctx
                        .operands(existing)
                        .any(|v| ctx.defining_op(v) == Some(op))
                {
                    return;
                }
                if matches!(ctx.loc_data(ctx.loc(existing)), LocData::Unknown) {
                    let loc = ctx.loc(op);
                    ctx.set_loc(existing, loc);
                }
                let with = ctx.results(existing).to_vec();
                ctx.replace_op_results(op, &with);
                ctx.erase_op(op);
                self.num_cse += 1;
            }
            None => self.insert(ctx, op, &probe),
        }
    }
}

#[cfg(test)]
#[path = "cse_tests.rs"]
mod tests;
