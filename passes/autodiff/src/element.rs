//! Element-addressed differentiation of local arrays and structs (`aggregates=element`, the
//! default): `ad.load_element` / `ad.store_element` (made by `element-access-ad`) stay addressed
//! loads and stores; no aggregate is ever one value.
//!
//! - Adjoints: an aggregate's adjoint is a local of the same type (`Emitter::adjoint_mem`, made
//!   where the aggregate's block is reversed, so zeroed once per thread for an aggregate at the
//!   thread's top level). The reverse of `%a = load_element A[p]` adds adj(%a) into the slot
//!   `adjA[p]`; the reverse of `store_element %v, A[p]` moves `adjA[p]` into adj(%v) and zeroes
//!   the slot (what the element held before did not reach the outputs through it).
//! - Primals: a store that may overwrite what the reverse pass reads back saves the overwritten
//!   scalar first (one entry per execution: inside a serial loop on the aggregate's adstack of
//!   that element type, which its stores share; in a local elsewhere); its reverse writes it
//!   back and pops. So, walking backwards, the forward replay's aggregate holds at every point
//!   what it held there going forwards, and the reverse pass re-reads a loaded element from it
//!   (`ad.load_element`) instead of saving it, unless a store to the aggregate lies between the
//!   load and the use (then the loaded value is taped as any other). A store needs no save when
//!   every load the reverse pass reads back comes after it and shares no loop with it (an array
//!   filled once and then only read saves nothing), or cannot address the same scalar (another
//!   struct member, another literal element).
//! - Restoring needs the aggregate's forward pointer in the reverse pass: the aggregate must be
//!   allocated at the top of its segment (the parallel loop's body, or the kernel's body). One
//!   allocated inside a serial loop or an if starts afresh each time: its loaded values are taped
//!   (one entry per read the reverse pass needs) and its stores save nothing.
//!
//! `aggregates=ssa` keeps the naive whole-aggregate treatment for comparison (`aggregate_ssa`).

use crate::activity::Activity;
use crate::aggregate_ssa::{leaves, Leaf, MAX_LEAVES};
use crate::emitter::{Emitter, Tape};
use crate::needs::needed_primals;
use crate::structure::{in_serial_loop, is_float, is_serial_loop};
use indexmap::IndexMap;
use qd_ad::{
    build_load_element, build_store_element, LoadElementOp, PathIndex, StoreElementOp,
    LOAD_ELEMENT_OP, STORE_ELEMENT_OP,
};
use qd_frontend::{is_parallel_loop, AllocaOp, ArrayType, StructType, ALLOCA_OP, IF_OP, KERNEL_OP};
use qd_ir::fast_hash::{FastMap, FastSet};
use qd_ir::{BlockId, Builder, Context, Diagnostic, OpId, Value};
use std::collections::{HashMap, HashSet};

/// How local arrays and structs are differentiated.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Aggregates {
    /// Element-addressed loads and stores (this module).
    #[default]
    Element,
    /// The naive whole-aggregate treatment: each loop-carried aggregate is one value, saved
    /// whole at every store (`aggregate_ssa`). For comparison and tests.
    Ssa,
}

impl Aggregates {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "" | "element" => Some(Aggregates::Element),
            "ssa" => Some(Aggregates::Ssa),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Aggregates::Element => "element",
            Aggregates::Ssa => "ssa",
        }
    }
}

/// What the analysis decided for a kernel's aggregates.
#[derive(Default, Debug)]
pub(crate) struct ElementPlan {
    /// Element loads the reverse pass may re-read from the restored aggregate.
    pub reloadable: HashSet<OpId>,
    /// Element stores that save the scalar they overwrite.
    pub saved: HashSet<OpId>,
    /// `aggregates=ssa`: the aggregates kept whole, one stack per scalar (leaf), by alloca.
    pub whole: IndexMap<OpId, Vec<Leaf>>,
}

/// Per gradient kernel: where each saved store put the scalar it overwrote, and the leaf stacks
/// of the aggregates kept whole.
#[derive(Default, Debug)]
pub(crate) struct ElementState {
    pub saves: HashMap<OpId, Tape>,
    /// The stack of saved scalars of each (aggregate, element type).
    pub save_stacks: HashMap<(OpId, qd_ir::Type), Value>,
    pub leaf_stacks: HashMap<OpId, Vec<Value>>,
}

