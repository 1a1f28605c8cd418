//! The state of one gradient kernel under construction: what the analyses found ([`Facts`]), the
//! forward replay's value map, the tapes and stacks created so far, and the reverse pass's scopes
//! and adjoint storage. `forward`, `tape`, `reverse` and `control` add the methods.

use crate::activity::Activity;
use crate::field_set::FieldSet;
use crate::handle_map::HandleMap;
use crate::handle_set::HandleSet;
use crate::structure::Jumps;
use qd_arith::build_constant_float;
use qd_frontend::{AllocaOp, LocalLoadOp, LocalStoreOp};
use qd_ir::fast_hash::FastMap;
use qd_ir::{BlockId, Builder, Context, InsertPoint, Location, OpId, Type, Value};

/// What the analyses found about the kernel being differentiated.
pub(crate) struct Facts<'n> {
    pub body: BlockId,
    /// The module's needs_grad fields (borrowed: one set for every kernel of the run).
    pub needs_grad: &'n FieldSet,
    pub act: Activity,
    /// Locals that become adstacks (see `stacks`).
    pub stacked: HandleSet<OpId>,
    pub jumps: Jumps,
    /// How local arrays and structs are differentiated (see `element`, `aggregate_ssa`).
    pub elements: crate::element::ElementPlan,
    /// The shape of the field of each `qd.struct_for` of the kernel, resolved once through
    /// the pass's symbol tables (a lookup per loop would scan the module).
    pub struct_for_shapes: FastMap<OpId, Vec<i64>>,
}

/// Where a primal value the reverse pass needs was saved by the forward replay.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Tape {
    /// One entry per execution (the value is defined inside a serial loop): pushed after its
    /// definition, read with `load_top`, popped where the reverse pass reaches the definition.
    /// With the value's type.
    Stack(Value, Type),
    /// Defined at most once per segment (inside ifs only): stored into a local. With the value's
    /// type.
    Spill(Value, Type),
}

/// A value the forward replay adds (a loop's trip count, the jump that ended its last
/// iteration), made available to the reverse pass where the loop is reversed.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Synth {
    /// Defined at the segment's top level: it dominates the reverse pass.
    Direct(Value),
    Tape(Tape),
}

/// What the forward replay recorded about a serial loop.
#[derive(Clone, Debug)]
pub(crate) struct LoopRec {
    /// The loop in the forward replay.
    pub clone: OpId,
    /// The number of iterations started, for loops whose trip count is not their bounds'.
    pub count: Option<Synth>,
    /// Per-iteration jump numbers (loops with `qd.continue` whose reverse needs guards).
    pub jid_stack: Option<Value>,
    /// The jump that ended the last iteration (loops with `qd.break` only), made on demand.
    pub last_jid: Option<Synth>,
}

/// An insertion point at the top of a block that keeps the order of the ops put there.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Anchor {
    pub block: BlockId,
    pub last: Option<OpId>,
}

impl Anchor {
    pub(crate) fn new(block: BlockId) -> Self {
        Anchor { block, last: None }
    }
    pub(crate) fn point(&self) -> InsertPoint {
        match self.last {
            Some(l) => InsertPoint::After(l),
            None => InsertPoint::AtStart(self.block),
        }
    }
    /// Inserts ops built by `f` at the anchor and moves the anchor past them.
    pub(crate) fn build<R>(&mut self, ctx: &mut Context, f: impl FnOnce(&mut Builder) -> R) -> R {
        let mut b = Builder::new(ctx, self.point());
        let r = f(&mut b);
        if let InsertPoint::After(l) = b.ip {
            self.last = Some(l);
        }
        r
    }
}

