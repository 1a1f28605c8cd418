//! Operand checks: every operand is in scope (defined in the user's region or an enclosing one,
//! not across an ISOLATED_FROM_ABOVE boundary) and its definition dominates the use.

use super::Verifier;
use crate::context::ValueDef;
use crate::diagnostics::Diagnostic;
use crate::dominance::region_is_proper_ancestor;
use crate::entity::{OpId, RegionId, Value};
use crate::registry::OpTraits;

impl Verifier<'_> {
    pub(super) fn check_operands(&mut self, op: OpId, order: u32) {
        let ctx = self.ctx;
        if ctx.num_operands(op) == 0 {
            return;
        }
        // As MLIR, dominance is only checked for ops in reachable blocks; scope always is.
        let mut reachable = None;
        for i in 0..ctx.num_operands(op) {
            let v = ctx.operand(op, i);
            let (anc, barrier) = self.find_use_ancestor(op, v);
            if let Some(iso) = barrier {
                let msg = format!(
                    "'{}' op using value defined outside the region",
                    ctx.name(op)
                );
                let d = Diagnostic::error(ctx.loc(op), msg)
                    .with_note(ctx.loc(iso), "required by region isolation constraints");
                self.error(order, d);
                continue;
            }
            let ok = match anc {
                None => false,
                Some(anc) => {
                    let reach = *reachable.get_or_insert_with(|| match ctx.parent_block(op) {
                        Some(b) => self.dom.is_reachable(ctx, b),
                        None => true,
                    });
                    !reach || self.dom.dominates_ancestor(ctx, v, anc, op)
                }
            };
            if !ok {
                let d = self.dominance_error(op, i, v);
                self.error(order, d);
            }
        }
    }

    /// The ancestor of `user` in the block or region that defines `v` (None when `v` is out of
    /// scope), and the innermost ISOLATED_FROM_ABOVE op whose boundary the use crosses, if any.
    fn find_use_ancestor(&self, user: OpId, v: Value) -> (Option<OpId>, Option<OpId>) {
        let ctx = self.ctx;
        let Some(def_block) = ctx.value_block(v) else {
            return (None, None);
        };
        let def_region = ctx.block_parent_region(def_block);
        let mut cur = user;
        let mut barrier = None;
        while let Some(b) = ctx.parent_block(cur) {
            let r = ctx.block_parent_region(b);
            let here = match def_region {
                Some(dr) => r == Some(dr),
                None => b == def_block,
            };
            if here {
                return (Some(cur), barrier);
            }
            let Some(p) = r.and_then(|r| ctx.region_parent_op(r)) else {
                break;
            };
            if barrier.is_none() && ctx.has_trait(p, OpTraits::ISOLATED_FROM_ABOVE) {
                barrier = Some(p);
            }
            cur = p;
        }
        // Out of scope: an isolation violation only if the value lives outside the barrier.
        let inside = barrier.is_some_and(|iso| {
            ctx.block_parent_op(def_block)
                .is_some_and(|d| ctx.is_ancestor(iso, d))
        });
        (None, if inside { None } else { barrier })
    }

    /// MLIR's "operand #i does not dominate this use" with a note on where the value comes from.
    fn dominance_error(&self, op: OpId, i: usize, v: Value) -> Diagnostic {
        let ctx = self.ctx;
        let d = Diagnostic::error(
            ctx.loc(op),
            format!("operand #{i} does not dominate this use"),
        );
        let user_block = ctx.parent_block(op);
        let r1 = user_block.and_then(|b| ctx.block_parent_region(b));
        match ctx.value_def(v) {
            ValueDef::OpResult { op: def, .. } => {
                let b2 = ctx.parent_block(def);
                let r2 = b2.and_then(|b| ctx.block_parent_region(b));
                let where_ = if user_block.is_some() && user_block == b2 {
                    "(op in the same block)"
                } else if r1.is_some() && r1 == r2 {
                    "(op in the same region)"
                } else if proper_ancestor(ctx, r2, r1) {
                    "(op in a parent region)"
                } else if proper_ancestor(ctx, r1, r2) {
                    "(op in a child region)"
                } else {
                    "(op is neither in a parent nor in a child region)"
                };
                d.with_note(ctx.loc(def), format!("operand defined here {where_}"))
            }
            ValueDef::BlockArg { block, .. } => {
                let note_loc = ctx
                    .block_parent_op(block)
                    .map_or_else(|| ctx.value_loc(v), |p| ctx.loc(p));
                let Some(r2) = ctx.block_parent_region(block) else {
                    return d.with_note(note_loc, " (block without parent)");
                };
                let index = ctx
                    .region_blocks(r2)
                    .iter()
                    .position(|&b| b == block)
                    .unwrap_or(0);
                let where_ = if r1 == Some(r2) {
                    "in the same region"
                } else if proper_ancestor(ctx, Some(r2), r1) {
                    "in a parent region"
                } else if proper_ancestor(ctx, r1, Some(r2)) {
                    "in a child region"
                } else {
                    "neither in a parent nor in a child region"
                };
                d.with_note(
                    note_loc,
                    format!("operand defined as a block argument (block #{index} {where_})"),
                )
            }
        }
    }
}

fn proper_ancestor(ctx: &crate::Context, a: Option<RegionId>, b: Option<RegionId>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => region_is_proper_ancestor(ctx, a, b),
        _ => false,
    }
}
