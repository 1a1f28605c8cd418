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
        let live = Liveness::compute(ctx, op);
        let erased = erase_dead_symbols(ctx, op, &live);
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
    /// The live symbols under `root`.
    fn compute(ctx: &Context, root: OpId) -> HashSet<OpId> {
        let mut l = Liveness {
            live: HashSet::new(),
            tables: HashMap::new(),
        };
        // Ops to scan: live ops whose references and nested ops have not been looked at yet.
        let mut work = vec![root];
        // Reused for every op: most ops hold no reference and none allocates.
        let mut refs = Vec::new();
        while let Some(op) = work.pop() {
            refs.clear();
            visit_op_symbol_refs(ctx, op, &mut |a| refs.push(a));
            for &r in &refs {
                for s in l.resolve(ctx, op, r) {
                    if l.live.insert(s) {
                        work.push(s);
                    }
                }
            }
            if ctx.regions(op).is_empty() {
                continue;
            }
            let table = is_symbol_table(ctx, op);
            for child in direct_children(ctx, op) {
                if table && is_symbol(ctx, child) {
                    if symbol_visibility(ctx, child) != Visibility::Private && l.live.insert(child)
                    {
                        work.push(child);
                    }
                } else {
                    work.push(child);
                }
            }
        }
        l.live
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
