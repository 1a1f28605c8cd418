//! Rewrite patterns and the [`Rewriter`] through which they mutate the IR. The rewriter records
//! what changed so that a driver (see `greedy`) can revisit affected ops.

use crate::builder::OperationState;
use crate::context::Context;
use crate::entity::*;

/// A local rewrite anchored on one op.
pub trait RewritePattern {
    /// A name for debugging and statistics.
    fn name(&self) -> &'static str;
    /// The op name this pattern matches, or `None` to be tried on every op.
    fn root(&self) -> Option<&'static str>;
    /// Tries to rewrite `op`; returns whether the IR changed. All mutation goes through `rw`.
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool;
}

/// What a rewrite did, for the driver's worklist.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RewriteEvent {
    Created(OpId),
    Modified(OpId),
    Erased(OpId),
}

/// Mutates the IR on behalf of a pattern and records each change.
pub struct Rewriter<'c> {
    pub ctx: &'c mut Context,
    pub events: Vec<RewriteEvent>,
}

impl<'c> Rewriter<'c> {
    pub fn new(ctx: &'c mut Context) -> Self {
        Rewriter {
            ctx,
            events: Vec::new(),
        }
    }

    /// Creates an op right before `anchor`.
    pub fn create_before(&mut self, anchor: OpId, state: OperationState) -> OpId {
        let op = self.ctx.create_op(state);
        self.ctx.insert_op_before(anchor, op);
        self.events.push(RewriteEvent::Created(op));
        op
    }

    /// Replaces every result of `op` by the given values and erases `op`.
    pub fn replace_op(&mut self, op: OpId, with: &[Value]) {
        for (i, &w) in with.iter().enumerate() {
            let r = self.ctx.result(op, i);
            self.notify_users(r);
            self.ctx.replace_all_uses_with(r, w);
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

    /// Erases `op`; its results must be unused.
    pub fn erase_op(&mut self, op: OpId) {
        for o in self.ctx.walk_post_order(op) {
            self.events.push(RewriteEvent::Erased(o));
        }
        // Operands' defining ops may become dead: let the driver look at them again.
        for v in self.ctx.operand_vec(op) {
            if let Some(d) = self.ctx.defining_op(v) {
                self.events.push(RewriteEvent::Modified(d));
            }
        }
        self.ctx.erase_op(op);
    }

    /// Replaces all uses of `from` with `to`, recording the users as modified.
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        self.notify_users(from);
        self.ctx.replace_all_uses_with(from, to);
    }

    /// Sets an operand in place.
    pub fn set_operand(&mut self, op: OpId, index: usize, v: Value) {
        self.ctx.set_operand(op, index, v);
        self.events.push(RewriteEvent::Modified(op));
    }

    /// Records that `op` was changed in place (properties, operands order, ...).
    pub fn modified(&mut self, op: OpId) {
        self.events.push(RewriteEvent::Modified(op));
    }

    fn notify_users(&mut self, v: Value) {
        let users: Vec<OpId> = self.ctx.users(v).collect();
        self.events
            .extend(users.into_iter().map(RewriteEvent::Modified));
    }
}
