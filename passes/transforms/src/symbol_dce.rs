//! `symbol-dce`: erases private symbols that nothing live references, as MLIR's SymbolDCE.
//!
//! Runs on a symbol table (usually the module). Live roots are the ops directly in a live symbol
//! table that are not symbols, and its symbols that are not private; every op nested in a live op
//! is live (except symbols directly in a nested symbol table, which are judged the same way), and
//! every symbol a live op references (through any `SymbolRef` in its properties or attributes,
//! resolved outward from the op's symbol table; each level of `@a::@b`) is live. Symbols
//! (ops with the SYMBOL trait) directly in a symbol table that are not live are erased.
//! References that resolve to nothing are ignored.

use qd_ir::fast_hash::FastMap;
use qd_ir::symbol_table::{is_symbol_table, visit_op_symbol_refs, SymbolTable};
use qd_ir::{AttrData, Attribute, BlockId, Context, EntitySet, Ident, OpId, OpTraits};
use qd_pass::{Pass, PassFailure, PassInfo, PassOutcome, PassResult, Statistic};

pub fn symbol_dce_pass_info() -> PassInfo {
    PassInfo::new("symbol-dce", "Eliminate dead symbols", |_| {
        Ok(Box::new(SymbolDcePass::default()))
    })
}

#[derive(Default)]
pub struct SymbolDcePass {
    num_dce: u64,
    /// Always compute liveness by the walk down the nest (tests compare both ways).
    walk_only: bool,
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
        // Only private symbols can be dead, and a symbol is private by its `sym_visibility`:
        // when no op of the context has one (the key was never interned), nothing can go and
        // the IR is not walked (qd's modules of kernels and fields have none).
        if ctx.lookup_ident("sym_visibility").is_none() {
            return Ok(PassOutcome::changed(false));
        }
        let linear = !self.walk_only && ctx.parent_block(op).is_none();
        let computed = if linear {
            linear::compute_in_root(ctx, op)
        } else {
            None
        };
        let (live, private) = computed.unwrap_or_else(|| Liveness::compute(ctx, op));
        // When every private symbol of the tables reached is live, the sweep would erase nothing
        // (it only enters ops the liveness walk reached): skip that second walk of the IR.
        let erased = erase_dead_private(ctx, &private, &live);
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

/// Whether symbol `op` is private (as `qd_ir::symbol_table::symbol_visibility`), with `key` the identifier of
/// `sym_visibility` (None when the context has none: then no op has the attribute).
fn is_private(ctx: &Context, op: OpId, key: Option<Ident>) -> bool {
    let Some(key) = key else {
        return false;
    };
    let find = |list: &[(Ident, Attribute)]| list.iter().find(|e| e.0 == key).map(|e| e.1);
    let vis = find(ctx.properties(op)).or_else(|| find(ctx.attrs(op)));
    matches!(vis.map(|a| ctx.attr_data(a)), Some(AttrData::String(s)) if s == "private")
}

/// A symbol op whose results are used elsewhere cannot go without breaking SSA.
fn results_used(ctx: &Context, op: OpId) -> bool {
    ctx.results(op).iter().any(|&r| ctx.has_uses(r))
}

/// Erases the dead symbols of every symbol table in `op` (itself included), in pre-order: a
/// table's dead symbols go before the ops left in it are entered. Recursing instead of collecting
/// every op first (`walk_pre_order`) keeps a million-op block from costing two million-entry
/// vectors; only ops with regions are entered.
fn erase_dead_symbols(ctx: &mut Context, op: OpId, live: &EntitySet<OpId>) -> u64 {
    if !ctx.has_regions(op) {
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

/// Erases the dead symbols: those of `private` (every private symbol directly in a symbol table
/// the liveness walk reached, outer tables first, each table's in order) that are not live and
/// whose results are unused. The other symbols of reached tables are live (public ones are
/// roots), and the symbols nested in a dead one go with it. A dead symbol kept for its used
/// results was not walked: every symbol table in it loses every symbol that is not held by
/// used results ([`erase_dead_symbols`] with none live), after the erasures in reached tables,
/// as a pre-order sweep of the whole IR would do.
fn erase_dead_private(ctx: &mut Context, private: &[OpId], live: &EntitySet<OpId>) -> u64 {
    let mut erased = 0;
    let mut kept = Vec::new();
    for &s in private {
        if live.contains(s) {
            continue;
        }
        if results_used(ctx, s) {
            kept.push(s);
        } else {
            ctx.erase_op(s);
            erased += 1;
        }
    }
    for s in kept {
        erased += erase_dead_symbols(ctx, s, live);
    }
    erased
}

/// Appends the ops of `block` to `out`, in order, following the links from both ends at once:
/// two chains of loads that overlap, where one chain waits on memory at each op once a long
/// block outgrows the cache (a module of many kernels: its ops lie far apart).
fn block_ops_from_both_ends(ctx: &Context, block: BlockId, out: &mut Vec<OpId>) {
    let mut back = Vec::new();
    let (mut front_op, mut back_op) = (ctx.first_op(block), ctx.last_op(block));
    while let (Some(f), Some(b)) = (front_op, back_op) {
        out.push(f);
        if f == b {
            break;
        }
        back.push(b);
        let next = ctx.next_op(f);
        if next == Some(b) {
            break;
        }
        front_op = next;
        back_op = ctx.prev_op(b);
    }
    out.extend(back.into_iter().rev());
}

/// The ops directly in `op`'s regions, in order.
fn children(ctx: &Context, op: OpId) -> impl Iterator<Item = OpId> + '_ {
    ctx.regions(op)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r).iter())
        .flat_map(|&b| ctx.block_ops(b))
}

