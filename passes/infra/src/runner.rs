//! Running a pass pipeline: nesting, instrumentation hooks, verification after each pass,
//! failure handling and wall-time accounting.

use crate::instrument::PassInstrumentation;
use crate::manager::{Element, OpPassManager, PassSlot};
use crate::pass::PassFailure;
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{Context, Diagnostic, OpId, Severity};
use std::time::Instant;

pub(crate) struct Runner<'a> {
    pub(crate) verify_each: bool,
    pub(crate) instrumentations: &'a mut Vec<Box<dyn PassInstrumentation>>,
}

fn error_count(ctx: &Context) -> usize {
    ctx.diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}

impl Runner<'_> {
    /// Runs `pm` on `op`. `outer` holds the symbol tables of the ops enclosing `op`, for
    /// verifying `op` after each pass: passes on `op` change only `op` and its insides, so those
    /// tables stay valid while `pm` runs on every op of one nesting (built once per nesting, not
    /// once per op: verify-each on `qd.kernel(...)` over many kernels stays linear).
    pub(crate) fn run_pm(
        &mut self,
        pm: &mut OpPassManager,
        ctx: &mut Context,
        op: OpId,
        outer: &mut SymbolTableCollection,
    ) -> Result<bool, PassFailure> {
        let mut changed = false;
        for el in &mut pm.elements {
            match el {
                Element::Pass(slot) => changed |= self.run_pass(slot, ctx, op, outer)?,
                Element::Nested(n) => {
                    let start = Instant::now();
                    let targets: Vec<OpId> = if n.deep {
                        ctx.walk_pre_order(op)
                            .into_iter()
                            .skip(1)
                            .filter(|&o| n.pm.anchor.matches(ctx, o))
                            .collect()
                    } else {
                        direct_children(ctx, op)
                            .filter(|&o| n.pm.anchor.matches(ctx, o))
                            .collect()
                    };
                    let mut failed = false;
                    // Passes on `op` may have changed its symbols and those in it: the targets'
                    // enclosing tables are built anew for this nesting, but those enclosing `op`.
                    let mut enclosing = SymbolTableCollection::new();
                    let lent = outer.lend_enclosing(ctx, op, &mut enclosing);
                    for t in targets {
                        // An earlier run (on an enclosing op) may have erased it.
                        if !ctx.is_alive(t) {
                            continue;
                        }
                        match self.run_pm(&mut n.pm, ctx, t, &mut enclosing) {
                            Ok(c) => changed |= c,
                            Err(PassFailure) => {
                                failed = true;
                                break;
                            }
                        }
                    }
                    outer.take_back(&mut enclosing, &lent);
                    n.wall += start.elapsed();
                    if failed {
                        return Err(PassFailure);
                    }
                }
            }
        }
        Ok(changed)
    }

    fn run_pass(
        &mut self,
        slot: &mut PassSlot,
        ctx: &mut Context,
        op: OpId,
        outer: &mut SymbolTableCollection,
    ) -> Result<bool, PassFailure> {
        let pass = slot.pass.as_mut();
        if let Some(a) = pass.anchor() {
            if ctx.name(op) != a {
                let msg = format!(
                    "pass '{}' runs on '{a}' ops but was scheduled on a '{}' op",
                    pass.name(),
                    ctx.name(op)
                );
                ctx.emit_error(ctx.loc(op), msg);
                return Err(PassFailure);
            }
        }
        for i in self.instrumentations.iter_mut() {
            i.before_pass(ctx, pass, op);
        }
        let errors_before = error_count(ctx);
        let start = Instant::now();
        let result = pass.run(ctx, op);
        slot.wall += start.elapsed();
        let outcome = match result {
            Ok(o) => o,
            Err(PassFailure) => {
                // A failing pass must say why; keep the user from a silent failure if it did not.
                if error_count(ctx) == errors_before {
                    let msg = format!("pass '{}' failed", pass.name());
                    ctx.emit_error(ctx.loc(op), msg);
                }
                for i in self.instrumentations.iter_mut() {
                    i.after_pass_failed(ctx, pass, op);
                }
                return Err(PassFailure);
            }
        };
        if self.verify_each {
            if let Err(diags) = qd_ir::verifier::verify_in(ctx, op, outer) {
                let note = format!("verification failed after running pass '{}'", pass.name());
                let mut diags = diags.into_iter();
                match diags.next() {
                    Some(first) => ctx.emit(first.with_note(ctx.loc(op), note)),
                    None => ctx.emit(Diagnostic::error(ctx.loc(op), note)),
                }
                for d in diags {
                    ctx.emit(d);
                }
                for i in self.instrumentations.iter_mut() {
                    i.after_pass_failed(ctx, pass, op);
                }
                return Err(PassFailure);
            }
        }
        for i in self.instrumentations.iter_mut() {
            i.after_pass(ctx, pass, op, outcome.changed);
        }
        Ok(outcome.changed)
    }
}

/// The ops directly in `op`'s regions, in order; filtered as they come, so that a module of a
/// million symbols and a few kernels does not collect a million-entry vector per nesting.
fn direct_children(ctx: &Context, op: OpId) -> impl Iterator<Item = OpId> + '_ {
    ctx.regions(op)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r).iter())
        .flat_map(|&b| ctx.block_ops(b))
}
