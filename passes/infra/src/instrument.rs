//! Pass instrumentation: hooks the pass manager calls around every pass run, and
//! [`PrintIrInstrumentation`], which implements `--print-ir-after-all` / `--print-ir-after=NAME`.

use crate::pass::Pass;
use qd_ir::text::{print_op, PrintOptions};
use qd_ir::{Context, OpId};
use std::io::Write;

/// Hooks around each pass run. `op` is the op the pass runs on.
pub trait PassInstrumentation {
    fn before_pass(&mut self, _ctx: &Context, _pass: &dyn Pass, _op: OpId) {}
    /// After a successful run (and its verification, when enabled).
    fn after_pass(&mut self, _ctx: &Context, _pass: &dyn Pass, _op: OpId, _changed: bool) {}
    /// After a run that failed, or whose result failed verification.
    fn after_pass_failed(&mut self, _ctx: &Context, _pass: &dyn Pass, _op: OpId) {}
}

/// Prints the op a pass ran on after it, under mlir-opt's header
/// `// -----// IR Dump After CSE (cse) //----- //`.
pub struct PrintIrInstrumentation {
    /// Print after every pass.
    pub after_all: bool,
    /// Print after the passes with these CLI names.
    pub after: Vec<String>,
    /// Print only when the pass changed the IR.
    pub only_changed: bool,
    /// Print the generic op form.
    pub generic: bool,
    /// Print locations.
    pub debug_info: bool,
    sink: Box<dyn Write>,
}

impl PrintIrInstrumentation {
    /// Prints to stderr, as mlir-opt does.
    pub fn new(after_all: bool, after: Vec<String>) -> Self {
        Self::with_sink(after_all, after, Box::new(std::io::stderr()))
    }
    pub fn with_sink(after_all: bool, after: Vec<String>, sink: Box<dyn Write>) -> Self {
        PrintIrInstrumentation {
            after_all,
            after,
            only_changed: false,
            generic: false,
            debug_info: false,
            sink,
        }
    }

    fn wants(&self, pass: &dyn Pass) -> bool {
        self.after_all || self.after.iter().any(|n| n == pass.name())
    }
}

impl PassInstrumentation for PrintIrInstrumentation {
    fn after_pass(&mut self, ctx: &Context, pass: &dyn Pass, op: OpId, changed: bool) {
        if !self.wants(pass) || (self.only_changed && !changed) {
            return;
        }
        let opts = PrintOptions {
            generic: self.generic,
            debug_info: self.debug_info,
        };
        let text = print_op(ctx, op, &opts);
        // A failed write to stderr has nowhere better to be reported.
        let _ = write!(
            self.sink,
            "// -----// IR Dump After {} ({}) //----- //\n{}\n\n",
            pass.display_name(),
            pass.name(),
            text.trim_end()
        );
    }
}
