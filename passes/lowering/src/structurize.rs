//! Removes `qd.break` / `qd.continue` within qd itself, so that every loop is structured (what
//! SPIR-V's merges need) before the per-op conversion. Each serial loop with jumps gets private
//! `i1` flags (`qd.alloca`s before it, zeroed each time the loop is reached):
//!
//! - `running` (when code follows a `qd.if` that may jump): set at the start of each iteration,
//!   cleared by `break` and `continue`; the code after such an `if` moves into
//!   `qd.if (qd.local_load running)`.
//! - `broken` (when the loop has a `break`): set by `break`. A `qd.range_for` or a serial
//!   `qd.struct_for` with a break becomes a `qd.while` over a private counter, running while
//!   `counter < upper && !broken`, the counter advanced at the end of every iteration (the
//!   struct_for's indices delinearized row-major from its i64 linear index). A `qd.while` with a
//!   break runs its condition region only while not broken (it may read memory, and qd never
//!   evaluates it after a break), its verdict kept in a private flag `go`.
//! - A jump that ends the loop body itself needs no guard: nothing follows it.
//!
//! The result is qd that verifies and computes what the original did, bit for bit (the tests
//! run both on the interpreter).

use crate::jumps::{if_has_jump, loop_body, loop_jumps};
use qd_arith::names::{ADDI, ANDI, DIVUI, INDEX_CAST, REMUI, TRUNCI, XORI};
use qd_arith::{build_cast, build_cmpi, build_constant_bool, build_constant_int, CmpIPredicate};
use qd_frontend::{
    is_loop, lookup_field_in, AllocaOp, ConditionOp, IfOp, LocalLoadOp, LocalStoreOp, RangeForOp,
    StructForOp, WhileOp, BREAK_OP, CONDITION_OP, CONTINUE_OP, IF_OP, RANGE_FOR_OP, STRUCT_FOR_OP,
    WHILE_OP,
};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{BlockId, Builder, Context, Diagnostic, InsertPoint, Location, OpId, Type, Value};

/// The flags of one loop.
#[derive(Copy, Clone)]
struct Flags {
    broken: Option<Value>,
    running: Option<Value>,
    t: Value,
    f: Value,
}

/// Rewrites every loop nested in `root` that has jumps; returns how many.
pub fn remove_jumps(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    root: OpId,
) -> Result<usize, Diagnostic> {
    let loops: Vec<OpId> = ctx
        .walk_post_order(root)
        .into_iter()
        .filter(|&o| is_loop(ctx, o) && loop_jumps(ctx, o).any())
        .collect();
    for &op in &loops {
        structurize_loop(ctx, symbols, op)?;
    }
    Ok(loops.len())
}

fn alloca_i1(b: &mut Builder, loc: Location) -> Value {
    let i1 = b.ctx.i1_type();
    AllocaOp::build(b, i1, loc).result(b.ctx)
}

fn load(b: &mut Builder, p: Value, loc: Location) -> Value {
    LocalLoadOp::build(b, p, loc).result(b.ctx)
}

fn store(b: &mut Builder, v: Value, p: Value, loc: Location) {
    LocalStoreOp::build(b, v, p, loc);
}

fn structurize_loop(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    op: OpId,
) -> Result<(), Diagnostic> {
    let jumps = loop_jumps(ctx, op);
    let loc = ctx.loc(op);
    let mut b = Builder::before(ctx, op);
    let t = build_constant_bool(&mut b, true, loc);
    let f = build_constant_bool(&mut b, false, loc);
    let flags = Flags {
        broken: jumps.has_break.then(|| alloca_i1(&mut b, loc)),
        running: jumps.guarded.then(|| alloca_i1(&mut b, loc)),
        t,
        f,
    };
    let Some(body) = loop_body(ctx, op) else {
        return Ok(());
    };
    rewrite_block(ctx, body, flags);
    if let Some(running) = flags.running {
        let mut b = Builder::new(ctx, InsertPoint::AtStart(body));
        store(&mut b, t, running, loc);
    }
    match (ctx.name(op), flags.broken) {
        (RANGE_FOR_OP, Some(broken)) => range_for_to_while(ctx, op, broken, flags)?,
        (STRUCT_FOR_OP, Some(broken)) => struct_for_to_while(ctx, symbols, op, broken, flags)?,
        (WHILE_OP, Some(broken)) => guard_condition(ctx, op, broken, flags)?,
        _ => {}
    }
    // A loop whose only jump is a continue that ends its body needs neither constant.
    for c in [t, f] {
        if !ctx.has_uses(c) {
            if let Some(o) = ctx.defining_op(c) {
                ctx.erase_op(o);
            }
        }
    }
    Ok(())
}

