//! Cloning ops, regions and blocks through an [`IRMapping`] (MLIR's `Operation::clone` and
//! `Region::cloneInto`).
//!
//! Clones are created detached: the caller decides where they go (or uses
//! [`crate::Builder::clone_op`], which inserts at its insertion point and tells its listener).
//! Every operand and successor goes through the mapping, and values that are not mapped are used
//! as they are, so a clone keeps the values it captures from above. Locations, properties and
//! discardable attributes are copied; block arguments keep their locations.
//!
//! Regions are cloned in two phases, as MLIR does: first every block with its arguments and every
//! op shell (so every result is mapped), then the operands and nested regions. Thus a use that
//! precedes its definition (a later block, or a graph region) still finds the clone.

use crate::builder::OperationState;
use crate::context::Context;
use crate::entity::*;
use crate::mapping::IRMapping;

impl Context {
    /// A detached deep copy of `op`: operands and successors remapped, results, blocks, block
    /// arguments and nested ops recorded in `mapping`.
    pub fn clone_op(&mut self, op: OpId, mapping: &mut IRMapping) -> OpId {
        let new = self.clone_without_regions(op, mapping);
        let pairs: Vec<(RegionId, RegionId)> = self
            .regions(op)
            .iter()
            .copied()
            .zip(self.regions(new).iter().copied())
            .collect();
        for (from, to) in pairs {
            self.clone_region_into(from, to, mapping);
        }
        new
    }

    /// A detached copy of `op` with as many regions, all empty (MLIR's `cloneWithoutRegions`).
    pub fn clone_without_regions(&mut self, op: OpId, mapping: &mut IRMapping) -> OpId {
        let operands: Vec<Value> = self
            .operands(op)
            .map(|v| mapping.lookup_or_default(v))
            .collect();
        self.clone_shell(op, operands, mapping)
    }

    /// Appends to `to` a copy of every block of `from`.
    pub fn clone_region_into(&mut self, from: RegionId, to: RegionId, mapping: &mut IRMapping) {
        let blocks = self.region_blocks(from).to_vec();
        let new_blocks = self.clone_blocks(&blocks, mapping);
        for b in new_blocks {
            self.append_block(to, b);
        }
    }

    /// A detached copy of region `from`.
    pub fn clone_region(&mut self, from: RegionId, mapping: &mut IRMapping) -> RegionId {
        let to = self.create_region();
        self.clone_region_into(from, to, mapping);
        to
    }

    /// A detached copy of one block. Arguments already mapped are not cloned: their uses take
    /// the mapped value (MLIR's rule), which is how a caller inlines a block with given values.
    pub fn clone_block(&mut self, block: BlockId, mapping: &mut IRMapping) -> BlockId {
        self.clone_blocks(&[block], mapping)[0]
    }

    fn clone_blocks(&mut self, blocks: &[BlockId], mapping: &mut IRMapping) -> Vec<BlockId> {
        // Phase 1: blocks and their arguments, so that successors and argument uses resolve.
        let mut new_blocks = Vec::with_capacity(blocks.len());
        for &b in blocks {
            let nb = self.create_block(&[]);
            for a in self.block_args(b).to_vec() {
                if mapping.contains(a) {
                    continue;
                }
                let (ty, loc) = (self.value_type(a), self.value_loc(a));
                let na = self.add_block_arg(nb, ty, loc);
                mapping.map(a, na);
            }
            mapping.map(b, nb);
            new_blocks.push(nb);
        }
        // Phase 2: op shells without operands, so that every result is mapped.
        let mut pairs = Vec::new();
        for (&b, &nb) in blocks.iter().zip(&new_blocks) {
            for o in self.block_op_vec(b) {
                let n = self.clone_shell(o, Vec::new(), mapping);
                self.append_op(nb, n);
                pairs.push((o, n));
            }
        }
        // Phase 3: operands and nested regions.
        for (o, n) in pairs {
            let operands: Vec<Value> = self
                .operands(o)
                .map(|v| mapping.lookup_or_default(v))
                .collect();
            self.set_operands(n, &operands);
            let regions: Vec<(RegionId, RegionId)> = self
                .regions(o)
                .iter()
                .copied()
                .zip(self.regions(n).iter().copied())
                .collect();
            for (from, to) in regions {
                self.clone_region_into(from, to, mapping);
            }
        }
        new_blocks
    }

