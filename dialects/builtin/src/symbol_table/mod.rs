//! Symbol tables: ops with the SYMBOL_TABLE trait map symbol names to the ops that define them.
//!
//! A symbol is an op directly in a symbol table's region with a `sym_name` string (property or
//! attribute). Symbols are referenced by `SymbolRef` attributes (`@name` or `@outer::@inner`).
//! Lookups search the nearest enclosing symbol table first, then the tables around it.

use crate::attributes::AttrData;
use crate::context::Context;
use crate::entity::{Attribute, Ident, OpId};
use crate::fast_hash::FastMap;
use crate::registry::OpTraits;

mod collection;
mod ident_map;
pub use collection::SymbolTableCollection;
use ident_map::IdentMap;

/// The symbols of one symbol-table op, in definition order.
///
/// Keyed by the interned identifier of each name: a `SymbolRef` holds its names as [`Ident`]s,
/// so resolving one hashes and compares no string and copies no name (a module of a quarter of
/// a million fields otherwise spends its lookups on string memory; see [`IdentMap`]). A name
/// the context has no identifier for (no `SymbolRef` was ever made of it) is kept by its text
/// instead; lookups by text or identifier see both.
#[derive(Clone, Debug)]
pub struct SymbolTable {
    op: OpId,
    /// First definitions, in definition order (for [`Self::iter`]).
    order: Vec<OpId>,
    by_ident: IdentMap,
    /// Names that had no identifier when recorded; usually empty.
    by_text: FastMap<Box<str>, OpId>,
    /// `(first definition, redefinition)` pairs of names defined more than once.
    duplicates: Vec<(OpId, OpId)>,
}

impl SymbolTable {
    /// Collects the symbols of the ops directly in the blocks of `op`'s first region. A name
    /// defined twice maps to its first definition; later ones are listed in [`Self::duplicates`].
    pub fn new(ctx: &Context, op: OpId) -> Self {
        // The names first, to size the map by them.
        let mut names: Vec<(Option<Ident>, &str, OpId)> = Vec::new();
        // No op has a `sym_name` unless the context interned that key.
        if let (Some(&region), Some(key)) = (ctx.regions(op).first(), ctx.lookup_ident("sym_name"))
        {
            for &block in ctx.region_blocks(region) {
                for o in ctx.block_ops(block) {
                    if let Some(name) = symbol_name_keyed(ctx, o, key) {
                        names.push((ctx.lookup_ident(name), name, o));
                    }
                }
            }
        }
        let max = names.iter().filter_map(|n| n.0).max();
        let mut t = SymbolTable {
            op,
            order: Vec::with_capacity(names.len()),
            by_ident: IdentMap::with_names(names.len(), max),
            by_text: FastMap::default(),
            duplicates: Vec::new(),
        };
        for (id, name, o) in names {
            t.record(id, name, o);
        }
        t
    }

    /// Adds `op` under `name` (whose identifier is `id`, if the context has one), or lists it as
    /// a redefinition; whether it was added.
    fn record(&mut self, id: Option<Ident>, name: &str, op: OpId) -> bool {
        if let Some(first) = self.find(id, name) {
            self.duplicates.push((first, op));
            return false;
        }
        match id {
            Some(id) => self.by_ident.insert(id, op),
            None => {
                self.by_text.insert(name.into(), op);
            }
        }
        self.order.push(op);
        true
    }

    /// The symbol named `name`, whose identifier (if the context has one) is `id`.
    fn find(&self, id: Option<Ident>, name: &str) -> Option<OpId> {
        if let Some(o) = id.and_then(|id| self.by_ident.get(id)) {
            return Some(o);
        }
        if self.by_text.is_empty() {
            return None;
        }
        self.by_text.get(name).copied()
    }

