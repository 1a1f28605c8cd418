//! Rewrite patterns, the [`Rewriter`] through which they mutate the IR, and the [`Listener`]
//! that sees every mutation (MLIR's `RewriterBase` and `RewriterBase::Listener`).
//!
//! Why a listener: a driver (the greedy driver, the conversion driver) must know every op a
//! pattern creates, changes or erases, to revisit it, track it or stop visiting it. So a
//! [`Rewriter`] hands out only `&Context`: every mutation is one of its methods, and each tells
//! the listener. Interning (types, attributes, identifiers) does not touch the IR and goes
//! through [`Rewriter::intern`]. The [`Builder`] from [`Rewriter::builder`] reports the ops it
//! inserts; its `ctx` field stays public because every op-building helper of the workspace
//! interns through it, and patterns must use it for that only (debug builds check that
//! [`Rewriter::intern`] creates no IR).
//!
//! Notifications come after the change for insertions and modifications, and before it for
//! replacements and erasures (the listener can still read the op).

use crate::builder::{Builder, InsertPoint, OperationState};
use crate::context::{Context, Use};
use crate::entity::*;
use crate::mapping::IRMapping;

/// A local rewrite anchored on one op.
pub trait RewritePattern {
    /// A name for debugging and statistics.
    fn name(&self) -> &'static str;
    /// The op name this pattern matches, or `None` to be tried on every op.
    fn root(&self) -> Option<&'static str>;
    /// Tries to rewrite `op`; returns whether the IR changed. All mutation goes through `rw`.
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool;
}

/// Told of every IR change a [`Rewriter`] or a listening [`Builder`] makes. Every method has an
/// empty default.
pub trait Listener {
    /// `op` was inserted into a block (created there, or moved there).
    fn notify_op_inserted(&mut self, _ctx: &Context, _op: OpId) {}
    /// `block` was inserted into a region (created there, or moved there).
    fn notify_block_inserted(&mut self, _ctx: &Context, _block: BlockId) {}
    /// `op` was changed in place (operands, properties, attributes, successors, location).
    fn notify_op_modified(&mut self, _ctx: &Context, _op: OpId) {}
    /// The results of `op` are about to be replaced by `new_values` (then `op` is erased).
    fn notify_op_replaced(&mut self, _ctx: &Context, _op: OpId, _new_values: &[Value]) {}
    /// `op` is about to be erased (nested ops are notified first, post-order).
    fn notify_op_erased(&mut self, _ctx: &Context, _op: OpId) {}
}

/// One notification, as a [`RecordingListener`] keeps it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RewriteEvent {
    Inserted(OpId),
    BlockInserted(BlockId),
    Modified(OpId),
    Replaced(OpId, Vec<Value>),
    Erased(OpId),
}

/// A listener that records every notification in order.
#[derive(Clone, Debug, Default)]
pub struct RecordingListener {
    pub events: Vec<RewriteEvent>,
}

impl Listener for RecordingListener {
    fn notify_op_inserted(&mut self, _: &Context, op: OpId) {
        self.events.push(RewriteEvent::Inserted(op));
    }
    fn notify_block_inserted(&mut self, _: &Context, block: BlockId) {
        self.events.push(RewriteEvent::BlockInserted(block));
    }
    fn notify_op_modified(&mut self, _: &Context, op: OpId) {
        self.events.push(RewriteEvent::Modified(op));
    }
    fn notify_op_replaced(&mut self, _: &Context, op: OpId, new_values: &[Value]) {
        self.events
            .push(RewriteEvent::Replaced(op, new_values.to_vec()));
    }
    fn notify_op_erased(&mut self, _: &Context, op: OpId) {
        self.events.push(RewriteEvent::Erased(op));
    }
}

/// Mutates the IR on behalf of a pattern and tells its listener of each change.
pub struct Rewriter<'c> {
    pub(crate) ctx: &'c mut Context,
    listener: Option<&'c mut dyn Listener>,
}

impl<'c> Rewriter<'c> {
    /// A rewriter that tells no one (to apply a pattern by hand, e.g. in a test).
    pub fn new(ctx: &'c mut Context) -> Self {
        Rewriter {
            ctx,
            listener: None,
        }
    }

    pub fn with_listener(ctx: &'c mut Context, listener: &'c mut dyn Listener) -> Self {
        Rewriter {
            ctx,
            listener: Some(listener),
        }
    }

    /// Read access to the IR.
    pub fn ctx(&self) -> &Context {
        self.ctx
    }

    /// Runs `f` to intern types, attributes, identifiers or locations, or to build an
    /// [`OperationState`]. `f` must not create or change IR: use the rewriter's methods for that.
    pub fn intern<T>(&mut self, f: impl FnOnce(&mut Context) -> T) -> T {
        let before = ir_size(self.ctx);
        let out = f(self.ctx);
        debug_assert_eq!(before, ir_size(self.ctx), "Rewriter::intern created IR");
        out
    }

