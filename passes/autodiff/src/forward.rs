//! The forward replay: the original computation, cloned into the gradient kernel, minus its
//! writes of primal data (stores and atomics to fields and ndarrays: the gradient kernel
//! never writes primal data), with stacked locals turned into their stacks, plus what the
//! reverse pass needs recorded: trip counts of `qd.while` loops and of loops that `qd.break`
//! (an i32 counter of the iterations started, or of the bounds' type for `range_for`), the jump
//! that ended each iteration when ops follow a jump, and (added later, on demand, by `tape`)
//! pushes of the values the reverse pass reads back.

use crate::emitter::{Emitter, LoopRec};
use crate::structure::{is_global_write, is_jump, jump_target, loop_body};
use qd_arith::names::ADDI;
use qd_arith::{build_binary, build_constant_float, build_constant_int};
use qd_frontend::{
    AllocaOp, IfOp, LocalLoadOp, LocalStoreOp, RangeForOp, StructForOp, WhileOp, ALLOCA_OP,
    BREAK_OP, CONTINUE_OP, IF_OP, LOCAL_LOAD_OP, LOCAL_STORE_OP, RANGE_FOR_OP, STRUCT_FOR_OP,
    WHILE_OP,
};
use qd_ir::{BlockId, Builder, Context, OpId, OperationState, Value};

