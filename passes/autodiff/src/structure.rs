//! Structural facts the other modules share: top-level groups of a kernel, serial loops and the
//! segment an op belongs to, the root local of a pointer, and the jumps (`qd.break` /
//! `qd.continue`) of each serial loop numbered in program order.

use crate::handle_set::HandleSet;
use qd_frontend::{
    is_loop, is_parallel_loop, KernelOp, BREAK_OP, CONTINUE_OP, ELEM_PTR_OP, IF_OP, KERNEL_OP,
    MEMBER_PTR_OP, WHILE_OP,
};
use qd_ir::{BlockId, Context, OpId, Type, Value};
use std::collections::HashMap;

/// One top-level item of a kernel's body, in the gradient kernel's reverse order of handling: a
/// parallel loop (reversed inside its own copy), or a run of loose statements (replayed in the
/// prologue, reversed at the kernel's top level).
#[derive(Clone, Debug)]
pub(crate) enum Group {
    Parallel(OpId),
    Loose(Vec<OpId>),
}

/// The kernel body's groups, in program order.
pub(crate) fn groups(ctx: &Context, body: BlockId) -> Vec<Group> {
    let mut out = Vec::new();
    let mut loose = Vec::new();
    for op in ctx.block_ops(body) {
        if is_parallel_loop(ctx, op) {
            if !loose.is_empty() {
                out.push(Group::Loose(std::mem::take(&mut loose)));
            }
            out.push(Group::Parallel(op));
        } else {
            loose.push(op);
        }
    }
    if !loose.is_empty() {
        out.push(Group::Loose(loose));
    }
    out
}

pub(crate) fn is_float(ctx: &Context, ty: Type) -> bool {
    ctx.type_data(ty).is_float()
}

pub(crate) fn is_float_value(ctx: &Context, v: Value) -> bool {
    is_float(ctx, ctx.value_type(v))
}

pub(crate) fn is_serial_loop(ctx: &Context, op: OpId) -> bool {
    is_loop(ctx, op) && !is_parallel_loop(ctx, op)
}

/// Whether `op` writes a field or an ndarray (`qd_frontend::global_write` is Some), without
/// gathering what it writes (asked for every op of the forward replay).
pub(crate) fn is_global_write(ctx: &Context, op: OpId) -> bool {
    let name = ctx.name(op);
    name == qd_frontend::STORE_OP
        || name == qd_frontend::NDARRAY_STORE_OP
        || qd_frontend::AtomicOp::from_op(ctx, op).is_some()
        || qd_frontend::NdarrayAtomicOp::from_op(ctx, op).is_some()
}

/// What a write of a field or ndarray writes: (the value, the ndarray written; None for a
/// field), as `qd_frontend::global_write` without gathering its indices.
pub(crate) fn write_of(ctx: &Context, op: OpId) -> Option<(Value, Option<Value>)> {
    let name = ctx.name(op);
    if name == qd_frontend::STORE_OP {
        return Some((qd_frontend::StoreOp(op).value(ctx), None));
    }
    if name == qd_frontend::NDARRAY_STORE_OP {
        let s = qd_frontend::NdarrayStoreOp(op);
        return Some((s.value(ctx), Some(s.array(ctx))));
    }
    if let Some(a) = qd_frontend::AtomicOp::from_op(ctx, op) {
        return Some((a.value(ctx), None));
    }
    let a = qd_frontend::NdarrayAtomicOp::from_op(ctx, op)?;
    Some((a.value(ctx), Some(a.array(ctx))))
}

pub(crate) fn is_jump(ctx: &Context, op: OpId) -> bool {
    matches!(ctx.name(op), BREAK_OP | CONTINUE_OP)
}

/// The loop a break/continue refers to: the nearest enclosing loop (reached through ifs only).
pub(crate) fn jump_target(ctx: &Context, op: OpId) -> Option<OpId> {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if is_loop(ctx, p) {
            return Some(p);
        }
        if ctx.name(p) != IF_OP {
            return None;
        }
        cur = ctx.parent_op(p);
    }
    None
}

/// The parallel loop that holds `op`, or None for an op at the kernel's top level (or `op`
/// itself when it is one).
pub(crate) fn parallel_ancestor(ctx: &Context, op: OpId) -> Option<OpId> {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if is_parallel_loop(ctx, o) {
            return Some(o);
        }
        if ctx.name(o) == KERNEL_OP {
            return None;
        }
        cur = ctx.parent_op(o);
    }
    None
}

/// The ops of `kernel` for which [`parallel_ancestor`] is None (neither a parallel loop nor
/// inside one), found in one walk down from the kernel's body where asking per op walks up its
/// whole nest.
pub(crate) fn outside_parallel(ctx: &Context, kernel: KernelOp) -> HandleSet<OpId> {
    let mut out = HandleSet::default();
    let mut blocks: Vec<BlockId> = Vec::new();
    for &r in ctx.regions(kernel.0) {
        blocks.extend_from_slice(ctx.region_blocks(r));
    }
    while let Some(b) = blocks.pop() {
        for op in ctx.block_ops(b) {
            if is_parallel_loop(ctx, op) {
                continue;
            }
            out.insert(op);
            for &r in ctx.regions(op) {
                blocks.extend_from_slice(ctx.region_blocks(r));
            }
        }
    }
    out
}

/// Whether a serial loop holds `op` (strictly) within its segment: below the parallel loop or the
/// kernel that holds it. Values defined there have one instance per iteration.
pub(crate) fn in_serial_loop(ctx: &Context, op: OpId) -> bool {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if ctx.name(p) == KERNEL_OP || is_parallel_loop(ctx, p) {
            return false;
        }
        if is_loop(ctx, p) {
            return true;
        }
        cur = ctx.parent_op(p);
    }
    false
}

