//! Upstream MLIR's arith dialect (the subset kernels need): ops, verifiers, folders, custom
//! syntax, with upstream's names, syntax and generic properties (MLIR 22).
//!
//! Layout: `flags` (`#arith.fastmath`/`#arith.overflow`), `predicates` (cmpi/cmpf), `consts`
//! (constant values for folding), `verify` and `syntax` (shared checks and syntax pieces),
//! `elementwise` (the one-place definition of binary/unary/cast ops, also used by math), `ops`
//! (one file per family), `patterns` (canonicalizations), `build` (builders), `reverse` (the
//! derivative rules' building blocks; each op's rule sits next to the op).

pub mod build;
pub mod consts;
pub mod elementwise;
pub mod flags;
pub mod fold;
pub mod names;
pub mod ops;
pub mod patterns;
pub mod predicates;
pub mod reverse;
pub mod syntax;
pub mod testing;
pub mod verify;

#[cfg(test)]
mod tests;

pub use build::*;
pub use elementwise::{CastRule, ElementwiseDef, Shape};
pub use flags::{fastmath, overflow, ArithFlags, FlagKind};
pub use ops::cmp::{CmpFOp, CmpIOp};
pub use ops::constant::{materialize_constant, ConstantOp};
pub use predicates::{CmpFPredicate, CmpIPredicate};
pub use syntax::FlagsProp;
pub use verify::TypeClass;

use qd_ir::{Context, DialectDef};

/// The arith dialect: its ops, `#arith.` attribute validation and constant materialization.
pub fn dialect() -> DialectDef {
    let mut d = DialectDef::new("arith");
    d.ops = ops::all();
    d.parse_attr = Some(flags::parse_attr);
    d.materialize_constant = Some(materialize_constant);
    d
}

/// Registers the arith dialect (a no-op when it is already registered).
pub fn register(ctx: &mut Context) {
    ctx.register_dialect(dialect());
}
