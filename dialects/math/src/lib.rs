//! Upstream MLIR's math dialect (the subset kernels need): ops, verifiers, folders, custom
//! syntax. Every op is a float elementwise op with a `fastmath` property
//! (`%r = math.sin %a fastmath<fast> : f32`), defined once in the table below through arith's
//! [`ElementwiseDef`]. Constants are `arith.constant`s: the dialect materializes through arith.
//!
//! Folds follow upstream: f32 through the f32 libm functions, f64 through the f64 ones, other
//! widths not at all, except `absf`, `floor` and `ceil` which are exact everywhere. The logarithms
//! and square roots of negative numbers are left alone (as upstream does).

mod fold;
pub mod names;
mod ops;
mod reverse;

#[cfg(test)]
mod tests;

pub use ops::ops;
use qd_ir::{Context, DialectDef};

/// The math dialect. Its constants are `arith.constant`s.
pub fn dialect() -> DialectDef {
    let mut d = DialectDef::new("math");
    d.ops = ops();
    d.materialize_constant = Some(qd_arith::materialize_constant);
    d
}

/// Registers math and the arith dialect it builds on.
pub fn register(ctx: &mut Context) {
    qd_arith::register(ctx);
    ctx.register_dialect(dialect());
}