/// The aggregate accesses of one alloca.
struct Accesses {
    loads: Vec<OpId>,
    stores: Vec<OpId>,
    /// Every use of the pointer is an element access based on it.
    element_only: bool,
}

fn accesses(ctx: &Context, alloca: OpId) -> Accesses {
    let p = ctx.result(alloca, 0);
    let mut a = Accesses {
        loads: Vec::new(),
        stores: Vec::new(),
        element_only: true,
    };
    for u in ctx.uses(p) {
        match ctx.name(u.op) {
            LOAD_ELEMENT_OP if u.index == 0 => a.loads.push(u.op),
            STORE_ELEMENT_OP if u.index == 1 => a.stores.push(u.op),
            _ => a.element_only = false,
        }
    }
    a
}

fn is_aggregate(ctx: &Context, alloca: OpId) -> bool {
    let t = AllocaOp(alloca).pointee(ctx);
    ArrayType::from_type(ctx, t).is_some() || StructType::from_type(ctx, t).is_some()
}

/// Whether `alloca` sits at the top of its segment (its forward value dominates the reverse).
fn at_segment_top(ctx: &Context, alloca: OpId) -> bool {
    ctx.parent_op(alloca)
        .is_some_and(|p| ctx.name(p) == KERNEL_OP || is_parallel_loop(ctx, p))
}

/// Whether a serial loop holds both `a` and `b`.
fn share_serial_loop(ctx: &Context, a: OpId, b: OpId) -> bool {
    let mut cur = ctx.parent_op(a);
    while let Some(l) = cur {
        if ctx.name(l) == KERNEL_OP || is_parallel_loop(ctx, l) {
            return false;
        }
        if is_serial_loop(ctx, l) && ctx.is_ancestor(l, b) {
            return true;
        }
        cur = ctx.parent_op(l);
    }
    false
}

/// Whether two accesses of one aggregate may address the same scalar: unless some level has two
/// different literals (two members, two literal elements).
fn may_alias(ctx: &Context, a: OpId, b: OpId) -> bool {
    let (Some((_, pa)), Some((_, pb))) =
        (qd_ad::element_access(ctx, a), qd_ad::element_access(ctx, b))
    else {
        return true;
    };
    pa.iter().zip(&pb).all(|(x, y)| match (x, y) {
        (PathIndex::Const(i), PathIndex::Const(j)) => i == j,
        _ => true,
    })
}

/// Whether a serial loop that does not hold `alloca` holds `store` (the aggregate is carried
/// around that loop).
fn loop_carried(ctx: &Context, alloca: OpId, store: OpId) -> bool {
    let top = ctx.parent_op(alloca);
    let mut cur = ctx.parent_op(store);
    while let Some(l) = cur {
        if Some(l) == top {
            return false;
        }
        if is_serial_loop(ctx, l) {
            return true;
        }
        cur = ctx.parent_op(l);
    }
    false
}