/// The local (`qd.alloca`) a pointer addresses, through `elem_ptr` / `member_ptr`.
pub(crate) fn root_alloca(ctx: &Context, mut p: Value) -> Option<OpId> {
    loop {
        let d = ctx.defining_op(p)?;
        match ctx.name(d) {
            qd_frontend::ALLOCA_OP => return Some(d),
            ELEM_PTR_OP | MEMBER_PTR_OP => p = ctx.operand(d, 0),
            _ => return None,
        }
    }
}

/// A read of local memory, `qd.local_load` or `ad.load_element`: (loaded value, address).
pub(crate) fn local_read(ctx: &Context, op: OpId) -> Option<(Value, Value)> {
    match ctx.name(op) {
        qd_frontend::LOCAL_LOAD_OP => {
            let l = qd_frontend::LocalLoadOp(op);
            Some((l.result(ctx), l.ptr(ctx)))
        }
        qd_ad::LOAD_ELEMENT_OP => {
            let l = qd_ad::LoadElementOp(op);
            Some((l.result(ctx), l.base(ctx)))
        }
        _ => None,
    }
}

/// A write of local memory, `qd.local_store` or `ad.store_element`: (stored value, address).
pub(crate) fn local_write(ctx: &Context, op: OpId) -> Option<(Value, Value)> {
    match ctx.name(op) {
        qd_frontend::LOCAL_STORE_OP => {
            let s = qd_frontend::LocalStoreOp(op);
            Some((s.value(ctx), s.ptr(ctx)))
        }
        qd_ad::STORE_ELEMENT_OP => {
            let s = qd_ad::StoreElementOp(op);
            Some((s.value(ctx), s.base(ctx)))
        }
        _ => None,
    }
}

/// The body block of a (non-while) loop, or a while's body (region 1).
pub(crate) fn loop_body(ctx: &Context, op: OpId) -> Option<BlockId> {
    let region = if ctx.name(op) == WHILE_OP { 1 } else { 0 };
    ctx.regions(op)
        .get(region)
        .and_then(|&r| ctx.entry_block(r))
}

/// Every op of the kernel, in pre-order.
pub(crate) fn kernel_ops(ctx: &Context, kernel: KernelOp) -> Vec<OpId> {
    let mut v = ctx.walk_pre_order(kernel.0);
    v.remove(0);
    v
}

/// The jumps of each serial loop, numbered in program order (pre-order, 1-based), and for every
/// op directly governed by a loop with jumps (in its body, through ifs) the number of that loop's
/// jumps that come before it. An op X of a loop body ran in an iteration exactly when its
/// enclosing ifs took its branch and the jump that ended the iteration (if any) has a number
/// above `before(X)`: jumps are only reached through ifs, so program order is execution order.
#[derive(Default, Debug)]
pub(crate) struct Jumps {
    /// Jumps before each op, for ops governed by a loop that has jumps.
    before: HashMap<OpId, u32>,
    /// The number of each jump op.
    id: HashMap<OpId, u32>,
    /// Per loop with jumps: (breaks, continues), the jump ops.
    loops: HashMap<OpId, LoopJumps>,
}

#[derive(Default, Clone, Debug)]
pub(crate) struct LoopJumps {
    pub breaks: Vec<OpId>,
    pub continues: Vec<OpId>,
    /// Whether some op of the body comes after a jump (so the reverse needs guards).
    pub guarded: bool,
}

impl Jumps {
    /// `ops`: the kernel's ops in pre-order.
    pub(crate) fn analyze(ctx: &Context, ops: &[OpId]) -> Jumps {
        let mut j = Jumps::default();
        for &op in ops {
            if !is_serial_loop(ctx, op) {
                continue;
            }
            let Some(body) = loop_body(ctx, op) else {
                continue;
            };
            let mut count = 0u32;
            let mut info = LoopJumps::default();
            let mut before = Vec::new();
            walk_governed(ctx, body, &mut |o| {
                before.push((o, count));
                if is_jump(ctx, o) {
                    count += 1;
                    j.id.insert(o, count);
                    if ctx.name(o) == BREAK_OP {
                        info.breaks.push(o);
                    } else {
                        info.continues.push(o);
                    }
                }
            });
            if count > 0 {
                info.guarded = before.iter().any(|&(_, c)| c > 0);
                j.before.extend(before);
                j.loops.insert(op, info);
            }
        }
        j
    }

    /// The number of jumps of its loop before `op` (0 when its loop has none).
    pub(crate) fn before(&self, op: OpId) -> u32 {
        self.before.get(&op).copied().unwrap_or(0)
    }
    /// The number of a jump op.
    pub(crate) fn id(&self, op: OpId) -> u32 {
        self.id.get(&op).copied().unwrap_or(0)
    }
    pub(crate) fn of_loop(&self, op: OpId) -> Option<&LoopJumps> {
        self.loops.get(&op)
    }
}

/// Pre-order over the ops a loop body governs: into ifs, not into nested loops' regions.
fn walk_governed(ctx: &Context, block: BlockId, f: &mut impl FnMut(OpId)) {
    for op in ctx.block_ops(block) {
        f(op);
        if ctx.name(op) == IF_OP {
            for &r in ctx.regions(op) {
                for &b in ctx.region_blocks(r) {
                    walk_governed(ctx, b, f);
                }
            }
        }
    }
}
