//! `qd.range_for`, `qd.struct_for`, `qd.while` and `qd.if`.

use crate::exec::{Code, Compiler, Exec, ExecResult, Flow, Frame, Slot};
use crate::num::Kind;
use qd_frontend::{is_parallel_loop, IfOp, RangeForOp, StructForOp, WhileOp};
use qd_ir::{Diagnostic, Location, OpId};

/// Runs one iteration of a loop body; returns false when the loop must stop (`qd.break`).
#[inline]
fn iterate(body: &Code, f: &mut Frame<'_>) -> Result<bool, Box<qd_runtime::RuntimeError>> {
    Ok(body.run(f)? != Flow::Break)
}

pub(super) fn range_for(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let r = RangeForOp(op);
    if !matches!(c.kind(op, ctx.value_type(r.lower(ctx)))?, Kind::Int { .. }) {
        return Err(c.error(op, "qd.range_for bounds must be integers"));
    }
    let (lo, hi) = (c.slot(r.lower(ctx)), c.slot(r.upper(ctx)));
    let iv = c.slot(r.induction_var(ctx));
    let body = c.compile_block(r.body(ctx))?;
    let loc = ctx.loc(op);
    // Canonical integers are sign-extended, so `as i64` reads any width as signed.
    if is_parallel_loop(ctx, op) {
        return Ok(Box::new(move |f| {
            let (lo, hi) = (f.get(lo) as i64, f.get(hi) as i64);
            let n = (hi as i128 - lo as i128).max(0) as u64;
            // Each iteration is a thread: `break`/`continue` cannot target this loop.
            match f.parallel_order(n, loc)? {
                None => {
                    for i in lo..hi.max(lo) {
                        f.set(iv, i as u64);
                        body.run(f)?;
                    }
                }
                Some(order) => {
                    for k in order {
                        f.set(iv, lo.wrapping_add(k as i64) as u64);
                        body.run(f)?;
                    }
                }
            }
            Ok(Flow::Next)
        }));
    }
    Ok(Box::new(move |f| {
        let (lo, hi) = (f.get(lo) as i64, f.get(hi) as i64);
        let mut i = lo;
        while i < hi {
            f.set(iv, i as u64);
            if !iterate(&body, f)? {
                break;
            }
            i += 1;
        }
        Ok(Flow::Next)
    }))
}

pub(super) fn struct_for(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let s = StructForOp(op);
    let name = s.field_name(ctx);
    let Some(index) = c.memory().field_index(name) else {
        return Err(c.error(op, format!("qd.struct_for over unknown field @{name}")));
    };
    let shape = c.memory().field(index).info.shape.clone();
    let ivs: Vec<Slot> = s
        .induction_vars(ctx)
        .into_iter()
        .map(|v| c.slot(v))
        .collect();
    let body = c.compile_region(op, 0)?;
    let parallel = is_parallel_loop(ctx, op);
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        run_struct_for(f, &shape, &ivs, &body, parallel, loc)
    }))
}

fn run_struct_for(
    f: &mut Frame<'_>,
    shape: &[usize],
    ivs: &[Slot],
    body: &Code,
    parallel: bool,
    loc: Location,
) -> ExecResult {
    let n: u64 = shape.iter().map(|&d| d as u64).product();
    let order = if parallel {
        f.parallel_order(n, loc)?
    } else {
        None
    };
    // Sets the induction variables to the row-major decomposition of linear index `k`.
    let set_ivs = |f: &mut Frame<'_>, mut k: u64| {
        for (s, &d) in ivs.iter().zip(shape).rev() {
            f.set(*s, k % d as u64);
            k /= d as u64;
        }
    };
    match order {
        Some(order) => {
            for k in order {
                set_ivs(f, k);
                body.run(f)?;
            }
        }
        None => {
            for k in 0..n {
                set_ivs(f, k);
                let go_on = iterate(body, f)?;
                if !parallel && !go_on {
                    break;
                }
            }
        }
    }
    Ok(Flow::Next)
}

pub(super) fn while_loop(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let w = WhileOp(op);
    let cond = c.slot(w.condition(ctx));
    let before = c.compile_region(op, 0)?;
    let after = c.compile_region(op, 1)?;
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| loop {
        before.run(f)?;
        if f.get(cond) & 1 == 0 || !iterate(&after, f)? {
            return Ok(Flow::Next);
        }
        // The back edge: a launch past its deadline stops here.
        f.check_cancel(loc)?;
    }))
}

pub(super) fn if_op(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let cond = c.slot(IfOp(op).condition(ctx));
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
