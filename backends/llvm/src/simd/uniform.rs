//! Uniformity: which values of a task differ between its lanes (parallel iterations), which
//! private slots need one copy per lane, and which control ops diverge.
//!
//! A value is *varying* when it depends on `lowered.thread_id`, on a load from per-lane memory
//! (an adstack heap, a varying slot) or at a varying address, or on an atomic's old value; else
//! it is *uniform* and stays one LLVM scalar. A *slot* is a `lowered.alloca` or an adstack's count
//! (which the codegen keeps in a local, see `codegen::adstack`): it is varying when a store into
//! it stores a varying value, goes through a varying address, or runs under divergent control,
//! or when a load reads it at a varying address; a uniform slot is one scalar copy for all lanes.
//! A control op diverges when its condition or bounds are varying (a `lowered.while` when its
//! `lowered.condition` is). Optimistic fixpoint: everything starts uniform and sets only grow.
//!
//! [`plan`] also says why a task cannot be vectorised (an op or a pointer it does not know).

use qd_arith::names::{ADDI, MULI};
use qd_ir::{AttrData, Context, OpId, TypeData, Value};
use qd_lowered as lw;
use std::collections::{HashMap, HashSet};

/// A private slot: a `lowered.alloca` or the count of adstack `id`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Slot {
    Alloca(OpId),
    Count(u32),
}

/// What a pointer points into.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Root {
    /// Fields, ndarrays, temporaries: memory every lane shares.
    Global,
    /// A private slot.
    Slot(Slot),
    /// An adstack heap (not a count header): per-lane memory.
    Heap,
}

/// The uniformity of one task.
#[derive(Clone, Default, Debug)]
pub(crate) struct Info {
    pub varying: HashSet<Value>,
    pub varying_slots: HashSet<Slot>,
    /// Control ops whose condition or bounds are varying.
    pub divergent: HashSet<OpId>,
    pub roots: HashMap<Value, Root>,
}

impl Info {
    /// Whether pointer `p` points into per-lane (interleaved) memory.
    pub fn lane_memory(&self, p: Value) -> bool {
        match self.roots.get(&p) {
            Some(Root::Heap) => true,
            Some(Root::Slot(s)) => self.varying_slots.contains(s),
            _ => false,
        }
    }
}

/// The stack whose count header `heap_ptr` op `op` addresses (an i64 pointer at byte
/// `row * stride + adstack_offset k`), as `codegen::adstack::count_header` finds it.
pub(crate) fn count_header(ir: &Context, op: OpId) -> Option<u32> {
    let ty = qd_lowered::types::pointee(ir, ir.value_type(ir.result(op, 0)))?;
    if !matches!(ir.type_data(ty), TypeData::Integer { width: 64, .. }) {
        return None;
    }
    let def = |v: Value, name: &str| ir.defining_op(v).filter(|&d| ir.name(d) == name);
    let add = def(ir.operand(op, 0), ADDI)?;
    let (a, b) = (ir.operand(add, 0), ir.operand(add, 1));
    for (row_start, off) in [(a, b), (b, a)] {
        let (Some(mul), Some(off)) = (def(row_start, MULI), def(off, lw::ADSTACK_OFFSET_OP)) else {
            continue;
        };
        let names: Vec<&str> = ir
            .operands(mul)
            .filter_map(|v| ir.defining_op(v))
            .map(|d| ir.name(d))
            .collect();
        if names.len() == 2
            && names.contains(&lw::ADSTACK_ROW_OP)
            && names.contains(&lw::ADSTACK_STRIDE_OP)
        {
            return match ir.prop(off, "id").map(|a| ir.attr_data(a)) {
                Some(AttrData::Integer { value, .. }) => u32::try_from(*value).ok(),
                _ => None,
            };
        }
    }
    None
}

/// The ops a vectorised task may hold (besides `arith.*` and `math.*`).
const KNOWN: &[&str] = &[
    lw::ARG_OP,
    lw::NDARRAY_PTR_OP,
    lw::NDARRAY_DIM_OP,
    lw::FIELD_PTR_OP,
    lw::TEMP_PTR_OP,
    lw::THREAD_ID_OP,
    lw::TASK_BEGIN_OP,
    lw::OFFSET_OP,
    lw::LOAD_OP,
    lw::STORE_OP,
    lw::ATOMIC_ADD_OP,
    lw::ATOMIC_MIN_OP,
    lw::ATOMIC_MAX_OP,
    lw::ALLOCA_OP,
    lw::ELEM_PTR_OP,
    lw::MEMBER_PTR_OP,
    lw::BOUNDS_CHECK_OP,
    lw::FOR_OP,
    lw::IF_OP,
    lw::WHILE_OP,
    lw::CONDITION_OP,
    lw::YIELD_OP,
    lw::RETURN_OP,
    lw::ADSTACK_STRIDE_OP,
    lw::ADSTACK_OFFSET_OP,
    lw::ADSTACK_MAX_SIZE_OP,
    lw::ADSTACK_ROW_OP,
    lw::HEAP_PTR_OP,
    lw::ADSTACK_OVERFLOW_OP,
];

