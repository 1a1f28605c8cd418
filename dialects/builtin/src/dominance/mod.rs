//! Dominance per region: block dominance on the region's CFG, op order within a block.
//!
//! [`DominanceInfo`] is the dominator tree of one region's blocks. [`DomCache`] memoizes trees and
//! in-block op positions so that [`value_dominates_op`] answers in O(nesting depth) after a linear
//! set-up. Caches describe the IR as it was when they were filled: call [`DomCache::clear`] after
//! mutating it.
//!
//! Unreachable blocks follow LLVM and MLIR: an unreachable block is dominated by every block and
//! dominates only itself and other unreachable blocks.

mod tree;

pub use tree::DominanceInfo;

use crate::context::{Context, ValueDef};
use crate::entity::{BlockId, OpId, RegionId, Value};
use crate::registry::OpTraits;
use std::collections::HashMap;

/// Whether `region` is a graph region: its parent op is unregistered or has `GRAPH_REGION`.
/// Ops in a graph region may use values defined anywhere in it (no dominance requirement).
pub fn is_graph_region(ctx: &Context, region: RegionId) -> bool {
    match ctx.region_parent_op(region) {
        None => false,
        Some(p) => ctx
            .info(p)
            .is_none_or(|i| i.has_trait(OpTraits::GRAPH_REGION)),
    }
}

/// The ancestor of `op` (possibly `op` itself) that lies directly in `region`, if any.
pub fn ancestor_in_region(ctx: &Context, op: OpId, region: RegionId) -> Option<OpId> {
    let mut cur = op;
    loop {
        let r = ctx.parent_region(cur)?;
        if r == region {
            return Some(cur);
        }
        cur = ctx.region_parent_op(r)?;
    }
}

/// The ancestor of `op` (possibly `op` itself) that lies directly in `block`, if any.
pub fn ancestor_in_block(ctx: &Context, op: OpId, block: BlockId) -> Option<OpId> {
    let mut cur = op;
    loop {
        let b = ctx.parent_block(cur)?;
        if b == block {
            return Some(cur);
        }
        cur = ctx.block_parent_op(b)?;
    }
}

/// Whether region `a` strictly encloses region `b`.
pub fn region_is_proper_ancestor(ctx: &Context, a: RegionId, b: RegionId) -> bool {
    let mut cur = b;
    while let Some(p) = ctx.region_parent_op(cur) {
        match ctx.parent_region(p) {
            Some(r) if r == a => return true,
            Some(r) => cur = r,
            None => return false,
        }
    }
    false
}

/// Memoized dominator trees (per multi-block region) and in-block op positions.
#[derive(Default)]
pub struct DomCache {
    trees: HashMap<RegionId, DominanceInfo>,
    /// 1 + the op's position in its block; 0 when its block is not numbered yet. Indexed by op.
    op_pos: OpPositions,
}

/// Ops' positions in pages of [`PAGE`] ops, made on first use: a cache used on a few ops of a
/// big context (verifying one kernel of many) costs those ops' pages, not a zeroed entry per op
/// of the context.
#[derive(Default)]
struct OpPositions {
    pages: Vec<Option<Box<[u32; PAGE]>>>,
}

const PAGE: usize = 4096;

impl OpPositions {
    fn clear(&mut self) {
        self.pages.clear();
    }

    fn get(&self, op: OpId) -> u32 {
        match self.pages.get(op.index() / PAGE) {
            Some(Some(page)) => page[op.index() % PAGE],
            _ => 0,
        }
    }

    fn set(&mut self, op: OpId, pos: u32) {
        let p = op.index() / PAGE;
        if p >= self.pages.len() {
            self.pages.resize_with(p + 1, || None);
        }
        self.pages[p].get_or_insert_with(|| Box::new([0; PAGE]))[op.index() % PAGE] = pos;
    }
}

