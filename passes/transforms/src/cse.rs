//! `cse`: common subexpression elimination, as MLIR's. Two ops are equivalent when they have the
//! same name, operands (commutative ops: in any order), result types, properties and discardable
//! attributes, no regions and no successors, and no memory effects. The later one is replaced by
//! the earlier one when the earlier one dominates it.
//!
//! Scopes follow dominance: a block sees the ops of the blocks that dominate it (walking the
//! region's dominator tree) and, for a nested region, the ops before its parent op; regions of
//! ops that are isolated from above (or unregistered, which might be) start empty. Unreachable
//! blocks are left alone. As MLIR's CSE, ops found trivially dead on the way are erased too.

use qd_ir::dominance::{is_graph_region, DominanceInfo};
use qd_ir::greedy::{is_memory_effect_free, is_trivially_dead};
use qd_ir::{
    Attribute, BlockId, Context, Ident, LocData, OpId, OpName, OpTraits, RegionId, Type, Value,
};
use qd_pass::{Pass, PassInfo, PassOutcome, PassResult, Statistic};
use std::collections::HashMap;

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

struct Driver {
    /// Known ops, innermost scope last.
    scopes: Vec<HashMap<OpKey, OpId>>,
    num_cse: u64,
    num_dce: u64,
}

enum Step {
    Enter(BlockId),
    Exit,
}

impl Driver {
    fn lookup(&self, key: &OpKey) -> Option<OpId> {
        self.scopes.iter().rev().find_map(|s| s.get(key).copied())
    }

    fn simplify_region(&mut self, ctx: &mut Context, region: RegionId) {
        let blocks = ctx.region_blocks(region).to_vec();
        let graph = is_graph_region(ctx, region);
        if blocks.len() <= 1 {
            for b in blocks {
                self.scopes.push(HashMap::new());
                self.simplify_block(ctx, b, graph);
                self.scopes.pop();
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
                    self.scopes.push(HashMap::new());
                    self.simplify_block(ctx, b, graph);
                    stack.push(Step::Exit);
                    stack.extend(dom.children(b).iter().rev().map(|&c| Step::Enter(c)));
                }
                Step::Exit => {
                    self.scopes.pop();
                }
            }
        }
    }

    fn simplify_block(&mut self, ctx: &mut Context, block: BlockId, graph: bool) {
        for op in ctx.block_op_vec(block) {
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
        let key = OpKey::of(ctx, op);
        match self.lookup(&key) {
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
            None => {
                if let Some(scope) = self.scopes.last_mut() {
                    scope.insert(key, op);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "cse_tests.rs"]
mod tests;
