//! Structured control flow: serial loops, `qd.while`, `qd.if`, and `qd.break` / `qd.continue`
//! rewritten into structured form with private `i1` flags per loop (see [`LoopFlags`]):
//!
//! - `running` (when code follows a `qd.if` that may jump): set at the start of each iteration,
//!   cleared by `break` and `continue`; the code after an `if` that may jump runs under
//!   `lowered.if running`.
//! - `broken` (when the loop has a `break`): set by `break`, checked by the loop condition. A
//!   `qd.range_for` or serial `qd.struct_for` with a break becomes a `lowered.while` over a
//!   private counter (`i < hi && !broken`, the counter advanced at the end of every iteration);
//!   a `qd.while` with a break evaluates its condition region only while not broken (the region
//!   may read memory, and after a break qd never evaluates it again).
//! - A jump that ends the loop body itself needs no guard: nothing follows it.
//!
//! Without jumps, `qd.range_for` becomes `lowered.for` (step 1) and a serial `qd.struct_for` a
//! `lowered.for` over the field's linear index, delinearized row-major into its i32 indices.

use crate::convert::lower_op;
use crate::emit;
use crate::jumps::{if_has_jump, loop_jumps, Jumps};
use crate::lowerer::{LoopFlags, Lowerer, R};
use qd_arith::names::{ADDI, ANDI, DIVUI, REMUI};
use qd_arith::CmpIPredicate;
use qd_frontend::{
    lookup_field, IfOp, RangeForOp, StructForOp, WhileOp, BREAK_OP, CONDITION_OP, CONTINUE_OP,
    IF_OP,
};
use qd_ir::{BlockId, OpId, Type, Value};

/// Lowers `ops` (a block's ops, or the rest of one) in order; after an `if` that may jump, the
/// rest runs under the loop's `running` flag.
pub fn lower_ops(lw: &mut Lowerer, ops: &[OpId]) -> R<()> {
    for (i, &op) in ops.iter().enumerate() {
        match lw.ctx.name(op) {
            BREAK_OP | CONTINUE_OP => return lower_op(lw, op),
            IF_OP if if_has_jump(lw.ctx, op) => {
                lower_op(lw, op)?;
                let rest = &ops[i + 1..];
                if rest.is_empty() {
                    return Ok(());
                }
                let saved = lw.loc;
                lw.loc = lw.ctx.loc(op);
                let r = guard_rest(lw, rest);
                lw.loc = saved;
                return r;
            }
            _ => lower_op(lw, op)?,
        }
    }
    Ok(())
}

fn guard_rest(lw: &mut Lowerer, rest: &[OpId]) -> R<()> {
    let Some(running) = lw.loops.last().and_then(|f| f.running) else {
        return Err(lw.internal("a jump outside of a loop with a running flag"));
    };
    let c = emit::load(lw, running)?;
    let then = lw.region(&[], |lw, _| {
        lower_ops(lw, rest)?;
        emit::yield_op(lw);
        Ok(())
    })?;
    let els = lw.ctx.create_region();
    emit::if_op(lw, c, then, els);
    Ok(())
}

fn block_ops(lw: &Lowerer, block: Option<BlockId>) -> Vec<OpId> {
    block.map(|b| lw.ctx.block_op_vec(b)).unwrap_or_default()
}

/// `qd.break`: sets `broken` (and clears `running`).
pub fn break_op(lw: &mut Lowerer, _op: OpId) -> R<()> {
    let Some(f) = lw.loops.last().copied() else {
        return Err(lw.internal("qd.break outside of a serial loop"));
    };
    let Some(broken) = f.broken else {
        return Err(lw.internal("qd.break in a loop without a broken flag"));
    };
    let t = lw.const_bool(true);
    emit::store(lw, t, broken);
    if let Some(running) = f.running {
        let no = lw.const_bool(false);
        emit::store(lw, no, running);
    }
    Ok(())
}

/// `qd.continue`: clears `running` (nothing to do when it ends the body).
pub fn continue_op(lw: &mut Lowerer, _op: OpId) -> R<()> {
    let Some(f) = lw.loops.last().copied() else {
        return Err(lw.internal("qd.continue outside of a serial loop"));
    };
    if let Some(running) = f.running {
        let no = lw.const_bool(false);
        emit::store(lw, no, running);
    }
    Ok(())
}

pub fn if_op(lw: &mut Lowerer, op: OpId) -> R<()> {
    let i = IfOp(op);
    let c = lw.get(i.condition(lw.ctx))?;
    let then_ops = block_ops(lw, i.then_block(lw.ctx));
    let else_ops = block_ops(lw, i.else_block(lw.ctx));
    let then = lw.region(&[], |lw, _| {
        lower_ops(lw, &then_ops)?;
        emit::yield_op(lw);
        Ok(())
    })?;
    let els = if else_ops.is_empty() {
        lw.ctx.create_region()
    } else {
        lw.region(&[], |lw, _| {
            lower_ops(lw, &else_ops)?;
            emit::yield_op(lw);
            Ok(())
        })?
    };
    emit::if_op(lw, c, then, els);
    Ok(())
}

