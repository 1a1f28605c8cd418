//! determine-ad-stack-size: sizes every adstack of a kernel, in two phases.
//!
//! 1. [`bellman_ford`]: the kernel's control-flow graph after each alloca, one node per
//!    straight-line segment weighted by what it pushes and pops; a longest path (SPFA on negated
//!    integer weights) gives the exact maximum depth of stacks pushed in straight-line code, in
//!    branches (the max of the branches) and in balanced loops. A loop that pushes more than it
//!    pops is a positive cycle: the stack goes to phase 2.
//! 2. [`size_expr_capture`]: a structural upper bound as a SizeExpr (the sum over the pushes of
//!    the products of the trip counts of the loops between push and alloca, maxima over
//!    branches), with trip counts bounded by `value_bound` from literals, field loads, ndarray
//!    shapes and reads, enclosing induction variables, locals and stacks with several stores,
//!    and integer arithmetic on these; `while` loops by a provable counter (`while_bound`).
//!
//! The SizeExpr grammar, its semantics and the soundness argument are in
//! `qd_adstack::size_expr`. The pass is [`pass::DetermineAdStackSize`].
//!
//! The crate also holds [`minimize_tape`], the pass that runs before sizing and replaces every
//! stack whose primal the reverse pass never reads by plain locals.

pub mod bellman_ford;
mod carried;
mod diff;
mod index;
mod kernel_fields;
mod locals;
mod loops;
pub mod minimize_tape;
pub mod pass;
mod select_store;
mod size_expr_capture;
mod value_bound;
pub mod walk;
mod while_bound;

pub use minimize_tape::{minimize_tape_pass_info, MinimizeTapePass};
pub use pass::{
    assign_stack_ids, determine_ad_stack_size_pass_info, duplicate_stack_id, id_scope,
    kernel_allocas, stack_bound, DetermineAdStackSize, PASS_NAME,
};