/// A block of the reverse pass being filled.
pub(crate) struct Scope {
    /// The original block it reverses (None for the blocks of guards).
    pub orig: Option<BlockId>,
    pub dst: BlockId,
    /// Where adjoint locals of values defined in `orig` go.
    pub anchor: Anchor,
    /// What this block put in the emitter's memo of primal values (with what each key held
    /// before), undone when the block is left.
    memo_undo: Vec<(Value, Option<Value>)>,
    /// The jump number of the current iteration, when this block is a reversed loop body.
    pub jid: Option<(OpId, Value)>,
}

pub(crate) struct Emitter<'f> {
    pub f: &'f Facts<'f>,
    /// Original value -> its forward-replay value in the gradient kernel.
    pub fwd: HandleMap<Value, Value>,
    /// Original op -> its forward-replay op.
    pub fwd_op: HandleMap<OpId, OpId>,
    /// Stacked local -> its stack.
    pub local_stack: HandleMap<OpId, Value>,
    pub tapes: HandleMap<Value, Tape>,
    pub loops: FastMap<OpId, LoopRec>,
    /// Active ndarray argument -> its adjoint argument.
    pub adj_arrays: FastMap<Value, Value>,
    /// The current segment: where its stacks and tapes go, and its original top-level block.
    pub hoist: Anchor,
    pub seg_root: BlockId,
    pub scopes: Vec<Scope>,
    /// Primal values available in the block being filled (put by it or by the blocks that
    /// hold it): one map for all scopes, each scope undoing its entries when it ends.
    memo: HandleMap<Value, Value>,
    /// Adjoints kept as SSA sums (values whose uses all sit in their own block).
    pub adj_ssa: HandleMap<Value, Value>,
    /// Adjoints kept in locals.
    pub adj_local: HandleMap<Value, Value>,
    /// `adjoint_in_ssa` per value, asked once: it scans the value's uses, and a value used N
    /// times gets N contributions (the primal kernel's uses do not change while it is
    /// differentiated).
    in_ssa: HandleMap<Value, bool>,
    /// Adjoint locals of (non-stacked) locals.
    pub adj_mem: HandleMap<OpId, Value>,
    /// The op being reversed (primal requests are made for it).
    pub cur: Option<OpId>,
    pub num_stacks: usize,
    /// Saved stores and leaf stacks of local aggregates.
    pub elem: crate::element::ElementState,
}

impl<'f> Emitter<'f> {
    pub(crate) fn new(f: &'f Facts<'f>, grad_body: BlockId) -> Self {
        Emitter {
            f,
            fwd: HandleMap::default(),
            fwd_op: HandleMap::default(),
            local_stack: HandleMap::default(),
            tapes: HandleMap::default(),
            loops: FastMap::default(),
            adj_arrays: FastMap::default(),
            hoist: Anchor::new(grad_body),
            seg_root: f.body,
            scopes: Vec::new(),
            memo: HandleMap::default(),
            adj_ssa: HandleMap::default(),
            adj_local: HandleMap::default(),
            in_ssa: HandleMap::default(),
            adj_mem: HandleMap::default(),
            cur: None,
            num_stacks: 0,
            elem: Default::default(),
        }
    }

    /// The forward-replay value of an original value.
    pub(crate) fn fwd(&self, v: Value) -> Value {
        self.fwd
            .get(v)
            .expect("reverse-mode-ad: a value used before the forward replay defined it")
    }

    /// A new adstack for values of type `ty` at the top of the current segment (an `index`
    /// value, which has no fixed size, is kept as an i64: see [`Emitter::push`]).
    pub(crate) fn new_stack(&mut self, ctx: &mut Context, ty: Type, loc: Location) -> Value {
        self.num_stacks += 1;
        let elem = if ctx.type_data(ty).is_index() {
            ctx.i64_type()
        } else {
            ty
        };
        self.hoist
            .build(ctx, |b| qd_adstack::build_alloca(b, elem, loc))
    }

    /// Pushes `v` on stack `s` at `b` (through an `index_cast` for an index value).
    pub(crate) fn push(b: &mut Builder, s: Value, v: Value, loc: Location) {
        let v = to_storable(b, v, loc);
        qd_adstack::build_push(b, s, v, loc);
    }

