//! The ndarray dialect: whole-array elementwise ops and reductions with NumPy broadcasting, the
//! tensor level that `fuse-elementwise` (passes/fusion) compiles into `qd.kernel`s.
//!
//! ```text
//! func.func @f(%x: !ndarray.array<4x8xf32>, %b: !ndarray.array<1x8xf32>, %s: f32) -> !ndarray.array<f32> {
//!   %0 = ndarray.add %x, %b : !ndarray.array<4x8xf32>, !ndarray.array<1x8xf32> -> !ndarray.array<4x8xf32>
//!   %1 = ndarray.mul %0, %s : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xf32>
//!   %2 = ndarray.relu %1 : !ndarray.array<4x8xf32>
//!   %3 = ndarray.sum %2 : !ndarray.array<4x8xf32> -> !ndarray.array<f32>
//!   return %3 : !ndarray.array<f32>
//! }
//! ```
//!
//! - Type ([`types`]): `!ndarray.array<4x8xf32>`, a whole array of static shape (rank 0:
//!   `!ndarray.array<f32>`); elements f32, f64, or i1 for comparison results.
//! - Elementwise ops ([`ops`]): add, sub, mul, div, maximum, minimum, pow, lt, le, gt, ge, eq,
//!   ne (binary), neg, relu, sigmoid, tanh, exp, log, sqrt, abs (unary), select (where), and
//!   `ndarray.primitive "name"` for a registered primitive. A binary op takes an array or a
//!   scalar on either side. Shapes broadcast as NumPy's ([`broadcast`]); the verifier gives a
//!   located error naming the shapes and the axis that do not.
//! - Reductions: sum, mean, max over every axis, or over `{axis = k}`.
//! - Every elementwise op is a primitive of [`primitives`] (its scalar body in arith/math ops,
//!   an optional hand-written backward, whether it fuses); [`primitives::register_primitive`]
//!   adds ops that then fuse as built-in ones.
//! - After fusion: `ndarray.launch @k(...)` runs a generated `qd.kernel`, and
//!   `ndarray.scalar_apply` keeps a primitive with a hand-written backward as one scalar op until
//!   reverse-mode-ad has used that backward ([`scalar_apply`]).

pub mod broadcast;
pub mod ops;
pub mod primitives;
pub mod scalar_apply;
pub mod types;
pub mod verify;

pub use broadcast::{broadcast, broadcast_all, strides};
pub use ops::*;
pub use primitives::{
    primitive, primitive_names, register_primitive, BackwardArgs, BackwardFn, ForwardFn, Primitive,
    ResultKind,
};
pub use scalar_apply::expand_scalar_applies;
pub use types::{array_type, shape_and_elem, ArrayType};

/// The ndarray dialect, to register in a [`qd_ir::Context`].
pub fn dialect() -> qd_ir::DialectDef {
    let mut d = qd_ir::DialectDef::new(types::DIALECT);
    d.ops = ops::all();
    d.parse_type = Some(types::parse_type);
    d.print_type = Some(types::print_type);
    d
}
