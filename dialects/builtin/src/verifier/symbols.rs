//! Symbol-use checks: each `SymbolRef` held by a registered op resolves from that op.

use super::Verifier;
use crate::diagnostics::Diagnostic;
use crate::entity::OpId;
use crate::symbol_table::{format_symbol_ref, visit_op_symbol_refs};

impl Verifier<'_> {
    /// Every `SymbolRef` in the op's properties and attributes must name a symbol of an enclosing
    /// symbol table (searched outward). Ops outside any symbol table are not checked: there is
    /// nothing to resolve against.
    pub(super) fn check_symbol_uses(&mut self, op: OpId, order: u32) {
        let ctx = self.ctx;
        let mut refs = std::mem::take(&mut self.ref_buf);
        refs.clear();
        visit_op_symbol_refs(ctx, op, &mut |a| refs.push(a));
        if !refs.is_empty() && self.symbols.nearest_symbol_table(ctx, op).is_some() {
            for &r in &refs {
                if self.symbols.lookup_symbol_ref_from(ctx, op, r).is_none() {
                    let msg = format!(
                        "'{}' op '{}' does not reference a valid symbol",
                        ctx.name(op),
                        format_symbol_ref(ctx, r)
                    );
                    self.error(order, Diagnostic::error(ctx.loc(op), msg));
                }
            }
        }
        self.ref_buf = refs;
    }
}
