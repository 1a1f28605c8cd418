//! Where `qd.break` / `qd.continue` sit: a jump targets its nearest enclosing loop and is reached
//! from the loop's body through `qd.if`s only (the qd verifier's rule), so a loop's jumps are
//! found by walking its body and the `qd.if`s in it, never into nested loops.

use qd_frontend::{BREAK_OP, CONTINUE_OP, IF_OP, RANGE_FOR_OP, STRUCT_FOR_OP, WHILE_OP};
use qd_ir::{BlockId, Context, OpId};

/// The jumps that target one loop.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Jumps {
    pub has_break: bool,
    pub has_continue: bool,
    /// Some `qd.if` holding a jump is followed by code in its block: that code must be guarded.
    pub guarded: bool,
}

impl Jumps {
    pub fn any(self) -> bool {
        self.has_break || self.has_continue
    }
}

/// The body block of a loop (the `do` region of a `qd.while`).
pub fn loop_body(ctx: &Context, op: OpId) -> Option<BlockId> {
    let region = match ctx.name(op) {
        WHILE_OP => 1,
        RANGE_FOR_OP | STRUCT_FOR_OP => 0,
        _ => return None,
    };
    ctx.regions(op)
        .get(region)
        .and_then(|&r| ctx.entry_block(r))
}

/// The jumps that target loop `op`.
pub fn loop_jumps(ctx: &Context, op: OpId) -> Jumps {
    let mut j = Jumps::default();
    if let Some(b) = loop_body(ctx, op) {
        scan(ctx, b, &mut j);
    }
    j
}

/// Whether `if_op` (a `qd.if`) holds a jump, directly or in nested `qd.if`s.
pub fn if_has_jump(ctx: &Context, if_op: OpId) -> bool {
    let mut j = Jumps::default();
    scan_if(ctx, if_op, &mut j);
    j.any()
}

fn scan(ctx: &Context, block: BlockId, j: &mut Jumps) {
    for op in ctx.block_ops(block) {
        match ctx.name(op) {
            BREAK_OP => j.has_break = true,
            CONTINUE_OP => j.has_continue = true,
            IF_OP => {
                let mut inner = Jumps::default();
                scan_if(ctx, op, &mut inner);
                j.has_break |= inner.has_break;
                j.has_continue |= inner.has_continue;
                j.guarded |= inner.guarded || (inner.any() && ctx.next_op(op).is_some());
            }
            _ => {}
        }
    }
}

fn scan_if(ctx: &Context, if_op: OpId, j: &mut Jumps) {
    for &r in ctx.regions(if_op) {
        for &b in ctx.region_blocks(r) {
            scan(ctx, b, j);
        }
    }
}
