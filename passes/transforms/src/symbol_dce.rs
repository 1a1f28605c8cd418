//! `symbol-dce`: erases private symbols that nothing live references, as MLIR's SymbolDCE.
//!
//! Runs on a symbol table (usually the module). Live roots are the ops directly in a live symbol
//! table that are not symbols, and its symbols that are not private; every op nested in a live op
//! is live (except symbols directly in a nested symbol table, which are judged the same way), and
//! every symbol a live op references (through any `SymbolRef` in its properties or attributes,
//! resolved outward from the op's symbol table; each level of `@a::@b`) is live. Symbols
//! (ops with the SYMBOL trait) directly in a symbol table that are not live are erased.
//! References that resolve to nothing are ignored.

use qd_ir::symbol_table::{
    is_symbol_table, symbol_visibility, visit_op_symbol_refs, SymbolTable, Visibility,
};
use qd_ir::{AttrData, Attribute, Context, OpId, OpTraits};
use qd_pass::{Pass, PassFailure, PassInfo, PassOutcome, PassResult, Statistic};
use std::collections::{HashMap, HashSet};

pub fn symbol_dce_pass_info() -> PassInfo {
    PassInfo::new("symbol-dce", "Eliminate dead symbols", |_| {
        Ok(Box::new(SymbolDcePass::default()))
    })
}

#[derive(Default)]
pub struct SymbolDcePass {
    num_dce: u64,
}

impl Pass for SymbolDcePass {
    fn name(&self) -> &'static str {
        "symbol-dce"
    }
    fn description(&self) -> &'static str {
        "Eliminate dead symbols"
    }
    fn display_name(&self) -> String {
        "SymbolDCE".into()
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        if !is_symbol_table(ctx, op) {
            let msg = format!(
                "'{}' op was scheduled to run under symbol-dce, but does not define a symbol table",
                ctx.name(op)
            );
            ctx.emit_error(ctx.loc(op), msg);
            return Err(PassFailure);
        }
        let (live, private) = Liveness::compute(ctx, op);
        // When every private symbol of the tables reached is live, the sweep would erase nothing
        // (it only enters ops the liveness walk reached): skip that second walk of the IR.
        let erased = if private.iter().all(|s| live.contains(s)) {
            0
        } else {
            erase_dead_symbols(ctx, op, &live)
        };
        self.num_dce += erased;
        Ok(PassOutcome::changed(erased > 0))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![Statistic {
            name: "num-dce'd",
            description: "Number of symbols DCE'd",
            value: self.num_dce,
        }]
    }
}

fn is_symbol(ctx: &Context, op: OpId) -> bool {
    ctx.has_trait(op, OpTraits::SYMBOL)
}

/// A symbol op whose results are used elsewhere cannot go without breaking SSA.
fn results_used(ctx: &Context, op: OpId) -> bool {
    ctx.results(op).iter().any(|&r| ctx.has_uses(r))
}

/// Erases the dead symbols of every symbol table in `op` (itself included), in pre-order: a
/// table's dead symbols go before the ops left in it are entered. Recursing instead of collecting
/// every op first (`walk_pre_order`) keeps a million-op block from costing two million-entry
/// vectors; only ops with regions are entered.
fn erase_dead_symbols(ctx: &mut Context, op: OpId, live: &HashSet<OpId>) -> u64 {
    if ctx.regions(op).is_empty() {
        return 0;
    }
    let mut erased = 0;
    if is_symbol_table(ctx, op) {
        for child in direct_children(ctx, op) {
            if is_symbol(ctx, child) && !live.contains(&child) && !results_used(ctx, child) {
                ctx.erase_op(child);
                erased += 1;
            }
        }
    }
    for ri in 0..ctx.regions(op).len() {
        let r = ctx.region(op, ri);
        for bi in 0..ctx.region_blocks(r).len() {
            let mut cur = ctx.first_op(ctx.region_blocks(r)[bi]);
            while let Some(o) = cur {
                // Erasure stays inside `o`, so its successor link is still valid.
                erased += erase_dead_symbols(ctx, o, live);
                cur = ctx.next_op(o);
            }
        }
    }
    erased
}