/// The flags of a loop with `jumps`, allocated before it (zeroed: not broken).
fn loop_flags(lw: &mut Lowerer, jumps: Jumps) -> LoopFlags {
    let i1 = lw.ctx.i1_type();
    LoopFlags {
        broken: jumps.has_break.then(|| emit::alloca(lw, i1)),
        running: jumps.guarded.then(|| emit::alloca(lw, i1)),
    }
}

/// The body of one iteration: `running := true`, the ivs (from `bind`), the ops.
fn iteration(
    lw: &mut Lowerer,
    flags: LoopFlags,
    ops: &[OpId],
    bind: &dyn Fn(&mut Lowerer) -> R<()>,
) -> R<()> {
    if let Some(running) = flags.running {
        let t = lw.const_bool(true);
        emit::store(lw, t, running);
    }
    bind(lw)?;
    lw.loops.push(flags);
    let r = lower_ops(lw, ops);
    lw.loops.pop();
    r
}

/// A serial counted loop `for k in [lo, hi)` (lowered values of integer or index type `ty`)
/// over `ops`, where `bind(lw, k)` maps the qd induction variables from the counter.
fn counted_loop(
    lw: &mut Lowerer,
    lo: Value,
    hi: Value,
    ty: Type,
    ops: &[OpId],
    jumps: Jumps,
    bind: &dyn Fn(&mut Lowerer, Value) -> R<()>,
) -> R<()> {
    let flags = loop_flags(lw, jumps);
    let loc = lw.loc;
    if !jumps.has_break {
        let step = lw.const_int(1, ty);
        let body = lw.region(&[(ty, loc)], |lw, block| {
            let k = lw.ctx.block_arg(block, 0);
            iteration(lw, flags, ops, &|lw| bind(lw, k))?;
            emit::yield_op(lw);
            Ok(())
        })?;
        emit::for_op(lw, lo, hi, step, body);
        return Ok(());
    }
    // A private counter (index counters live as i64: private memory holds no index).
    let is_index = lw.ctx.type_data(ty).is_index();
    let cty = if is_index { lw.ctx.i64_type() } else { ty };
    let (lo_c, hi_c) = if is_index {
        (lw.widen_i64(lo)?, lw.widen_i64(hi)?)
    } else {
        (lo, hi)
    };
    let counter = emit::alloca(lw, cty);
    emit::store(lw, lo_c, counter);
    let Some(broken) = flags.broken else {
        return Err(lw.internal("a loop with a break has no broken flag"));
    };
    let before = lw.region(&[], |lw, _| {
        let k = emit::load(lw, counter)?;
        let lt = lw.cmpi(CmpIPredicate::Slt, k, hi_c);
        let b = emit::load(lw, broken)?;
        let nb = lw.not(b);
        let go = lw.arith(ANDI, &[lt, nb]);
        emit::condition(lw, go);
        Ok(())
    })?;
    let after = lw.region(&[], |lw, _| {
        let k = emit::load(lw, counter)?;
        let kv = if is_index { lw.narrow_i64(k, ty)? } else { k };
        iteration(lw, flags, ops, &|lw| bind(lw, kv))?;
        let one = lw.const_int(1, cty);
        let next = lw.arith(ADDI, &[k, one]);
        emit::store(lw, next, counter);
        emit::yield_op(lw);
        Ok(())
    })?;
    emit::while_op(lw, before, after);
    Ok(())
}

/// A serial `qd.range_for`.
pub fn range_for(lw: &mut Lowerer, op: OpId) -> R<()> {
    let r = RangeForOp(op);
    let lo = lw.get(r.lower(lw.ctx))?;
    let hi = lw.get(r.upper(lw.ctx))?;
    let ty = lw.ctx.value_type(lo);
    let ops = lw.ctx.block_op_vec(r.body(lw.ctx));
    let iv = r.induction_var(lw.ctx);
    let jumps = loop_jumps(lw.ctx, op);
    counted_loop(lw, lo, hi, ty, &ops, jumps, &|lw, k| {
        lw.map.map(iv, k);
        Ok(())
    })
}

/// The shape of the field a struct_for runs over.
fn struct_for_shape(lw: &Lowerer, s: StructForOp) -> R<Vec<i64>> {
    let name = s.field_name(lw.ctx);
    lookup_field(lw.ctx, s.0, name)
        .map(|f| f.shape(lw.ctx))
        .ok_or_else(|| lw.error(format!("'qd.struct_for' over unknown field @{name}")))
}

