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

use crate::marks::ValueMarks;
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
    let mut symbols = SymbolTableCollection::new();
    lowering_cannot_fail_in(ctx, &mut symbols, &mut ValueMarks::default(), kernel)
}

/// As [`lowering_cannot_fail`], resolving fields through the pass's `symbols` (with its scratch
/// `marks`).
pub fn lowering_cannot_fail_in(
    ctx: &Context,
    symbols: &mut SymbolTableCollection,
    marks: &mut ValueMarks,
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
        marks,
        classes: Vec::new(),
        converted: Vec::new(),
    };
    let ok = args_ok
        && ctx
            .block_op_vec(body)
            .into_iter()
            .all(|op| check.parallel_loop(op));
    check.marks.clear();
    ok
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

/// What the check does with an op, by its name (decided once per name).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Class {
    /// `arith` and `math`: legal as they are.
    Legal,
    Adstack,
    RangeFor,
    Other,
}

fn class_of(name: &str) -> Class {
    match name.split_once('.').map_or("", |(d, _)| d) {
        "arith" | "math" => Class::Legal,
        "adstack" => Class::Adstack,
        _ if name == qd::RANGE_FOR_OP => Class::RangeFor,
        _ => Class::Other,
    }
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
    /// The values of the loop being checked seen so far (results of its ops, arguments of its
    /// blocks) whose type the conversion keeps: an operand found here is defined in the loop
    /// and of a kept type, known without reading its definition.
    marks: &'s mut ValueMarks,
    /// By op name index: its class, once asked.
    classes: Vec<Option<Class>>,
    /// By type index: 0 not asked yet, 1 kept, 2 converted (see [`converted`]).
    converted: Vec<u8>,
}

impl Check<'_, '_> {
    fn class(&mut self, op: OpId) -> Class {
        let name = self.ctx.op_name_of(op);
        let i = name.index();
        if i >= self.classes.len() {
            self.classes.resize(i + 1, None);
        }
        *self.classes[i].get_or_insert_with(|| class_of(self.ctx.op_name_str(name)))
    }

    /// [`converted`], once per type.
    fn converted(&mut self, ty: Type) -> bool {
        let i = ty.index();
        if i >= self.converted.len() {
            self.converted.resize(i + 1, 0);
        }
        if self.converted[i] == 0 {
            self.converted[i] = 1 + u8::from(converted(self.ctx, ty));
        }
        self.converted[i] == 2
    }

    /// Marks `v` (defined in the loop) when its type is kept.
    fn mark(&mut self, v: Value) {
        if !self.converted(self.ctx.value_type(v)) {
            self.marks.mark(v);
        }
    }

    /// Marks the arguments of `block`, just entered.
    fn enter(&mut self, block: BlockId) {
        self.inside.insert(block);
        for &a in self.ctx.block_args(block) {
            self.mark(a);
        }
    }

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
        self.marks.clear();
        self.enter(lb);
        // Blocks are checked from a worklist (nests may be deep); a nested block is entered
        // before it is checked, so that the values of the blocks around it are known inside.
        let mut work = vec![lb];
        while let Some(b) = work.pop() {
            for o in ctx.block_ops(b) {
                let class = self.class(o);
                if !ctx.operands(o).all(|v| self.operand_ok(b, v)) || !self.op_cannot_fail(o, class)
                {
                    return false;
                }
                for &r in ctx.results(o) {
                    self.mark(r);
                }
                if class == Class::RangeFor {
                    let Some(nb) = single_block(ctx, o).filter(|_| ctx.num_results(o) == 0) else {
                        return false;
                    };
                    self.enter(nb);
                    work.push(nb);
                } else if ctx.has_regions(o) {
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
        if self.marks.contains(v) {
            return true;
        }
        let ctx = self.ctx;
        let inside = |b: BlockId| b == at || self.inside.contains(&b);
        match ctx.value_def(v) {
            ValueDef::BlockArg { block, .. } => {
                inside(block) || (block == self.kbody && scalar(ctx, v))
            }
            ValueDef::OpResult { op, .. } => ctx.parent_block(op).is_some_and(inside),
        }
    }

    fn op_cannot_fail(&mut self, op: OpId, class: Class) -> bool {
        let ctx = self.ctx;
        match class {
            Class::Legal => {
                // A marked operand is of a kept type.
                return !ctx
                    .operands(op)
                    .any(|v| !self.marks.contains(v) && self.converted(ctx.value_type(v)))
                    && !ctx
                        .results(op)
                        .iter()
                        .any(|&r| self.converted(ctx.value_type(r)));
            }
            Class::Adstack => return self.stack_op_cannot_fail(op),
            Class::RangeFor | Class::Other => {}
        }
        let name = ctx.name(op);
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
