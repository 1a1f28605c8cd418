//! The adstack dialect: per-thread LIFO stacks of `(primal, adjoint)` entries that hold the
//! loop-carried values of a kernel for its reverse pass.
//!
//! ```text
//! %s = adstack.alloca : f32 {max_size = 100}   // executing it empties the stack
//! adstack.push %s, %v : f32                    // count += 1; top := (v, 0); past capacity: no
//!                                              // write, the overflow flag is set
//! adstack.pop %s : f32                         // count = max(count - 1, 0)
//! %v = adstack.load_top %s : f32               // primal of entry max(count - 1, 0)
//! %a = adstack.load_top_adj %s : f32           // adjoint of that entry (float stacks only)
//! adstack.acc_adjoint %s, %a : f32             // top.adjoint += a (float stacks only)
//! ```
//!
//! Generic form (accepted by `mlir-opt --allow-unregistered-dialect`):
//! `%s = "adstack.alloca"() <{max_size = 100 : i64}> : () -> !adstack.stack<f32>`,
//! `"adstack.push"(%s, %v) : (!adstack.stack<f32>, f32) -> ()`, and so on: every other op takes
//! the stack as operand 0 and has no properties.
//!
//! - The type ([`types`]) is `!adstack.stack<T>`, `T` an integer (`i1` included) or a float.
//!   Integer and i1 stacks carry no adjoints: `load_top_adj` / `acc_adjoint` on them do not verify.
//! - `alloca` properties: `id` (non-negative i64, optional: the stack's id in its kernel),
//!   `max_size` (non-negative i64, optional: the static capacity),
//!   `size_expr` (optional, any attribute for now: the symbolic bound the sizing passes capture)
//!   and `primal_elided` (unit, optional: `minimize-tape` replaced the stack by plain locals; such
//!   an alloca must have no uses, it only records the stack).
//! - Reading an empty stack reads entry 0, which is zero-initialised.
//! - Effects: `alloca`, `push`, `pop` and `acc_adjoint` have side effects (they are kept in
//!   order); `load_top` and `load_top_adj` are READ_ONLY.
//!
//! The ops are declared in [`ops`] with `qd_ir::declare_op!` (wrappers, builders, structural
//! verifiers, assembly formats); their own verify hooks are in `verify`, the stack type's custom
//! form in `syntax`.

pub mod ops;
pub mod size_expr;
mod syntax;
pub mod types;
mod verify;

pub use ops::{
    build_acc_adjoint, build_alloca, build_load_top, build_load_top_adj, build_pop, build_push,
    max_size_of, stack_elem, stack_id_of, AccAdjointOp, AllocaOp, LoadTopAdjOp, LoadTopOp, PopOp,
    PushOp,
};
pub use types::{stack_type, StackType};

use qd_ir::DialectDef;

pub const ALLOCA_OP: &str = AllocaOp::NAME;
pub const PUSH_OP: &str = PushOp::NAME;
pub const POP_OP: &str = PopOp::NAME;
pub const LOAD_TOP_OP: &str = LoadTopOp::NAME;
pub const LOAD_TOP_ADJ_OP: &str = LoadTopAdjOp::NAME;
pub const ACC_ADJOINT_OP: &str = AccAdjointOp::NAME;

/// The alloca's static capacity property.
pub const MAX_SIZE: &str = "max_size";
/// The alloca's symbolic bound property.
pub const SIZE_EXPR: &str = "size_expr";
/// The alloca's unit property saying that `minimize-tape` replaced the stack by plain locals (the
/// reverse pass never read its primal): the alloca stays, with no uses and no entries (sized 0),
/// as the record of the elided stack for the adstack report; lowering drops it.
pub const PRIMAL_ELIDED: &str = "primal_elided";
/// The alloca's stable id, unique within its kernel (set by `determine-ad-stack-size`): the
/// runtime's per-launch plan and every device find the stack's size and heap slice by it.
pub const ID: &str = "id";

/// The adstack attributes for IRDL (`qd-opt --print-irdl`).
pub const IRDL_ATTRS: &[qd_ir::irdl::AttrDecl] = &[qd_ir::irdl::AttrDecl {
    mnemonic: "size",
    summary: "a symbolic bound on a stack's depth (a SizeExpr)",
}];

/// The adstack dialect: its ops and its type syntax, to register in a [`qd_ir::Context`].
pub fn dialect() -> DialectDef {
    let mut d = DialectDef::new(types::DIALECT);
    d.ops = vec![
        AllocaOp::op_info(),
        PushOp::op_info(),
        PopOp::op_info(),
        LoadTopOp::op_info(),
        LoadTopAdjOp::op_info(),
        AccAdjointOp::op_info(),
    ];
    d.parse_type = Some(types::parse_type);
    d.print_type = Some(types::print_type);
    d.parse_attr = Some(size_expr::parse_attr);
    d.types = types::IRDL_TYPES;
    d.attrs = IRDL_ATTRS;
    d
}

#[cfg(test)]
mod tests;