/// Plans the kernel's aggregates (see the module docs). Errors: element accesses not based on a
/// `qd.alloca`, and (`ssa`) aggregates too large to keep whole.
pub(crate) fn plan(
    ctx: &Context,
    ops: &[OpId],
    act: &Activity,
    mode: Aggregates,
) -> Result<ElementPlan, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    for &op in ops {
        if let Some((base, _)) = qd_ad::element_access(ctx, op) {
            let ok = ctx
                .defining_op(base)
                .is_some_and(|d| ctx.name(d) == ALLOCA_OP);
            if !ok {
                diags.push(Diagnostic::error(
                    ctx.loc(op),
                    format!(
                        "reverse-mode-ad: '{}' must address a qd.alloca (through element-access-ad paths)",
                        ctx.name(op)
                    ),
                ));
            }
        }
    }
    // What the reverse needs, and op positions: found at the first aggregate (most kernels
    // have none, and both walk the whole kernel).
    let mut needed: Option<FastSet<Value>> = None;
    let mut pos: Option<FastMap<OpId, usize>> = None;
    let mut plan = ElementPlan::default();
    for &op in ops {
        if ctx.name(op) != ALLOCA_OP || ctx.num_results(op) != 1 || !is_aggregate(ctx, op) {
            continue;
        }
        let a = accesses(ctx, op);
        if !a.element_only {
            continue;
        }
        let needed = needed.get_or_insert_with(|| needed_primals(ctx, ops, act));
        let read_back: Vec<OpId> = a
            .loads
            .iter()
            .copied()
            .filter(|&l| needed.contains(&ctx.result(l, 0)))
            .collect();
        if mode == Aggregates::Ssa
            && a.stores.iter().any(|&s| loop_carried(ctx, op, s))
            && (act.is_active_mem(op) || !read_back.is_empty())
        {
            let ls = leaves(ctx, AllocaOp(op).pointee(ctx));
            if ls.len() > MAX_LEAVES {
                diags.push(Diagnostic::error(
                    ctx.loc(op),
                    format!(
                        "reverse-mode-ad{{aggregates=ssa}}: this local has {} scalars; the naive whole-aggregate mode keeps at most {MAX_LEAVES} (use aggregates=element)",
                        ls.len()
                    ),
                ));
                continue;
            }
            plan.whole.insert(op, ls);
            continue;
        }
        if !at_segment_top(ctx, op) {
            continue;
        }
        let pos = pos.get_or_insert_with(|| ops.iter().enumerate().map(|(i, &o)| (o, i)).collect());
        for &s in &a.stores {
            let overwrites_read = read_back.iter().any(|&l| {
                may_alias(ctx, l, s) && (pos[&l] < pos[&s] || share_serial_loop(ctx, l, s))
            });
            if overwrites_read {
                plan.saved.insert(s);
            }
        }
        plan.reloadable.extend(read_back);
    }
    if diags.is_empty() {
        Ok(plan)
    } else {
        Err(diags)
    }
}

/// The alloca an element access addresses.
fn alloca_of(ctx: &Context, base: Value) -> Option<OpId> {
    ctx.defining_op(base).filter(|&d| ctx.name(d) == ALLOCA_OP)
}

/// Whether `op` (or anything in it) writes the aggregate of `alloca`: an element store into it,
/// or the alloca itself (which zeroes it).
fn writes_aggregate(ctx: &Context, op: OpId, alloca: OpId) -> bool {
    let p = ctx.result(alloca, 0);
    ctx.walk_pre_order(op)
        .into_iter()
        .any(|o| o == alloca || (ctx.name(o) == STORE_ELEMENT_OP && ctx.operand(o, 1) == p))
}

/// A value already loaded from `base[path]`, going back from the end of `block` (and out of
/// enclosing ifs) with no write of `base` since: the common `a[i] = f(a[i])`, where the scalar
/// a store overwrites is the one it read.
fn reusable_load(ctx: &Context, block: BlockId, base: Value, path: &[PathIndex]) -> Option<Value> {
    let mut cur = ctx.last_op(block);
    let mut parent = ctx.block_parent_op(block);
    loop {
        let Some(o) = cur else {
            // Out of an if's branch: what ran before the if ran before the branch.
            let p = parent.filter(|&p| ctx.name(p) == IF_OP)?;
            cur = ctx.prev_op(p);
            parent = ctx.parent_op(p);
            continue;
        };
        if !ctx.regions(o).is_empty() {
            return None;
        }
        if ctx.name(o) == STORE_ELEMENT_OP && ctx.operand(o, 1) == base {
            return None;
        }
        if let Some(l) = LoadElementOp::from_op(ctx, o) {
            if ctx.num_operands(o) >= 1 && l.base(ctx) == base && l.path(ctx) == path {
                return Some(l.result(ctx));
            }
        }
        cur = ctx.prev_op(o);
    }
}

/// The op of `block` that is or holds `op`.
fn ancestor_in(ctx: &Context, op: OpId, block: BlockId) -> Option<OpId> {
    let mut x = op;
    while ctx.parent_block(x) != Some(block) {
        x = ctx.parent_op(x)?;
    }
    Some(x)
}

/// The ops from `from` (inclusive) up to `to` (exclusive) in one block.
fn ops_between(ctx: &Context, from: Option<OpId>, to: OpId) -> impl Iterator<Item = OpId> + '_ {
    std::iter::successors(from, move |&o| ctx.next_op(o)).take_while(move |&o| o != to)
}