    /// Creates the copy of `op` with the given operands and empty regions; maps op and results.
    fn clone_shell(&mut self, op: OpId, operands: Vec<Value>, mapping: &mut IRMapping) -> OpId {
        let result_types: Vec<Type> = self
            .results(op)
            .iter()
            .map(|&r| self.value_type(r))
            .collect();
        let successors: Vec<BlockId> = self
            .successors(op)
            .iter()
            .map(|&b| mapping.lookup_or_default(b))
            .collect();
        let regions: Vec<RegionId> = (0..self.regions(op).len())
            .map(|_| self.create_region())
            .collect();
        let mut st = OperationState::new(self.name(op).to_string(), self.loc(op));
        st.operands = operands;
        st.result_types = result_types;
        st.properties = self.properties(op).to_vec();
        st.attributes = self.attrs(op).to_vec();
        st.regions = regions;
        st.successors = successors;
        let new = self.create_op(st);
        let results: Vec<(Value, Value)> = self
            .results(op)
            .iter()
            .copied()
            .zip(self.results(new).iter().copied())
            .collect();
        for (r, nr) in results {
            mapping.map(r, nr);
        }
        mapping.map(op, new);
        new
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::{Builder, InsertPoint, OperationState};
    use crate::context::Context;
    use crate::entity::*;
    use crate::mapping::IRMapping;
    use crate::verifier::test_dialect::{self as td, constant, func, op, region_op};
    use crate::verifier::verify;

    /// f(%a) { %c = 7; test.region(%a) { ^0(%x): %s = add(%x, %c); br ^1 ; ^1: yield(%s) } }
    fn setup(ctx: &mut Context) -> (OpId, BlockId, Value, OpId, BlockId, BlockId) {
        let (m, body) = td::module(ctx);
        let (_, entry) = func(ctx, body, "f", 1, 2);
        let a = ctx.block_arg(entry, 0);
        let c = constant(ctx, entry, 7, 3);
        let (r, b0) = region_op(ctx, entry, "test.region", &[a], 1, 4);
        let x = ctx.block_arg(b0, 0);
        let s = op(ctx, b0, "test.add", &[x, c], 1, 5);
        let sv = ctx.result(s, 0);
        let region = ctx.region(r, 0);
        let b1 = ctx.create_block(&[]);
        ctx.append_block(region, b1);
        let l = td::loc(ctx, 6);
        let br = ctx.create_op(OperationState::new("test.br", l).successor(b1));
        ctx.append_op(b0, br);
        op(ctx, b1, "test.yield", &[sv], 0, 7);
        let u = ctx.unit_attr();
        ctx.set_attr(r, "tag", u);
        ctx.set_prop(r, "p", u);
        op(ctx, entry, "test.ret", &[], 0, 9);
        (m, entry, c, r, b0, b1)
    }

    #[test]
    fn deep_clone_keeps_structure_locations_and_values_from_above() {
        let mut ctx = td::ctx();
        let (m, entry, c, r, b0, b1) = setup(&mut ctx);
        let mut map = IRMapping::new();
        let n = Builder::new(&mut ctx, InsertPoint::Before(r)).clone_op(r, &mut map);
        assert_eq!(ctx.next_op(n), Some(r));
        assert_eq!(verify(&ctx, m), Ok(()));
        assert_eq!(ctx.name(n), "test.region");
        assert_eq!(ctx.loc(n), ctx.loc(r));
        assert_eq!(ctx.properties(n), ctx.properties(r));
        assert_eq!(ctx.attrs(n), ctx.attrs(r));
        assert_eq!(
            ctx.operand(n, 0),
            ctx.operand(r, 0),
            "unmapped operand kept"
        );
        assert_eq!(map.lookup(r), Some(n));
        let nr = ctx.region(n, 0);
        let nb = ctx.region_blocks(nr).to_vec();
        assert_eq!(nb.len(), 2);
        assert_eq!(map.lookup(b0), Some(nb[0]));
        assert_eq!(map.lookup(b1), Some(nb[1]));
        assert_ne!(nb[0], b0);
        // Block argument: new, same type and location, mapped.
        let (x, nx) = (ctx.block_arg(b0, 0), ctx.block_arg(nb[0], 0));
        assert_ne!(x, nx);
        assert_eq!(map.lookup(x), Some(nx));
        assert_eq!(ctx.value_loc(nx), ctx.value_loc(x));
        assert_eq!(ctx.value_type(nx), ctx.value_type(x));
        // The add uses the new argument and the constant from above.
        let add = ctx.first_op(nb[0]).unwrap();
        assert_eq!(ctx.operand_vec(add), vec![nx, c]);
        assert_eq!(ctx.file_line_col(ctx.loc(add)), Some(("t.mlir", 5, 1)));
        // The branch goes to the cloned block; the yield (in a later block) uses the cloned add.
        let br = ctx.next_op(add).unwrap();
        assert_eq!(ctx.successors(br), &[nb[1]]);
        let y = ctx.first_op(nb[1]).unwrap();
        assert_eq!(ctx.operand(y, 0), ctx.result(add, 0));
        // The original is untouched.
        let oadd = ctx.first_op(b0).unwrap();
        assert_eq!(ctx.operand(oadd, 0), x);
        assert_eq!(ctx.uses(x).len(), 1);
        assert_eq!(ctx.block_len(entry), 4);
    }

    #[test]
    fn mapping_substitutes_operands_and_arguments() {
        let mut ctx = td::ctx();
        let (m, entry, c, r, b0, _) = setup(&mut ctx);
        let a = ctx.block_arg(entry, 0);
        let k = constant(&mut ctx, entry, 1, 10);
        ctx.detach_op(ctx.defining_op(k).unwrap());
        ctx.insert_op_before(r, ctx.defining_op(k).unwrap());
        let mut map = IRMapping::new();
        map.map(a, k);
        map.map(c, k);
        // A mapped block argument is not cloned: its uses take the mapped value.
        map.map(ctx.block_arg(b0, 0), a);
        let n = ctx.clone_op(r, &mut map);
        assert_eq!(ctx.parent_block(n), None, "created detached");
        ctx.insert_op_after(r, n);
        assert_eq!(ctx.operand(n, 0), k);
        let nb = ctx.entry_block(ctx.region(n, 0)).unwrap();
        assert!(ctx.block_args(nb).is_empty());
        let add = ctx.first_op(nb).unwrap();
        assert_eq!(ctx.operand_vec(add), vec![a, k]);
        assert_eq!(verify(&ctx, m), Ok(()));
    }

    #[test]
    fn clone_without_regions_and_region_into() {
        let mut ctx = td::ctx();
        let (_, _, _, r, b0, _) = setup(&mut ctx);
        let mut map = IRMapping::new();
        let shell = ctx.clone_without_regions(r, &mut map);
        assert_eq!(ctx.regions(shell).len(), 1);
        assert!(ctx.region_blocks(ctx.region(shell, 0)).is_empty());
        assert_eq!(map.lookup(r), Some(shell));
        assert!(!map.contains(b0), "regions are not visited");
        // Fill it twice: blocks are appended.
        let (from, to) = (ctx.region(r, 0), ctx.region(shell, 0));
        ctx.clone_region_into(from, to, &mut map);
        ctx.clone_region_into(from, to, &mut map);
        assert_eq!(ctx.region_blocks(to).len(), 4);
        // The second copy's branch targets its own blocks (the mapping was updated).
        let second = ctx.region_blocks(to)[2];
        let br = ctx.last_op(second).unwrap();
        assert_eq!(ctx.successors(br), &[ctx.region_blocks(to)[3]]);
        let detached = ctx.clone_region(from, &mut map);
        assert_eq!(ctx.region_parent_op(detached), None);
        assert_eq!(ctx.region_blocks(detached).len(), 2);
    }

    #[test]
    fn graph_region_forward_references_are_remapped() {
        let mut ctx = td::ctx();
        let (m, body) = td::module(&mut ctx);
        let (g, gb) = region_op(&mut ctx, body, "test.graph", &[], 0, 2);
        // %u = pure(%d) ; %d = pure() : a use before its definition.
        let u = op(&mut ctx, gb, "test.pure", &[], 1, 3);
        let d = op(&mut ctx, gb, "test.pure", &[], 1, 4);
        let dv = ctx.result(d, 0);
        ctx.append_operand(u, dv);
        let mut map = IRMapping::new();
        let n = ctx.clone_op(g, &mut map);
        ctx.append_op(body, n);
        let nb = ctx.entry_block(ctx.region(n, 0)).unwrap();
        let ops = ctx.block_op_vec(nb);
        assert_eq!(ctx.operand(ops[0], 0), ctx.result(ops[1], 0));
        assert_eq!(map.lookup(dv), Some(ctx.result(ops[1], 0)));
        assert_eq!(verify(&ctx, m), Ok(()));
        let _ = u;
    }

    #[test]
    fn block_clone_with_nested_region() {
        let mut ctx = td::ctx();
        let (_, _, c, r, b0, _) = setup(&mut ctx);
        // A nested region inside b0 that captures %x from b0 and %c from the function.
        let x = ctx.block_arg(b0, 0);
        let first = ctx.first_op(b0).unwrap();
        let (inner, ib) = region_op(&mut ctx, b0, "test.recursive", &[], 0, 11);
        ctx.detach_op(inner);
        ctx.insert_op_after(first, inner);
        op(&mut ctx, ib, "test.effect", &[x, c], 0, 12);
        let mut map = IRMapping::new();
        let nb = ctx.clone_block(b0, &mut map);
        assert_eq!(ctx.block_parent_region(nb), None);
        let nx = ctx.block_arg(nb, 0);
        let ninner = ctx.block_op_vec(nb)[1];
        assert_eq!(map.lookup(inner), Some(ninner));
        let nib = ctx.entry_block(ctx.region(ninner, 0)).unwrap();
        let e = ctx.first_op(nib).unwrap();
        assert_eq!(ctx.operand_vec(e), vec![nx, c]);
        let _ = r;
    }
}
