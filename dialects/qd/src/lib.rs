//! The qd frontend dialect: fields, ndarrays, kernels, loops, locals and local aggregates.
//!
//! A program is a `builtin.module` of `qd.field`s (dense global arrays) and `qd.kernel`s. Scalar
//! arithmetic is upstream MLIR's `arith` and `math`; this dialect adds only what those lack.
//!
//! ```text
//! module {
//!   qd.field @x : !qd.field<8xf32> {needs_grad}
//!   qd.field @y : !qd.field<f32> {needs_grad}
//!   qd.kernel @compute(%a: !qd.ndarray<?xi32>) {
//!     qd.struct_for (%i) in @x {                     // parallel: directly in the kernel body
//!       %v = qd.alloca : !qd.ptr<f32>
//!       %x_i = qd.load @x[%i] : f32
//!       qd.local_store %x_i, %v : !qd.ptr<f32>
//!       %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
//!       %c0 = arith.constant 0 : i32
//!       qd.range_for %j = %c0 to %n : i32 { ... }    // serial: nested in a loop
//!       %r = qd.local_load %v : !qd.ptr<f32>
//!       qd.atomic_add %r, @y[] : f32
//!     }
//!   }
//! }
//! ```
//!
//! Conventions (see each module for its ops' syntax and rules):
//! - Types ([`types`], syntax in [`type_syntax`]): `!qd.field<16xf32>` (`!qd.field<f32>` is a
//!   scalar field), `!qd.ndarray<?x?xf32>`, `!qd.ptr<T>`, `!qd.array<10xT>` (`4x10xT` nests),
//!   `!qd.struct<T, U>`. Field and ndarray elements are integer or float scalars.
//! - Indices of fields, ndarrays and local arrays are `i32` (as Taichi's); struct_for induction
//!   variables are `i32`; range_for bounds are any one signless integer type or `index`.
//! - Generic form (valid for `mlir-opt --allow-unregistered-dialect`): symbols are `sym_name`
//!   string properties, symbol uses are flat symbol-reference properties (`field = @x`),
//!   `qd.kernel` has `function_type = (...) -> ()`, integer operands of the syntax are `i64`
//!   properties (`axis` of ndarray_shape, `index` of member_ptr); induction variables are the
//!   entry block arguments of the loop body; `qd.if` always has two regions (the second is empty
//!   when there is no else); `qd.while` has a condition region (ending in `qd.condition`) and a
//!   body region.
//! - A body region that takes no arguments may be empty (no block) in generic form, as MLIR
//!   prints an empty block; the custom syntax always gives bodies a block. The typed wrappers'
//!   `ensure_*` methods create a missing block.
//! - Parallelism: a `range_for`/`struct_for` directly in a kernel body is a parallel task; every
//!   other loop (and every `while`) runs serially per thread. `qd.break`/`qd.continue` need a
//!   serial loop as their nearest enclosing loop, reached through `qd.if`s only.
//! - Atomics (`atomic_add/min/max` on fields, `ndarray_atomic_add/sub/min/max` on ndarrays) have
//!   an optional result: the element's value before the update (`%old = qd.atomic_add ...`);
//!   without `%r =` they have none. [`global_write`] describes every write of global memory
//!   (field and ndarray stores and atomics) in one form, for passes.
//! - `qd.ndarray_shape` is PURE (an ndarray's shape is fixed for a launch); loads are READ_ONLY;
//!   stores, atomics and `alloca` have side effects; `elem_ptr`/`member_ptr` are PURE.
//!
//! Each op is declared with `qd_ir::declare_op!`: a typed wrapper (`RangeForOp(pub OpId)` with
//! accessors such as `lower(ctx)`, `body(ctx)`, `induction_var(ctx)`), a `build` helper that
//! creates it at a [`qd_ir::Builder`]'s insertion point, the structural verifier (counts,
//! properties) and, for the access ops, the assembly format. Loops, `qd.if`, `qd.kernel`,
//! `elem_ptr` and `member_ptr` keep hand-written syntax (induction variables, signatures, checks
//! at parse time). Accessors assume verified IR; verifiers accept any input.
//!
//! Verification: each op's hook checks its own operands, results, properties, regions and
//! nesting rules and returns MLIR-style messages (`'qd.load' op expects 2 indices for field @x
//! of rank 2, got 1`). What the IR verifier already checks is left to it, so that one mistake
//! gives one error: an unresolved `@field` inside a module (`'qd.load' op '@z' does not reference
//! a valid symbol`), terminators that are not last in their block, more than one block per region.

