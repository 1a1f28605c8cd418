//! Structured control flow inside loops: `qd.if` (optional else), `qd.break`, `qd.continue`.
//!
//! ```text
//! qd.if %c { ... }                // the else region is then empty
//! qd.if %c { ... } else { ... }
//! qd.break                        // leaves the nearest enclosing loop
//! qd.continue                     // goes on with its next iteration
//! ```
//!
//! `qd.break` and `qd.continue` end their block and may be nested in `qd.if`s only; their nearest
//! enclosing loop must be serial (not a parallel top-level loop of a kernel, whose iterations are
//! independent threads) and they may not sit in a `qd.while`'s condition region.

use crate::constraints::CONDITION;
use crate::loops::{check_i1, ensure_region_block, is_loop, is_parallel_loop};
use crate::syntax::*;
use crate::verify::*;
use crate::{IF_OP, WHILE_OP};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::{
    BlockId, Builder, Context, DiagResult, Location, OpId, OpInfo, OpTraits, OperationState, Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![IfOp::op_info(), BreakOp::op_info(), ContinueOp::op_info()]
}

qd_ir::declare_op! {
    /// A `qd.if` op: `condition(ctx)`, `then_block(ctx)`, `else_block(ctx)`.
    pub struct IfOp = "qd.if" {
        summary: "runs the then region when the condition holds, else the else region",
        traits: [OpTraits::NO_TERMINATOR, OpTraits::SINGLE_BLOCK, OpTraits::RECURSIVE_EFFECTS],
        operands: [condition: single(CONDITION)],
        regions: [then as _: single_block, else_region as _: single_block],
        builder: none,
        syntax: (parse_if, print_if),
        verify: verify_if,
    }
}

qd_ir::declare_op! {
    /// A `qd.break` op: leaves the nearest enclosing (serial) loop.
    pub struct BreakOp = "qd.break" {
        summary: "leaves the nearest enclosing (serial) loop",
        traits: [OpTraits::TERMINATOR],
        format: "attr-dict",
        verify: verify_jump,
    }
}

qd_ir::declare_op! {
    /// A `qd.continue` op: goes on with the next iteration of the nearest enclosing loop.
    pub struct ContinueOp = "qd.continue" {
        summary: "goes on with the next iteration of the nearest enclosing (serial) loop",
        traits: [OpTraits::TERMINATOR],
        format: "attr-dict",
        verify: verify_jump,
    }
}

// ----- qd.if -------------------------------------------------------------------------------

impl IfOp {
    /// Creates `qd.if %cond {}` with an empty then block, and an empty else block when `with_else`
    /// (otherwise the else region is empty).
    pub fn build(b: &mut Builder, cond: Value, with_else: bool, loc: Location) -> Self {
        let (then_r, _) = b.ctx.create_region_with_block(&[]);
        let else_r = if with_else {
            b.ctx.create_region_with_block(&[]).0
        } else {
            b.ctx.create_region()
        };
        let st = OperationState::new(IF_OP, loc)
            .operands(&[cond])
            .region(then_r)
            .region(else_r);
        IfOp(b.insert(st))
    }
    /// The then block; None when the then region is empty.
    pub fn then_block(self, ctx: &Context) -> Option<BlockId> {
        ctx.entry_block(ctx.region(self.0, 0))
    }
    /// The else block; None when there is no else.
    pub fn else_block(self, ctx: &Context) -> Option<BlockId> {
        ctx.entry_block(ctx.region(self.0, 1))
    }
    pub fn ensure_then(self, ctx: &mut Context) -> BlockId {
        let r = ctx.region(self.0, 0);
        ensure_region_block(ctx, r)
    }
    pub fn ensure_else(self, ctx: &mut Context) -> BlockId {
        let r = ctx.region(self.0, 1);
        ensure_region_block(ctx, r)
    }
}

fn verify_if(ctx: &Context, op: OpId) -> DiagResult<()> {
    check_i1(ctx, op, ctx.operand(op, 0), "condition")?;
    check_body(ctx, op, 0, &[], "then")?;
    check_body(ctx, op, 1, &[], "else")?;
    Ok(())
}

fn parse_if(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let c = p.parse_operand()?;
    let i1 = p.ctx().i1_type();
    st.operands = vec![p.resolve_operand(&c, i1)?];
    st.regions.push(parse_body(p, &[])?);
    let else_r = if p.parse_optional_keyword("else") {
        parse_body(p, &[])?
    } else {
        p.ctx().create_region()
    };
    st.regions.push(else_r);
    parse_attrs(p, st)
}

fn print_if(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let c = operand(p, op, 0);
    print_opt_value(p, c);
    print_region_at(p, op, 0);
    // An else region without ops means "no else".
    let has_else = p.ctx().regions(op).get(1).is_some_and(|&r| {
        p.ctx()
            .region_blocks(r)
            .iter()
            .any(|&b| !p.ctx().block_is_empty(b))
    });
    if has_else {
        p.write(" else");
        print_region_at(p, op, 1);
    }
    print_attrs(p, op);
}

// ----- qd.break / qd.continue --------------------------------------------------------------

impl BreakOp {
    /// The loop it leaves.
    pub fn target_loop(self, ctx: &Context) -> Option<OpId> {
        jump_target(ctx, self.0).ok()
    }
}

impl ContinueOp {
    /// The loop whose next iteration it starts.
    pub fn target_loop(self, ctx: &Context) -> Option<OpId> {
        jump_target(ctx, self.0).ok()
    }
}

/// The serial loop a `qd.break`/`qd.continue` refers to: the nearest enclosing loop, reached
/// through `qd.if`s only.
fn jump_target(ctx: &Context, op: OpId) -> DiagResult<OpId> {
    let mut child = op;
    loop {
        let Some(parent) = ctx.parent_op(child) else {
            return Err(err(ctx, op, "expects to be nested in a serial loop"));
        };
        if is_loop(ctx, parent) {
            if is_parallel_loop(ctx, parent) {
                return Err(err(
                    ctx,
                    op,
                    format!(
                        "cannot leave the parallel loop '{}' at the top level of a kernel; only serial loops allow it",
                        ctx.name(parent)
                    ),
                ));
            }
            let in_cond = ctx.name(parent) == WHILE_OP
                && ctx.parent_region(child).and_then(|r| ctx.region_index(r)) == Some(0);
            if in_cond {
                return Err(err(
                    ctx,
                    op,
                    "cannot be used in the condition region of 'qd.while'",
                ));
            }
            return Ok(parent);
        }
        if ctx.name(parent) != IF_OP {
            return Err(err(
                ctx,
                op,
                format!(
                    "expects to be nested in a serial loop, through 'qd.if' only; found '{}'",
                    ctx.name(parent)
                ),
            ));
        }
        child = parent;
    }
}

fn verify_jump(ctx: &Context, op: OpId) -> DiagResult<()> {
    jump_target(ctx, op).map(|_| ())
}
