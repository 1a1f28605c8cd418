//! The reverse of control flow.
//!
//! - A block is reversed op by op, last op first. In a loop body with `qd.break` /
//!   `qd.continue`, the ops that come after a jump run only in iterations that did not take it:
//!   their reverse is wrapped in `qd.if (jid == 0 || jid > k)`, where `jid` is the number of the
//!   jump that ended the iteration (0 for none; see `structure::Jumps`) and `k` the number of
//!   jumps before those ops. This is the `if c {...; break}; rest` to
//!   `if c {...; break} else {rest}` rewrite, done on the reverse side and nesting-proof.
//! - `qd.if c {A} else {B}` becomes `qd.if c {reverse A} else {reverse B}` (dropped when both
//!   are empty); `c` comes back through `tape`.
//! - A serial loop becomes `qd.range_for %k = 0 to n` over its reversed body, where `n` is the
//!   trip count: `max(hi - lo, 0)` for a `range_for` without break (from the bounds' primals),
//!   the field's size for a `struct_for` without break, the recorded count of iterations started
//!   otherwise (`qd.while`, loops that break). Iteration `k` reverses forward iteration
//!   `n - 1 - k`: a `range_for`'s induction variable is `lo + (n - 1 - k)`, a `struct_for`'s are
//!   that linear index unflattened (row-major). A `qd.while`'s condition region has nothing to
//!   reverse (it writes no memory and its values only decide the loop).

use crate::emitter::{Emitter, Tape};
use qd_arith::names::{ADDI, DIVSI, MAXSI, ORI, REMSI, SUBI};
use qd_arith::{build_binary, build_cmpi, build_constant_int, build_select, CmpIPredicate};
use qd_frontend::{
    lookup_field, IfOp, RangeForOp, StructForOp, IF_OP, RANGE_FOR_OP, STRUCT_FOR_OP,
};
use qd_ir::{BlockId, Builder, Context, OpId, OperationState, Value};

