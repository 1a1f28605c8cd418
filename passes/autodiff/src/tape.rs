//! Primal values in the reverse pass: where the reverse pass gets a value that a derivative rule,
//! an index, a branch condition or a loop bound needs.
//!
//! In order of preference, for a value `v` needed while reversing op `U`:
//! 1. `v` is defined at the top level of the segment (the parallel loop's body, or the kernel's
//!    body for loose statements): its forward-replay value dominates the reverse pass; use it.
//! 2. `v` is an induction variable of a reversed loop: the reversed loop recomputes it.
//! 3. `v` is recomputable: a pure op (constants, arithmetic, `elem_ptr`/`member_ptr`,
//!    `ndarray_shape`) or a read of a field or ndarray: the op is cloned where it is needed,
//!    over its operands' primals. Re-reading memory gives the value the forward read: the
//!    gradient kernel writes no primal data, and the access rule (`access_rule`) refuses any
//!    kernel that writes an element after a read whose value the reverse needs, so the element
//!    still holds it, even in a field the kernel writes (tests: examples/grad/sibling_scratch,
//!    inplace_sin_recurrence).
//! 4. `v` was loaded from a stacked local and no store to that local lies between the load and
//!    `U`: the stack's top entry is `v` (`load_top`). Likewise an element of a local aggregate
//!    (`ad.load_element`) is re-read from the aggregate, which the reverse pass restores store by
//!    store (see `element`).
//! 5. Otherwise `v` is taped: inside a serial loop on an adstack of its own (one entry per
//!    execution: pushed right after its definition in the forward replay, read with `load_top`,
//!    popped where the reverse pass reaches its definition, after all its uses), elsewhere in a
//!    local. Integer and `i1` values get stacks without adjoints.
//!
//! Values produced on the way are kept per reverse block, so one block recomputes a value once.

use crate::emitter::{Emitter, Synth, Tape};
use crate::structure::in_serial_loop;
use qd_frontend::{AllocaOp, LocalLoadOp, LOAD_OP, LOCAL_STORE_OP, NDARRAY_LOAD_OP};
use qd_ir::{Builder, Context, InsertPoint, OpId, OpTraits, OperationState, Value, ValueDef};

