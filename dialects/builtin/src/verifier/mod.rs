//! The IR verifier: structure, terminators, operand dominance, symbol uses, and each op's own verifier.
//!
//! [`verify`] walks an op and everything nested in it once, in pre-order, and collects every
//! error (it does not stop at the first). For each op it checks, in this order: registration,
//! successors and terminator position, operand scope and dominance, the structure of its regions
//! (block counts, terminators, entry-block predecessors), symbol tables and symbol uses. The op's
//! own `OpInfo::verify` hook runs after its nested ops, and only when the structural checks of
//! its regions passed, so that hooks may assume that structure. Then, when `verify` passed, its
//! `OpInfo::verify_symbol_uses` hook (MLIR's `verifySymbolUses`) runs with the verifier's
//! [`SymbolTableCollection`]: each table is built once for the whole walk, so resolving every
//! use costs near-linear time, not uses x symbols. By then the enclosing symbol tables were
//! checked (pre-order). Diagnostics come out in
//! pre-order of the op being checked, a hook's error first. Messages follow MLIR's verifier.
//! The block holding the root is not checked (whether it ends with a terminator is its parent's
//! business), so nested ops can be verified on their own.

mod operands;
mod structure;
mod symbols;

use crate::context::Context;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::dominance::DomCache;
use crate::entity::{Attribute, OpId};
use crate::registry::OpTraits;
use crate::symbol_table::{SymbolTable, SymbolTableCollection};

/// Verifies `op` and every op nested in it. Errors come back in a deterministic order.
pub fn verify(ctx: &Context, op: OpId) -> Result<(), Vec<Diagnostic>> {
    verify_with(ctx, op, SymbolTableCollection::new()).0
}

/// [`verify`], with the symbol tables of the ops enclosing `op` (those `op`'s symbol uses
/// resolve through) taken from `outer`, and built there on first use. A pass manager that
/// verifies each of many ops of one module after a pass on it (`qd.kernel(...)` with
/// verify-each) keeps one `outer` while it runs nested passes, which change only their op's
/// insides: the module's table is built once, not once per op. Tables of `op` and of ops in it
/// are built afresh. Same result as [`verify`] while the enclosing tables are up to date.
pub fn verify_in(
    ctx: &Context,
    op: OpId,
    outer: &mut SymbolTableCollection,
) -> Result<(), Vec<Diagnostic>> {
    let mut symbols = SymbolTableCollection::new();
    let lent = outer.lend_enclosing(ctx, op, &mut symbols);
    let (result, mut symbols) = verify_with(ctx, op, symbols);
    outer.take_back(&mut symbols, &lent);
    result
}

/// Verifies `op` resolving symbols through `symbols`; gives the collection back.
fn verify_with(
    ctx: &Context,
    op: OpId,
    symbols: SymbolTableCollection,
) -> (Result<(), Vec<Diagnostic>>, SymbolTableCollection) {
    let mut v = Verifier {
        ctx,
        root: op,
        dom: DomCache::new(),
        symbols,
        diags: Vec::new(),
        ref_buf: Vec::new(),
        block_marks: Vec::new(),
    };
    v.run(op);
    if v.diags.is_empty() {
        return (Ok(()), v.symbols);
    }
    // Stable: within one op, its hook's error (rank 0) first, then the others in emission order.
    v.diags.sort_by_key(|(order, rank, _)| (*order, *rank));
    (
        Err(v.diags.into_iter().map(|(_, _, d)| d).collect()),
        v.symbols,
    )
}

/// Verifies `op`, adds any errors to the context's diagnostics, and returns whether it passed.
pub fn verify_and_emit(ctx: &mut Context, op: OpId) -> bool {
    match verify(ctx, op) {
        Ok(()) => true,
        Err(diags) => {
            for d in diags {
                ctx.emit(d);
            }
            false
        }
    }
}

