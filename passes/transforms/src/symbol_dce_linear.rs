//! Liveness for symbol-dce on an anchor without a parent (a module), without walking the nest
//! and without a symbol table of every name.
//!
//! Only private symbols can be dead, and a reference can only make one live if some private
//! symbol has the name it starts with (or it has nested names). So:
//! 1. The private symbols directly in the anchor's symbol tables are found among the ops with
//!    a `sym_visibility` entry, and each name one of them has gets the list of tables that
//!    define it, with each table's first definition, found among the ops with a `sym_name`
//!    entry (names compared by their interned `sym_name` string, turned into identifiers for
//!    the few private names only). Both kinds of op are found by their flag bytes: a module's
//!    ops are not followed link after link, each waiting on memory for the one before.
//! 2. The ops holding references are found by their flag bytes. A flat reference whose name is
//!    no private symbol's is dropped after one read of a dense map by identifier; the others are
//!    resolved in the innermost table around the op that defines the name (the anchor's, or
//!    its owner's once that private symbol is live). Nested references (`@a::@b`) are resolved
//!    through [`SymbolTable`]s, as the walk does.
//!
//! A million-op kernel is thus read as a byte an op, plus the records of the ops with those
//! flags, in index order; no hash of every name is built and no map the size of the kernel is
//! probed at random.

use super::{is_private, is_symbol, USERS_AT_ONCE};
use qd_ir::fast_hash::FastMap;
use qd_ir::symbol_table::{is_symbol_table, visit_op_symbol_refs, SymbolTable};
use qd_ir::{AttrData, Attribute, BlockId, Context, EntityMap, EntitySet, Ident, OpId, OpTraits};

/// Where an op's liveness comes from: nothing (it is not in the anchor: detached, or under
/// another top-level op), the anchor (live), or the innermost private symbol directly in a symbol
/// table around it (or itself): live when that symbol is. Symbols that are not private are live
/// when their table is, so they pass their table's answer on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Owner {
    Outside,
    Anchor,
    Private(OpId),
}

/// Per block, the owner of the ops in it, whether its parent op is a symbol table, and the
/// innermost symbol table around it: each parent chain is climbed once.
struct Owners {
    root: OpId,
    vis_key: Option<Ident>,
    block_owner: EntityMap<BlockId, Option<Owner>>,
    table_block: EntityMap<BlockId, Option<bool>>,
    /// None: not found yet; Some(None): no table around.
    block_table: EntityMap<BlockId, Option<Option<OpId>>>,
    path: Vec<BlockId>,
}

impl Owners {
    fn is_table_block(&mut self, ctx: &Context, b: BlockId) -> bool {
        if let Some(t) = self.table_block[b] {
            return t;
        }
        let t = ctx
            .block_parent_op(b)
            .is_some_and(|o| is_symbol_table(ctx, o));
        self.table_block[b] = Some(t);
        t
    }

    /// Whether `op`, in block `b`, is a private symbol directly in a symbol table.
    fn is_private_in_table(&mut self, ctx: &Context, op: OpId, b: BlockId) -> bool {
        self.is_table_block(ctx, b) && is_symbol(ctx, op) && is_private(ctx, op, self.vis_key)
    }

    fn of_block(&mut self, ctx: &Context, b: BlockId) -> Owner {
        let mut cur = b;
        let owner = loop {
            if let Some(o) = self.block_owner[cur] {
                break o;
            }
            self.path.push(cur);
            let Some(p) = ctx.block_parent_op(cur) else {
                break Owner::Outside;
            };
            if p == self.root {
                break Owner::Anchor;
            }
            let Some(pb) = ctx.parent_block(p) else {
                break Owner::Outside;
            };
            if self.is_private_in_table(ctx, p, pb) {
                break Owner::Private(p);
            }
            cur = pb;
        };
        for i in 0..self.path.len() {
            self.block_owner[self.path[i]] = Some(owner);
        }
        self.path.clear();
        owner
    }

    /// The innermost symbol table around the ops of block `b`: where their references start
    /// to resolve.
    fn table_around(&mut self, ctx: &Context, b: BlockId) -> Option<OpId> {
        let mut cur = b;
        let table = loop {
            if let Some(t) = self.block_table[cur] {
                break t;
            }
            self.path.push(cur);
            if self.is_table_block(ctx, cur) {
                break ctx.block_parent_op(cur);
            }
            match ctx.block_parent_op(cur).and_then(|p| ctx.parent_block(p)) {
                Some(pb) => cur = pb,
                None => break None,
            }
        };
        for i in 0..self.path.len() {
            self.block_table[self.path[i]] = Some(table);
        }
        self.path.clear();
        table
    }