pub mod constraints;
pub mod control;
pub mod globals;
pub mod locals;
pub mod loops;
pub mod memory;
pub mod ndarray;
pub mod syntax;
pub mod type_syntax;
pub mod types;
pub mod verify;
pub mod writes;

pub use control::{BreakOp, ContinueOp, IfOp};
pub use globals::{enclosing_kernel, lookup_field, lookup_field_in, FieldOp, KernelOp};
pub use locals::{pointee_of, AllocaOp, ElemPtrOp, LocalLoadOp, LocalStoreOp, MemberPtrOp};
pub use loops::{
    enclosing_loop, is_loop, is_parallel_loop, parallel_loops, ConditionOp, RangeForOp,
    StructForOp, WhileOp,
};
pub use memory::{AtomicKind, AtomicOp, LoadOp, StoreOp};
pub use ndarray::{NdarrayAtomicOp, NdarrayLoadOp, NdarrayShapeOp, NdarrayStoreOp};
pub use types::{
    array_type, field_type, ndarray_type, ptr_type, struct_type, verify_type, ArrayType, FieldType,
    NdarrayType, PtrType, StructType,
};
pub use writes::{global_write, GlobalWrite, WriteKind, WriteTarget};

pub const FIELD_OP: &str = FieldOp::NAME;
pub const KERNEL_OP: &str = KernelOp::NAME;
pub const RANGE_FOR_OP: &str = RangeForOp::NAME;
pub const STRUCT_FOR_OP: &str = StructForOp::NAME;
pub const WHILE_OP: &str = WhileOp::NAME;
pub const CONDITION_OP: &str = ConditionOp::NAME;
pub const IF_OP: &str = IfOp::NAME;
pub const BREAK_OP: &str = BreakOp::NAME;
pub const CONTINUE_OP: &str = ContinueOp::NAME;
pub const LOAD_OP: &str = LoadOp::NAME;
pub const STORE_OP: &str = StoreOp::NAME;
pub const ATOMIC_ADD_OP: &str = memory::AtomicAddOp::NAME;
pub const ATOMIC_MIN_OP: &str = memory::AtomicMinOp::NAME;
pub const ATOMIC_MAX_OP: &str = memory::AtomicMaxOp::NAME;
pub const NDARRAY_LOAD_OP: &str = NdarrayLoadOp::NAME;
pub const NDARRAY_STORE_OP: &str = NdarrayStoreOp::NAME;
pub const NDARRAY_SHAPE_OP: &str = NdarrayShapeOp::NAME;
pub const NDARRAY_ATOMIC_ADD_OP: &str = ndarray::NdarrayAtomicAddOp::NAME;
pub const NDARRAY_ATOMIC_SUB_OP: &str = ndarray::NdarrayAtomicSubOp::NAME;
pub const NDARRAY_ATOMIC_MIN_OP: &str = ndarray::NdarrayAtomicMinOp::NAME;
pub const NDARRAY_ATOMIC_MAX_OP: &str = ndarray::NdarrayAtomicMaxOp::NAME;
pub const ALLOCA_OP: &str = AllocaOp::NAME;
pub const LOCAL_LOAD_OP: &str = LocalLoadOp::NAME;
pub const LOCAL_STORE_OP: &str = LocalStoreOp::NAME;
pub const ELEM_PTR_OP: &str = ElemPtrOp::NAME;
pub const MEMBER_PTR_OP: &str = MemberPtrOp::NAME;

/// The qd dialect: its ops and its type syntax, to register in a [`qd_ir::Context`].
pub fn dialect() -> qd_ir::DialectDef {
    let mut d = qd_ir::DialectDef::new(types::DIALECT);
    d.ops.extend(globals::ops());
    d.ops.extend(loops::ops());
    d.ops.extend(control::ops());
    d.ops.extend(memory::ops());
    d.ops.extend(ndarray::ops());
    d.ops.extend(locals::ops());
    d.parse_type = Some(type_syntax::parse_type);
    d.print_type = Some(type_syntax::print_type);
    d.types = types::IRDL_TYPES;
    d
}

#[cfg(test)]
mod tests;