    /// The top of stack `s` as a value of type `ty` (see [`Emitter::push`]).
    pub(crate) fn load_top(b: &mut Builder, s: Value, ty: Type, loc: Location) -> Value {
        let v = qd_adstack::build_load_top(b, s, loc);
        from_storable(b, v, ty, loc)
    }

    /// A new local for values of type `ty` at the top of the current segment (an `index` value
    /// is kept as an i64, as on stacks).
    pub(crate) fn new_spill(&mut self, ctx: &mut Context, ty: Type, loc: Location) -> Value {
        let elem = if ctx.type_data(ty).is_index() {
            ctx.i64_type()
        } else {
            ty
        };
        self.hoist
            .build(ctx, |b| AllocaOp::build(b, elem, loc).result(b.ctx))
    }

    /// Stores `v` into spill local `p` at `b`.
    pub(crate) fn spill(b: &mut Builder, p: Value, v: Value, loc: Location) {
        let v = to_storable(b, v, loc);
        LocalStoreOp::build(b, v, p, loc);
    }

    /// Reads spill local `p` as a value of type `ty`.
    pub(crate) fn unspill(b: &mut Builder, p: Value, ty: Type, loc: Location) -> Value {
        let v = LocalLoadOp::build(b, p, loc).result(b.ctx);
        from_storable(b, v, ty, loc)
    }

    // ----- scopes -------------------------------------------------------------------------

    pub(crate) fn push_scope(&mut self, orig: Option<BlockId>, dst: BlockId) {
        self.scopes.push(Scope {
            orig,
            dst,
            anchor: Anchor::new(dst),
            memo_undo: Vec::new(),
            jid: None,
        });
    }

    pub(crate) fn pop_scope(&mut self) {
        let Some(s) = self.scopes.pop() else {
            return;
        };
        for (v, before) in s.memo_undo.into_iter().rev() {
            match before {
                Some(p) => self.memo.insert(v, p),
                None => self.memo.remove(v),
            };
        }
    }

    /// The block the reverse pass is filling.
    pub(crate) fn here(&self) -> BlockId {
        self.scopes.last().expect("no reverse scope").dst
    }

