//! `canonicalize`: applies every registered op's canonicalization patterns and folders with the
//! greedy driver until a fixed point (or an iteration/rewrite cap), as MLIR's canonicalizer.

use qd_ir::greedy::{apply_patterns_greedily, GreedyConfig};
use qd_ir::rewrite::RewritePattern;
use qd_ir::{Context, OpId};
use qd_pass::{OptionDecl, ParsedOptions, Pass, PassInfo, PassOutcome, PassResult, Statistic};

const DESCRIPTION: &str = "Canonicalize operations";

pub fn canonicalize_pass_info() -> PassInfo {
    PassInfo::new("canonicalize", DESCRIPTION, create)
        .option(OptionDecl::int(
            "max-iterations",
            10,
            "Max. iterations between applying patterns / simplifying regions",
        ))
        .option(OptionDecl::int(
            "max-num-rewrites",
            -1,
            "Max. number of pattern rewrites in one run (-1: no limit)",
        ))
        .option(OptionDecl::string_list(
            "disable-patterns",
            "Names of patterns that should not be applied",
        ))
        .option(OptionDecl::string_list(
            "enable-patterns",
            "Names of the only patterns to apply (all when empty)",
        ))
        .option(OptionDecl::bool(
            "test-convergence",
            false,
            "Fail if the patterns do not converge within max-iterations",
        ))
}

fn create(o: &ParsedOptions) -> Result<Box<dyn Pass>, String> {
    let max_iterations = o.get_int("max-iterations");
    if max_iterations < 1 {
        return Err(format!(
            "max-iterations must be at least 1, got {max_iterations}"
        ));
    }
    let max_rewrites = match o.get_int("max-num-rewrites") {
        -1 => None,
        n if n >= 0 => Some(n as usize),
        n => {
            return Err(format!(
                "max-num-rewrites must be -1 or non-negative, got {n}"
            ))
        }
    };
    Ok(Box::new(CanonicalizePass {
        max_iterations: max_iterations as usize,
        max_rewrites,
        test_convergence: o.get_bool("test-convergence"),
        disabled: o.get_list("disable-patterns").to_vec(),
        enabled: o.get_list("enable-patterns").to_vec(),
        num_rewrites: 0,
        num_folds: 0,
    }))
}

pub struct CanonicalizePass {
    pub max_iterations: usize,
    /// `None`: no limit.
    pub max_rewrites: Option<usize>,
    /// Fail when the driver does not reach a fixed point.
    pub test_convergence: bool,
    /// Names of patterns not to apply.
    pub disabled: Vec<String>,
    /// When not empty, the names of the only patterns to apply.
    pub enabled: Vec<String>,
    num_rewrites: u64,
    num_folds: u64,
}

impl Default for CanonicalizePass {
    fn default() -> Self {
        CanonicalizePass {
            max_iterations: 10,
            max_rewrites: None,
            test_convergence: false,
            disabled: Vec::new(),
            enabled: Vec::new(),
            num_rewrites: 0,
            num_folds: 0,
        }
    }
}

/// The canonicalization patterns of every registered op, in registration order.
pub fn collect_canonicalization_patterns(ctx: &Context) -> Vec<Box<dyn RewritePattern>> {
    let mut patterns = Vec::new();
    for info in ctx.registered_ops() {
        if let Some(add) = info.canonicalization_patterns {
            add(&mut patterns);
        }
    }
    patterns
}

impl Pass for CanonicalizePass {
    fn name(&self) -> &'static str {
        "canonicalize"
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn display_name(&self) -> String {
        "Canonicalizer".into()
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        let mut patterns = collect_canonicalization_patterns(ctx);
        patterns.retain(|p| {
            let name = p.name();
            (self.enabled.is_empty() || self.enabled.iter().any(|e| e == name))
                && !self.disabled.iter().any(|d| d == name)
        });
        let config = GreedyConfig {
            max_iterations: self.max_iterations,
            max_rewrites: self.max_rewrites,
            fold: true,
            cse_constants: true,
        };
        let result = apply_patterns_greedily(ctx, op, &patterns, &config);
        self.num_rewrites += result.rewrites as u64;
        self.num_folds += result.folded as u64;
        if self.test_convergence && !result.converged {
            let msg = format!(
                "canonicalizer failed to converge within {} iterations",
                self.max_iterations
            );
            ctx.emit_error(ctx.loc(op), msg);
            return Err(qd_pass::PassFailure);
        }
        Ok(PassOutcome::changed(result.changed))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-rewrites",
                description: "Number of pattern rewrites applied",
                value: self.num_rewrites,
            },
            Statistic {
                name: "num-folds",
                description: "Number of ops folded",
                value: self.num_folds,
            },
        ]
    }
}

#[cfg(test)]
#[path = "canonicalize_tests.rs"]
mod tests;