/// How many ops holding references [`Liveness::compute`] fetches at once.
const USERS_AT_ONCE: usize = 16;

struct Liveness {
    live: EntitySet<OpId>,
    tables: FastMap<OpId, SymbolTable>,
    /// The symbol tables reached whose symbols are all public (or nested): a reference that
    /// resolves in such tables only can only name a symbol already live.
    all_public: EntitySet<OpId>,
    /// The last answer of [`Self::only_public_around`], by the scope it was asked for: the ops
    /// of one block ask for one scope.
    last_scope: Option<(Option<OpId>, bool)>,
}

impl Liveness {
    /// The live symbols under `root`, and the private symbols directly in the symbol tables it
    /// reached (the only ones that may be dead).
    ///
    /// Live ops are looked at a level of nesting at a time, each step for every op of the level
    /// before the next step: an op's regions, their blocks and their first ops are a chain of
    /// loads, and once the IR outgrows the cache each one waits on memory; the loads of different
    /// ops do not depend on each other, so taken a step at a time they overlap.
    fn compute(ctx: &Context, root: OpId) -> (EntitySet<OpId>, Vec<OpId>) {
        let mut l = Liveness {
            live: EntitySet::new(),
            tables: FastMap::default(),
            all_public: EntitySet::new(),
            last_scope: None,
        };
        // Live ops whose nested ops have not been looked at yet, and whether their own
        // references have been (those of plain children are read as the block is walked, so
        // that only ops with regions and newly live symbols wait here, not every op).
        let mut level = vec![(root, false)];
        let mut next = Vec::new();
        // The blocks of the level's ops that are not symbol tables, with the op holding each.
        let mut blocks = Vec::new();
        // The ops of those blocks that hold references, with the op holding each.
        let mut users = Vec::new();
        // Reused for every op: most ops hold no reference and none allocates.
        let mut refs = Vec::new();
        let mut private = Vec::new();
        // Looked up once: hashing the key's text per symbol costs a miss each in a large
        // identifier table.
        let vis_key = ctx.lookup_ident("sym_visibility");
        while !level.is_empty() {
            for &(op, refs_done) in &level {
                if !refs_done && ctx.holds_symbol_ref(op) {
                    l.mark_referenced(ctx, op, ctx.parent_op(op), &mut refs, &mut next);
                }
            }
            blocks.clear();
            for &(op, _) in &level {
                if is_symbol_table(ctx, op) {
                    l.visit_table(ctx, op, vis_key, &mut private, &mut next);
                    continue;
                }
                for &r in ctx.regions(op) {
                    blocks.extend(ctx.region_blocks(r).iter().map(|&b| (op, b)));
                }
            }
            for &(op, b) in &blocks {
                // Ops are walked by their links and flags only: most have no region and hold
                // no reference, and their records are not read here.
                let mut cur = ctx.first_op(b);
                while let Some(child) = cur {
                    if ctx.holds_symbol_ref(child) {
                        users.push((child, op));
                        if users.len() == USERS_AT_ONCE {
                            l.mark_users(ctx, &mut users, &mut refs, &mut next);
                        }
                    }
                    if ctx.has_regions(child) {
                        next.push((child, true));
                    }
                    cur = ctx.next_op(child);
                }
            }
            l.mark_users(ctx, &mut users, &mut refs, &mut next);
            std::mem::swap(&mut level, &mut next);
            next.clear();
        }
        (l.live, private)
    }