/// Replaces the jumps of `block` (and of the `qd.if`s in it) by flag stores, and moves the code
/// after each `qd.if` that may jump under `running`.
fn rewrite_block(ctx: &mut Context, block: BlockId, flags: Flags) {
    let ops = ctx.block_op_vec(block);
    for (i, &op) in ops.iter().enumerate() {
        match ctx.name(op) {
            BREAK_OP | CONTINUE_OP => {
                let loc = ctx.loc(op);
                let is_break = ctx.name(op) == BREAK_OP;
                let mut b = Builder::before(ctx, op);
                if let (true, Some(broken)) = (is_break, flags.broken) {
                    store(&mut b, flags.t, broken, loc);
                }
                if let Some(running) = flags.running {
                    store(&mut b, flags.f, running, loc);
                }
                ctx.erase_op(op);
                return;
            }
            IF_OP if if_has_jump(ctx, op) => {
                for r in ctx.regions(op).to_vec() {
                    for b in ctx.region_blocks(r).to_vec() {
                        rewrite_block(ctx, b, flags);
                    }
                }
                let rest = &ops[i + 1..];
                let Some(running) = flags.running.filter(|_| !rest.is_empty()) else {
                    return;
                };
                let loc = ctx.loc(op);
                let mut b = Builder::new(ctx, InsertPoint::After(op));
                let go = load(&mut b, running, loc);
                let guard = IfOp::build(&mut b, go, false, loc);
                let then = guard.ensure_then(ctx);
                for &o in rest {
                    ctx.detach_op(o);
                    ctx.append_op(then, o);
                }
                rewrite_block(ctx, then, flags);
                return;
            }
            _ => {}
        }
    }
}

/// A `qd.while` over a private counter from `lo` to `hi` (values of type `cty`, before the
/// loop) that stops once `broken`: the counter's value in the body (the caller binds the
/// induction variables from it) and the op to insert the body before (the counter's advance).
fn counter_while(
    ctx: &mut Context,
    op: OpId,
    lo: Value,
    hi: Value,
    cty: Type,
    broken: Value,
    flags: Flags,
) -> (Value, OpId) {
    let loc = ctx.loc(op);
    let mut b = Builder::before(ctx, op);
    let one = build_constant_int(&mut b, 1, cty, loc);
    let ctr = AllocaOp::build(&mut b, cty, loc).result(b.ctx);
    store(&mut b, lo, ctr, loc);
    let w = WhileOp::build(&mut b, loc);
    let before = w.before(ctx);
    let mut b = Builder::at_end(ctx, before);
    let k = load(&mut b, ctr, loc);
    let lt = build_cmpi(&mut b, CmpIPredicate::Slt, k, hi, loc);
    let br = load(&mut b, broken, loc);
    let nb = qd_arith::build_binary(&mut b, XORI, br, flags.t, loc);
    let go = qd_arith::build_binary(&mut b, ANDI, lt, nb, loc);
    ConditionOp::build(&mut b, go, loc);
    let after = w.ensure_after(ctx);
    let mut b = Builder::at_end(ctx, after);
    let k = load(&mut b, ctr, loc);
    let next = qd_arith::build_binary(&mut b, ADDI, k, one, loc);
    LocalStoreOp::build(&mut b, next, ctr, loc);
    let advance = ctx.defining_op(next).expect("the advance is an op");
    (k, advance)
}

/// Moves the loop body `from` before `anchor` (in the new while's body).
fn move_body_before(ctx: &mut Context, from: BlockId, anchor: OpId) {
    for o in ctx.block_op_vec(from) {
        ctx.move_op_before(o, anchor);
    }
}

