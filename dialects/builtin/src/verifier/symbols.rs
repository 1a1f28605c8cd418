//! Symbol-use checks: each `SymbolRef` held by a registered op resolves from that op.

use super::Verifier;
use crate::attributes::AttrData;
use crate::diagnostics::Diagnostic;
use crate::entity::{Attribute, OpId};
use crate::symbol_table::{
    enclosing_symbol_tables, format_symbol_ref, is_symbol_table, visit_op_symbol_refs,
};

impl Verifier<'_> {
    /// Every `SymbolRef` in the op's properties and attributes must name a symbol of an enclosing
    /// symbol table (searched outward). Ops outside any symbol table are not checked: there is
    /// nothing to resolve against.
    pub(super) fn check_symbol_uses(&mut self, op: OpId, order: u32) {
        let ctx = self.ctx;
        let mut refs = std::mem::take(&mut self.ref_buf);
        refs.clear();
        visit_op_symbol_refs(ctx, op, &mut |a| refs.push(a));
        if !refs.is_empty() {
            let tables: Vec<OpId> = enclosing_symbol_tables(ctx, op).collect();
            if !tables.is_empty() {
                for &r in &refs {
                    if self.resolve(&tables, r).is_none() {
                        let msg = format!(
                            "'{}' op '{}' does not reference a valid symbol",
                            ctx.name(op),
                            format_symbol_ref(ctx, r)
                        );
                        self.error(order, Diagnostic::error(ctx.loc(op), msg));
                    }
                }
            }
        }
        self.ref_buf = refs;
    }

    /// Resolves a `SymbolRef` through the given tables (innermost first), using cached tables.
    fn resolve(&mut self, tables: &[OpId], sym_ref: Attribute) -> Option<OpId> {
        let ctx = self.ctx;
        let AttrData::SymbolRef { root, nested } = ctx.attr_data(sym_ref) else {
            return None;
        };
        let root = ctx.ident_str(*root);
        let mut found = tables.iter().find_map(|&t| self.table(t).lookup(root))?;
        for n in nested {
            if !is_symbol_table(ctx, found) {
                return None;
            }
            found = self.table(found).lookup(ctx.ident_str(*n))?;
        }
        Some(found)
    }
}
