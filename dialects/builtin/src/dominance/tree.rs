//! The dominator tree of one region's CFG, by Cooper, Harvey and Kennedy's iterative algorithm
//! ("A Simple, Fast Dominance Algorithm") over reverse post-order.

use crate::context::Context;
use crate::entity::{BlockId, RegionId};
use std::collections::HashMap;

const NONE: u32 = u32::MAX;

/// Block dominance within one region. The CFG edges are the successors of each block's last op;
/// successors outside the region (invalid IR) are ignored. The entry block is the first block.
pub struct DominanceInfo {
    region: RegionId,
    /// The region's blocks, in region order; local indices refer to this list.
    blocks: Vec<BlockId>,
    index: HashMap<BlockId, u32>,
    /// Immediate dominator per local index; the entry's is itself, unreachable blocks have NONE.
    idom: Vec<u32>,
    children: Vec<Vec<BlockId>>,
    rpo: Vec<BlockId>,
    /// Interval numbering of a DFS over the dominator tree: `a` dominates `b` iff
    /// `pre[a] <= pre[b] && post[b] <= post[a]`. O(1) queries.
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl DominanceInfo {
    pub fn new(ctx: &Context, region: RegionId) -> Self {
        let blocks = ctx.region_blocks(region).to_vec();
        let n = blocks.len();
        let index: HashMap<BlockId, u32> = blocks
            .iter()
            .enumerate()
            .map(|(i, &b)| (b, i as u32))
            .collect();
        let succs: Vec<Vec<u32>> = blocks
            .iter()
            .map(|&b| match ctx.last_op(b) {
                Some(t) => ctx
                    .successors(t)
                    .iter()
                    .filter_map(|s| index.get(s).copied())
                    .collect(),
                None => Vec::new(),
            })
            .collect();

        let post_order = post_order(&succs);
        let m = post_order.len();
        let mut rpo_num = vec![NONE; n];
        for (i, &b) in post_order.iter().enumerate() {
            rpo_num[b as usize] = (m - 1 - i) as u32;
        }
        let rpo_local: Vec<u32> = post_order.iter().rev().copied().collect();
        let mut preds = vec![Vec::new(); n];
        for &u in &rpo_local {
            for &s in &succs[u as usize] {
                preds[s as usize].push(u);
            }
        }

        let mut idom = vec![NONE; n];
        if n > 0 {
            idom[0] = 0;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo_local.iter().skip(1) {
                let mut new = NONE;
                for &p in &preds[b as usize] {
                    if idom[p as usize] == NONE {
                        continue;
                    }
                    new = if new == NONE {
                        p
                    } else {
                        intersect(&idom, &rpo_num, p, new)
                    };
                }
                if new != idom[b as usize] {
                    idom[b as usize] = new;
                    changed = true;
                }
            }
        }

        let mut local_children = vec![Vec::new(); n];
        for (i, &d) in idom.iter().enumerate().skip(1) {
            if d != NONE {
                local_children[d as usize].push(i as u32);
            }
        }
        let (pre, post) = number_tree(&local_children, n);
        let children = local_children
            .iter()
            .map(|cs| cs.iter().map(|&c| blocks[c as usize]).collect())
            .collect();
        let rpo = rpo_local.iter().map(|&b| blocks[b as usize]).collect();
        DominanceInfo {
            region,
            blocks,
            index,
            idom,
            children,
            rpo,
            pre,
            post,
        }
    }

    pub fn region(&self) -> RegionId {
        self.region
    }

    /// The entry block, unless the region is empty.
    pub fn entry(&self) -> Option<BlockId> {
        self.blocks.first().copied()
    }

    /// The reachable blocks in reverse post-order (the entry first).
    pub fn reverse_post_order(&self) -> &[BlockId] {
        &self.rpo
    }

    fn local(&self, b: BlockId) -> Option<usize> {
        self.index.get(&b).map(|&i| i as usize)
    }

    /// Whether `b` is a block of this region reachable from the entry.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.local(b).is_some_and(|i| self.idom[i] != NONE)
    }

    /// The immediate dominator of `b`; None for the entry, unreachable and foreign blocks.
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        let i = self.local(b)?;
        match self.idom[i] {
            NONE => None,
            d if d as usize == i => None,
            d => Some(self.blocks[d as usize]),
        }
    }

    /// The blocks whose immediate dominator is `b`, in region order.
    pub fn children(&self, b: BlockId) -> &[BlockId] {
        match self.local(b) {
            Some(i) => &self.children[i],
            None => &[],
        }
    }

    /// Whether `a` dominates `b` (reflexive). False when either is not a block of this region.
    pub fn block_dominates(&self, a: BlockId, b: BlockId) -> bool {
        let (Some(ia), Some(ib)) = (self.local(a), self.local(b)) else {
            return false;
        };
        if ia == ib || self.idom[ib] == NONE {
            return true;
        }
        if self.idom[ia] == NONE {
            return false;
        }
        self.pre[ia] <= self.pre[ib] && self.post[ib] <= self.post[ia]
    }

    /// Whether `a` dominates `b` and `a != b`.
    pub fn block_properly_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a != b && self.block_dominates(a, b)
    }
}

/// Post-order of the nodes reachable from node 0, by an iterative DFS (deep CFGs are fine).
fn post_order(succs: &[Vec<u32>]) -> Vec<u32> {
    let n = succs.len();
    let mut out = Vec::with_capacity(n);
    if n == 0 {
        return out;
    }
    let mut visited = vec![false; n];
    visited[0] = true;
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    while let Some(top) = stack.last_mut() {
        let (b, i) = *top;
        match succs[b as usize].get(i) {
            Some(&s) => {
                top.1 += 1;
                if !visited[s as usize] {
                    visited[s as usize] = true;
                    stack.push((s, 0));
                }
            }
            None => {
                out.push(b);
                stack.pop();
            }
        }
    }
    out
}

fn intersect(idom: &[u32], rpo_num: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while rpo_num[a as usize] > rpo_num[b as usize] {
            a = idom[a as usize];
        }
        while rpo_num[b as usize] > rpo_num[a as usize] {
            b = idom[b as usize];
        }
    }
    a
}

/// Pre/post DFS numbers of the dominator tree rooted at node 0 (NONE for unreachable nodes).
fn number_tree(children: &[Vec<u32>], n: usize) -> (Vec<u32>, Vec<u32>) {
    let mut pre = vec![NONE; n];
    let mut post = vec![NONE; n];
    if n == 0 {
        return (pre, post);
    }
    let mut clock = 0u32;
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    pre[0] = clock;
    clock += 1;
    while let Some(top) = stack.last_mut() {
        let (b, i) = *top;
        match children[b as usize].get(i) {
            Some(&c) => {
                top.1 += 1;
                pre[c as usize] = clock;
                clock += 1;
                stack.push((c, 0));
            }
            None => {
                post[b as usize] = clock;
                clock += 1;
                stack.pop();
            }
        }
    }
    (pre, post)
}
