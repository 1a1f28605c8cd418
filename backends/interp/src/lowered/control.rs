//! Structured control flow: `lowered.for`, `lowered.if`, `lowered.while` (their terminators
//! `yield` and `condition` carry nothing the parent does not read itself).

use crate::exec::{Compiler, Exec, Flow};
use crate::num::{canon, Kind};
use qd_ir::{Diagnostic, OpId};
use qd_runtime::RuntimeErrorKind;

/// `lowered.for %i = %lo to %hi step %s`: `i = lo, lo + s, ...` while `i < hi`, compared as
/// signed integers of their type; the step must be positive.
pub(super) fn for_loop(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    if ctx.num_operands(op) != 3 {
        return Err(c.error(
            op,
            "lowered.for needs a lower bound, an upper bound and a step",
        ));
    }
    let Kind::Int { width, .. } = c.kind(op, ctx.value_type(ctx.operand(op, 0)))? else {
        return Err(c.error(op, "lowered.for bounds must be integers"));
    };
    let body_block = ctx
        .regions(op)
        .first()
        .and_then(|&r| ctx.entry_block(r))
        .ok_or_else(|| c.error(op, "lowered.for needs a body"))?;
    let Some(&iv) = ctx.block_args(body_block).first() else {
        return Err(c.error(op, "lowered.for's body needs the induction variable"));
    };
    let ops = c.operand_slots(op);
    let (lo, hi, step) = (ops[0], ops[1], ops[2]);
    let iv = c.slot(iv);
    let body = c.compile_block(body_block)?;
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        // Canonical integers are sign-extended: `as i64` reads any width as signed.
        let (lo, hi, s) = (f.get(lo) as i64, f.get(hi) as i64, f.get(step) as i64);
        if s <= 0 {
            return Err(f.error(
                loc,
                RuntimeErrorKind::InvalidOperation,
                format!("lowered.for step must be positive, got {s}"),
            ));
        }
        let mut i = i128::from(lo);
        while i < i128::from(hi) {
            f.set(iv, canon(i as u64, width));
            body.run(f)?;
            i += i128::from(s);
        }
        Ok(Flow::Next)
    }))
}

pub(super) fn if_op(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    if ctx.num_operands(op) != 1 {
        return Err(c.error(op, "lowered.if needs one condition"));
    }
    let cond = c.slot(ctx.operand(op, 0));
    let then = c.compile_region(op, 0)?;
    let els = c.compile_region(op, 1)?;
    Ok(Box::new(move |f| {
        if f.get(cond) & 1 != 0 {
            then.run(f)
        } else {
            els.run(f)
        }
    }))
}

/// `lowered.while { ... lowered.condition %c } do { ... }`.
pub(super) fn while_loop(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let cond_op = ctx
        .regions(op)
        .first()
        .and_then(|&r| ctx.entry_block(r))
        .and_then(|b| ctx.block_ops(b).last())
        .filter(|&t| ctx.name(t) == qd_lowered::CONDITION_OP && ctx.num_operands(t) == 1)
        .ok_or_else(|| {
            c.error(
                op,
                "lowered.while's condition region must end in lowered.condition",
            )
        })?;
    let cond = c.slot(ctx.operand(cond_op, 0));
    let before = c.compile_region(op, 0)?;
    let after = c.compile_region(op, 1)?;
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| loop {
        before.run(f)?;
        if f.get(cond) & 1 == 0 {
            return Ok(Flow::Next);
        }
        after.run(f)?;
        // The back edge: a launch past its deadline stops here.
        f.check_cancel(loc)?;
    }))
}
