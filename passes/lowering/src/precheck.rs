//! Which kernels `convert-qd-to-lowered` can lower in place: those whose lowering provably cannot
//! fail, so that no copy is needed to leave the module as it was on failure (the copy of a
//! million-op kernel is most of the pass's time and doubles its memory).
//!
//! The check is conservative and read-only. It accepts a kernel when each step's failure modes
//! are ruled out:
//!
//! - the body is one block whose ops are all top-level parallel `qd.struct_for` loops over fields
//!   that resolve (partition and outline look them up; no serial code means no spills);
//! - each loop body is one block of ops without regions, each either legal as it is (`arith`,
//!   `math`) or a field access (`qd.load`, `qd.store`, `qd.atomic_add/min/max`,
//!   `ad.load_field_adjoint`, `ad.acc_field_adjoint`, `ad.store_field_adjoint`) naming a field
//!   that resolves, with one integer or index operand per dimension, and no atomic on an i1
//!   element (the patterns' own errors);
//! - so there are no jumps (remove_jumps has nothing to do), no adstack ops (the facts and the
//!   stack patterns cannot fail), and no ndarray or local ops;
//! - every operand from outside its loop is a kernel argument of integer, index or float type
//!   (the only values outline can make available without a spill).
//!
//! Anything else is lowered on a copy, as before.

use qd_ad::{
    FieldAdjointWriteOp, LoadFieldAdjointOp, ACC_FIELD_ADJOINT_OP, LOAD_FIELD_ADJOINT_OP,
    STORE_FIELD_ADJOINT_OP,
};
use qd_frontend as qd;
use qd_frontend::{is_parallel_loop, lookup_field_in, KernelOp, StructForOp};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{BlockId, Context, OpId, TypeData, Value, ValueDef};

/// Whether lowering `kernel` cannot fail (see the module doc); false when unsure.
#[cfg(test)]
pub fn lowering_cannot_fail(ctx: &Context, kernel: OpId) -> bool {
    lowering_cannot_fail_in(ctx, &mut SymbolTableCollection::new(), kernel)
}

/// As [`lowering_cannot_fail`], resolving fields through the pass's `symbols`.
pub fn lowering_cannot_fail_in(
    ctx: &Context,
    symbols: &mut SymbolTableCollection,
    kernel: OpId,
) -> bool {
    let Some(body) = KernelOp(kernel).body(ctx) else {
        return false;
    };
    if ctx.regions(kernel).len() != 1 || ctx.region_blocks(ctx.regions(kernel)[0]).len() != 1 {
        return false;
    }
    let args_ok = ctx.block_args(body).iter().all(|&a| scalar(ctx, a));
    args_ok
        && ctx
            .block_op_vec(body)
            .into_iter()
            .all(|op| loop_cannot_fail(ctx, symbols, body, op))
}

/// An integer, index or float value (a scalar kernel argument becomes `lowered.arg`).
fn scalar(ctx: &Context, v: Value) -> bool {
    let d = ctx.type_data(ctx.value_type(v));
    d.is_integer() || d.is_index() || d.is_float()
}

fn loop_cannot_fail(
    ctx: &Context,
    symbols: &mut SymbolTableCollection,
    kbody: BlockId,
    op: OpId,
) -> bool {
    let Some(s) = StructForOp::from_op(ctx, op) else {
        return false;
    };
    if !is_parallel_loop(ctx, op)
        || lookup_field_in(ctx, symbols, op, s.field_name(ctx)).is_none()
        || ctx.regions(op).len() != 1
        || ctx.region_blocks(ctx.regions(op)[0]).len() != 1
        || ctx.num_results(op) != 0
    {
        return false;
    }
    let Some(lb) = s.body(ctx) else {
        return false;
    };
    ctx.block_op_vec(lb).into_iter().all(|o| {
        ctx.regions(o).is_empty()
            && op_cannot_fail(ctx, symbols, o)
            && ctx.operands(o).all(|v| operand_ok(ctx, kbody, lb, v))
    })
}

/// An operand defined in the loop body (an op of it or an induction variable) or a scalar
/// kernel argument.
fn operand_ok(ctx: &Context, kbody: BlockId, lb: BlockId, v: Value) -> bool {
    match ctx.value_def(v) {
        ValueDef::BlockArg { block, .. } => block == lb || (block == kbody && scalar(ctx, v)),
        ValueDef::OpResult { op, .. } => ctx.parent_block(op) == Some(lb),
    }
}

fn op_cannot_fail(ctx: &Context, symbols: &mut SymbolTableCollection, op: OpId) -> bool {
    let name = ctx.name(op);
    match ctx.dialect_of(op) {
        "arith" | "math" => return true,
        _ => {}
    }
    // (field name, index operands from, atomic)
    let (field, first, atomic) = match name {
        qd::LOAD_OP => (qd::LoadOp(op).field_name(ctx), 0, false),
        qd::STORE_OP => (qd::StoreOp(op).field_name(ctx), 1, false),
        qd::ATOMIC_ADD_OP | qd::ATOMIC_MIN_OP | qd::ATOMIC_MAX_OP => {
            (qd::AtomicOp(op).field_name(ctx), 1, true)
        }
        LOAD_FIELD_ADJOINT_OP => (LoadFieldAdjointOp(op).field_name(ctx), 0, false),
        ACC_FIELD_ADJOINT_OP => (FieldAdjointWriteOp(op).field_name(ctx), 1, true),
        STORE_FIELD_ADJOINT_OP => (FieldAdjointWriteOp(op).field_name(ctx), 1, false),
        _ => return false,
    };
    let Some(f) = lookup_field_in(ctx, symbols, op, field) else {
        return false;
    };
    let elem = f.elem(ctx);
    if atomic && matches!(ctx.type_data(elem), TypeData::Integer { width: 1, .. }) {
        return false;
    }
    let operands = ctx.operand_vec(op);
    let Some(indices) = operands.get(first..) else {
        return false;
    };
    indices.len() == f.shape(ctx).len()
        && indices.iter().all(|&i| {
            let d = ctx.type_data(ctx.value_type(i));
            d.is_integer() || d.is_index()
        })
}