impl DomCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets everything: needed after the IR changed.
    pub fn clear(&mut self) {
        self.trees.clear();
        self.op_pos.clear();
    }

    /// The dominator tree of `region`, built on first use.
    pub fn tree(&mut self, ctx: &Context, region: RegionId) -> &DominanceInfo {
        self.trees
            .entry(region)
            .or_insert_with(|| DominanceInfo::new(ctx, region))
    }

    /// Whether `block` is reachable from the entry block of its region (false for a detached one).
    pub fn is_reachable(&mut self, ctx: &Context, block: BlockId) -> bool {
        let Some(region) = ctx.block_parent_region(block) else {
            return false;
        };
        let blocks = ctx.region_blocks(region);
        if blocks.len() == 1 {
            return blocks[0] == block;
        }
        self.tree(ctx, region).is_reachable(block)
    }

    /// Whether block `a` dominates block `b` (reflexive). Blocks of different regions never do.
    pub fn block_dominates(&mut self, ctx: &Context, a: BlockId, b: BlockId) -> bool {
        if a == b {
            return true;
        }
        match (ctx.block_parent_region(a), ctx.block_parent_region(b)) {
            (Some(ra), Some(rb)) if ra == rb => self.tree(ctx, ra).block_dominates(a, b),
            _ => false,
        }
    }

    /// Whether `a` comes strictly before `b`; both must be in the same block (false otherwise).
    pub fn is_before_in_block(&mut self, ctx: &Context, a: OpId, b: OpId) -> bool {
        match (ctx.parent_block(a), ctx.parent_block(b)) {
            (Some(ba), Some(bb)) if ba == bb => self.position(ctx, a) < self.position(ctx, b),
            _ => false,
        }
    }

    /// Position of `op` in its block (numbering the whole block on first use: O(1) amortized).
    fn position(&mut self, ctx: &Context, op: OpId) -> u32 {
        if self.op_pos.get(op) == 0 {
            if let Some(block) = ctx.parent_block(op) {
                for (i, o) in ctx.block_ops(block).enumerate() {
                    self.op_pos.set(o, i as u32 + 1);
                }
            }
        }
        self.op_pos.get(op)
    }

    /// Whether op `a` properly dominates op `b`, as MLIR's `properlyDominates`: `b` is first
    /// lifted to its ancestor in `a`'s region; `a` properly dominates the ops nested in it.
    pub fn op_properly_dominates(&mut self, ctx: &Context, a: OpId, b: OpId) -> bool {
        let (Some(ablock), Some(region)) = (ctx.parent_block(a), ctx.parent_region(a)) else {
            return false;
        };
        let Some(anc) = ancestor_in_region(ctx, b, region) else {
            return false;
        };
        if anc == a {
            return a != b;
        }
        if is_graph_region(ctx, region) {
            return true;
        }
        let bblock = ctx
            .parent_block(anc)
            .expect("an op in a region is in a block");
        if ablock == bblock {
            return self.is_before_in_block(ctx, a, anc);
        }
        self.block_dominates(ctx, ablock, bblock)
    }

    /// Whether the definition of `v` properly dominates `anc`, an op directly in the block or
    /// region where `v` is defined (an ancestor of the actual `user`, or `user` itself).
    pub(crate) fn dominates_ancestor(
        &mut self,
        ctx: &Context,
        v: Value,
        anc: OpId,
        user: OpId,
    ) -> bool {
        let Some(def_block) = ctx.value_block(v) else {
            return false;
        };
        let graph = ctx
            .block_parent_region(def_block)
            .is_some_and(|r| is_graph_region(ctx, r));
        let Some(anc_block) = ctx.parent_block(anc) else {
            return false;
        };
        match ctx.value_def(v) {
            ValueDef::OpResult { op: def, .. } => {
                if anc == def {
                    // A use nested in the defining op never sees the value; a direct self-use
                    // is fine only where there is no dominance requirement.
                    return user == def && graph;
                }
                if graph {
                    return true;
                }
                if anc_block == def_block {
                    return self.is_before_in_block(ctx, def, anc);
                }
                self.block_dominates(ctx, def_block, anc_block)
            }
            ValueDef::BlockArg { .. } => {
                graph || anc_block == def_block || self.block_dominates(ctx, def_block, anc_block)
            }
        }
    }
}

/// Whether the definition of `v` properly dominates `user` (so `user` may use `v`).
///
/// `user` is first lifted to its ancestor in the region (or detached block) that defines `v`; if
/// there is none, `v` is not in scope and the answer is no. A block argument dominates its block
/// and the blocks that block dominates; an op result dominates the later ops of its block and
/// the blocks its block dominates, but not the ops nested in its own op. In graph regions only
/// scope matters.
pub fn value_dominates_op(ctx: &Context, dom: &mut DomCache, v: Value, user: OpId) -> bool {
    let Some(def_block) = ctx.value_block(v) else {
        return false;
    };
    let anc = match ctx.block_parent_region(def_block) {
        Some(region) => ancestor_in_region(ctx, user, region),
        None => ancestor_in_block(ctx, user, def_block),
    };
    match anc {
        Some(anc) => dom.dominates_ancestor(ctx, v, anc, user),
        None => false,
    }
}

#[cfg(test)]
mod tests;
