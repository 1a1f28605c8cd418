//! simplify-size-expr: e-graph (egg) simplification of adstack SizeExprs.
//!
//! A SizeExpr (`qd_adstack::size_expr`) is an upper bound on a stack's depth, evaluated at every
//! launch; this crate makes it cheaper to evaluate (fewer `MaxOverRange` loops, fewer reads,
//! fewer nodes) and never smaller. The contract: **the result evaluates to at least the input
//! under every environment**, and to exactly the input unless the sub-of-range fusion (two maxima
//! or two sums over one loop) applied; it never evaluates a read or a range the input would not (so it cannot fail where
//! the input succeeds).
//!
//! How:
//! - [`lang`]: the grammar as an egg language ([`lang::Sz`]).
//! - [`analysis`]: per e-class interval, free variables and monotonicity in each variable, with
//!   constant folding (a class whose interval is one value becomes that literal).
//! - [`rules`]: algebraic equalities under saturating semantics (neutral/absorbing elements,
//!   commutativity, max/min idempotence, associativity and absorption, interval dominance,
//!   `+`/`*` associativity where nothing saturates, factoring of monotone operations out of
//!   max/min, `(a - b) + b = max(a, b)`, ...).
//! - [`range`]: `MaxOverRange` rules (free body, monotone body evaluated at the end of its range,
//!   max-splitting, hoisting of non-negative factors and terms), each proved by intervals.
//! - [`sum`]: `SumOverRange` closed forms (free body, arithmetic series, and through splitting
//!   and factor hoisting a linear body), each exact under saturation, proved by intervals.
//! - [`fuse`]: the sub-of-range fusion (maxima or sums) over the same loop: an inequality, so applied to
//!   terms in positive positions only, never merged into an e-graph.
//! - [`extract`]: deterministic, scope-aware extraction by [`cost::Cost`] (loops, then reads,
//!   then size; ties by e-node order).
//! - [`simplify`]: the driver with explicit iteration and node limits and no time limit;
//!   [`pass`]: the pass, with nodes before/after as statistics.

pub mod analysis;
pub mod cost;
pub mod extract;
pub mod fuse;
pub mod lang;
pub mod pass;
pub mod range;
pub mod rules;
pub mod simplify;
pub mod sum;

pub use pass::{simplify_size_expr_pass_info, SimplifySizeExpr, PASS_NAME};
pub use simplify::{simplify, simplify_exact, Limits, Simplified};

#[cfg(test)]
mod tests;