impl Emitter<'_> {
    /// The primal of original value `v` at the end of the block being filled.
    pub(crate) fn primal(&mut self, ctx: &mut Context, v: Value) -> Value {
        if let Some(p) = self.memo_get(v) {
            return p;
        }
        let d = match ctx.value_def(v) {
            ValueDef::BlockArg { block, .. } => {
                // Kernel arguments and the segment's parallel induction variables are mapped;
                // reversed loops put their induction variables in the memo.
                assert!(
                    block == self.f.body || block == self.seg_root,
                    "reverse-mode-ad: induction variable of a serial loop not recomputed"
                );
                return self.fwd(v);
            }
            ValueDef::OpResult { op, .. } => op,
        };
        let block = ctx.parent_block(d);
        if block == Some(self.seg_root) || block == Some(self.f.body) {
            return self.fwd(v);
        }
        let p = if recomputable(ctx, d) {
            self.recompute(ctx, d, v)
        } else if let Some(s) = self.stack_holding(ctx, d) {
            let loc = ctx.loc(d);
            let mut b = self.builder(ctx);
            qd_adstack::build_load_top(&mut b, s, loc)
        } else if let Some(p) = self.element_primal(ctx, d) {
            p
        } else {
            let t = self.tape(ctx, d, v);
            self.read_tape(ctx, t, ctx.loc(d))
        };
        self.memo_put(v, p);
        p
    }

    /// Clones pure op `d` over its operands' primals; returns the clone's value for `v`.
    fn recompute(&mut self, ctx: &mut Context, d: OpId, v: Value) -> Value {
        let operands: Vec<Value> = ctx
            .operand_vec(d)
            .into_iter()
            .map(|o| self.primal(ctx, o))
            .collect();
        let mut st = OperationState::new(ctx.name(d).to_string(), ctx.loc(d))
            .operands(&operands)
            .results(
                &ctx.results(d)
                    .iter()
                    .map(|&r| ctx.value_type(r))
                    .collect::<Vec<_>>(),
            );
        st.properties = ctx.properties(d).to_vec();
        st.attributes = ctx.attrs(d).to_vec();
        let mut b = self.builder(ctx);
        let new = b.insert(st);
        let idx = ctx.results(d).iter().position(|&r| r == v).unwrap_or(0);
        let results = ctx.results(new).to_vec();
        for (i, &r) in ctx.results(d).to_vec().iter().enumerate() {
            if r != v {
                self.memo_put(r, results[i]);
            }
        }
        results[idx]
    }

    /// The stack whose top holds the value `d` loaded, at the op being reversed: `d` is a load
    /// of a stacked local and no store to it comes between `d` and that op.
    fn stack_holding(&self, ctx: &Context, d: OpId) -> Option<Value> {
        let load = LocalLoadOp::from_op(ctx, d)?;
        let alloca = ctx.defining_op(load.ptr(ctx))?;
        let s = self.local_stack.get(alloca)?;
        let u = self.cur?;
        let bd = ctx.parent_block(d)?;
        // X: the op of d's block that holds (or is) U.
        let mut x = u;
        while ctx.parent_block(x) != Some(bd) {
            x = ctx.parent_op(x)?;
        }
        let p = load.ptr(ctx);
        let mut y = ctx.next_op(d);
        while let Some(o) = y {
            if o == x {
                break;
            }
            if writes_local(ctx, o, p) {
                return None;
            }
            y = ctx.next_op(o);
        }
        // X itself: when U is nested in it, X may store before U (or, in a loop, in an earlier
        // iteration); when U is X asking for its own operands (an if's condition, a loop's
        // bounds), the reverse pass evaluates them before reversing X's regions, so X's own
        // stores are still on the stack.
        if writes_local(ctx, x, p) {
            return None;
        }
        Some(s)
    }

    /// Tapes `v` (defined by `d`): the forward replay saves it right after its definition.
    fn tape(&mut self, ctx: &mut Context, d: OpId, v: Value) -> Tape {
        if let Some(t) = self.tapes.get(v) {
            return t;
        }
        let loc = ctx.loc(d);
        let ty = ctx.value_type(v);
        let fv = self.fwd(v);
        let fop = ctx
            .defining_op(fv)
            .expect("reverse-mode-ad: a taped value is an op result");
        let t = if in_serial_loop(ctx, d) {
            let s = self.new_stack(ctx, ty, loc);
            let mut b = Builder::new(ctx, InsertPoint::After(fop));
            Emitter::push(&mut b, s, fv, loc);
            Tape::Stack(s, ty)
        } else {
            let p = self.new_spill(ctx, ty, loc);
            let mut b = Builder::new(ctx, InsertPoint::After(fop));
            Emitter::spill(&mut b, p, fv, loc);
            Tape::Spill(p, ty)
        };
        self.tapes.insert(v, t);
        t
    }

    /// Reads a tape at the end of the block being filled.
    pub(crate) fn read_tape(&mut self, ctx: &mut Context, t: Tape, loc: qd_ir::Location) -> Value {
        let mut b = self.builder(ctx);
        match t {
            Tape::Stack(s, ty) => Emitter::load_top(&mut b, s, ty, loc),
            Tape::Spill(p, ty) => Emitter::unspill(&mut b, p, ty, loc),
        }
    }

    /// Pops the stacks of the values `op` defines that were taped (after `op` is reversed).
    pub(crate) fn pop_tapes_of(&mut self, ctx: &mut Context, op: OpId) {
        let loc = ctx.loc(op);
        for r in ctx.results(op).to_vec() {
            if let Some(Tape::Stack(s, _)) = self.tapes.get(r) {
                let mut b = self.builder(ctx);
                qd_adstack::build_pop(&mut b, s, loc);
            }
        }
    }

    /// Makes `v` (a value the forward replay adds after loop `anchor`, defined by `def`)
    /// available to the reverse pass where the loop is reversed.
    pub(crate) fn make_synth(
        &mut self,
        ctx: &mut Context,
        anchor: OpId,
        def: OpId,
        v: Value,
    ) -> Synth {
        let loc = ctx.loc(anchor);
        if in_serial_loop(ctx, anchor) {
            let ty = ctx.value_type(v);
            let s = self.new_stack(ctx, ty, loc);
            let mut b = Builder::new(ctx, InsertPoint::After(def));
            Emitter::push(&mut b, s, v, loc);
            return Synth::Tape(Tape::Stack(s, ty));
        }
        let block = ctx.parent_block(anchor);
        if block == Some(self.seg_root) || block == Some(self.f.body) {
            return Synth::Direct(v);
        }
        let ty = ctx.value_type(v);
        let p = self.new_spill(ctx, ty, loc);
        let mut b = Builder::new(ctx, InsertPoint::After(def));
        Emitter::spill(&mut b, p, v, loc);
        Synth::Tape(Tape::Spill(p, ty))
    }

    pub(crate) fn read_synth(
        &mut self,
        ctx: &mut Context,
        s: Synth,
        loc: qd_ir::Location,
    ) -> Value {
        match s {
            Synth::Direct(v) => v,
            Synth::Tape(t) => self.read_tape(ctx, t, loc),
        }
    }

    pub(crate) fn pop_synth(&mut self, ctx: &mut Context, s: Synth, loc: qd_ir::Location) {
        if let Synth::Tape(Tape::Stack(st, _)) = s {
            let mut b = self.builder(ctx);
            qd_adstack::build_pop(&mut b, st, loc);
        }
    }
}

/// Whether the reverse pass may clone `d` to recompute its value.
fn recomputable(ctx: &Context, d: OpId) -> bool {
    if !ctx.regions(d).is_empty() {
        return false;
    }
    ctx.has_trait(d, OpTraits::PURE) || matches!(ctx.name(d), LOAD_OP | NDARRAY_LOAD_OP)
}

/// Whether `op` (or anything in it) writes the local `p` points to: a store to it, or its own
/// `qd.alloca` (which resets it).
fn writes_local(ctx: &Context, op: OpId, p: Value) -> bool {
    let alloca = ctx.defining_op(p);
    ctx.walk_pre_order(op).into_iter().any(|o| {
        (ctx.name(o) == LOCAL_STORE_OP && ctx.operand(o, 1) == p)
            || (Some(o) == alloca && AllocaOp::from_op(ctx, o).is_some())
    })
}
