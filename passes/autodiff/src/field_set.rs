//! [`FieldSet`]: the needs_grad fields of a module, by the identifiers of their names.
//!
//! Every field access asks whether its field needs a gradient, several times over the pass
//! (selection, activity, the access rule, the reverse rules). An access names its field by a
//! `SymbolRef`, whose root is an interned identifier, and a module's field names are mostly
//! identifiers interned one after another: a bit per identifier is a vector that stays in cache,
//! where a hash set of a quarter of a million names costs a miss or two (the probe, the name's
//! bytes) per question.

use qd_frontend::FieldOp;
use qd_ir::symbol_table::SymbolTable;
use qd_ir::{AttrData, BlockId, Context, Ident, OpId};

#[derive(Default, Debug)]
pub(crate) struct FieldSet {
    bits: Vec<u64>,
}

impl FieldSet {
    /// The needs_grad `qd.field`s directly in `body`, the block of the module whose symbol
    /// table is `table`: read off the table's identifiers (no name is looked up but those of
    /// redefinitions). A name without an identifier is referenced by no op, so no access can
    /// ask for it.
    pub(crate) fn of_module(ctx: &Context, table: &SymbolTable, body: BlockId) -> Self {
        let needs_grad = |op: OpId| {
            ctx.parent_block(op) == Some(body)
                && FieldOp::from_op(ctx, op).is_some_and(|f| f.needs_grad(ctx))
        };
        let mut s = FieldSet::default();
        for (id, op) in table.idents() {
            if needs_grad(op) {
                s.add(id);
            }
        }
        for &(_, dup) in table.duplicates() {
            if needs_grad(dup) {
                if let Some(id) = ctx.lookup_ident(FieldOp(dup).name(ctx)) {
                    s.add(id);
                }
            }
        }
        s
    }

    /// The fields named `names` (as [`Self::of_module`] for those names).
    #[cfg(test)]
    pub(crate) fn new<'a>(ctx: &Context, names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut s = FieldSet::default();
        for id in names.into_iter().filter_map(|n| ctx.lookup_ident(n)) {
            s.add(id);
        }
        s
    }

    fn add(&mut self, id: Ident) {
        let (w, bit) = slot(id);
        if w >= self.bits.len() {
            self.bits.resize(w + 1, 0);
        }
        self.bits[w] |= bit;
    }

    pub(crate) fn contains_ident(&self, id: Ident) -> bool {
        let (w, bit) = slot(id);
        self.bits.get(w).is_some_and(|b| b & bit != 0)
    }

    /// Whether the field `op` accesses (its `field` reference: a load, store or atomic) is in
    /// the set.
    pub(crate) fn has_field_of(&self, ctx: &Context, op: OpId) -> bool {
        field_ident(ctx, op).is_some_and(|id| self.contains_ident(id))
    }
}

/// The identifier of the field `op` accesses: the root of its `field` reference.
pub(crate) fn field_ident(ctx: &Context, op: OpId) -> Option<Ident> {
    match ctx.prop(op, "field").map(|a| ctx.attr_data(a)) {
        Some(AttrData::SymbolRef { root, .. }) => Some(*root),
        _ => None,
    }
}

fn slot(id: Ident) -> (usize, u64) {
    (id.index() / 64, 1u64 << (id.index() % 64))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Through op references: `crate::tests::field_set_answers_for_accesses`.
    #[test]
    fn fields_by_identifier() {
        let mut ctx = Context::new();
        let (x, y) = (ctx.ident("x"), ctx.ident("y"));
        for i in 0..200 {
            ctx.ident(&format!("pad{i}"));
        }
        let far = ctx.ident("far");
        let s = FieldSet::new(&ctx, ["x", "far", "never_interned"]);
        assert!(s.contains_ident(x) && s.contains_ident(far));
        assert!(!s.contains_ident(y));
        assert!(!FieldSet::default().contains_ident(x));
        let late = ctx.ident("never_interned");
        assert!(
            !s.contains_ident(late),
            "named before it had an identifier: no op used it"
        );
    }
}