/// One op's own checks, not its nested ops' nor the generic ones: its `verify` hook, then, if
/// that passed, its `verify_symbol_uses` hook resolving through `symbols`.
pub fn verify_op_hooks(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<()> {
    let Some(info) = ctx.info(op) else {
        return Ok(());
    };
    if let Some(verify) = info.verify {
        verify(ctx, op)?;
    }
    match info.verify_symbol_uses {
        Some(uses) => uses(ctx, op, symbols),
        None => Ok(()),
    }
}

struct Verifier<'c> {
    ctx: &'c Context,
    root: OpId,
    dom: DomCache,
    /// Symbol tables built so far, for the generic check and the ops' symbol-use hooks.
    symbols: SymbolTableCollection,
    /// (pre-order number of the op being checked, rank, diagnostic).
    diags: Vec<(u32, u8, Diagnostic)>,
    /// Reused buffer for the symbol references of one op.
    ref_buf: Vec<Attribute>,
    /// For each block being walked, the number of diagnostics when its first op was entered:
    /// a missing terminator is reported only when the block's ops had no error (MLIR's verifier
    /// checks terminators on leaving a block and stops at the first error, so an invalid op in a
    /// function without a return gives one error, not two).
    block_marks: Vec<usize>,
}

enum Frame {
    Enter(OpId),
    /// After the nested ops: run the hook if the op's structure was sound.
    Exit {
        op: OpId,
        order: u32,
        sound: bool,
    },
}

impl Verifier<'_> {
    fn run(&mut self, root: OpId) {
        let ctx = self.ctx;
        let mut order = 0u32;
        // An explicit stack: deeply nested IR must not overflow the call stack.
        let mut stack = vec![Frame::Enter(root)];
        while let Some(frame) = stack.pop() {
            match frame {
                Frame::Enter(op) => {
                    if op != root && ctx.parent_block(op).is_some() && ctx.prev_op(op).is_none() {
                        self.block_marks.push(self.diags.len());
                    }
                    let sound = self.check_op(op, order);
                    stack.push(Frame::Exit { op, order, sound });
                    order += 1;
                    for &r in ctx.regions(op).iter().rev() {
                        for &b in ctx.region_blocks(r).iter().rev() {
                            let mut cur = ctx.last_op(b);
                            while let Some(c) = cur {
                                stack.push(Frame::Enter(c));
                                cur = ctx.prev_op(c);
                            }
                        }
                    }
                }
                Frame::Exit { op, order, sound } => {
                    if sound {
                        self.run_hooks(op, order);
                    }
                    if op != root && ctx.parent_block(op).is_some() && ctx.next_op(op).is_none() {
                        let mark = self.block_marks.pop().unwrap_or(0);
                        if self.diags.len() == mark {
                            if let Some(d) = self.missing_terminator(op) {
                                self.error(order, d);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The op's hooks ([`verify_op_hooks`]): one error at most, ranked first among the op's.
    fn run_hooks(&mut self, op: OpId, order: u32) {
        if let Err(d) = verify_op_hooks(self.ctx, op, &mut self.symbols) {
            self.diags.push((order, 0, d));
        }
    }

    fn error(&mut self, order: u32, d: Diagnostic) {
        self.diags.push((order, 1, d));
    }

    /// Every check of one op but its hook; returns whether its regions are structurally sound.
    fn check_op(&mut self, op: OpId, order: u32) -> bool {
        self.check_registration(op, order);
        self.check_position(op, order);
        self.check_operands(op, order);
        let sound = self.check_regions(op, order);
        let table_sound = self.check_symbol_table(op, order);
        if self.ctx.is_registered(op) && !self.ctx.has_trait(op, OpTraits::SYMBOL_USER) {
            self.check_symbol_uses(op, order);
        }
        sound && table_sound
    }

    /// Unregistered ops are errors in registered dialects, and elsewhere unless allowed.
    fn check_registration(&mut self, op: OpId, order: u32) {
        let ctx = self.ctx;
        if ctx.is_registered(op) {
            return;
        }
        let name = ctx.name(op);
        let dialect = ctx.dialect_of(op);
        let msg = if ctx.is_dialect_registered(dialect) {
            format!(
                "unregistered operation '{name}' found in dialect ('{dialect}') that does not \
                 allow unknown operations"
            )
        } else if !ctx.allow_unregistered {
            format!(
                "'{name}' op created with unregistered dialect. If this is intended, please call \
                 allowUnregisteredDialects() on the MLIRContext, or use \
                 -allow-unregistered-dialect with the MLIR opt tool used"
            )
        } else {
            return;
        };
        self.error(order, Diagnostic::error(ctx.loc(op), msg));
    }

    fn table(&mut self, op: OpId) -> &SymbolTable {
        self.symbols.table(self.ctx, op)
    }
}

#[cfg(test)]
pub(crate) mod test_dialect;
#[cfg(test)]
mod tests;