impl Emitter<'_> {
    /// Reverses `ops` (the ops of one block, in program order) at the end of `dst`, which is the
    /// block of the innermost scope.
    pub(crate) fn reverse_ops(&mut self, ctx: &mut Context, ops: &[OpId]) {
        let governing = ops.first().and_then(|&o| self.guarded_loop(ctx, o));
        let mut i = ops.len();
        while i > 0 {
            let j = self.f.jumps.before(ops[i - 1]);
            let mut start = i - 1;
            while start > 0 && self.f.jumps.before(ops[start - 1]) == j {
                start -= 1;
            }
            let run: Vec<OpId> = ops[start..i].iter().rev().copied().collect();
            match governing {
                Some(l) if j > 0 => self.reverse_guarded(ctx, l, j, &run),
                _ => {
                    for op in run {
                        self.reverse_op(ctx, op);
                    }
                }
            }
            i = start;
        }
    }

    /// The serial loop with guards that governs `op` (through ifs), if any.
    fn guarded_loop(&self, ctx: &Context, op: OpId) -> Option<OpId> {
        let mut cur = ctx.parent_op(op);
        while let Some(p) = cur {
            if ctx.name(p) == IF_OP {
                cur = ctx.parent_op(p);
                continue;
            }
            return self.f.jumps.of_loop(p).filter(|j| j.guarded).map(|_| p);
        }
        None
    }

    /// Reverses `run` (already in reverse order) under `jid == 0 || jid > j`.
    fn reverse_guarded(&mut self, ctx: &mut Context, l: OpId, j: u32, run: &[OpId]) {
        let loc = ctx.loc(run[0]);
        let block = ctx.create_block(&[]);
        self.push_scope(None, block);
        for &op in run {
            self.reverse_op(ctx, op);
        }
        self.pop_scope();
        if ctx.block_is_empty(block) {
            return;
        }
        let jid = self.jid_of(l);
        let mut b = self.builder(ctx);
        let i32t = b.ctx.i32_type();
        let z = build_constant_int(&mut b, 0, i32t, loc);
        let k = build_constant_int(&mut b, j as i64, i32t, loc);
        let none = build_cmpi(&mut b, CmpIPredicate::Eq, jid, z, loc);
        let later = build_cmpi(&mut b, CmpIPredicate::Sgt, jid, k, loc);
        let c = build_binary(&mut b, ORI, none, later, loc);
        insert_if(&mut b, c, block, None, loc);
    }

    pub(crate) fn reverse_if(&mut self, ctx: &mut Context, op: OpId) {
        let i = IfOp(op);
        let loc = ctx.loc(op);
        let branch = |this: &mut Self, ctx: &mut Context, src: Option<BlockId>| {
            let src = src?;
            let block = ctx.create_block(&[]);
            this.push_scope(Some(src), block);
            let ops = ctx.block_op_vec(src);
            this.reverse_ops(ctx, &ops);
            this.pop_scope();
            (!ctx.block_is_empty(block)).then_some(block)
        };
        let t = branch(self, ctx, i.then_block(ctx));
        let e = branch(self, ctx, i.else_block(ctx));
        if t.is_none() && e.is_none() {
            return;
        }
        let c = self.primal(ctx, i.condition(ctx));
        let t = t.unwrap_or_else(|| ctx.create_block(&[]));
        let mut b = self.builder(ctx);
        insert_if(&mut b, c, t, e, loc);
    }

    /// Reverses a serial loop.
    pub(crate) fn reverse_loop(&mut self, ctx: &mut Context, op: OpId) {
        let loc = ctx.loc(op);
        let rec = self.loops.get(&op).expect("loop was replayed").clone();
        let jumps = self.f.jumps.of_loop(op).cloned().unwrap_or_default();
        let i32t = ctx.i32_type();
        // The trip count, and the lower bound of a range_for.
        let mut lower = None;
        let n = match (ctx.name(op), rec.count) {
            (RANGE_FOR_OP, count) => {
                let r = RangeForOp(op);
                let lo = self.primal(ctx, r.lower(ctx));
                lower = Some(lo);
                match count {
                    Some(s) => self.read_synth(ctx, s, loc),
                    None => {
                        let hi = self.primal(ctx, r.upper(ctx));
                        let ty = ctx.value_type(lo);
                        let mut b = self.builder(ctx);
                        let d = build_binary(&mut b, SUBI, hi, lo, loc);
                        let z = build_constant_int(&mut b, 0, ty, loc);
                        build_binary(&mut b, MAXSI, d, z, loc)
                    }
                }
            }
            (STRUCT_FOR_OP, None) => {
                let size = self.struct_for_shape(ctx, op).iter().product::<i64>();
                let mut b = self.builder(ctx);
                build_constant_int(&mut b, size, i32t, loc)
            }
            (_, Some(s)) => self.read_synth(ctx, s, loc),
            (_, None) => unreachable!("a while loop always records its trip count"),
        };
        // The jump that ended the last iteration, for break-only loops with guards.
        let last_jid = (jumps.guarded && rec.jid_stack.is_none()).then(|| {
            let s = self.last_jid(ctx, op);
            (s, self.read_synth(ctx, s, loc))
        });
        let ty = ctx.value_type(n);
        let mut b = self.builder(ctx);
        let z = build_constant_int(&mut b, 0, ty, loc);
        let rev = RangeForOp::build(&mut b, z, n, loc);
        let body = rev.body(ctx);
        let k = rev.induction_var(ctx);
        self.push_scope(crate::structure::loop_body(ctx, op), body);
        self.reversed_ivs(ctx, op, n, k, lower);
        if jumps.guarded {
            let jid = match (rec.jid_stack, last_jid) {
                (Some(s), _) => self.read_tape(ctx, Tape::Stack(s, i32t), loc),
                (None, Some((_, lj))) => {
                    // Only the last forward iteration (the first reversed one) can have broken.
                    let mut b = self.builder(ctx);
                    let first = build_cmpi(&mut b, CmpIPredicate::Eq, k, z, loc);
                    let zero = build_constant_int(&mut b, 0, i32t, loc);
                    build_select(&mut b, first, lj, zero, loc)
                }
                _ => unreachable!(),
            };
            self.scopes.last_mut().unwrap().jid = Some((op, jid));
        }
        if let Some(src) = crate::structure::loop_body(ctx, op) {
            let ops = ctx.block_op_vec(src);
            self.reverse_ops(ctx, &ops);
        }
        if let Some(s) = rec.jid_stack {
            let mut b = self.builder(ctx);
            qd_adstack::build_pop(&mut b, s, loc);
        }
        self.pop_scope();
        if let Some(s) = rec.count {
            self.pop_synth(ctx, s, loc);
        }
        if let Some((s, _)) = last_jid {
            self.pop_synth(ctx, s, loc);
        }
    }

    /// Puts the primal induction variables of forward iteration `n - 1 - k` in the memo.
    fn reversed_ivs(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        n: Value,
        k: Value,
        lower: Option<Value>,
    ) {
        let loc = ctx.loc(op);
        let ivs: Vec<Value> = match ctx.name(op) {
            RANGE_FOR_OP => vec![RangeForOp(op).induction_var(ctx)],
            STRUCT_FOR_OP => StructForOp(op).induction_vars(ctx),
            _ => Vec::new(),
        };
        if ivs.iter().all(|&v| !ctx.has_uses(v)) {
            return;
        }
        let ty = ctx.value_type(n);
        let mut b = self.builder(ctx);
        let one = build_constant_int(&mut b, 1, ty, loc);
        let last = build_binary(&mut b, SUBI, n, one, loc);
        let lin = build_binary(&mut b, SUBI, last, k, loc);
        let vals = match lower {
            Some(lo) => vec![build_binary(&mut b, ADDI, lo, lin, loc)],
            None => {
                // Row-major: the last index varies fastest.
                let shape = self.struct_for_shape(b.ctx, op);
                let mut out = vec![lin; shape.len()];
                let mut stride = 1i64;
                for d in (0..shape.len()).rev() {
                    let s = build_constant_int(&mut b, stride, ty, loc);
                    let e = build_constant_int(&mut b, shape[d], ty, loc);
                    let q = build_binary(&mut b, DIVSI, lin, s, loc);
                    out[d] = build_binary(&mut b, REMSI, q, e, loc);
                    stride *= shape[d];
                }
                out
            }
        };
        for (iv, v) in ivs.into_iter().zip(vals) {
            self.memo_put(iv, v);
        }
    }
}

impl Emitter<'_> {
    /// The shape of the field a struct_for runs over (resolved with the facts; a scan only for a
    /// loop they did not see).
    fn struct_for_shape(&self, ctx: &Context, op: OpId) -> Vec<i64> {
        if let Some(s) = self.f.struct_for_shapes.get(&op) {
            return s.clone();
        }
        let name = StructForOp(op).field_name(ctx).to_string();
        lookup_field(ctx, op, &name)
            .map(|f| f.shape(ctx))
            .unwrap_or_default()
    }
}

/// Inserts `qd.if c {then} [else {else}]` with the given (detached) blocks.
fn insert_if(b: &mut Builder, c: Value, then: BlockId, els: Option<BlockId>, loc: qd_ir::Location) {
    let tr = b.ctx.create_region();
    b.ctx.append_block(tr, then);
    let er = b.ctx.create_region();
    if let Some(e) = els {
        b.ctx.append_block(er, e);
    }
    let st = OperationState::new(IF_OP, loc)
        .operands(&[c])
        .region(tr)
        .region(er);
    b.insert(st);
}
