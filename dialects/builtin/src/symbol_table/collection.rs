//! [`SymbolTableCollection`]: cached symbol tables for many lookups over IR that does not change
//! meanwhile (MLIR's `SymbolTableCollection`), as the verifier's symbol-use hooks need them.
//!
//! [`lookup_symbol_from`](super::lookup_symbol_from) scans a table's block per call, so resolving
//! every use in a module is O(uses x symbols). The collection builds each table once and
//! remembers the nearest table of every op it walked through, so each lookup costs a hash probe
//! per enclosing table: verification stays near-linear in the op count, deep nests included.

use super::{is_symbol_table, SymbolTable};
use crate::attributes::AttrData;
use crate::context::Context;
use crate::entity::{Attribute, BlockId, Ident, OpId};
use crate::fast_hash::FastMap;

/// Symbol tables by table op, built on first use. Valid while the symbols and the nesting of the
/// IR it has seen stay unchanged (one verification, or an analysis between rewrites).
#[derive(Default, Debug)]
pub struct SymbolTableCollection {
    tables: FastMap<OpId, SymbolTable>,
    /// The nearest symbol table of each op with regions walked through (itself included), or
    /// None at the top. Ops without regions are not remembered: they are never another op's
    /// parent, and a million of them would make this map the walk's main cost.
    nearest: FastMap<OpId, Option<OpId>>,
    /// Reused buffer for the ops of one upward walk.
    path: Vec<OpId>,
    /// Per (block, key kind): the first op of the block with each key (see [`Self::first_keyed_op`]).
    keyed: FastMap<(BlockId, &'static str), FastMap<String, OpId>>,
}

impl SymbolTableCollection {
    pub fn new() -> Self {
        Self::default()
    }

    /// The symbol table of `table` (a symbol-table op), built on first use.
    pub fn table(&mut self, ctx: &Context, table: OpId) -> &SymbolTable {
        self.tables
            .entry(table)
            .or_insert_with(|| SymbolTable::new(ctx, table))
    }

    /// The symbol table of `table`, built on first use, for recording symbols added to it while
    /// the collection is in use ([`SymbolTable::insert`], [`SymbolTable::remove`]).
    pub fn table_mut(&mut self, ctx: &Context, table: OpId) -> &mut SymbolTable {
        self.tables
            .entry(table)
            .or_insert_with(|| SymbolTable::new(ctx, table))
    }

    /// Moves the tables of the symbol tables enclosing `op` (not `op` itself) that `self` has
    /// built into `to`, and returns those ops, for [`take_back`](Self::take_back) once `to` is
    /// done. For many verifications under one table that does not change meanwhile (see
    /// [`verify_in`](crate::verifier::verify_in)): each builds the enclosing tables once.
    pub fn lend_enclosing(
        &mut self,
        ctx: &Context,
        op: OpId,
        to: &mut SymbolTableCollection,
    ) -> Vec<OpId> {
        let enclosing: Vec<OpId> = std::iter::successors(ctx.parent_op(op), |&o| ctx.parent_op(o))
            .filter(|&o| is_symbol_table(ctx, o))
            .collect();
        for t in &enclosing {
            if let Some(table) = self.tables.remove(t) {
                to.tables.insert(*t, table);
            }
        }
        enclosing
    }

    /// Moves the tables of `tables` that `from` has built into `self` (see
    /// [`lend_enclosing`](Self::lend_enclosing)).
    pub fn take_back(&mut self, from: &mut SymbolTableCollection, tables: &[OpId]) {
        for t in tables {
            if let Some(table) = from.tables.remove(t) {
                self.tables.insert(*t, table);
            }
        }
    }

    /// The op directly in `table`'s first region that defines `name` (as
    /// [`lookup_symbol_in`](super::lookup_symbol_in)).
    pub fn lookup_symbol_in(&mut self, ctx: &Context, table: OpId, name: &str) -> Option<OpId> {
        self.table(ctx, table).lookup(ctx, name)
    }

