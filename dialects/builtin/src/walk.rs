//! Walking nested ops.

use crate::context::Context;
use crate::entity::{OpId, RegionId};

impl Context {
    /// Every op nested in `op` (including `op`), parents before children, in program order.
    pub fn walk_pre_order(&self, op: OpId) -> Vec<OpId> {
        let mut out = Vec::new();
        let mut stack = vec![op];
        while let Some(o) = stack.pop() {
            out.push(o);
            // Push children in reverse so that they pop in program order.
            for &r in self.regions(o).iter().rev() {
                for &b in self.region_blocks(r).iter().rev() {
                    let mut cur = self.last_op(b);
                    while let Some(c) = cur {
                        stack.push(c);
                        cur = self.prev_op(c);
                    }
                }
            }
        }
        out
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
