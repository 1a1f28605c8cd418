//! What the greedy driver hears from a rewrite: the ops to revisit, and whether anything changed.

use crate::context::Context;
use crate::entity::{BlockId, OpId, Value};
use crate::rewrite::Listener;

/// Ops to put back on the worklist: inserted and modified ops, and the defining ops of an erased
/// op's operands (they may have become dead). Erased ops need no action: the worklist skips dead
/// ops when it pops them.
#[derive(Default)]
pub(super) struct Changes {
    pub(super) revisit: Vec<OpId>,
    /// Any notification at all: the IR changed.
    pub(super) any: bool,
}

impl Listener for Changes {
    fn notify_op_inserted(&mut self, _: &Context, op: OpId) {
        self.any = true;
        self.revisit.push(op);
    }
    fn notify_block_inserted(&mut self, _: &Context, _: BlockId) {
        self.any = true;
    }
    fn notify_op_modified(&mut self, _: &Context, op: OpId) {
        self.any = true;
        self.revisit.push(op);
    }
    fn notify_op_replaced(&mut self, _: &Context, _: OpId, _: &[Value]) {
        self.any = true;
    }
    fn notify_op_erased(&mut self, ctx: &Context, op: OpId) {
        self.any = true;
        self.revisit
            .extend(ctx.operands(op).filter_map(|v| ctx.defining_op(v)));
    }
}