fn range_for_to_while(
    ctx: &mut Context,
    op: OpId,
    broken: Value,
    flags: Flags,
) -> Result<(), Diagnostic> {
    let r = RangeForOp(op);
    let (lo, hi) = (r.lower(ctx), r.upper(ctx));
    let ty = ctx.value_type(lo);
    let loc = ctx.loc(op);
    // Private memory holds no `index`: an index loop counts in i64.
    let is_index = ctx.type_data(ty).is_index();
    let (cty, lo_c, hi_c) = if is_index {
        let i64t = ctx.i64_type();
        let mut b = Builder::before(ctx, op);
        let l = build_cast(&mut b, INDEX_CAST, lo, i64t, loc);
        let h = build_cast(&mut b, INDEX_CAST, hi, i64t, loc);
        (i64t, l, h)
    } else {
        (ty, lo, hi)
    };
    let (k, advance) = counter_while(ctx, op, lo_c, hi_c, cty, broken, flags);
    let iv = r.induction_var(ctx);
    let kv = if is_index {
        let mut b = Builder::before(ctx, advance);
        build_cast(&mut b, INDEX_CAST, k, ty, loc)
    } else {
        k
    };
    ctx.replace_all_uses_with(iv, kv);
    move_body_before(ctx, r.body(ctx), advance);
    ctx.erase_op(op);
    Ok(())
}

fn struct_for_to_while(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    op: OpId,
    broken: Value,
    flags: Flags,
) -> Result<(), Diagnostic> {
    let s = StructForOp(op);
    let name = s.field_name(ctx).to_string();
    let Some(field) = lookup_field_in(ctx, symbols, op, &name) else {
        return Err(Diagnostic::error(
            ctx.loc(op),
            format!("'qd.struct_for' over unknown field @{name}"),
        ));
    };
    let shape = field.shape(ctx);
    let n = shape.iter().fold(1i64, |a, &d| a.saturating_mul(d));
    let loc = ctx.loc(op);
    let i64t = ctx.i64_type();
    let mut b = Builder::before(ctx, op);
    let lo = build_constant_int(&mut b, 0, i64t, loc);
    let hi = build_constant_int(&mut b, n, i64t, loc);
    let (k, advance) = counter_while(ctx, op, lo, hi, i64t, broken, flags);
    let ivs = s.induction_vars(ctx);
    let mut b = Builder::before(ctx, advance);
    let values = delinearize(&mut b, k, &shape, loc);
    for (iv, v) in ivs.into_iter().zip(values) {
        ctx.replace_all_uses_with(iv, v);
    }
    if let Some(body) = s.body(ctx) {
        move_body_before(ctx, body, advance);
    }
    ctx.erase_op(op);
    Ok(())
}

/// The i32 row-major indices of linear index `k` (i64) in `shape` (the last varies fastest).
pub fn delinearize(b: &mut Builder, k: Value, shape: &[i64], loc: Location) -> Vec<Value> {
    let i64t = b.ctx.i64_type();
    let i32t = b.ctx.i32_type();
    let mut out = vec![k; shape.len()];
    let mut rest = k;
    for axis in (0..shape.len()).rev() {
        let i = if axis == 0 {
            rest
        } else {
            let d = build_constant_int(b, shape[axis], i64t, loc);
            let i = qd_arith::build_binary(b, REMUI, rest, d, loc);
            rest = qd_arith::build_binary(b, DIVUI, rest, d, loc);
            i
        };
        out[axis] = build_cast(b, TRUNCI, i, i32t, loc);
    }
    out
}

/// A while with a break: its condition region runs only while not broken.
fn guard_condition(
    ctx: &mut Context,
    op: OpId,
    broken: Value,
    flags: Flags,
) -> Result<(), Diagnostic> {
    let w = WhileOp(op);
    let loc = ctx.loc(op);
    let mut b = Builder::before(ctx, op);
    let go = alloca_i1(&mut b, loc);
    let before = w.before(ctx);
    let cond_op = w.condition_op(ctx).0;
    let cond = ConditionOp(cond_op).condition(ctx);
    let cond_loc = ctx.loc(cond_op);
    ctx.erase_op(cond_op);
    let inner: Vec<OpId> = ctx.block_op_vec(before);
    let mut b = Builder::new(ctx, InsertPoint::AtStart(before));
    store(&mut b, flags.f, go, loc);
    let br = load(&mut b, broken, loc);
    let nb = qd_arith::build_binary(&mut b, XORI, br, flags.t, loc);
    let guard = IfOp::build(&mut b, nb, false, loc);
    let then = guard.ensure_then(ctx);
    for o in inner {
        ctx.detach_op(o);
        ctx.append_op(then, o);
    }
    let mut b = Builder::at_end(ctx, then);
    store(&mut b, cond, go, cond_loc);
    let mut b = Builder::at_end(ctx, before);
    let g = load(&mut b, go, cond_loc);
    ConditionOp::build(&mut b, g, cond_loc);
    debug_assert!(ctx
        .last_op(before)
        .is_some_and(|o| ctx.name(o) == CONDITION_OP));
    Ok(())
}