    /// The table around symbol table `t` (None for the anchor: nothing is searched past it).
    fn table_outside(&mut self, ctx: &Context, t: OpId) -> Option<OpId> {
        if t == self.root {
            return None;
        }
        let b = ctx.parent_block(t)?;
        self.table_around(ctx, b)
    }

    fn of_op(&mut self, ctx: &Context, op: OpId) -> Owner {
        if op == self.root {
            return Owner::Anchor;
        }
        match ctx.parent_block(op) {
            None => Owner::Outside,
            Some(b) if self.is_private_in_table(ctx, op, b) => Owner::Private(op),
            Some(b) => self.of_block(ctx, b),
        }
    }
}

/// The `sym_name` attribute of `op` (property first, as `symbol_name`), which names are
/// compared by: equal strings are one interned attribute. Only a string is a name; the caller
/// checks that for the few names it keeps (reading every attribute's data would cost a cache
/// miss a symbol).
fn name_attr(ctx: &Context, op: OpId, key: Option<Ident>) -> Option<Attribute> {
    let key = key?;
    let find = |list: &[(Ident, Attribute)]| list.iter().find(|e| e.0 == key).map(|e| e.1);
    find(ctx.properties(op)).or_else(|| find(ctx.attrs(op)))
}

/// How many live ops (attached or detached) are symbol tables, by the context's count of the
/// ops of each name: only registered ops have the trait.
fn symbol_table_count(ctx: &Context) -> usize {
    ctx.registered_ops()
        .filter(|i| i.traits.contains(OpTraits::SYMBOL_TABLE))
        .filter_map(|i| ctx.lookup_op_name(i.name))
        .map(|n| ctx.op_count(n))
        .sum()
}

/// For each name some private symbol has: the tables that define it, each with its first
/// definition (a linked list per identifier; the lists are short: a name is rarely defined
/// in many tables).
#[derive(Default)]
struct Defs {
    /// Per identifier, 1 + the index in `list` of its first entry (0: none).
    head: EntityMap<Ident, u32>,
    /// (table, definition, 1 + the index of the next entry or 0).
    list: Vec<(OpId, OpId, u32)>,
}

impl Defs {
    fn add(&mut self, name: Ident, table: OpId, def: OpId) {
        let next = self.head[name];
        self.list.push((table, def, next));
        self.head[name] = self.list.len() as u32;
    }

    /// The definition of `name` in `table`, if it has one listed.
    fn in_table(&self, name: Ident, table: OpId) -> Option<OpId> {
        let mut i = self.head[name];
        while i != 0 {
            let (t, def, next) = self.list[i as usize - 1];
            if t == table {
                return Some(def);
            }
            i = next;
        }
        None
    }
}

/// A reference waiting for its owner (a private symbol) to become live: the table it resolves
/// from, the reference, and 1 + the index of the owner's next waiting reference (0: none).
type Waiting = (OpId, Attribute, u32);

struct Linear {
    owners: Owners,
    defs: Defs,
    live: EntitySet<OpId>,
    /// Per private owner, 1 + the index in `waiting` of its last waiting reference.
    waiting_head: EntityMap<OpId, u32>,
    waiting: Vec<Waiting>,
    /// Symbol tables built for nested references, by table op (a few tables of a large
    /// arena: a hash map).
    tables: FastMap<OpId, SymbolTable>,
    /// Private symbols newly live whose waiting references are not resolved yet.
    work: Vec<OpId>,
}

