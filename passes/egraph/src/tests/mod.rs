//! Tests: one module per concern. `env` holds a launch environment and a seeded generator of
//! environments and expressions.

mod env;
mod fusion;
mod pass;
mod range_rules;
mod rules;
mod soundness;

use crate::simplify::{simplify, simplify_exact, Limits};
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
