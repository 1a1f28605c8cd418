//! The ad dialect: gradient declarations and adjoint access to fields and ndarrays.
//!
//! ```text
//! module {
//!   qd.field @x : !qd.field<8xf32> {needs_grad}
//!   qd.field @y : !qd.field<f32> {needs_grad}
//!   qd.kernel @k(%a: !qd.ndarray<?xf32>) { ... }
//!   ad.reverse @k -> @k_grad                       // @k_grad set by reverse-mode-ad
//!   qd.kernel @k_grad(%a: !qd.ndarray<?xf32>, %a_adj: !qd.ndarray<?xf32>) {
//!     %dy = ad.load_field_adjoint @y[] : f32        // reads y.grad
//!     ad.acc_field_adjoint %dy, @x[%i] : f32        // x.grad[i] += dy (atomic)
//!     ad.store_field_adjoint %dy, @x[%i] : f32      // x.grad[i] := dy
//!     ad.acc_ndarray_adjoint %dy, %a_adj[%i] : !qd.ndarray<?xf32>   // atomic
//!     %e = ad.load_element %arr[%i, 1] : !qd.ptr<!qd.array<4x!qd.struct<i32, f32>>>
//!     ad.store_element %e, %arr[%i, 1] : !qd.ptr<!qd.array<4x!qd.struct<i32, f32>>>
//!   }
//! }
//! ```
//!
//! - [`reverse`]: `ad.reverse @k [-> @k_grad] [{active = [...]}]`, the gradient kernel convention
//!   ([`gradient_arg_types`], [`default_activity`]) and look-ups ([`find_reverse`]).
//! - [`access`]: the adjoint field and ndarray ops. Fields must be `needs_grad` with a float
//!   element; indices are i32, one per dimension. `load_field_adjoint` is READ_ONLY; the writes
//!   have side effects.
//! - [`element`]: element-addressed loads and stores of local arrays and structs (what
//!   `element-access-ad` makes of `qd.elem_ptr`/`qd.member_ptr` chains); a path of literal and
//!   i32-value indices, one per level.
//!
//! Generic forms are valid for `mlir-opt --allow-unregistered-dialect`: symbols are flat
//! symbol-reference properties (`kernel = @k`, `gradient = @k_grad`, `field = @x`), `active` an
//! array of booleans.

pub mod access;
pub mod element;
pub mod reverse;
mod verify;

pub use access::{
    build_acc_field_adjoint, build_acc_field_adjoint_ref, build_acc_ndarray_adjoint,
    build_load_field_adjoint, build_load_field_adjoint_ref, build_store_field_adjoint,
    build_store_field_adjoint_ref, AccFieldAdjointOp, AccNdarrayAdjointOp, FieldAdjointWriteOp,
    LoadFieldAdjointOp, StoreFieldAdjointOp,
};
pub use element::{
    build_load_element, build_store_element, element_access, element_type, LoadElementOp,
    PathIndex, StoreElementOp, DYNAMIC,
};
pub use reverse::{
    default_activity, find_reverse, gradient_arg_types, is_differentiable_arg, reverse_decls,
    ReverseOp,
};

pub const DIALECT: &str = "ad";
pub const REVERSE_OP: &str = ReverseOp::NAME;
pub const LOAD_FIELD_ADJOINT_OP: &str = LoadFieldAdjointOp::NAME;
pub const ACC_FIELD_ADJOINT_OP: &str = AccFieldAdjointOp::NAME;
pub const STORE_FIELD_ADJOINT_OP: &str = StoreFieldAdjointOp::NAME;
pub const ACC_NDARRAY_ADJOINT_OP: &str = AccNdarrayAdjointOp::NAME;
pub const LOAD_ELEMENT_OP: &str = LoadElementOp::NAME;
pub const STORE_ELEMENT_OP: &str = StoreElementOp::NAME;

/// The ad dialect, to register in a [`qd_ir::Context`].
pub fn dialect() -> qd_ir::DialectDef {
    let mut d = qd_ir::DialectDef::new(DIALECT);
    d.ops.extend(reverse::ops());
    d.ops.extend(access::ops());
    d.ops.extend(element::ops());
    d
}

#[cfg(test)]
mod element_tests;
#[cfg(test)]
mod tests;