    /// The symbol-table op.
    pub fn op(&self) -> OpId {
        self.op
    }
    /// The symbol named `name` (a `SymbolRef`'s root or nested name): the fast lookup.
    pub fn get(&self, ctx: &Context, name: Ident) -> Option<OpId> {
        if let Some(o) = self.by_ident.get(name) {
            return Some(o);
        }
        if self.by_text.is_empty() {
            return None;
        }
        self.by_text.get(ctx.ident_str(name)).copied()
    }
    /// The symbol named `name`.
    pub fn lookup(&self, ctx: &Context, name: &str) -> Option<OpId> {
        self.find(ctx.lookup_ident(name), name)
    }
    pub fn contains(&self, ctx: &Context, name: &str) -> bool {
        self.lookup(ctx, name).is_some()
    }
    pub fn len(&self) -> usize {
        self.order.len()
    }
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
    /// The symbol ops in definition order.
    pub fn ops(&self) -> &[OpId] {
        &self.order
    }
    /// `(identifier of the name, op)` for the symbols whose names had identifiers when recorded
    /// (all but those no `SymbolRef` was made of), in no particular order: for code that wants
    /// the symbols' identifiers without looking each name up.
    pub fn idents(&self) -> impl Iterator<Item = (Ident, OpId)> + '_ {
        self.by_ident.iter()
    }
    /// `(name, op)` in definition order (names as the ops hold them now).
    pub fn iter<'a>(&'a self, ctx: &'a Context) -> impl Iterator<Item = (&'a str, OpId)> + 'a {
        self.order
            .iter()
            .map(move |&o| (symbol_name(ctx, o).unwrap_or_default(), o))
    }
    /// `(first definition, redefinition)` for each repeated name, in program order.
    pub fn duplicates(&self) -> &[(OpId, OpId)] {
        &self.duplicates
    }
    /// Forgets a symbol (after its op was erased), keeping the order of the others.
    pub fn remove(&mut self, ctx: &Context, name: &str) -> Option<OpId> {
        let id = ctx.lookup_ident(name);
        let op = match id.and_then(|id| self.by_ident.remove(id)) {
            Some(o) => o,
            None => self.by_text.remove(name)?,
        };
        // Linear, as removing from the middle of an ordered map is.
        self.order.retain(|&o| o != op);
        Some(op)
    }
    /// Records symbol `op` named `name`, added to the table's region after the table was built
    /// (last in [`Self::iter`]'s order). A name already defined keeps its first definition and
    /// `op` is listed as a redefinition; false then.
    pub fn insert(&mut self, ctx: &Context, name: &str, op: OpId) -> bool {
        self.record(ctx.lookup_ident(name), name, op)
    }
}

/// The symbol name of `op`: its `sym_name` string property or attribute.
pub fn symbol_name(ctx: &Context, op: OpId) -> Option<&str> {
    symbol_name_keyed(ctx, op, ctx.lookup_ident("sym_name")?)
}

/// [`symbol_name`] with the identifier of `sym_name` looked up once by the caller (a table of a
/// million symbols would hash the key a million times otherwise).
fn symbol_name_keyed(ctx: &Context, op: OpId, key: Ident) -> Option<&str> {
    let find = |list: &[(Ident, Attribute)]| list.iter().find(|(k, _)| *k == key).map(|e| e.1);
    let a = find(ctx.properties(op)).or_else(|| find(ctx.attrs(op)))?;
    match ctx.attr_data(a) {
        AttrData::String(s) => Some(s),
        _ => None,
    }
}

/// MLIR's symbol visibility (`sym_visibility`); symbols are public unless it says otherwise.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Visibility {
    Public,
    Private,
    Nested,
}

/// The visibility of a symbol op, from its `sym_visibility` string ("private", "nested").
pub fn symbol_visibility(ctx: &Context, op: OpId) -> Visibility {
    match ctx
        .prop_or_attr(op, "sym_visibility")
        .map(|a| ctx.attr_data(a))
    {
        Some(AttrData::String(s)) if s == "private" => Visibility::Private,
        Some(AttrData::String(s)) if s == "nested" => Visibility::Nested,
        _ => Visibility::Public,
    }
}

/// Whether `op` is a registered op with the SYMBOL_TABLE trait.
pub fn is_symbol_table(ctx: &Context, op: OpId) -> bool {
    ctx.has_trait(op, OpTraits::SYMBOL_TABLE)
}

/// The nearest symbol table enclosing `op`, `op` itself included (as MLIR's
/// `getNearestSymbolTable`).
pub fn nearest_symbol_table(ctx: &Context, op: OpId) -> Option<OpId> {
    enclosing_symbol_tables(ctx, op).next()
}

/// The symbol tables around `op`, innermost first, `op` itself included.
pub fn enclosing_symbol_tables(ctx: &Context, op: OpId) -> impl Iterator<Item = OpId> + '_ {
    std::iter::successors(Some(op), move |&o| ctx.parent_op(o))
        .filter(move |&o| is_symbol_table(ctx, o))
}

/// The op directly in `table`'s first region that defines `name` (a linear scan; use a
/// [`SymbolTableCollection`] for repeated lookups).
pub fn lookup_symbol_in(ctx: &Context, table: OpId, name: &str) -> Option<OpId> {
    let region = *ctx.regions(table).first()?;
    let key = ctx.lookup_ident("sym_name")?;
    ctx.region_blocks(region)
        .iter()
        .flat_map(|&b| ctx.block_ops(b))
        .find(|&o| symbol_name_keyed(ctx, o, key) == Some(name))
}

/// Resolves `sym` from `from`: the nearest enclosing symbol table that defines it, searching
/// outward. Linear in the tables' sizes: code that resolves many uses (a verifier hook, a pass
/// over every op) uses a [`SymbolTableCollection`].
pub fn lookup_symbol_from(ctx: &Context, from: OpId, sym: &str) -> Option<OpId> {
    enclosing_symbol_tables(ctx, from).find_map(|t| lookup_symbol_in(ctx, t, sym))
}

