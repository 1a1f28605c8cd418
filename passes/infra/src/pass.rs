//! The [`Pass`] trait: one transformation or analysis run on one op at a time.

use qd_ir::{Context, OpId};

/// What a successful pass run did.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct PassOutcome {
    /// Whether the IR changed. Passes must report this honestly: the pass manager and
    /// instrumentation (e.g. `--print-ir-after-change`-like tools, tests) rely on it.
    pub changed: bool,
}

impl PassOutcome {
    pub const UNCHANGED: PassOutcome = PassOutcome { changed: false };
    pub const CHANGED: PassOutcome = PassOutcome { changed: true };

    pub fn changed(changed: bool) -> Self {
        PassOutcome { changed }
    }
}

/// A pass (or a pass manager) failed. The diagnostics saying why are already in the [`Context`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PassFailure;

impl std::fmt::Display for PassFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("pass failed (see the emitted diagnostics)")
    }
}

impl std::error::Error for PassFailure {}

/// The result of running a pass: on failure, the pass has emitted error diagnostics into the context.
pub type PassResult = Result<PassOutcome, PassFailure>;

/// A named counter a pass keeps (as MLIR's `Pass::Statistic`), cumulative over all of its runs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Statistic {
    /// Kebab-case name, e.g. `num-cse'd`.
    pub name: &'static str,
    pub description: &'static str,
    pub value: u64,
}

/// A pass. The pass manager runs one instance on every op it is scheduled on, one op at a time,
/// so a pass may keep cumulative state such as statistics in `self`.
pub trait Pass {
    /// The kebab-case name used on the command line and in pipelines (`canonicalize`).
    fn name(&self) -> &'static str;
    /// One line saying what the pass does.
    fn description(&self) -> &'static str;
    /// The name shown in IR dumps and timing reports (`Canonicalizer`, as MLIR's class names).
    /// Defaults to the CLI name in CamelCase.
    fn display_name(&self) -> String {
        camel_case(self.name())
    }
    /// The op name this pass must run on; `None` for a pass that runs on any op.
    fn anchor(&self) -> Option<&'static str> {
        None
    }
    /// Runs the pass on `op` (the pass may look at and change everything nested in `op`, but not
    /// `op`'s siblings or parents).
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult;
    /// The pass's statistics, cumulative over all runs of this instance.
    fn statistics(&self) -> Vec<Statistic> {
        Vec::new()
    }
}

/// `symbol-dce` -> `SymbolDce`.
pub fn camel_case(name: &str) -> String {
    name.split(['-', '_'])
        .filter(|s| !s.is_empty())
        .map(|s| {
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_names() {
        assert_eq!(camel_case("symbol-dce"), "SymbolDce");
        assert_eq!(camel_case("cse"), "Cse");
        assert_eq!(camel_case("a--b_c"), "ABC");
    }
}
