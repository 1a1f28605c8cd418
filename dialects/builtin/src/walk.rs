//! Walking nested ops.

use crate::context::Context;
use crate::entity::{OpId, RegionId};

impl Context {
    /// Every op nested in `op` (including `op`), parents before children, in program order.
    ///
    /// The stack holds the next op of each block being walked (and the blocks of the op just
    /// visited, still to enter), so it is as deep as the nest, not as long as a block; and an
    /// op's record is read only when its flag says it has regions: on a kernel larger than the
    /// cache, a walk reads each op's links and flag byte only.
    pub fn walk_pre_order(&self, op: OpId) -> Vec<OpId> {
        let mut out = vec![op];
        let mut stack = Vec::new();
        self.push_blocks(op, &mut stack);
        while let Some(top) = stack.last_mut() {
            let Some(o) = *top else {
                stack.pop();
                continue;
            };
            *top = self.links[o.index()].next();
            out.push(o);
            if self.has_regions(o) {
                self.push_blocks(o, &mut stack);
            }
        }
        out
    }

    /// Pushes the first op of each block of `op`, last block first (so the first pops first).
    fn push_blocks(&self, op: OpId, stack: &mut Vec<Option<OpId>>) {
        for &r in self.regions(op).iter().rev() {
            for &b in self.region_blocks(r).iter().rev() {
                stack.push(self.first_op(b));
            }
        }
    }

    /// Every op nested in `op` (including `op`), children before parents.
    pub fn walk_post_order(&self, op: OpId) -> Vec<OpId> {
        let mut out = Vec::new();
        self.post_order_into(op, &mut out);
        out
    }

    fn post_order_into(&self, op: OpId, out: &mut Vec<OpId>) {
        // Iterative to bear deep nesting: (op, whether its children were pushed).
        let mut stack = vec![(op, false)];
        while let Some((o, expanded)) = stack.pop() {
            if expanded {
                out.push(o);
                continue;
            }
            stack.push((o, true));
            for &r in self.regions(o).iter().rev() {
                for &b in self.region_blocks(r).iter().rev() {
                    let mut cur = self.last_op(b);
                    while let Some(c) = cur {
                        stack.push((c, false));
                        cur = self.prev_op(c);
                    }
                }
            }
        }
    }

    /// The ops directly in a region (not nested deeper), in order.
    pub fn region_ops(&self, region: RegionId) -> Vec<OpId> {
        self.region_blocks(region)
            .iter()
            .flat_map(|&b| self.block_ops(b))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::{Context, OpId, OperationState};

    /// A nest of ops with 0-2 regions of 0-2 blocks of 0-3 ops each (empty regions and blocks
    /// included), from a simple generator seeded by `seed`.
    fn nest(ctx: &mut Context, seed: &mut u64, depth: usize) -> OpId {
        fn next(seed: &mut u64) -> usize {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*seed >> 33) as usize
        }
        let loc = ctx.unknown_loc();
        let mut state = OperationState::new("t.op", loc);
        let regions = if depth == 0 { 0 } else { next(seed) % 3 };
        for _ in 0..regions {
            let r = ctx.create_region();
            for _ in 0..next(seed) % 3 {
                let b = ctx.create_block(&[]);
                ctx.append_block(r, b);
                for _ in 0..next(seed) % 4 {
                    let o = nest(ctx, seed, depth - 1);
                    ctx.append_op(b, o);
                }
            }
            state = state.region(r);
        }
        ctx.create_op(state)
    }

    fn reference(ctx: &Context, op: OpId, out: &mut Vec<OpId>) {
        out.push(op);
        for &r in ctx.regions(op) {
            for &b in ctx.region_blocks(r) {
                let ops: Vec<OpId> = ctx.block_ops(b).collect();
                for o in ops {
                    reference(ctx, o, out);
                }
            }
        }
    }

    /// Pre-order is parents first, regions, blocks and ops in order, on random nests; and
    /// after ops are detached or erased from them.
    #[test]
    fn pre_order_matches_a_recursive_walk() {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let mut seed = 7;
        let mut nested = 0;
        for _ in 0..200 {
            let root = nest(&mut ctx, &mut seed, 4);
            let mut want = Vec::new();
            reference(&ctx, root, &mut want);
            nested += want.len() - 1;
            assert_eq!(ctx.walk_pre_order(root), want);
            // Every third nested op leaves its block (detached or erased).
            for (k, &o) in want.iter().enumerate().skip(1).step_by(3) {
                if ctx.is_alive(o) && ctx.parent_block(o).is_some() {
                    if k % 2 == 0 {
                        ctx.detach_op(o);
                    } else {
                        ctx.erase_op(o);
                    }
                }
            }
            let mut want: Vec<OpId> = Vec::new();
            reference(&ctx, root, &mut want);
            assert_eq!(ctx.walk_pre_order(root), want);
        }
        assert!(
            nested > 1000,
            "the nests are too small to test much: {nested} ops"
        );
    }
}
