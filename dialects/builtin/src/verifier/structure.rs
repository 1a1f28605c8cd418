//! Structural checks: successors and terminator placement, region block counts, terminators,
//! entry-block predecessors.

use super::Verifier;
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::entity::{OpId, RegionId};
use crate::registry::OpTraits;

impl Verifier<'_> {
    /// A terminator (or any op with successors) must end its block; successors must be blocks of
    /// the op's own region.
    pub(super) fn check_position(&mut self, op: OpId, order: u32) {
        let ctx = self.ctx;
        let loc = ctx.loc(op);
        let is_last = ctx
            .parent_block(op)
            .is_some_and(|b| ctx.last_op(b) == Some(op));
        let succs = ctx.successors(op);
        if ctx.has_trait(op, OpTraits::TERMINATOR) && !is_last {
            let msg = format!(
                "'{}' op must be the last operation in the parent block",
                ctx.name(op)
            );
            self.error(order, Diagnostic::error(loc, msg));
        } else if !succs.is_empty() && ctx.parent_block(op).is_some() && !is_last {
            let msg = "operation with block successors must terminate its parent block";
            self.error(order, Diagnostic::error(loc, msg));
        }
        let region = ctx.parent_region(op);
        let foreign = succs
            .iter()
            .any(|&s| region.is_none() || ctx.block_parent_region(s) != region);
        if foreign {
            let msg = format!(
                "'{}' op branching to block of a different region",
                ctx.name(op)
            );
            self.error(order, Diagnostic::error(loc, msg));
        }
    }

    /// `block with no terminator` when `op` (not the root) ends a block that needs a terminator
    /// and is not one. Checked after the block's ops, as MLIR's verifier does on leaving a block.
    pub(super) fn missing_terminator(&self, op: OpId) -> Option<Diagnostic> {
        let ctx = self.ctx;
        let region = ctx.parent_region(op);
        (op != self.root
            && ctx.next_op(op).is_none()
            && !may_terminate(ctx, op)
            && region.is_some_and(|r| region_needs_terminators(ctx, r)))
        .then(|| {
            let msg = format!("block with no terminator, has '{}'", ctx.name(op));
            Diagnostic::error(ctx.loc(op), msg)
        })
    }

    /// Block counts (SINGLE_BLOCK, graph regions), entry blocks without predecessors, and a
    /// terminator at the end of every block that needs one. Returns whether all held.
    pub(super) fn check_regions(&mut self, op: OpId, order: u32) -> bool {
        let ctx = self.ctx;
        let regions = ctx.regions(op);
        if regions.is_empty() {
            return true;
        }
        let loc = ctx.loc(op);
        let name = ctx.name(op);
        let traits = ctx.info(op).map(|i| i.traits);
        let has = |t: OpTraits| traits.is_some_and(|tr| tr.contains(t));
        let mut sound = true;
        for (i, &r) in regions.iter().enumerate() {
            let blocks = ctx.region_blocks(r);
            // The SINGLE_BLOCK trait reports an empty block itself (as MLIR's trait verifier).
            let mut empty_reported = false;
            if has(OpTraits::SINGLE_BLOCK) && !blocks.is_empty() {
                if blocks.len() > 1 {
                    let msg = format!("'{name}' op expects region #{i} to have 0 or 1 blocks");
                    self.error(order, Diagnostic::error(loc, msg));
                    sound = false;
                } else if !has(OpTraits::NO_TERMINATOR) && ctx.block_is_empty(blocks[0]) {
                    let msg = format!("'{name}' op expects a non-empty block");
                    self.error(order, Diagnostic::error(loc, msg));
                    sound = false;
                    empty_reported = true;
                }
            } else if has(OpTraits::GRAPH_REGION) && blocks.len() > 1 {
                let msg = format!("'{name}' op expects graph region #{i} to have 0 or 1 blocks");
                self.error(order, Diagnostic::error(loc, msg));
                sound = false;
            }

            if let Some(&entry) = blocks.first() {
                let branched_to = blocks.iter().any(|&b| {
                    ctx.last_op(b)
                        .is_some_and(|t| ctx.successors(t).contains(&entry))
                });
                if branched_to {
                    let msg = "entry block of region may not have predecessors";
                    self.error(order, Diagnostic::error(loc, msg));
                    sound = false;
                }
            }

            if !region_needs_terminators(ctx, r) {
                continue;
            }
            for &b in blocks {
                match ctx.last_op(b) {
                    None if !empty_reported => {
                        let msg = "empty block: expect at least a terminator";
                        self.error(order, Diagnostic::error(loc, msg));
                        sound = false;
                    }
                    None => {}
                    // Reported when checking that op (see `check_position`), in its place.
                    Some(t) if !may_terminate(ctx, t) => sound = false,
                    Some(_) => {}
                }
            }
        }
        sound
    }

    /// A SYMBOL_TABLE op has one region of one block, and its symbols have unique names.
    /// Returns whether the region structure held.
    pub(super) fn check_symbol_table(&mut self, op: OpId, order: u32) -> bool {
        let ctx = self.ctx;
        if !ctx.has_trait(op, OpTraits::SYMBOL_TABLE) {
            return true;
        }
        let loc = ctx.loc(op);
        let name = ctx.name(op);
        let what = if ctx.regions(op).len() != 1 {
            "region"
        } else if ctx.region_blocks(ctx.region(op, 0)).len() != 1 {
            "block"
        } else {
            ""
        };
        if !what.is_empty() {
            let msg =
                format!("'{name}' op Operations with a 'SymbolTable' must have exactly one {what}");
            self.error(order, Diagnostic::error(loc, msg));
            return false;
        }
        let dups = self.table(op).duplicates().to_vec();
        for (first, dup) in dups {
            let sym = crate::symbol_table::symbol_name(ctx, dup).unwrap_or_default();
            let d = Diagnostic::error(
                ctx.loc(dup),
                format!("redefinition of symbol named '{sym}'"),
            )
            .with_note(ctx.loc(first), "see existing symbol definition here");
            self.error(order, d);
        }
        true
    }
}

/// Whether every block of `region` must end with a terminator. As MLIR, only the lone block of
/// a region whose parent op is unregistered, has NO_TERMINATOR, or is missing may lack one.
fn region_needs_terminators(ctx: &Context, region: RegionId) -> bool {
    if ctx.region_blocks(region).len() != 1 {
        return true;
    }
    ctx.region_parent_op(region).is_some_and(|p| {
        ctx.info(p)
            .is_some_and(|i| !i.has_trait(OpTraits::NO_TERMINATOR))
    })
}

/// Whether `op` may end a block that needs a terminator: an unregistered op might be one.
fn may_terminate(ctx: &Context, op: OpId) -> bool {
    !ctx.is_registered(op) || ctx.has_trait(op, OpTraits::TERMINATOR)
}