/// Resolves a `SymbolRef` attribute from `from`: its root as [`lookup_symbol_from`], then each
/// nested name inside the symbol table found so far. None for other attributes.
pub fn lookup_symbol_ref_from(ctx: &Context, from: OpId, sym_ref: Attribute) -> Option<OpId> {
    let AttrData::SymbolRef { root, nested } = ctx.attr_data(sym_ref) else {
        return None;
    };
    let mut found = lookup_symbol_from(ctx, from, ctx.ident_str(*root))?;
    for n in nested {
        if !is_symbol_table(ctx, found) {
            return None;
        }
        found = lookup_symbol_in(ctx, found, ctx.ident_str(*n))?;
    }
    Some(found)
}

/// Calls `f` on every `SymbolRef` inside `attr`, looking into arrays and dictionaries.
pub fn visit_symbol_refs(ctx: &Context, attr: Attribute, f: &mut impl FnMut(Attribute)) {
    match ctx.attr_data(attr) {
        AttrData::SymbolRef { .. } => f(attr),
        AttrData::Array(elems) => {
            for &e in elems {
                visit_symbol_refs(ctx, e, f);
            }
        }
        AttrData::Dict(entries) => {
            for &(_, e) in entries {
                visit_symbol_refs(ctx, e, f);
            }
        }
        _ => {}
    }
}

/// Calls `f` on every `SymbolRef` in `op`'s properties, then its attributes (each in name order).
pub fn visit_op_symbol_refs(ctx: &Context, op: OpId, f: &mut impl FnMut(Attribute)) {
    // Most ops hold none: their flag saves reading their record and attributes.
    if !ctx.holds_symbol_ref(op) {
        return;
    }
    for &(_, a) in ctx.properties(op).iter().chain(ctx.attrs(op)) {
        if ctx.attr_holds_symbol_ref(a) {
            visit_symbol_refs(ctx, a, f);
        }
    }
}

/// The `SymbolRef` attributes `op` holds (in properties and attributes, nested ones included).
pub fn op_symbol_refs(ctx: &Context, op: OpId) -> Vec<Attribute> {
    let mut out = Vec::new();
    visit_op_symbol_refs(ctx, op, &mut |a| out.push(a));
    out
}

/// The root name of a `SymbolRef` attribute (`a` of `@a::@b`).
pub fn symbol_ref_root(ctx: &Context, sym_ref: Attribute) -> Option<Ident> {
    match ctx.attr_data(sym_ref) {
        AttrData::SymbolRef { root, .. } => Some(*root),
        _ => None,
    }
}

/// Every symbol use in `root` and the ops nested in it, in pre-order: the user op and the
/// referenced root name (`a` of `@a::@b`). Nested symbol tables are searched too, so a use is
/// reported even when it resolves to an inner definition: a conservative answer for dead-symbol
/// elimination.
pub fn symbol_uses(ctx: &Context, root: OpId) -> Vec<(OpId, String)> {
    let mut out = Vec::new();
    for op in ctx.walk_pre_order(root) {
        visit_op_symbol_refs(ctx, op, &mut |a| {
            if let Some(r) = symbol_ref_root(ctx, a) {
                out.push((op, ctx.ident_str(r).to_string()));
            }
        });
    }
    out
}

/// The ops in `root` (itself included) that reference symbol `name` (as a root name).
pub fn symbol_users(ctx: &Context, name: &str, root: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    for op in ctx.walk_pre_order(root) {
        let mut uses = false;
        visit_op_symbol_refs(ctx, op, &mut |a| {
            uses |= symbol_ref_root(ctx, a).is_some_and(|r| ctx.ident_str(r) == name);
        });
        if uses {
            out.push(op);
        }
    }
    out
}

/// Whether any op in `root` (itself included) references symbol `name` (as a root name).
pub fn is_symbol_used(ctx: &Context, name: &str, root: OpId) -> bool {
    // Symbol names are interned idents when referenced: no ident means no reference.
    let Some(id) = ctx.lookup_ident(name) else {
        return false;
    };
    ctx.walk_pre_order(root).into_iter().any(|op| {
        let mut uses = false;
        visit_op_symbol_refs(ctx, op, &mut |a| {
            uses |= symbol_ref_root(ctx, a) == Some(id)
        });
        uses
    })
}

/// `@name`, quoted when it is not a bare identifier, as MLIR prints symbol names.
pub fn format_symbol_name(name: &str) -> String {
    let bare = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_$.".contains(c));
    if bare {
        format!("@{name}")
    } else {
        format!("@\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// A `SymbolRef` attribute as text: `@a` or `@a::@b`.
pub fn format_symbol_ref(ctx: &Context, sym_ref: Attribute) -> String {
    match ctx.attr_data(sym_ref) {
        AttrData::SymbolRef { root, nested } => {
            let mut s = format_symbol_name(ctx.ident_str(*root));
            for n in nested {
                s.push_str("::");
                s.push_str(&format_symbol_name(ctx.ident_str(*n)));
            }
            s
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests;