/// The live private symbols under `root` (an op without a parent), and the private symbols
/// directly in the symbol tables of live ops (the only ones that may be dead): see the module
/// docs. None when one of those dead has results: erasure then checks their uses in the walk's
/// order, which the caller gets from the walk.
pub(super) fn compute_in_root(ctx: &Context, root: OpId) -> Option<(EntitySet<OpId>, Vec<OpId>)> {
    let mut l = Linear {
        owners: Owners {
            root,
            vis_key: ctx.lookup_ident("sym_visibility"),
            block_owner: EntityMap::new(),
            table_block: EntityMap::new(),
            block_table: EntityMap::new(),
            path: Vec::new(),
        },
        defs: Defs::default(),
        live: EntitySet::new(),
        waiting_head: EntityMap::new(),
        waiting: Vec::new(),
        tables: FastMap::default(),
        work: Vec::new(),
    };
    let private_in = l.read_tables(ctx, root);
    l.resolve_all(ctx);
    let mut private = Vec::new();
    for (s, table_owner) in private_in {
        let table_live = match table_owner {
            Owner::Outside => false,
            Owner::Anchor => true,
            Owner::Private(p) => l.live.contains(p),
        };
        if table_live {
            if !l.live.contains(s) && !ctx.results(s).is_empty() {
                return None;
            }
            private.push(s);
        }
    }
    Some((l.live, private))
}

impl Linear {
    /// Step 1 of the module docs: the private symbols directly in the symbol tables of the
    /// anchor, each with the owner of its table, and [`Defs`].
    fn read_tables(&mut self, ctx: &Context, root: OpId) -> Vec<(OpId, Owner)> {
        let name_key = ctx.lookup_ident("sym_name");
        let mut tables = vec![root];
        // The scan stops at the last table (none when the anchor is the only one).
        let mut others = symbol_table_count(ctx).saturating_sub(1);
        let mut with_regions = ctx.ops_with_regions();
        while others > 0 {
            let Some(o) = with_regions.next() else { break };
            if o != root && is_symbol_table(ctx, o) {
                tables.push(o);
                others -= 1;
            }
        }
        // The blocks of the tables in the anchor: (table's position in `tables`, whether in
        // its first region, owner of its ops), and 1 + each one's position, by block.
        let mut blocks = Vec::new();
        let mut table_block: EntityMap<BlockId, u32> = EntityMap::new();
        for (ti, &t) in tables.iter().enumerate() {
            // The owner of the ops directly in `t` (a private table owns its own body).
            let owner = self.owners.of_op(ctx, t);
            if owner == Owner::Outside {
                continue;
            }
            for (ri, &r) in ctx.regions(t).iter().enumerate() {
                for &b in ctx.region_blocks(r) {
                    blocks.push((ti as u32, ri == 0, owner));
                    table_block[b] = blocks.len() as u32;
                }
            }
        }
        // The table block directly around `op`, if any.
        let place = |op: OpId| {
            let bi = table_block[ctx.parent_block(op)?];
            (bi != 0).then(|| blocks[bi as usize - 1])
        };
        // The private symbols, among the ops with a `sym_visibility` entry (found by their
        // flag bytes: a module's ops are not followed one after another).
        let mut private_in = Vec::new();
        let mut private_names = EntitySet::<Attribute>::new();
        for op in ctx.ops_with_sym_visibility() {
            let Some((_, first_region, owner)) = place(op) else {
                continue;
            };
            if is_symbol(ctx, op) && is_private(ctx, op, self.owners.vis_key) {
                private_in.push((op, owner));
                if let Some(n) = first_region.then(|| name_attr(ctx, op, name_key)).flatten() {
                    private_names.insert(n);
                }
            }
        }
        if private_names.is_empty() {
            return private_in;
        }
        // Per (table, private name): its definition among the named ops of the tables' first
        // regions (those [`SymbolTable`] looks names up in), and whether there is more than
        // one.
        let mut firsts: FastMap<(u32, Attribute), (OpId, bool)> = FastMap::default();
        for op in ctx.ops_with_sym_name() {
            let Some((ti, true, _)) = place(op) else {
                continue;
            };
            let Some(n) = name_attr(ctx, op, name_key) else {
                continue;
            };
            if private_names.contains(n) {
                firsts
                    .entry((ti, n))
                    .and_modify(|e| e.1 = true)
                    .or_insert((op, false));
            }
        }
        // A name defined more than once in a table means its first definition: those tables
        // are walked in order (rare: redefinitions do not verify).
        let mut redefined: Vec<u32> = firsts
            .iter()
            .filter(|(_, v)| v.1)
            .map(|(k, _)| k.0)
            .collect();
        redefined.sort_unstable();
        redefined.dedup();
        for ti in redefined {
            let Some(&r) = ctx.regions(tables[ti as usize]).first() else {
                continue;
            };
            for &b in ctx.region_blocks(r) {
                for o in ctx.block_ops(b) {
                    let Some(n) = name_attr(ctx, o, name_key) else {
                        continue;
                    };
                    if let Some(e) = firsts.get_mut(&(ti, n)) {
                        if e.1 {
                            *e = (o, false);
                        }
                    }
                }
            }
        }
        for (&(ti, n), &(op, _)) in &firsts {
            // Only a string names a symbol; a name no reference was ever made of has no
            // identifier: nothing resolves to it.
            let AttrData::String(s) = ctx.attr_data(n) else {
                continue;
            };
            if let Some(id) = ctx.lookup_ident(s) {
                self.defs.add(id, tables[ti as usize], op);
            }
        }
        private_in
    }