fn direct_children(ctx: &Context, op: OpId) -> Vec<OpId> {
    ctx.regions(op)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r).iter())
        .flat_map(|&b| ctx.block_ops(b))
        .collect()
}

struct Liveness {
    live: HashSet<OpId>,
    tables: HashMap<OpId, SymbolTable>,
}

impl Liveness {
    /// The live symbols under `root`, and the private symbols directly in the symbol tables it
    /// reached (the only ones that may be dead).
    fn compute(ctx: &Context, root: OpId) -> (HashSet<OpId>, Vec<OpId>) {
        let mut l = Liveness {
            live: HashSet::new(),
            tables: HashMap::new(),
        };
        // Live ops whose nested ops have not been looked at yet, and whether their own
        // references have been (those of plain children are read as the block is walked, so
        // that only ops with regions and newly live symbols wait here, not every op).
        let mut work = vec![(root, false)];
        // Reused for every op: most ops hold no reference and none allocates.
        let mut refs = Vec::new();
        let mut private = Vec::new();
        while let Some((op, refs_done)) = work.pop() {
            if !refs_done {
                l.mark_referenced(ctx, op, &mut refs, &mut work);
            }
            let table = is_symbol_table(ctx, op);
            for ri in 0..ctx.regions(op).len() {
                let r = ctx.region(op, ri);
                for &b in ctx.region_blocks(r) {
                    for child in ctx.block_ops(b) {
                        if table && is_symbol(ctx, child) {
                            if symbol_visibility(ctx, child) == Visibility::Private {
                                private.push(child);
                            } else if l.live.insert(child) {
                                work.push((child, false));
                            }
                        } else {
                            l.mark_referenced(ctx, child, &mut refs, &mut work);
                            if !ctx.regions(child).is_empty() {
                                work.push((child, true));
                            }
                        }
                    }
                }
            }
        }
        (l.live, private)
    }

    /// Marks live the symbols `op` references, queueing the newly live ones.
    fn mark_referenced(
        &mut self,
        ctx: &Context,
        op: OpId,
        refs: &mut Vec<Attribute>,
        work: &mut Vec<(OpId, bool)>,
    ) {
        refs.clear();
        visit_op_symbol_refs(ctx, op, &mut |a| refs.push(a));
        for &r in refs.iter() {
            for s in self.resolve(ctx, op, r) {
                if self.live.insert(s) {
                    work.push((s, false));
                }
            }
        }
    }

    fn table(&mut self, ctx: &Context, op: OpId) -> &SymbolTable {
        self.tables
            .entry(op)
            .or_insert_with(|| SymbolTable::new(ctx, op))
    }

    /// The symbols `sym_ref`, held by `user`, refers to: the root, resolved in the symbol tables
    /// around `user` (innermost first), then each nested name.
    fn resolve(&mut self, ctx: &Context, user: OpId, sym_ref: Attribute) -> Vec<OpId> {
        let AttrData::SymbolRef { root, nested } = ctx.attr_data(sym_ref) else {
            return Vec::new();
        };
        let root = ctx.ident_str(*root);
        let mut path = Vec::new();
        let mut scope = ctx.parent_op(user);
        while let Some(s) = scope {
            if is_symbol_table(ctx, s) {
                if let Some(found) = self.table(ctx, s).lookup(root) {
                    path.push(found);
                    break;
                }
            }
            scope = ctx.parent_op(s);
        }
        for n in nested {
            let Some(&cur) = path.last() else { break };
            if !is_symbol_table(ctx, cur) {
                break;
            }
            match self.table(ctx, cur).lookup(ctx.ident_str(*n)) {
                Some(found) => path.push(found),
                None => break,
            }
        }
        path
    }
}

#[cfg(test)]
#[path = "symbol_dce_tests.rs"]
mod tests;