impl Emitter<'_> {
    /// Replays the ops of `src` at the end of `dst`.
    pub(crate) fn replay_block(&mut self, ctx: &mut Context, src: BlockId, dst: BlockId) {
        for op in ctx.block_op_vec(src) {
            self.replay_op(ctx, op, dst);
        }
    }

    /// Replays `ops` (consecutive top-level ops) at the end of `dst`.
    pub(crate) fn replay_ops(&mut self, ctx: &mut Context, ops: &[OpId], dst: BlockId) {
        for &op in ops {
            self.replay_op(ctx, op, dst);
        }
    }

    /// The stack of the stacked local `ptr` points to, when it does.
    fn stack_of_ptr(&self, ctx: &Context, ptr: Value) -> Option<Value> {
        let a = ctx.defining_op(ptr)?;
        self.local_stack.get(a)
    }

    fn replay_op(&mut self, ctx: &mut Context, op: OpId, dst: BlockId) {
        let loc = ctx.loc(op);
        match ctx.name(op) {
            // The replay writes no primal data.
            _ if is_global_write(ctx, op) => {}
            qd_ad::LOAD_ELEMENT_OP | qd_ad::STORE_ELEMENT_OP => self.replay_element(ctx, op, dst),
            ALLOCA_OP if self.f.elements.whole.contains_key(&op) => {
                self.replay_whole_alloca(ctx, op, dst)
            }
            ALLOCA_OP if self.f.stacked.contains(op) => {
                let ty = AllocaOp(op).pointee(ctx);
                let s = self.new_stack(ctx, ty, loc);
                self.local_stack.insert(op, s);
                // The local's initial value (locals are zero-initialised).
                let mut b = Builder::at_end(ctx, dst);
                let z = build_constant_float(&mut b, 0.0, ty, loc);
                let push = qd_adstack::build_push(&mut b, s, z, loc);
                self.fwd_op.insert(op, push);
            }
            LOCAL_LOAD_OP if self.stack_of_ptr(ctx, LocalLoadOp(op).ptr(ctx)).is_some() => {
                let s = self.stack_of_ptr(ctx, LocalLoadOp(op).ptr(ctx)).unwrap();
                let mut b = Builder::at_end(ctx, dst);
                let v = qd_adstack::build_load_top(&mut b, s, loc);
                self.fwd_op.insert(op, ctx.defining_op(v).unwrap());
                self.fwd.insert(ctx.result(op, 0), v);
            }
            LOCAL_STORE_OP if self.stack_of_ptr(ctx, LocalStoreOp(op).ptr(ctx)).is_some() => {
                let s = self.stack_of_ptr(ctx, LocalStoreOp(op).ptr(ctx)).unwrap();
                let v = self.fwd(LocalStoreOp(op).value(ctx));
                let mut b = Builder::at_end(ctx, dst);
                let push = qd_adstack::build_push(&mut b, s, v, loc);
                self.fwd_op.insert(op, push);
            }
            IF_OP => self.replay_if(ctx, op, dst),
            RANGE_FOR_OP | STRUCT_FOR_OP | WHILE_OP => self.replay_loop(ctx, op, dst),
            BREAK_OP | CONTINUE_OP => {
                let target = jump_target(ctx, op);
                let stack = target
                    .and_then(|t| self.loops.get(&t))
                    .and_then(|r| r.jid_stack);
                if let Some(s) = stack {
                    let id = self.f.jumps.id(op) as i64;
                    let mut b = Builder::at_end(ctx, dst);
                    let i32t = b.ctx.i32_type();
                    let k = build_constant_int(&mut b, id, i32t, loc);
                    qd_adstack::build_push(&mut b, s, k, loc);
                }
                self.clone_simple(ctx, op, dst);
            }
            _ => {
                self.clone_simple(ctx, op, dst);
            }
        }
    }

    /// Clones an op without its regions at the end of `dst`, over the forward values of its
    /// operands, and records its results as their forward values.
    /// (What `Context::clone_without_regions` makes, without a mapping table per op.)
    pub(crate) fn clone_simple(&mut self, ctx: &mut Context, op: OpId, dst: BlockId) -> OpId {
        // Every operand must already have a forward value (`fwd` says so when one does not).
        let operands: Vec<Value> = ctx.operands(op).map(|v| self.fwd(v)).collect();
        let mut st = OperationState::new(ctx.name(op), ctx.loc(op)).operands(&operands);
        st.result_types = ctx.results(op).iter().map(|&r| ctx.value_type(r)).collect();
        st.properties = ctx.properties(op).to_vec();
        st.attributes = ctx.attrs(op).to_vec();
        st.successors = ctx.successors(op).to_vec();
        st.regions = (0..ctx.regions(op).len())
            .map(|_| ctx.create_region())
            .collect();
        let new = Builder::at_end(ctx, dst).insert(st);
        for (i, &r) in ctx.results(op).iter().enumerate() {
            self.fwd.insert(r, ctx.result(new, i));
        }
        self.fwd_op.insert(op, new);
        new
    }

    fn replay_if(&mut self, ctx: &mut Context, op: OpId, dst: BlockId) {
        let i = IfOp(op);
        let c = self.fwd(i.condition(ctx));
        let (then_b, else_b) = (i.then_block(ctx), i.else_block(ctx));
        let loc = ctx.loc(op);
        let mut b = Builder::at_end(ctx, dst);
        let new = IfOp::build(&mut b, c, else_b.is_some(), loc);
        self.fwd_op.insert(op, new.0);
        if let Some(t) = then_b {
            let nt = new.ensure_then(ctx);
            self.replay_block(ctx, t, nt);
        }
        if let Some(e) = else_b {
            let ne = new.ensure_else(ctx);
            self.replay_block(ctx, e, ne);
        }
    }

    /// Replays a serial loop (parallel loops are handled by the pass, segment by segment).
    fn replay_loop(&mut self, ctx: &mut Context, op: OpId, dst: BlockId) {
        let loc = ctx.loc(op);
        let jumps = self.f.jumps.of_loop(op).cloned().unwrap_or_default();
        let is_while = ctx.name(op) == WHILE_OP;
        let needs_count = is_while || !jumps.breaks.is_empty();
        // The counter has the bounds' type (a local cannot hold an index: then i64, cast back).
        let bounds_ty = match RangeForOp::from_op(ctx, op) {
            Some(r) => ctx.value_type(r.lower(ctx)),
            None => ctx.i32_type(),
        };
        let count_ty = if ctx.type_data(bounds_ty).is_index() {
            ctx.i64_type()
        } else {
            bounds_ty
        };
        let cnt = needs_count.then(|| {
            let mut b = Builder::at_end(ctx, dst);
            AllocaOp::build(&mut b, count_ty, loc).result(b.ctx)
        });
        let new = match ctx.name(op) {
            RANGE_FOR_OP => {
                let r = RangeForOp(op);
                let (lo, hi) = (self.fwd(r.lower(ctx)), self.fwd(r.upper(ctx)));
                let mut b = Builder::at_end(ctx, dst);
                let n = RangeForOp::build(&mut b, lo, hi, loc);
                self.fwd.insert(r.induction_var(ctx), n.induction_var(ctx));
                n.0
            }
            STRUCT_FOR_OP => {
                let s = StructForOp(op);
                let ivs = s.induction_vars(ctx);
                let name = s.field_name(ctx).to_string();
                let mut b = Builder::at_end(ctx, dst);
                let n = StructForOp::build(&mut b, &name, ivs.len(), loc);
                for (o, nv) in ivs.into_iter().zip(n.induction_vars(ctx)) {
                    self.fwd.insert(o, nv);
                }
                n.0
            }
            _ => {
                let mut b = Builder::at_end(ctx, dst);
                let n = WhileOp::build(&mut b, loc);
                let before = WhileOp(op).before(ctx);
                let nb = n.before(ctx);
                self.replay_block(ctx, before, nb);
                n.0
            }
        };
        self.fwd_op.insert(op, new);
        let jid_stack = (jumps.guarded && !jumps.continues.is_empty()).then(|| {
            let i32t = ctx.i32_type();
            self.new_stack(ctx, i32t, loc)
        });
        self.loops.insert(
            op,
            LoopRec {
                clone: new,
                count: None,
                jid_stack,
                last_jid: None,
            },
        );
        let nbody = match ctx.name(new) {
            WHILE_OP => WhileOp(new).ensure_after(ctx),
            STRUCT_FOR_OP => StructForOp(new).ensure_body(ctx),
            _ => RangeForOp(new).body(ctx),
        };
        if let Some(p) = cnt {
            let mut b = Builder::at_end(ctx, nbody);
            let c = LocalLoadOp::build(&mut b, p, loc).result(b.ctx);
            let one = build_constant_int(&mut b, 1, count_ty, loc);
            let c1 = build_binary(&mut b, ADDI, c, one, loc);
            LocalStoreOp::build(&mut b, c1, p, loc);
        }
        if let Some(body) = loop_body(ctx, op) {
            self.replay_block(ctx, body, nbody);
        }
        if let Some(s) = jid_stack {
            // An iteration that reaches the end of the body took no jump.
            let ends_in_jump = ctx.last_op(nbody).is_some_and(|o| is_jump(ctx, o));
            if !ends_in_jump {
                let mut b = Builder::at_end(ctx, nbody);
                let i32t = b.ctx.i32_type();
                let z = build_constant_int(&mut b, 0, i32t, loc);
                qd_adstack::build_push(&mut b, s, z, loc);
            }
        }
        if let Some(p) = cnt {
            let mut b = Builder::at_end(ctx, dst);
            let mut nv = LocalLoadOp::build(&mut b, p, loc).result(b.ctx);
            if count_ty != bounds_ty {
                nv = qd_arith::build_cast(&mut b, qd_arith::names::INDEX_CAST, nv, bounds_ty, loc);
            }
            let def = ctx.defining_op(nv).expect("an op result");
            let synth = self.make_synth(ctx, op, def, nv);
            self.loops.get_mut(&op).unwrap().count = Some(synth);
        }
    }

    /// The jump that ended the last iteration of loop `l` (0 when none did), recorded on first
    /// use: an i32 local set before each break, read after the loop.
    pub(crate) fn last_jid(&mut self, ctx: &mut Context, l: OpId) -> crate::emitter::Synth {
        let rec = self.loops.get(&l).expect("loop was replayed").clone();
        if let Some(s) = rec.last_jid {
            return s;
        }
        let loc = ctx.loc(l);
        let i32t = ctx.i32_type();
        let mut b = Builder::before(ctx, rec.clone);
        let jp = AllocaOp::build(&mut b, i32t, loc).result(b.ctx);
        let breaks = self
            .f
            .jumps
            .of_loop(l)
            .map(|j| j.breaks.clone())
            .unwrap_or_default();
        for br in breaks {
            let id = self.f.jumps.id(br) as i64;
            let clone = self
                .fwd_op
                .get(br)
                .expect("reverse-mode-ad: a break the forward replay cloned");
            let mut b = Builder::before(ctx, clone);
            let k = build_constant_int(&mut b, id, i32t, loc);
            LocalStoreOp::build(&mut b, k, jp, loc);
        }
        let mut b = Builder::new(ctx, qd_ir::InsertPoint::After(rec.clone));
        let lj = LocalLoadOp::build(&mut b, jp, loc);
        let v = lj.result(ctx);
        let s = self.make_synth(ctx, l, lj.0, v);
        self.loops.get_mut(&l).unwrap().last_jid = Some(s);
        s
    }
}