    /// A builder at the end of the block being filled.
    pub(crate) fn builder<'c>(&self, ctx: &'c mut Context) -> Builder<'c> {
        Builder::at_end(ctx, self.here())
    }

    pub(crate) fn memo_get(&self, v: Value) -> Option<Value> {
        self.memo.get(v)
    }

    pub(crate) fn memo_put(&mut self, v: Value, p: Value) {
        if let Some(s) = self.scopes.last_mut() {
            let before = self.memo.insert(v, p);
            s.memo_undo.push((v, before));
        }
    }

    /// The scope that reverses `block` (where adjoint locals of its values live).
    fn scope_of(&mut self, block: BlockId) -> &mut Scope {
        let i = self
            .scopes
            .iter()
            .rposition(|s| s.orig == Some(block))
            .expect("reverse-mode-ad: a value's block is not being reversed");
        &mut self.scopes[i]
    }

    /// The jump number of the current iteration of loop `l`.
    pub(crate) fn jid_of(&self, l: OpId) -> Value {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.jid.filter(|(o, _)| *o == l).map(|(_, v)| v))
            .expect("reverse-mode-ad: no jump number for a guarded loop")
    }

    // ----- adjoints of values -------------------------------------------------------------

    /// Whether `v`'s adjoint can be an SSA sum: all its uses are directly in its own block, in
    /// the same guard (see `structure::Jumps`), so that they are reversed in one block before it.
    fn adjoint_in_ssa(&mut self, ctx: &Context, v: Value) -> bool {
        if let Some(known) = self.in_ssa.get(v) {
            return known;
        }
        let in_ssa = ctx.defining_op(v).is_some_and(|d| {
            let block = ctx.parent_block(d);
            let g = self.f.jumps.before(d);
            ctx.uses(v)
                .iter()
                .all(|u| ctx.parent_block(u.op) == block && self.f.jumps.before(u.op) == g)
        });
        self.in_ssa.insert(v, in_ssa);
        in_ssa
    }

    /// Adds contribution `c` to the adjoint of `v`.
    pub(crate) fn accumulate(&mut self, ctx: &mut Context, v: Value, c: Value, loc: Location) {
        if self.adjoint_in_ssa(ctx, v) {
            let s = match self.adj_ssa.get(v) {
                Some(s) => {
                    let mut b = self.builder(ctx);
                    qd_arith::build_binary(&mut b, qd_arith::names::ADDF, s, c, loc)
                }
                None => c,
            };
            self.adj_ssa.insert(v, s);
            return;
        }
        let p = self.adjoint_local(ctx, v, loc);
        let mut b = self.builder(ctx);
        let t = LocalLoadOp::build(&mut b, p, loc).result(b.ctx);
        let s = qd_arith::build_binary(&mut b, qd_arith::names::ADDF, t, c, loc);
        LocalStoreOp::build(&mut b, s, p, loc);
    }

    fn adjoint_local(&mut self, ctx: &mut Context, v: Value, loc: Location) -> Value {
        if let Some(p) = self.adj_local.get(v) {
            return p;
        }
        let ty = ctx.value_type(v);
        let block = ctx.value_block(v).expect("value without a block");
        let scope = self.scope_of(block);
        let p = scope
            .anchor
            .build(ctx, |b| AllocaOp::build(b, ty, loc).result(b.ctx));
        self.adj_local.insert(v, p);
        p
    }

    /// The adjoint accumulated for `v` so far (None when nothing reached it).
    pub(crate) fn take_adjoint(
        &mut self,
        ctx: &mut Context,
        v: Value,
        loc: Location,
    ) -> Option<Value> {
        if let Some(s) = self.adj_ssa.remove(v) {
            return Some(s);
        }
        let p = self.adj_local.get(v)?;
        let mut b = self.builder(ctx);
        Some(LocalLoadOp::build(&mut b, p, loc).result(b.ctx))
    }

    /// The adjoint local of a (non-stacked) local, created where its local is reversed.
    pub(crate) fn adjoint_mem(&mut self, ctx: &mut Context, alloca: OpId) -> Value {
        if let Some(p) = self.adj_mem.get(alloca) {
            return p;
        }
        let ty = AllocaOp(alloca).pointee(ctx);
        let loc = ctx.loc(alloca);
        let block = ctx.parent_block(alloca).expect("alloca without a block");
        let scope = self.scope_of(block);
        let p = scope
            .anchor
            .build(ctx, |b| AllocaOp::build(b, ty, loc).result(b.ctx));
        self.adj_mem.insert(alloca, p);
        p
    }

    /// A zero of float type `ty` at the end of the block being filled.
    pub(crate) fn zero(&self, ctx: &mut Context, ty: Type, loc: Location) -> Value {
        let mut b = self.builder(ctx);
        build_constant_float(&mut b, 0.0, ty, loc)
    }
}

/// `v`, or `v` cast to i64 when it is an index (which neither stacks nor locals can hold).
fn to_storable(b: &mut Builder, v: Value, loc: Location) -> Value {
    if b.ctx.type_data(b.ctx.value_type(v)).is_index() {
        let i64t = b.ctx.i64_type();
        qd_arith::build_cast(b, qd_arith::names::INDEX_CAST, v, i64t, loc)
    } else {
        v
    }
}

/// The inverse of [`to_storable`] for a value of type `ty`.
fn from_storable(b: &mut Builder, v: Value, ty: Type, loc: Location) -> Value {
    if b.ctx.type_data(ty).is_index() {
        qd_arith::build_cast(b, qd_arith::names::INDEX_CAST, v, ty, loc)
    } else {
        v
    }
}