    /// The nearest symbol table enclosing `op`, `op` itself included (as
    /// [`nearest_symbol_table`](super::nearest_symbol_table)).
    pub fn nearest_symbol_table(&mut self, ctx: &Context, op: OpId) -> Option<OpId> {
        // Walk up to a table, an op seen before, or the top; then remember the answer for every
        // op on the way, so that ops deep in one nest share one walk.
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut cur = Some(op);
        let found = loop {
            let Some(o) = cur else { break None };
            if is_symbol_table(ctx, o) {
                break Some(o);
            }
            if let Some(&t) = self.nearest.get(&o) {
                break t;
            }
            if o != op || !ctx.regions(op).is_empty() {
                path.push(o);
            }
            cur = ctx.parent_op(o);
        };
        for &o in &path {
            self.nearest.insert(o, found);
        }
        self.path = path;
        found
    }

    /// Resolves `name` from `from`: the nearest enclosing symbol table that defines it, searching
    /// outward (as [`lookup_symbol_from`](super::lookup_symbol_from)).
    pub fn lookup_symbol_from(&mut self, ctx: &Context, from: OpId, name: &str) -> Option<OpId> {
        match ctx.lookup_ident(name) {
            Some(id) => self.lookup_ident_from(ctx, from, id),
            // No identifier: only a table's by-text names can match.
            None => self.lookup_from_with(ctx, from, |ctx, t| t.lookup(ctx, name)),
        }
    }

    /// [`lookup_symbol_from`](Self::lookup_symbol_from) for a name as a `SymbolRef` holds it:
    /// no string is hashed.
    pub fn lookup_ident_from(&mut self, ctx: &Context, from: OpId, name: Ident) -> Option<OpId> {
        self.lookup_from_with(ctx, from, |ctx, t| t.get(ctx, name))
    }

    /// The first answer of `find` in the tables around `from`, innermost first.
    fn lookup_from_with(
        &mut self,
        ctx: &Context,
        from: OpId,
        find: impl Fn(&Context, &SymbolTable) -> Option<OpId>,
    ) -> Option<OpId> {
        let mut table = self.nearest_symbol_table(ctx, from);
        while let Some(t) = table {
            if let Some(found) = find(ctx, self.table(ctx, t)) {
                return Some(found);
            }
            table = ctx
                .parent_op(t)
                .and_then(|p| self.nearest_symbol_table(ctx, p));
        }
        None
    }

    /// The first op of `block` whose `key` is `name`. For checks that a declaration which is not
    /// a symbol appears once per block (one `ad.reverse` per kernel): the index of `block` by
    /// `key` is built once, on first use, like the tables. `kind` names the key function (one
    /// function per kind).
    pub fn first_keyed_op(
        &mut self,
        ctx: &Context,
        block: BlockId,
        kind: &'static str,
        key: fn(&Context, OpId) -> Option<String>,
        name: &str,
    ) -> Option<OpId> {
        self.keyed
            .entry((block, kind))
            .or_insert_with(|| {
                let mut first = FastMap::default();
                for o in ctx.block_ops(block) {
                    if let Some(k) = key(ctx, o) {
                        first.entry(k).or_insert(o);
                    }
                }
                first
            })
            .get(name)
            .copied()
    }

    /// Resolves a `SymbolRef` attribute from `from` (as
    /// [`lookup_symbol_ref_from`](super::lookup_symbol_ref_from)). None for other attributes.
    pub fn lookup_symbol_ref_from(
        &mut self,
        ctx: &Context,
        from: OpId,
        sym_ref: Attribute,
    ) -> Option<OpId> {
        let AttrData::SymbolRef { root, nested } = ctx.attr_data(sym_ref) else {
            return None;
        };
        let mut found = self.lookup_ident_from(ctx, from, *root)?;
        for &n in nested {
            if !is_symbol_table(ctx, found) {
                return None;
            }
            found = self.table(ctx, found).get(ctx, n)?;
        }
        Some(found)
    }
}
