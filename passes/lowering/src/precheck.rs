//! Which kernels `convert-qd-to-lowered` can lower in place: those whose lowering provably cannot
//! fail, so that no copy is needed to leave the module as it was on failure (the copy of a
//! million-op kernel is most of the pass's time and doubles its memory).
//!
//! The check is conservative and read-only. It accepts a kernel when each step's failure modes
//! are ruled out:
//!
//! - the body is one block whose ops are all top-level parallel `qd.struct_for` loops over fields
//!   that resolve (partition and outline look them up; no serial code means no spills);
//! - each loop body is one block whose ops are, at any depth of nested serial `qd.range_for`
//!   loops (one block, no results: their pattern cannot fail), each
//!   - legal as it is (`arith`, `math`), on no pointer or stack (the only types the conversion
//!     changes: a legal op on one would keep a driver cast alive, a conversion failure);
//!   - or a field access (`qd.load`, `qd.store`, `qd.atomic_add/min/max`,
//!     `ad.load_field_adjoint`, `ad.acc_field_adjoint`, `ad.store_field_adjoint`) naming a field
//!     that resolves, with one integer or index operand per dimension, and no atomic on an i1
//!     element (the patterns' own errors);
//!   - or a local (`qd.alloca`, `qd.local_load`, `qd.local_store`: their patterns cannot fail);
//!   - or an adstack op whose stack is an `adstack.alloca` with an `id` and a stack type, the ids
//!     distinct within the kernel, and a float element for the adjoint ops
//!     (`adstack.load_top_adj`, `adstack.acc_adjoint`): the errors of the facts and the stack
//!     patterns;
//! - so there are no jumps (remove_jumps has nothing to do), and no ndarray, local-array or
//!   other control-flow ops;
//! - every operand from outside its loop is a kernel argument of integer, index or float type
//!   (the only values outline can make available without a spill).
//!
//! Anything else is lowered on a copy, as before.

use qd_ad::{
    FieldAdjointWriteOp, LoadFieldAdjointOp, ACC_FIELD_ADJOINT_OP, LOAD_FIELD_ADJOINT_OP,
    STORE_FIELD_ADJOINT_OP,
};
use qd_adstack::{stack_id_of, StackType};
use qd_frontend as qd;
use qd_frontend::{is_parallel_loop, lookup_field_in, KernelOp, PtrType, StructForOp};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{BlockId, Context, OpId, Type, TypeData, Value, ValueDef};
use std::collections::HashSet;

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
    let mut check = Check {
        ctx,
        symbols,
        kbody: body,
        inside: HashSet::new(),
        stack_ids: HashSet::new(),
    };
    args_ok
        && ctx
            .block_op_vec(body)
            .into_iter()
            .all(|op| check.parallel_loop(op))
}

/// An integer, index or float value (a scalar kernel argument becomes `lowered.arg`).
fn scalar(ctx: &Context, v: Value) -> bool {
    let d = ctx.type_data(ctx.value_type(v));
    d.is_integer() || d.is_index() || d.is_float()
}

/// A type the conversion changes: a pointer to a local, or a stack.
fn converted(ctx: &Context, ty: Type) -> bool {
    PtrType::from_type(ctx, ty).is_some() || StackType::from_type(ctx, ty).is_some()
}

/// The state of the check of one kernel.
struct Check<'c, 's> {
    ctx: &'c Context,
    symbols: &'s mut SymbolTableCollection,
    kbody: BlockId,
    /// The blocks of the loop being checked, entered so far.
    inside: HashSet<BlockId>,
    /// The ids of the stacks allocated so far in the kernel.
    stack_ids: HashSet<u32>,
}

