//! [`Prologues`]: an index of each task's prologue (the run of hoistable ops at the head of its
//! block, see [`super::emit::Em::invariant`]), so that finding an identical invariant costs a
//! hash lookup instead of a scan of the prologue: the scan per emitted invariant made the
//! conversion quadratic in kernels with many stacks or field accesses.
//!
//! The index of a block holds the prologue's last op and its ops by what they compute. It is
//! brought up to date on each use by scanning on from its last op: while the conversion runs a
//! prologue only grows at its end (invariants go after its last op; a pattern's ops go before
//! the op it converts, which is not hoistable; the ops after a converted op join when it is
//! erased) or gains driver casts, which are hoistable but never an invariant. Should its last op
//! be gone or moved, the block is indexed again. Debug builds check each answer against a scan.

use qd_ir::{Attribute, BlockId, Context, Ident, OpId, OpName, Type, Value};
use std::collections::HashMap;

/// What an op computes: what [`same_op`] compares.
#[derive(PartialEq, Eq, Hash)]
struct Key {
    name: OpName,
    operands: Vec<Value>,
    results: Vec<Type>,
    props: Vec<(Ident, Attribute)>,
}

impl Key {
    fn of(ctx: &Context, op: OpId) -> Key {
        let mut props = ctx.properties(op).to_vec();
        props.sort_by_key(|(k, _)| *k);
        Key {
            name: ctx.op_name_of(op),
            operands: ctx.operand_vec(op),
            results: ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect(),
            props,
        }
    }
}

/// Whether two ops are the same computation: name, operands, result types and properties.
pub(super) fn same_op(ctx: &Context, a: OpId, b: OpId) -> bool {
    ctx.regions(a).is_empty() && ctx.regions(b).is_empty() && Key::of(ctx, a) == Key::of(ctx, b)
}

/// Whether `op` may sit in a task's prologue: a registered pure lowered or arith op, or a cast
/// the driver keeps while the conversion runs (it goes away at the end).
pub(super) fn hoistable(ctx: &Context, op: OpId) -> bool {
    is_cast(ctx, op)
        || (ctx.regions(op).is_empty()
            && ctx.has_trait(op, qd_ir::OpTraits::PURE)
            && matches!(ctx.dialect_of(op), "lowered" | "arith"))
}

fn is_cast(ctx: &Context, op: OpId) -> bool {
    ctx.name(op) == qd_ir::builtin::UNREALIZED_CONVERSION_CAST
}

/// One block's prologue.
#[derive(Default)]
struct Prologue {
    /// Its last op (None: the block starts with an op that is not hoistable, or is empty).
    last: Option<OpId>,
    /// Its ops (casts aside) by what they compute, the first of equal ones.
    ops: HashMap<Key, OpId>,
}

/// The prologues of the tasks the conversion has emitted invariants into.
#[derive(Default)]
pub struct Prologues(HashMap<BlockId, Prologue>);

/// What [`Prologues::find`] found: an identical op, or where a new one goes (after the last op
/// of the prologue, None: at the start of the block).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Found {
    Same(OpId),
    Append(Option<OpId>),
}

impl Prologues {
    /// The first op of the prologue of `block` that computes what `new` (detached) does, or
    /// where `new` goes.
    pub(super) fn find(&mut self, ctx: &Context, block: BlockId, new: OpId) -> Found {
        let p = self.0.entry(block).or_default();
        if p.last
            .is_some_and(|l| !ctx.is_alive(l) || ctx.parent_block(l) != Some(block))
        {
            *p = Prologue::default();
        }
        let mut cur = match p.last {
            Some(l) => ctx.next_op(l),
            None => ctx.first_op(block),
        };
        while let Some(o) = cur.filter(|&o| hoistable(ctx, o)) {
            if !is_cast(ctx, o) {
                p.ops.entry(Key::of(ctx, o)).or_insert(o);
            }
            p.last = Some(o);
            cur = ctx.next_op(o);
        }
        let found = match p.ops.get(&Key::of(ctx, new)) {
            Some(&o) if ctx.is_alive(o) && ctx.parent_block(o) == Some(block) => Found::Same(o),
            Some(_) => {
                // An op of the index is gone: index the block again.
                *p = Prologue::default();
                return self.find(ctx, block, new);
            }
            None => Found::Append(p.last),
        };
        debug_assert_eq!(found, scan(ctx, block, new), "the prologue index is stale");
        found
    }

    /// Records that `new` was inserted as [`Found::Append`] said.
    pub(super) fn appended(&mut self, ctx: &Context, block: BlockId, new: OpId) {
        let p = self.0.entry(block).or_default();
        p.ops.entry(Key::of(ctx, new)).or_insert(new);
        p.last = Some(new);
    }
}

/// What [`Prologues::find`] answers, by a scan of the prologue.
fn scan(ctx: &Context, block: BlockId, new: OpId) -> Found {
    let mut last = None;
    for o in ctx.block_ops(block) {
        if !hoistable(ctx, o) {
            break;
        }
        if same_op(ctx, o, new) {
            return Found::Same(o);
        }
        last = Some(o);
    }
    Found::Append(last)
}