/// Whether, reversing `u` inside `x` (or `x` itself), no store of the aggregate that ran
/// before `u` in the same execution of `x` is still unrestored. `x` = `u`: its own operands are
/// read before its reverse restores anything inside it; `x` a loop: an earlier iteration may have
/// stored; `x` an if: the ops of `u`'s branch before `u`, recursively.
fn unwritten_until(ctx: &Context, x: OpId, u: OpId, alloca: OpId) -> bool {
    if x == u || ctx.name(x) != IF_OP {
        return !writes_aggregate(ctx, x, alloca);
    }
    let Some(bu) = ctx.parent_block(ancestor_below(ctx, u, x)) else {
        return false;
    };
    let Some(x2) = ancestor_in(ctx, u, bu) else {
        return false;
    };
    ops_between(ctx, ctx.block_ops(bu).next(), x2).all(|o| !writes_aggregate(ctx, o, alloca))
        && unwritten_until(ctx, x2, u, alloca)
}

/// The ancestor of `u` directly inside `x`'s regions.
fn ancestor_below(ctx: &Context, u: OpId, x: OpId) -> OpId {
    let mut y = u;
    while let Some(p) = ctx.parent_op(y) {
        if p == x {
            return y;
        }
        y = p;
    }
    u
}

impl Emitter<'_> {
    /// The path with its values mapped to their forward-replay values.
    pub(crate) fn fwd_path(&self, path: &[PathIndex]) -> Vec<PathIndex> {
        path.iter()
            .map(|p| match *p {
                PathIndex::Value(v) => PathIndex::Value(self.fwd(v)),
                c => c,
            })
            .collect()
    }

    /// The path with its values' primals, at the end of the block being filled.
    pub(crate) fn primal_path(&mut self, ctx: &mut Context, path: &[PathIndex]) -> Vec<PathIndex> {
        path.iter()
            .map(|p| match *p {
                PathIndex::Value(v) => PathIndex::Value(self.primal(ctx, v)),
                c => c,
            })
            .collect()
    }

    /// Whether nothing writes the aggregate of `alloca` between load `d` and the op being
    /// reversed, `U` (as `tape::stack_holding` for stacked locals): then, going backwards, the
    /// aggregate holds again what `d` read.
    pub(crate) fn unwritten_since(&self, ctx: &Context, d: OpId, alloca: OpId) -> bool {
        let (Some(u), Some(bd)) = (self.cur, ctx.parent_block(d)) else {
            return false;
        };
        let Some(x) = ancestor_in(ctx, u, bd) else {
            return false;
        };
        if !(ops_between(ctx, ctx.next_op(d), x)).all(|o| !writes_aggregate(ctx, o, alloca)) {
            return false;
        }
        unwritten_until(ctx, x, u, alloca)
    }

    /// The forward replay of an element access.
    pub(crate) fn replay_element(&mut self, ctx: &mut Context, op: OpId, dst: BlockId) {
        let whole = qd_ad::element_access(ctx, op)
            .and_then(|(base, _)| alloca_of(ctx, base))
            .filter(|a| self.f.elements.whole.contains_key(a));
        if let Some(a) = whole {
            self.replay_whole_access(ctx, a, op, dst);
            return;
        }
        if self.f.elements.saved.contains(&op) {
            self.save_overwritten(ctx, op, dst);
        }
        self.clone_simple(ctx, op, dst);
    }

    /// Saves the scalar store `op` is about to overwrite.
    fn save_overwritten(&mut self, ctx: &mut Context, op: OpId, dst: BlockId) {
        let s = StoreElementOp(op);
        let loc = ctx.loc(op);
        let base = self.fwd(s.base(ctx));
        let path = self.fwd_path(&s.path(ctx));
        let old = match reusable_load(ctx, dst, base, &path) {
            Some(v) => v,
            None => build_load_element(&mut Builder::at_end(ctx, dst), base, &path, loc),
        };
        let ty = ctx.value_type(old);
        let tape = if in_serial_loop(ctx, op) {
            // One stack per aggregate and element type: the reverse pass pops in exactly the
            // reverse order of the pushes, and the sizing analysis sees exclusive branches.
            let alloca = alloca_of(ctx, s.base(ctx)).expect("planned stores address an alloca");
            let st = match self.elem.save_stacks.get(&(alloca, ty)) {
                Some(&st) => st,
                None => {
                    let st = self.new_stack(ctx, ty, ctx.loc(alloca));
                    self.elem.save_stacks.insert((alloca, ty), st);
                    st
                }
            };
            Emitter::push(&mut Builder::at_end(ctx, dst), st, old, loc);
            Tape::Stack(st, ty)
        } else {
            let p = self.new_spill(ctx, ty, loc);
            Emitter::spill(&mut Builder::at_end(ctx, dst), p, old, loc);
            Tape::Spill(p, ty)
        };
        self.elem.saves.insert(op, tape);
    }

    /// The reverse of an element access.
    pub(crate) fn reverse_element(&mut self, ctx: &mut Context, op: OpId) {
        let Some((base, path)) = qd_ad::element_access(ctx, op) else {
            return;
        };
        let Some(alloca) = alloca_of(ctx, base) else {
            return;
        };
        if self.f.elements.whole.contains_key(&alloca) {
            self.reverse_whole_access(ctx, alloca, op);
        } else if ctx.name(op) == LOAD_ELEMENT_OP {
            self.reverse_load_element(ctx, alloca, op, &path);
        } else {
            self.reverse_store_element(ctx, alloca, op, &path);
        }
    }

    /// `%a = load_element A[p]`: adjA[p] += adj(%a).
    fn reverse_load_element(
        &mut self,
        ctx: &mut Context,
        alloca: OpId,
        op: OpId,
        path: &[PathIndex],
    ) {
        let r = LoadElementOp(op).result(ctx);
        let loc = ctx.loc(op);
        if !self.f.act.is_active(r) || !self.f.act.is_active_mem(alloca) {
            return;
        }
        let Some(a) = self.take_adjoint(ctx, r, loc) else {
            return;
        };
        let adj = self.adjoint_mem(ctx, alloca);
        let p = self.primal_path(ctx, path);
        let mut b = self.builder(ctx);
        let t = build_load_element(&mut b, adj, &p, loc);
        let sum = qd_arith::build_binary(&mut b, qd_arith::names::ADDF, t, a, loc);
        build_store_element(&mut b, sum, adj, &p, loc);
    }

    /// `store_element %v, A[p]`: adj(%v) += adjA[p], adjA[p] = 0; then A[p] = the saved scalar.
    fn reverse_store_element(
        &mut self,
        ctx: &mut Context,
        alloca: OpId,
        op: OpId,
        path: &[PathIndex],
    ) {
        let s = StoreElementOp(op);
        let loc = ctx.loc(op);
        let v = s.value(ctx);
        let ty = ctx.value_type(v);
        if is_float(ctx, ty) && self.f.act.is_active_mem(alloca) {
            let adj = self.adjoint_mem(ctx, alloca);
            let p = self.primal_path(ctx, path);
            let mut b = self.builder(ctx);
            let t = build_load_element(&mut b, adj, &p, loc);
            let z = qd_arith::build_constant_float(&mut b, 0.0, ty, loc);
            build_store_element(&mut b, z, adj, &p, loc);
            if self.f.act.is_active(v) {
                self.accumulate(ctx, v, t, loc);
            }
        }
        if let Some(tape) = self.elem.saves.get(&op).copied() {
            let p = self.primal_path(ctx, path);
            let base = self.fwd(s.base(ctx));
            let old = self.read_tape(ctx, tape, loc);
            let mut b = self.builder(ctx);
            build_store_element(&mut b, old, base, &p, loc);
            if let Tape::Stack(st, _) = tape {
                qd_adstack::build_pop(&mut b, st, loc);
            }
        }
    }

    /// The primal of the value element load `d` read, when the reverse pass can have it without
    /// a tape: re-read from the restored aggregate, or (`ssa`) from the aggregate's stacks.
    pub(crate) fn element_primal(&mut self, ctx: &mut Context, d: OpId) -> Option<Value> {
        let l = LoadElementOp::from_op(ctx, d)?;
        let alloca = alloca_of(ctx, l.base(ctx))?;
        if !self.unwritten_since(ctx, d, alloca) {
            return None;
        }
        if self.f.elements.whole.contains_key(&alloca) {
            return Some(self.whole_primal(ctx, alloca, d));
        }
        if !self.f.elements.reloadable.contains(&d) {
            return None;
        }
        let loc = ctx.loc(d);
        let path = self.primal_path(ctx, &l.path(ctx));
        let base = self.fwd(l.base(ctx));
        let mut b = self.builder(ctx);
        Some(build_load_element(&mut b, base, &path, loc))
    }
}