/// Maps the induction variables of struct_for `s` (over a field of `shape`) from the i64
/// row-major linear index `k`: the last index varies fastest.
pub fn bind_struct_ivs(lw: &mut Lowerer, s: StructForOp, shape: &[i64], k: Value) -> R<()> {
    let ivs = s.induction_vars(lw.ctx);
    let mut rest = k;
    for (axis, &iv) in ivs.iter().enumerate().rev() {
        let ty = lw.ctx.value_type(iv);
        let i = if axis == 0 {
            rest
        } else {
            let d = lw.const_i64(shape[axis]);
            let i = lw.arith(REMUI, &[rest, d]);
            rest = lw.arith(DIVUI, &[rest, d]);
            i
        };
        let v = lw.narrow_i64(i, ty)?;
        lw.map.map(iv, v);
    }
    Ok(())
}

/// A serial `qd.struct_for`: a counted loop over the field's linear index.
pub fn struct_for(lw: &mut Lowerer, op: OpId) -> R<()> {
    let s = StructForOp(op);
    let shape = struct_for_shape(lw, s)?;
    let n = shape.iter().fold(1i64, |a, &d| a.saturating_mul(d));
    let ops = block_ops(lw, s.body(lw.ctx));
    let jumps = loop_jumps(lw.ctx, op);
    let lo = lw.const_i64(0);
    let hi = lw.const_i64(n);
    let i64t = lw.ctx.i64_type();
    counted_loop(lw, lo, hi, i64t, &ops, jumps, &|lw, k| {
        bind_struct_ivs(lw, s, &shape, k)
    })
}

/// `qd.while`.
pub fn while_loop(lw: &mut Lowerer, op: OpId) -> R<()> {
    let w = WhileOp(op);
    let before_block = w.before(lw.ctx);
    let cond_ops: Vec<OpId> = lw
        .ctx
        .block_ops(before_block)
        .filter(|&o| lw.ctx.name(o) != CONDITION_OP)
        .collect();
    let cond = w.condition(lw.ctx);
    let ops = block_ops(lw, w.after(lw.ctx));
    let jumps = loop_jumps(lw.ctx, op);
    let flags = loop_flags(lw, jumps);
    let i1 = lw.ctx.i1_type();
    let go = flags.broken.map(|_| emit::alloca(lw, i1));
    let before = lw.region(&[], |lw, _| {
        // The condition region belongs to no iteration: jumps in it are not allowed.
        let saved = std::mem::take(&mut lw.loops);
        let r = condition_region(lw, &cond_ops, cond, flags.broken, go);
        lw.loops = saved;
        r
    })?;
    let after = lw.region(&[], |lw, _| {
        iteration(lw, flags, &ops, &|_| Ok(()))?;
        emit::yield_op(lw);
        Ok(())
    })?;
    emit::while_op(lw, before, after);
    Ok(())
}

/// The condition region of a while: the qd condition ops then `lowered.condition`; with a break,
/// the ops run only while not broken, their verdict kept in the private flag `go`.
fn condition_region(
    lw: &mut Lowerer,
    ops: &[OpId],
    cond: Value,
    broken: Option<Value>,
    go: Option<Value>,
) -> R<()> {
    let (Some(broken), Some(go)) = (broken, go) else {
        lower_ops(lw, ops)?;
        let c = lw.get(cond)?;
        emit::condition(lw, c);
        return Ok(());
    };
    let no = lw.const_bool(false);
    emit::store(lw, no, go);
    let b = emit::load(lw, broken)?;
    let nb = lw.not(b);
    let then = lw.region(&[], |lw, _| {
        lower_ops(lw, ops)?;
        let c = lw.get(cond)?;
        emit::store(lw, c, go);
        emit::yield_op(lw);
        Ok(())
    })?;
    let els = lw.ctx.create_region();
    emit::if_op(lw, nb, then, els);
    let g = emit::load(lw, go)?;
    emit::condition(lw, g);
    Ok(())
}

/// The body of a parallel loop in its range task: iteration `k = begin + thread_id` gives the
/// induction variables.
pub fn parallel_body(lw: &mut Lowerer, op: OpId, k: Value) -> R<()> {
    if let Some(r) = RangeForOp::from_op(lw.ctx, op) {
        let iv = r.induction_var(lw.ctx);
        let ty = lw.ctx.value_type(iv);
        let v = lw.narrow_i64(k, ty)?;
        lw.map.map(iv, v);
        let ops = lw.ctx.block_op_vec(r.body(lw.ctx));
        return lower_ops(lw, &ops);
    }
    let s = StructForOp(op);
    let shape = struct_for_shape(lw, s)?;
    if s.body(lw.ctx).is_none() {
        return Ok(());
    }
    bind_struct_ivs(lw, s, &shape, k)?;
    let ops = block_ops(lw, s.body(lw.ctx));
    lower_ops(lw, &ops)
}
