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
