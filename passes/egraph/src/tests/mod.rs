//! Tests: one module per concern. `env` holds a launch environment and its proptest strategy,
//! `exprs` the strategies of random expressions over it.

mod env;
mod exprs;
mod fusion;
mod pass;
mod range_rules;
mod rules;
mod soundness;
mod sum_rules;

use crate::simplify::{simplify, simplify_exact, Limits};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{
    Config, RngAlgorithm, RngSeed, TestCaseResult, TestError, TestRng, TestRunner,
};
use qd_adstack::size_expr::SizeExpr;

pub fn p(s: &str) -> SizeExpr {
    SizeExpr::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The simplified text.
pub fn simp(s: &str) -> String {
    simplify(&p(s), Limits::default()).expr.to_string()
}

/// The text after the exact rules alone (no fusion).
pub fn exact(s: &str) -> String {
    simplify_exact(&p(s), Limits::default()).expr.to_string()
}

/// Whether the named rules (all rules for `&[]`) prove `lhs = rhs`: both in one e-graph, run,
/// then in one class. Constant folding (the analysis) is always on.
pub fn proves(lhs: &str, rhs: &str, names: &[&str]) -> bool {
    use crate::analysis::SizeAnalysis;
    use crate::lang::{to_rec_expr_in, FieldTable, Sz};
    let (l, r) = (p(lhs), p(rhs));
    let mut fields = FieldTable::default();
    for n in names {
        assert!(
            crate::simplify::rule_names().iter().any(|r| r == n),
            "no rule {n}"
        );
    }
    let rules: Vec<_> = crate::simplify::rules()
        .iter()
        .filter(|r| names.is_empty() || names.contains(&r.name.as_str()))
        .collect();
    let runner = egg::Runner::<Sz, SizeAnalysis, ()>::new(SizeAnalysis::new(&l))
        .with_iter_limit(12)
        .with_node_limit(20_000)
        .with_expr(&to_rec_expr_in(&l, &mut fields))
        .with_expr(&to_rec_expr_in(&r, &mut fields))
        .run(rules);
    runner.egraph.find(runner.roots[0]) == runner.egraph.find(runner.roots[1])
}

/// A proptest runner that depends neither on the environment (`PROPTEST_*`) nor on history (no
/// failure files): `cases` cases from a fixed seed, shrinking on failure.
pub fn runner(cases: u32, seed: u64) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        fork: false,
        timeout: 0,
        verbose: 0,
        max_shrink_time: 0,
        max_shrink_iters: 10_000,
        max_local_rejects: 65_536,
        max_global_rejects: 1024,
        max_flat_map_regens: 1_000_000,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Runs `test` on `cases` values of `strategy`; on failure, panics with the message of the
/// shrunk (minimal) failing case, which names the expression in its text form.
pub fn forall<S: Strategy>(
    cases: u32,
    seed: u64,
    strategy: S,
    test: impl Fn(S::Value) -> TestCaseResult,
) {
    match runner(cases, seed).run(&strategy, test) {
        Ok(()) => {}
        Err(TestError::Fail(why, _)) => panic!("minimal failing case (shrunk): {why}"),
        Err(TestError::Abort(why)) => panic!("proptest aborted: {why}"),
    }
}

/// `n` values of `strategy`, the same on every run.
pub fn sample<S: Strategy>(n: usize, seed: u64, strategy: S) -> Vec<S::Value> {
    let mut r = runner(1, seed);
    (0..n)
        .map(|_| strategy.new_tree(&mut r).expect("no rejects").current())
        .collect()
}