    /// Step 2 of the module docs: the references of the ops in the anchor, each resolved once
    /// its owner is live.
    fn resolve_all(&mut self, ctx: &Context) {
        let mut refs = Vec::new();
        let mut users = Vec::with_capacity(USERS_AT_ONCE);
        let mut found = ctx.ops_holding_symbol_refs();
        loop {
            // Ops found in a batch, their records then read: the loads of different ops
            // overlap.
            users.clear();
            users.extend(found.by_ref().take(USERS_AT_ONCE));
            if users.is_empty() {
                break;
            }
            for &op in &users {
                std::hint::black_box(ctx.properties(op).first().copied());
            }
            for &op in &users {
                // The references that may make a private symbol live (a flat name no private
                // symbol has resolves to a live symbol or to nothing): most ops have none, and
                // where the op lies is not looked up for them.
                refs.clear();
                visit_op_symbol_refs(ctx, op, &mut |a| {
                    if let AttrData::SymbolRef { root, nested } = ctx.attr_data(a) {
                        if !nested.is_empty() || *self.defs.head.get(*root) != 0 {
                            refs.push(a);
                        }
                    }
                });
                if refs.is_empty() {
                    continue;
                }
                let Some(b) = ctx.parent_block(op) else {
                    continue;
                };
                let owner = self.owners.of_op(ctx, op);
                if owner == Owner::Outside {
                    continue;
                }
                // An op's references resolve from its parent (the anchor has none: nothing).
                let Some(table) = self.owners.table_around(ctx, b) else {
                    continue;
                };
                for &a in &refs {
                    match owner {
                        Owner::Private(p) if !self.live.contains(p) => {
                            let next = self.waiting_head[p];
                            self.waiting.push((table, a, next));
                            self.waiting_head[p] = self.waiting.len() as u32;
                        }
                        _ => self.resolve(ctx, table, a),
                    }
                }
                self.drain_work(ctx);
            }
        }
    }

    /// Resolves the references waiting on each newly live private symbol.
    fn drain_work(&mut self, ctx: &Context) {
        while let Some(s) = self.work.pop() {
            let mut i = self.waiting_head.remove(s);
            while i != 0 {
                let (table, a, next) = self.waiting[i as usize - 1];
                self.resolve(ctx, table, a);
                i = next;
            }
        }
    }

    fn mark(&mut self, s: OpId) {
        if self.live.insert(s) {
            self.work.push(s);
        }
    }

    /// Marks live what `sym_ref`, held by an op whose innermost symbol table is `table`,
    /// refers to: its root name in the innermost table around that defines it, then each
    /// nested name.
    fn resolve(&mut self, ctx: &Context, table: OpId, sym_ref: Attribute) {
        let AttrData::SymbolRef { root, nested } = ctx.attr_data(sym_ref) else {
            return;
        };
        let mut scope = Some(table);
        let mut cur = loop {
            let Some(t) = scope else { return };
            let found = if nested.is_empty() {
                self.defs.in_table(*root, t)
            } else {
                self.table(ctx, t).get(ctx, *root)
            };
            if let Some(f) = found {
                break f;
            }
            scope = self.owners.table_outside(ctx, t);
        };
        self.mark(cur);
        for &n in nested {
            if !is_symbol_table(ctx, cur) {
                break;
            }
            match self.table(ctx, cur).get(ctx, n) {
                Some(found) => {
                    self.mark(found);
                    cur = found;
                }
                None => break,
            }
        }
    }

    fn table(&mut self, ctx: &Context, op: OpId) -> &SymbolTable {
        self.tables
            .entry(op)
            .or_insert_with(|| SymbolTable::new(ctx, op))
    }
}