    /// A builder at `ip` whose inserted ops are reported to this rewriter's listener.
    pub fn builder(&mut self, ip: InsertPoint) -> Builder<'_> {
        match self.listener.as_deref_mut() {
            Some(l) => Builder::with_listener(self.ctx, ip, l),
            None => Builder::new(self.ctx, ip),
        }
    }

    pub(crate) fn notify(&mut self, f: impl FnOnce(&mut dyn Listener, &Context)) {
        if let Some(l) = self.listener.as_deref_mut() {
            f(l, self.ctx);
        }
    }

    fn notify_modified(&mut self, op: OpId) {
        self.notify(|l, ctx| l.notify_op_modified(ctx, op));
    }

    // ----- creation and insertion -------------------------------------------------------------

    /// Creates an op from `state` at `ip`.
    pub fn create(&mut self, ip: InsertPoint, state: OperationState) -> OpId {
        self.builder(ip).insert(state)
    }

    /// Creates an op right before `anchor`.
    pub fn create_before(&mut self, anchor: OpId, state: OperationState) -> OpId {
        self.create(InsertPoint::Before(anchor), state)
    }

    /// Creates an op right after `anchor`.
    pub fn create_after(&mut self, anchor: OpId, state: OperationState) -> OpId {
        self.create(InsertPoint::After(anchor), state)
    }

    /// Inserts a detached op at `ip`.
    pub fn insert_op(&mut self, op: OpId, ip: InsertPoint) {
        self.builder(ip).insert_op(op);
    }

    /// Moves `op` right before `anchor` (possibly into another block).
    pub fn move_op_before(&mut self, op: OpId, anchor: OpId) {
        self.ctx.move_op_before(op, anchor);
        self.notify(|l, ctx| l.notify_op_inserted(ctx, op));
    }

    /// Moves `op` right after `anchor`.
    pub fn move_op_after(&mut self, op: OpId, anchor: OpId) {
        self.ctx.detach_op(op);
        self.ctx.insert_op_after(anchor, op);
        self.notify(|l, ctx| l.notify_op_inserted(ctx, op));
    }

    /// Deep-clones `op` through `mapping` and inserts the clone at `ip`; the clone and every op
    /// and block in it are reported inserted.
    pub fn clone_op(&mut self, op: OpId, ip: InsertPoint, mapping: &mut IRMapping) -> OpId {
        self.builder(ip).clone_op(op, mapping)
    }

    /// Creates a detached, empty region (for the state of an op to create).
    pub fn create_region(&mut self) -> RegionId {
        self.ctx.create_region()
    }

    /// Creates a block with arguments of the given types and locations at the end of `region`.
    pub fn create_block(&mut self, region: RegionId, args: &[(Type, Location)]) -> BlockId {
        let b = self.ctx.create_block(args);
        self.ctx.append_block(region, b);
        self.notify(|l, ctx| l.notify_block_inserted(ctx, b));
        b
    }

    // ----- replacement and erasure ------------------------------------------------------------

    /// Replaces every result of `op` by the given values and erases `op`.
    pub fn replace_op(&mut self, op: OpId, with: &[Value]) {
        assert_eq!(
            self.ctx.num_results(op),
            with.len(),
            "replace_op: result count mismatch"
        );
        self.notify(|l, ctx| l.notify_op_replaced(ctx, op, with));
        for (i, &w) in with.iter().enumerate() {
            let r = self.ctx.result(op, i);
            self.replace_all_uses_with(r, w);
        }
        self.erase_op(op);
    }

    /// Replaces `op` by a new op built from `state` (same results count) and returns the new op.
    pub fn replace_op_with_new(&mut self, op: OpId, state: OperationState) -> OpId {
        let new = self.create_before(op, state);
        let results = self.ctx.results(new).to_vec();
        self.replace_op(op, &results);
        new
    }

    /// Erases `op` and the ops nested in it; its results must be unused.
    pub fn erase_op(&mut self, op: OpId) {
        if self.listener.is_some() {
            for o in self.ctx.walk_post_order(op) {
                self.notify(|l, ctx| l.notify_op_erased(ctx, o));
            }
        }
        self.ctx.erase_op(op);
    }

    /// Erases a block and its ops from its region.
    pub fn erase_block(&mut self, block: BlockId) {
        for op in self.ctx.block_op_vec(block).into_iter().rev() {
            self.erase_op(op);
        }
        self.ctx.erase_block(block);
    }

    /// Replaces all uses of `from` with `to`; each user is reported modified.
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        let users: Vec<OpId> = self.ctx.users(from).collect();
        self.ctx.replace_all_uses_with(from, to);
        for u in users {
            self.notify_modified(u);
        }
    }

    /// Replaces the uses of `from` for which `pred` holds; each changed user is reported.
    pub fn replace_uses_where(
        &mut self,
        from: Value,
        to: Value,
        mut pred: impl FnMut(&Context, Use) -> bool,
    ) {
        let uses: Vec<Use> = self.ctx.uses(from).to_vec();
        for u in uses {
            if pred(self.ctx, u) {
                self.set_operand(u.op, u.index as usize, to);
            }
        }
    }

    // ----- in-place modification --------------------------------------------------------------

    pub fn set_operand(&mut self, op: OpId, index: usize, v: Value) {
        self.ctx.set_operand(op, index, v);
        self.notify_modified(op);
    }

    pub fn set_operands(&mut self, op: OpId, values: &[Value]) {
        self.ctx.set_operands(op, values);
        self.notify_modified(op);
    }

    pub fn set_successor(&mut self, op: OpId, index: usize, block: BlockId) {
        self.ctx.set_successor(op, index, block);
        self.notify_modified(op);
    }

    pub fn set_prop(&mut self, op: OpId, name: &str, value: Attribute) {
        self.ctx.set_prop(op, name, value);
        self.notify_modified(op);
    }

    pub fn remove_prop(&mut self, op: OpId, name: &str) -> Option<Attribute> {
        let old = self.ctx.remove_prop(op, name);
        if old.is_some() {
            self.notify_modified(op);
        }
        old
    }

    pub fn set_attr(&mut self, op: OpId, name: &str, value: Attribute) {
        self.ctx.set_attr(op, name, value);
        self.notify_modified(op);
    }

    pub fn remove_attr(&mut self, op: OpId, name: &str) -> Option<Attribute> {
        let old = self.ctx.remove_attr(op, name);
        if old.is_some() {
            self.notify_modified(op);
        }
        old
    }

    pub fn set_loc(&mut self, op: OpId, loc: Location) {
        self.ctx.set_loc(op, loc);
        self.notify_modified(op);
    }

    /// Runs `f` to change `op` in place, then reports `op` modified (MLIR's `modifyOpInPlace`).
    /// `f` must change nothing but `op` itself.
    pub fn modify_op_in_place<T>(&mut self, op: OpId, f: impl FnOnce(&mut Context) -> T) -> T {
        let out = f(self.ctx);
        self.notify_modified(op);
        out
    }

    /// Reports that `op` changed in a way the rewriter did not see (or asks a driver to revisit it).
    pub fn modified(&mut self, op: OpId) {
        self.notify_modified(op);
    }

    // ----- blocks and regions -----------------------------------------------------------------

    /// Moves every block of `from` into `to`, before block `before` (at the end when `None`).
    pub fn inline_region_before(&mut self, from: RegionId, to: RegionId, before: Option<BlockId>) {
        let moved = self.ctx.take_region_block_vec(from);
        let at = match before {
            Some(b) => self
                .ctx
                .region_blocks(to)
                .iter()
                .position(|&x| x == b)
                .expect("inline_region_before: `before` is not in the destination region"),
            None => self.ctx.region_blocks(to).len(),
        };
        for &b in &moved {
            self.ctx.blocks[b.index()].parent = Some(to);
        }
        let mut blocks = self.ctx.region_blocks(to).to_vec();
        blocks.splice(at..at, moved.iter().copied());
        self.ctx.set_region_block_list(to, &blocks);
        for b in moved {
            self.notify(|l, ctx| l.notify_block_inserted(ctx, b));
        }
    }

    /// Moves the ops of `src` right before `anchor`, replacing `src`'s arguments by `args`, and
    /// erases `src` (MLIR's `inlineBlockBefore`).
    pub fn inline_block_before(&mut self, src: BlockId, anchor: OpId, args: &[Value]) {
        self.replace_block_args(src, args);
        for op in self.ctx.block_op_vec(src) {
            self.move_op_before(op, anchor);
        }
        self.ctx.erase_block(src);
    }

    /// Moves the ops of `src` to the end of `dest`, replacing `src`'s arguments by `args`, and
    /// erases `src` (MLIR's `mergeBlocks`).
    pub fn merge_blocks(&mut self, src: BlockId, dest: BlockId, args: &[Value]) {
        self.replace_block_args(src, args);
        for op in self.ctx.block_op_vec(src) {
            self.ctx.detach_op(op);
            self.ctx.append_op(dest, op);
            self.notify(|l, ctx| l.notify_op_inserted(ctx, op));
        }
        self.ctx.erase_block(src);
    }

    fn replace_block_args(&mut self, block: BlockId, args: &[Value]) {
        let old = self.ctx.block_args(block).to_vec();
        assert_eq!(old.len(), args.len(), "block argument count mismatch");
        for (o, &n) in old.into_iter().zip(args) {
            self.replace_all_uses_with(o, n);
        }
    }
}

/// How many ops, blocks, regions and values were ever created.
fn ir_size(ctx: &Context) -> [usize; 4] {
    [
        ctx.num_op_slots(),
        ctx.num_block_slots(),
        ctx.num_region_slots(),
        ctx.num_value_slots(),
    ]
}

#[cfg(test)]
mod tests;
