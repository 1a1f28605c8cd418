//! `symbol-dce`: erases private symbols that nothing live references, as MLIR's SymbolDCE.
//!
//! Runs on a symbol table (usually the module). Live roots are the ops directly in a live symbol
//! table that are not symbols, and its symbols that are not private; every op nested in a live op
//! is live (except symbols directly in a nested symbol table, which are judged the same way), and
//! every symbol a live op references (through any `SymbolRef` in its properties or attributes,
//! resolved outward from the op's symbol table; each level of `@a::@b`) is live. Symbols
//! (ops with the SYMBOL trait) directly in a symbol table that are not live are erased.
//! References that resolve to nothing are ignored.

use qd_ir::fast_hash::{FastMap, FastSet};
use qd_ir::symbol_table::{
    is_symbol_table, symbol_visibility, visit_op_symbol_refs, SymbolTable, Visibility,
};
use qd_ir::{AttrData, Attribute, Context, OpId, OpTraits};
use qd_pass::{Pass, PassFailure, PassInfo, PassOutcome, PassResult, Statistic};

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
        let erased = if private.iter().all(|&s| live.contains(s)) {
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
fn erase_dead_symbols(ctx: &mut Context, op: OpId, live: &OpSet) -> u64 {
    if ctx.regions(op).is_empty() {
        return 0;
    }
    let mut erased = 0;
    if is_symbol_table(ctx, op) {
        for child in children(ctx, op).collect::<Vec<_>>() {
            if is_symbol(ctx, child) && !live.contains(child) && !results_used(ctx, child) {
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

/// The ops directly in `op`'s regions, in order.
fn children(ctx: &Context, op: OpId) -> impl Iterator<Item = OpId> + '_ {
    ctx.regions(op)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r).iter())
        .flat_map(|&b| ctx.block_ops(b))
}

/// A set of ops as a bit per op index: the live set holds every public symbol of a module,
/// and a bit vector stays in cache where a hash set of a quarter of a million ops does not.
#[derive(Default)]
struct OpSet(Vec<u64>);

impl OpSet {
    /// Adds `op`; whether it was new.
    fn insert(&mut self, op: OpId) -> bool {
        let (w, bit) = (op.index() / 64, 1u64 << (op.index() % 64));
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        let new = self.0[w] & bit == 0;
        self.0[w] |= bit;
        new
    }
    fn contains(&self, op: OpId) -> bool {
        self.0
            .get(op.index() / 64)
            .is_some_and(|w| w & (1u64 << (op.index() % 64)) != 0)
    }
}

struct Liveness {
    live: OpSet,
    tables: FastMap<OpId, SymbolTable>,
    /// The symbol tables reached whose symbols are all public (or nested): a reference that
    /// resolves in such tables only can only name a symbol already live.
    all_public: FastSet<OpId>,
    /// The last answer of [`Self::only_public_around`], by the scope it was asked for: the ops
    /// of one block ask for one scope.
    last_scope: Option<(Option<OpId>, bool)>,
}

impl Liveness {
    /// The live symbols under `root`, and the private symbols directly in the symbol tables it
    /// reached (the only ones that may be dead).
    fn compute(ctx: &Context, root: OpId) -> (OpSet, Vec<OpId>) {
        let mut l = Liveness {
            live: OpSet::default(),
            tables: FastMap::default(),
            all_public: FastSet::default(),
            last_scope: None,
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
            // A table's symbols first: whether it has private ones decides how the references
            // of its other ops are resolved (see `only_public_around`).
            if table {
                let before = private.len();
                for child in children(ctx, op) {
                    if !is_symbol(ctx, child) {
                        continue;
                    }
                    if symbol_visibility(ctx, child) == Visibility::Private {
                        private.push(child);
                    } else if l.live.insert(child) {
                        work.push((child, false));
                    }
                }
                if private.len() == before {
                    l.all_public.insert(op);
                }
            }
            for child in children(ctx, op) {
                if table && is_symbol(ctx, child) {
                    continue;
                }
                l.mark_referenced(ctx, child, &mut refs, &mut work);
                if !ctx.regions(child).is_empty() {
                    work.push((child, true));
                }
            }
        }
        (l.live, private)
    }

    /// Whether every symbol table around `user` was reached and has no private symbol: then a
    /// flat reference of `user` names a public symbol, live already, or nothing.
    fn only_public_around(&mut self, ctx: &Context, user: OpId) -> bool {
        let scope = ctx.parent_op(user);
        if let Some((s, answer)) = self.last_scope {
            if s == scope {
                return answer;
            }
        }
        let answer = std::iter::successors(scope, |&o| ctx.parent_op(o))
            .all(|t| !is_symbol_table(ctx, t) || self.all_public.contains(&t));
        self.last_scope = Some((scope, answer));
        answer
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
            self.resolve(ctx, op, r, work);
        }
    }

    fn mark(&mut self, s: OpId, work: &mut Vec<(OpId, bool)>) {
        if self.live.insert(s) {
            work.push((s, false));
        }
    }

    fn table(&mut self, ctx: &Context, op: OpId) -> &SymbolTable {
        self.tables
            .entry(op)
            .or_insert_with(|| SymbolTable::new(ctx, op))
    }

    /// Marks live the symbols `sym_ref`, held by `user`, refers to: the root, resolved in the
    /// symbol tables around `user` (innermost first), then each nested name. Names are resolved
    /// by their identifiers, as the reference holds them.
    fn resolve(
        &mut self,
        ctx: &Context,
        user: OpId,
        sym_ref: Attribute,
        work: &mut Vec<(OpId, bool)>,
    ) {
        let AttrData::SymbolRef { root, nested } = ctx.attr_data(sym_ref) else {
            return;
        };
        if nested.is_empty() && self.only_public_around(ctx, user) {
            return;
        }
        let mut scope = ctx.parent_op(user);
        let mut cur = loop {
            let Some(s) = scope else { return };
            if is_symbol_table(ctx, s) {
                if let Some(found) = self.table(ctx, s).get(ctx, *root) {
                    break found;
                }
            }
            scope = ctx.parent_op(s);
        };
        self.mark(cur, work);
        for &n in nested {
            if !is_symbol_table(ctx, cur) {
                break;
            }
            match self.table(ctx, cur).get(ctx, n) {
                Some(found) => {
                    self.mark(found, work);
                    cur = found;
                }
                None => break,
            }
        }
    }
}

#[cfg(test)]
#[path = "symbol_dce_tests.rs"]
mod tests;