impl Check<'_, '_> {
    fn parallel_loop(&mut self, op: OpId) -> bool {
        let ctx = self.ctx;
        let Some(s) = StructForOp::from_op(ctx, op) else {
            return false;
        };
        if !is_parallel_loop(ctx, op)
            || lookup_field_in(ctx, self.symbols, op, s.field_name(ctx)).is_none()
            || ctx.num_results(op) != 0
        {
            return false;
        }
        let Some(lb) = single_block(ctx, op) else {
            return false;
        };
        self.inside.clear();
        self.inside.insert(lb);
        // Blocks are checked from a worklist (nests may be deep); a nested block is entered
        // before it is checked, so that the values of the blocks around it are known inside.
        let mut work = vec![lb];
        while let Some(b) = work.pop() {
            for o in ctx.block_ops(b) {
                if !ctx.operands(o).all(|v| self.operand_ok(b, v)) || !self.op_cannot_fail(o) {
                    return false;
                }
                if ctx.name(o) == qd::RANGE_FOR_OP {
                    let Some(nb) = single_block(ctx, o).filter(|_| ctx.num_results(o) == 0) else {
                        return false;
                    };
                    self.inside.insert(nb);
                    work.push(nb);
                } else if !ctx.regions(o).is_empty() {
                    return false;
                }
            }
        }
        true
    }

    /// An operand (of an op of block `at`) defined in the loop (by an op or as a block argument
    /// of a block in it) or a scalar kernel argument. Most are defined in `at` itself: that is
    /// asked first, without a lookup.
    fn operand_ok(&self, at: BlockId, v: Value) -> bool {
        let ctx = self.ctx;
        let inside = |b: BlockId| b == at || self.inside.contains(&b);
        match ctx.value_def(v) {
            ValueDef::BlockArg { block, .. } => {
                inside(block) || (block == self.kbody && scalar(ctx, v))
            }
            ValueDef::OpResult { op, .. } => ctx.parent_block(op).is_some_and(inside),
        }
    }

    fn op_cannot_fail(&mut self, op: OpId) -> bool {
        let ctx = self.ctx;
        let name = ctx.name(op);
        match ctx.dialect_of(op) {
            "arith" | "math" => {
                return !ctx.operands(op).any(|v| converted(ctx, ctx.value_type(v)))
                    && !ctx
                        .results(op)
                        .iter()
                        .any(|&r| converted(ctx, ctx.value_type(r)));
            }
            "adstack" => return self.stack_op_cannot_fail(op),
            _ => {}
        }
        // (field name, index operands from, atomic)
        let (field, first, atomic) = match name {
            qd::RANGE_FOR_OP | qd::ALLOCA_OP | qd::LOCAL_LOAD_OP | qd::LOCAL_STORE_OP => {
                return true
            }
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
        let Some(f) = lookup_field_in(ctx, self.symbols, op, field) else {
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

    /// An adstack op the facts and the stack patterns accept (see the module doc).
    fn stack_op_cannot_fail(&mut self, op: OpId) -> bool {
        use qd_adstack as st;
        let ctx = self.ctx;
        let name = ctx.name(op);
        if name == st::ALLOCA_OP {
            return stack_elem(ctx, op).is_some()
                && stack_id_of(ctx, op).is_some_and(|id| self.stack_ids.insert(id));
        }
        let adjoint = match name {
            st::PUSH_OP | st::POP_OP | st::LOAD_TOP_OP => false,
            st::LOAD_TOP_ADJ_OP | st::ACC_ADJOINT_OP => true,
            _ => return false,
        };
        let elem = ctx
            .operands(op)
            .next()
            .and_then(|s| ctx.defining_op(s))
            .filter(|&a| ctx.name(a) == st::ALLOCA_OP && stack_id_of(ctx, a).is_some())
            .and_then(|a| stack_elem(ctx, a));
        elem.is_some_and(|e| !adjoint || ctx.type_data(e).is_float())
    }
}

/// The element type of the stack of `adstack.alloca` `alloca`.
fn stack_elem(ctx: &Context, alloca: OpId) -> Option<Type> {
    let ty = ctx.value_type(*ctx.results(alloca).first()?);
    StackType::from_type(ctx, ty).map(|s| s.elem(ctx))
}

/// The one block of the one region of `op`.
fn single_block(ctx: &Context, op: OpId) -> Option<BlockId> {
    match ctx.regions(op) {
        [r] => match ctx.region_blocks(*r) {
            [b] => Some(*b),
            _ => None,
        },
        _ => None,
    }
}
