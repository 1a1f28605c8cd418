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

use qd_ir::fast_hash::{FastHasher, FastMap};
use qd_ir::{BlockId, Context, OpId};
use std::hash::{Hash, Hasher};

/// A hash of what an op computes (what [`same_op`] compares; properties in any order), made
/// without building anything: a prologue can hold an op per field of a kernel.
fn key_hash(ctx: &Context, op: OpId) -> u64 {
    let mut h = FastHasher::default();
    ctx.op_name_of(op).hash(&mut h);
    for v in ctx.operands(op) {
        v.hash(&mut h);
    }
    for &r in ctx.results(op) {
        ctx.value_type(r).hash(&mut h);
    }
    // Order-independent: the same properties may be listed in another order.
    let mut props = 0u64;
    for p in ctx.properties(op) {
        let mut ph = FastHasher::default();
        p.hash(&mut ph);
        props = props.wrapping_add(ph.finish());
    }
    h.write_u64(props);
    h.finish()
}

/// Whether two ops are the same computation: name, operands, result types and properties (in
/// any order: each op holds a property once).
pub(super) fn same_op(ctx: &Context, a: OpId, b: OpId) -> bool {
    let (pa, pb) = (ctx.properties(a), ctx.properties(b));
    ctx.regions(a).is_empty()
        && ctx.regions(b).is_empty()
        && ctx.op_name_of(a) == ctx.op_name_of(b)
        && ctx.operands(a).eq(ctx.operands(b))
        && ctx.num_results(a) == ctx.num_results(b)
        && ctx
            .results(a)
            .iter()
            .zip(ctx.results(b))
            .all(|(&x, &y)| ctx.value_type(x) == ctx.value_type(y))
        && pa.len() == pb.len()
        && pa.iter().all(|p| pb.contains(p))
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
    /// Its ops (casts aside) by the hash of what they compute: the first of equal ones, and in
    /// `more` the first of each other computation with that hash (rare).
    ops: FastMap<u64, OpId>,
    more: FastMap<u64, Vec<OpId>>,
}

impl Prologue {
    /// The first indexed op that computes what `op` (hash `h`) does, or the first one met that
    /// is gone from `block` (then the index is stale).
    fn lookup(&self, ctx: &Context, block: BlockId, h: u64, op: OpId) -> Option<OpId> {
        let first = self.ops.get(&h).copied();
        let more = self.more.get(&h).into_iter().flatten().copied();
        first.into_iter().chain(more).find(|&o| {
            !ctx.is_alive(o) || ctx.parent_block(o) != Some(block) || same_op(ctx, o, op)
        })
    }

    /// Indexes `op` (in the prologue), unless an equal op is indexed already.
    fn add(&mut self, ctx: &Context, op: OpId) {
        let h = key_hash(ctx, op);
        let Some(&first) = self.ops.get(&h) else {
            self.ops.insert(h, op);
            return;
        };
        let more = self.more.entry(h).or_default();
        if !same_op(ctx, first, op) && !more.iter().any(|&o| same_op(ctx, o, op)) {
            more.push(op);
        }
    }
}

/// The prologues of the tasks the conversion has emitted invariants into.
#[derive(Default)]
pub struct Prologues(FastMap<BlockId, Prologue>);

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
                p.add(ctx, o);
            }
            p.last = Some(o);
            cur = ctx.next_op(o);
        }
        let found = match p.lookup(ctx, block, key_hash(ctx, new), new) {
            Some(o) if ctx.is_alive(o) && ctx.parent_block(o) == Some(block) => Found::Same(o),
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
        p.add(ctx, new);
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
