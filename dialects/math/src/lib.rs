//! Upstream MLIR's math dialect (the subset kernels need): ops, verifiers, folders, custom
//! syntax, derivative rules. Every op is an elementwise op defined once in the table of `ops.rs`
//! through arith's [`qd_arith::ElementwiseDef`]: the float ops carry a `fastmath` property
//! (`%r = math.sin %a fastmath<fast> : f32`); `math.fpowi %a, %n : f32, i32` raises a float to a
//! signless integer power; `math.isnan %a : f32` (isinf, isfinite) gives an i1 and keeps its
//! fastmath in the attribute dictionary; `math.absi` is on integers. Constants are
//! `arith.constant`s: the dialect materializes through arith.
//!
//! `names` has the op names, `ops` the table, `fold` the folders (as upstream's: see there) and
//! `reverse` the derivative rules.

mod fold;
mod host;
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