    /// Looks at the ops directly in symbol table `table`: its symbols first (whether it has
    /// private ones decides how the references of its other ops are resolved, see
    /// [`Self::only_public_around`]), public ones live, private ones listed in `private`; then
    /// its other ops.
    fn visit_table(
        &mut self,
        ctx: &Context,
        table: OpId,
        vis_key: Option<Ident>,
        private: &mut Vec<OpId>,
        work: &mut Vec<(OpId, bool)>,
    ) {
        let before = private.len();
        let mut ops = Vec::new();
        for &r in ctx.regions(table) {
            for &b in ctx.region_blocks(r) {
                block_ops_from_both_ends(ctx, b, &mut ops);
            }
        }
        // The references of the other ops, resolved once every symbol is classified; read now,
        // while each op's record is in cache.
        let mut deferred = Vec::new();
        for &child in &ops {
            if is_symbol(ctx, child) {
                if is_private(ctx, child, vis_key) {
                    private.push(child);
                } else if self.live.insert(child) {
                    work.push((child, false));
                }
                continue;
            }
            if ctx.holds_symbol_ref(child) {
                visit_op_symbol_refs(ctx, child, &mut |a| deferred.push(a));
            }
            if ctx.has_regions(child) {
                work.push((child, true));
            }
        }
        if private.len() == before {
            self.all_public.insert(table);
        }
        for a in deferred {
            self.resolve(ctx, Some(table), a, work);
        }
    }

    /// Marks live what `users` (ops, each with the op holding it) reference, and empties it.
    /// Their records and attribute lists are fetched first, all at once (the loads do not
    /// depend on each other), then read.
    fn mark_users(
        &mut self,
        ctx: &Context,
        users: &mut Vec<(OpId, OpId)>,
        refs: &mut Vec<Attribute>,
        work: &mut Vec<(OpId, bool)>,
    ) {
        for &(user, _) in users.iter() {
            std::hint::black_box(ctx.properties(user).first());
        }
        for &(user, scope) in users.iter() {
            self.mark_referenced(ctx, user, Some(scope), refs, work);
        }
        users.clear();
    }

    /// Whether every symbol table around `user` was reached and has no private symbol: then a
    /// flat reference of `user` names a public symbol, live already, or nothing.
    fn only_public_around(&mut self, ctx: &Context, scope: Option<OpId>) -> bool {
        if let Some((s, answer)) = self.last_scope {
            if s == scope {
                return answer;
            }
        }
        let answer = std::iter::successors(scope, |&o| ctx.parent_op(o))
            .all(|t| !is_symbol_table(ctx, t) || self.all_public.contains(t));
        self.last_scope = Some((scope, answer));
        answer
    }

    /// Marks live the symbols `op` references, queueing the newly live ones.
    fn mark_referenced(
        &mut self,
        ctx: &Context,
        op: OpId,
        scope: Option<OpId>,
        refs: &mut Vec<Attribute>,
        work: &mut Vec<(OpId, bool)>,
    ) {
        refs.clear();
        visit_op_symbol_refs(ctx, op, &mut |a| refs.push(a));
        for &r in refs.iter() {
            self.resolve(ctx, scope, r, work);
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
        user_scope: Option<OpId>,
        sym_ref: Attribute,
        work: &mut Vec<(OpId, bool)>,
    ) {
        let AttrData::SymbolRef { root, nested } = ctx.attr_data(sym_ref) else {
            return;
        };
        if nested.is_empty() && self.only_public_around(ctx, user_scope) {
            return;
        }
        let mut scope = user_scope;
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

#[path = "symbol_dce_linear.rs"]
mod linear;

#[cfg(test)]
#[path = "symbol_dce_tests.rs"]
mod tests;