/// The uniformity of `task`, or why it is not vectorised.
pub(crate) fn plan(ir: &Context, task: lw::TaskOp) -> Result<Info, String> {
    if !matches!(task.kind(ir), Some(lw::TaskKind::Range { .. })) {
        return Err("a serial task runs one thread".into());
    }
    let ops = ir.walk_pre_order(task.0);
    let mut info = Info::default();
    // Pointer roots, in program order (a pointer is defined before its uses).
    for &op in &ops[1..] {
        let name = ir.name(op);
        if !(name.starts_with("arith.") || name.starts_with("math.") || KNOWN.contains(&name)) {
            return Err(format!("'{name}' is not vectorised"));
        }
        if crate::codegen::vmath::UNVECTORISED.contains(&name) {
            return Err(format!("'{name}' has no vectorised form"));
        }
        let root = match name {
            lw::FIELD_PTR_OP | lw::NDARRAY_PTR_OP | lw::TEMP_PTR_OP => Some(Root::Global),
            lw::ALLOCA_OP => Some(Root::Slot(Slot::Alloca(op))),
            lw::HEAP_PTR_OP => Some(match count_header(ir, op) {
                Some(id) => Root::Slot(Slot::Count(id)),
                None => Root::Heap,
            }),
            lw::OFFSET_OP | lw::ELEM_PTR_OP | lw::MEMBER_PTR_OP => {
                match info.roots.get(&ir.operand(op, 0)) {
                    Some(&r) => Some(r),
                    None => return Err(format!("'{name}' of a pointer of unknown origin")),
                }
            }
            _ => None,
        };
        if let Some(r) = root {
            info.roots.insert(ir.result(op, 0), r);
        }
        for v in ir.operands(op) {
            let is_ptr = qd_lowered::types::PtrType::from_type(ir, ir.value_type(v)).is_some();
            if is_ptr && !info.roots.contains_key(&v) {
                return Err(format!("'{name}' uses a pointer of unknown origin"));
            }
        }
        let atomic = matches!(
            name,
            lw::ATOMIC_ADD_OP | lw::ATOMIC_MIN_OP | lw::ATOMIC_MAX_OP
        );
        if atomic && info.roots.get(&ir.operand(op, 1)) != Some(&Root::Global) {
            return Err("an atomic on private or adstack memory is not vectorised".into());
        }
    }
    loop {
        let before = (
            info.varying.len(),
            info.varying_slots.len(),
            info.divergent.len(),
        );
        for &op in &ops[1..] {
            step(ir, task.0, op, &mut info);
        }
        let after = (
            info.varying.len(),
            info.varying_slots.len(),
            info.divergent.len(),
        );
        if after == before {
            return Ok(info);
        }
    }
}

/// Whether `op` runs under divergent control (an enclosing control op of `info.divergent`).
fn under_divergence(ir: &Context, task: OpId, op: OpId, info: &Info) -> bool {
    let mut p = ir.parent_op(op);
    while let Some(q) = p {
        if q == task {
            return false;
        }
        if info.divergent.contains(&q) {
            return true;
        }
        p = ir.parent_op(q);
    }
    false
}

fn step(ir: &Context, task: OpId, op: OpId, info: &mut Info) {
    let vary = |info: &Info, v: Value| info.varying.contains(&v);
    let any_operand = ir.operands(op).any(|v| vary(info, v));
    match ir.name(op) {
        lw::THREAD_ID_OP => {
            info.varying.insert(ir.result(op, 0));
        }
        lw::LOAD_OP => {
            let p = ir.operand(op, 0);
            if let Some(Root::Slot(s)) = info.roots.get(&p).copied() {
                if vary(info, p) {
                    info.varying_slots.insert(s);
                }
            }
            if vary(info, p) || info.lane_memory(p) {
                info.varying.insert(ir.result(op, 0));
            }
        }
        lw::STORE_OP => {
            let p = ir.operand(op, 1);
            if let Some(Root::Slot(s)) = info.roots.get(&p).copied() {
                if any_operand || under_divergence(ir, task, op, info) {
                    info.varying_slots.insert(s);
                }
            }
        }
        lw::ATOMIC_ADD_OP | lw::ATOMIC_MIN_OP | lw::ATOMIC_MAX_OP => {
            for &r in ir.results(op) {
                info.varying.insert(r);
            }
        }
        lw::FOR_OP => {
            if any_operand {
                info.divergent.insert(op);
                if let Some(b) = ir.region_entry_block(op, 0) {
                    info.varying.extend(ir.block_args(b).iter().copied());
                }
            }
        }
        lw::IF_OP => {
            if any_operand {
                info.divergent.insert(op);
            }
        }
        lw::CONDITION_OP => {
            if any_operand {
                if let Some(w) = ir.parent_op(op) {
                    info.divergent.insert(w);
                }
            }
        }
        _ => {
            if any_operand {
                info.varying.extend(ir.results(op).iter().copied());
            }
        }
    }
}
