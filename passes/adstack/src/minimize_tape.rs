//! The `minimize-tape` pass: an adstack whose primal the reverse pass never reads keeps no
//! entries. Its primal becomes a plain local and, for a float stack, its adjoint a second local
//! (a register once the device promotes locals).
//!
//! Side condition, for a stack `S` whose `adstack.alloca` lies in block `R` (the segment root: a
//! parallel loop's body or the kernel's body): map every op on `S` to its ancestor in `R`. Every
//! `push` and `load_top` ancestor must come strictly before every `pop`, `load_top_adj` and
//! `acc_adjoint` ancestor, and `S` must be used by nothing but these ops, as their stack operand.
//! Each execution of `R` runs its ops in order, once each, so then every push and every primal
//! read of an execution happens before its first pop or adjoint op: the forward replay pushes
//! and reads primals, the reverse part only pops and moves adjoints. The rewrite, for element
//! type `T`:
//!
//! - at the alloca: `%p = qd.alloca : !qd.ptr<T>` and (float stacks with adjoint ops) `%a`
//!   likewise, both stored zero (what an empty stack reads);
//! - `push %v` -> `local_store %v, %p`; `load_top` -> `local_load %p` (with no pop before it,
//!   the top entry is the last push);
//! - `acc_adjoint %x` -> `%a = %a + %x`; `load_top_adj` -> `local_load %a`; `pop` -> `%a = 0`
//!   (integer stacks: the pop is dropped).
//!
//! Why the adjoint register is exact: every push sets its entry's adjoint to 0 and comes before
//! the first adjoint op, so when the adjoint ops start every entry's adjoint is 0, and only the
//! top entry's adjoint can change afterwards; a pop exposes an entry that has not been the top
//! since the last push, so its adjoint is 0. This assumes what reverse-mode-ad builds: pops never
//! outnumber pushes (each pop undoes one push), so no adjoint op works on an emptied stack, whose
//! entry 0 the stack semantics would keep past its pop.
//!
//! Record of an elided stack: the `adstack.alloca` stays, marked `primal_elided`, with no uses
//! (the verifier checks that) and `max_size = 0`; `determine-ad-stack-size` sizes it 0 and gives
//! it its id like any stack, the runtime's stack table and `qd-run --report-adstack` list it as
//! elided, and `convert-qd-to-lowered` drops it, so that it costs no heap and no check on a
//! device. A stack that fails the condition, or whose uses are not understood, is kept as it is.

use crate::walk::ops_named;
use qd_adstack::{
    AllocaOp, StackType, ACC_ADJOINT_OP, ALLOCA_OP, LOAD_TOP_ADJ_OP, LOAD_TOP_OP, MAX_SIZE, POP_OP,
    PUSH_OP, SIZE_EXPR,
};
use qd_arith::names::ADDF;
use qd_frontend::{LocalLoadOp, LocalStoreOp};
use qd_ir::{BlockId, Builder, Context, InsertPoint, OpId, Type, Value};
use qd_pass::{Pass, PassInfo, PassOutcome, PassResult, Statistic};
use std::collections::{HashMap, HashSet};

pub const PASS_NAME: &str = "minimize-tape";
const DESCRIPTION: &str = "Replace every adstack whose primal the reverse pass never reads by \
                           plain locals (no entries; the adjoint in a register)";

pub fn minimize_tape_pass_info() -> PassInfo {
    PassInfo::new(PASS_NAME, DESCRIPTION, |_| {
        Ok(Box::new(MinimizeTapePass::default()))
    })
}

/// The pass; its statistics count the stacks it elided and those it kept.
#[derive(Default)]
pub struct MinimizeTapePass {
    elided: u64,
    kept: u64,
}

/// What one op on a stack does, for the side condition and the rewrite.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Access {
    Push,
    LoadTop,
    Pop,
    LoadTopAdj,
    AccAdjoint,
}

impl Access {
    fn of(ctx: &Context, op: OpId) -> Option<Access> {
        let (a, operands, results) = match ctx.name(op) {
            PUSH_OP => (Access::Push, 2, 0),
            LOAD_TOP_OP => (Access::LoadTop, 1, 1),
            POP_OP => (Access::Pop, 1, 0),
            LOAD_TOP_ADJ_OP => (Access::LoadTopAdj, 1, 1),
            ACC_ADJOINT_OP => (Access::AccAdjoint, 2, 0),
            _ => return None,
        };
        (ctx.num_operands(op) == operands && ctx.num_results(op) == results).then_some(a)
    }
    /// Pushes and primal reads belong to the forward replay.
    fn is_forward(self) -> bool {
        matches!(self, Access::Push | Access::LoadTop)
    }
    fn is_adjoint(self) -> bool {
        matches!(self, Access::LoadTopAdj | Access::AccAdjoint)
    }
}

/// The ops on the stack of `alloca`, in use-list order, when the side condition holds (see the
/// module doc); None when it fails or a use is not understood.
pub fn elidable(ctx: &Context, alloca: OpId) -> Option<Vec<(OpId, Access)>> {
    elidable_in(ctx, alloca, &mut Positions::default())
}

/// The position of each op in its block, per block, computed once for all the stacks of a
/// block: computing it per stack made the pass quadratic in a kernel with many stacks.
///
/// Stays valid while stacks are elided: [`elide`] inserts only ops without regions and erases
/// only stack ops, so the ops it asks about (allocas and the ancestors of stack ops) keep their
/// relative order.
/// Positions are kept by op index, for the blocks indexed so far: dense over the index range of
/// the ops of the scope the pass runs on (a vector of every op in the context per run is
/// quadratic in a module of many kernels: the pass runs per kernel), hashed for the ops created
/// since.
#[derive(Default)]
struct Positions {
    indexed: HashSet<BlockId>,
    base: usize,
    pos: Vec<u32>,
    far: HashMap<OpId, u32>,
}

impl Positions {
    /// Positions spanning the ops nested in `scope`.
    fn spanning(ctx: &Context, scope: OpId) -> Positions {
        let (lo, hi) = ctx
            .walk_pre_order(scope)
            .iter()
            .fold((usize::MAX, 0), |(lo, hi), o| {
                (lo.min(o.index()), hi.max(o.index()))
            });
        let mut p = Positions::default();
        if lo <= hi {
            p.base = lo;
            p.pos = vec![u32::MAX; hi - lo + 1];
        }
        p
    }

    /// Indexes `block` (once).
    fn index(&mut self, ctx: &Context, block: BlockId) {
        if !self.indexed.insert(block) {
            return;
        }
        for (i, o) in ctx.block_ops(block).enumerate() {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            match o.index().checked_sub(self.base) {
                Some(k) if k < self.pos.len() => self.pos[k] = i,
                _ => {
                    self.far.insert(o, i);
                }
            }
        }
    }

    /// The position of `op` in its block, if that block is indexed and `op` was there then.
    fn get(&self, op: OpId) -> Option<usize> {
        let p = match op.index().checked_sub(self.base) {
            Some(k) if k < self.pos.len() => Some(self.pos[k]),
            _ => self.far.get(&op).copied(),
        };
        p.filter(|&p| p != u32::MAX).map(|p| p as usize)
    }
}

/// [`elidable`] with the positions of earlier calls.
fn elidable_in(
    ctx: &Context,
    alloca: OpId,
    positions: &mut Positions,
) -> Option<Vec<(OpId, Access)>> {
    if ctx.name(alloca) != ALLOCA_OP || ctx.num_results(alloca) != 1 {
        return None;
    }
    let stack = ctx.result(alloca, 0);
    let float = StackType::from_type(ctx, ctx.value_type(stack))?.has_adjoint(ctx);
    let root = ctx.parent_block(alloca)?;
    positions.index(ctx, root);
    let pos = &*positions;
    let at = pos.get(alloca)?;
    let mut ops = Vec::new();
    let mut last_forward = at;
    let mut first_reverse = usize::MAX;
    for u in ctx.uses(stack) {
        if u.index != 0 {
            return None;
        }
        let access = Access::of(ctx, u.op)?;
        if access.is_adjoint() && !float {
            return None;
        }
        let p = pos.get(ancestor_in(ctx, u.op, root)?)?;
        if p <= at {
            return None;
        }
        if access.is_forward() {
            last_forward = last_forward.max(p);
        } else {
            first_reverse = first_reverse.min(p);
        }
        ops.push((u.op, access));
    }
    // Strictly before: a loop holding both a push and a pop interleaves them.
    (last_forward < first_reverse).then_some(ops)
}

/// The op of block `root` that is or holds `op`.
fn ancestor_in(ctx: &Context, op: OpId, root: BlockId) -> Option<OpId> {
    let mut x = op;
    while ctx.parent_block(x) != Some(root) {
        x = ctx.parent_op(x)?;
    }
    Some(x)
}

/// A new local of scalar type `ty` right after `after`, stored `zero`; returns the local.
fn zeroed_local(ctx: &mut Context, after: OpId, ty: Type, zero: Value) -> (Value, OpId) {
    let loc = ctx.loc(after);
    let mut b = Builder::new(ctx, InsertPoint::After(after));
    let p = qd_frontend::AllocaOp::build(&mut b, ty, loc).result(b.ctx);
    let st = LocalStoreOp::build(&mut b, zero, p, loc);
    (p, st.0)
}

/// Replaces the stack of `alloca` by locals (the side condition holds for `ops`).
fn elide(ctx: &mut Context, alloca: OpId, ops: &[(OpId, Access)]) {
    let elem = AllocaOp(alloca).elem(ctx);
    let loc = ctx.loc(alloca);
    let float = ctx.type_data(elem).is_float();
    let has_primal = ops.iter().any(|(_, a)| a.is_forward());
    let has_adjoint = float && ops.iter().any(|(_, a)| a.is_adjoint());
    let mut last = alloca;
    let zero = if has_primal || has_adjoint {
        let mut b = Builder::new(ctx, InsertPoint::After(alloca));
        let z = if float {
            qd_arith::build_constant_float(&mut b, 0.0, elem, loc)
        } else {
            qd_arith::build_constant_int(&mut b, 0, elem, loc)
        };
        last = ctx.defining_op(z).unwrap_or(alloca);
        Some(z)
    } else {
        None
    };
    let mut local = |ctx: &mut Context, wanted: bool| {
        let z = zero.filter(|_| wanted)?;
        let (p, st) = zeroed_local(ctx, last, elem, z);
        last = st;
        Some(p)
    };
    let primal = local(ctx, has_primal);
    let adjoint = local(ctx, has_adjoint);
    for &(op, access) in ops {
        let oloc = ctx.loc(op);
        let mut b = Builder::new(ctx, InsertPoint::Before(op));
        match (access, primal, adjoint, zero) {
            (Access::Push, Some(p), _, _) => {
                let v = b.ctx.operand(op, 1);
                LocalStoreOp::build(&mut b, v, p, oloc);
            }
            (Access::LoadTop, Some(p), _, _) => {
                let v = LocalLoadOp::build(&mut b, p, oloc).result(b.ctx);
                let r = b.ctx.result(op, 0);
                b.ctx.replace_all_uses_with(r, v);
            }
            (Access::LoadTopAdj, _, Some(a), _) => {
                let v = LocalLoadOp::build(&mut b, a, oloc).result(b.ctx);
                let r = b.ctx.result(op, 0);
                b.ctx.replace_all_uses_with(r, v);
            }
            (Access::AccAdjoint, _, Some(a), _) => {
                let x = b.ctx.operand(op, 1);
                let old = LocalLoadOp::build(&mut b, a, oloc).result(b.ctx);
                let new = qd_arith::build_binary(&mut b, ADDF, old, x, oloc);
                LocalStoreOp::build(&mut b, new, a, oloc);
            }
            (Access::Pop, _, Some(a), Some(z)) => {
                LocalStoreOp::build(&mut b, z, a, oloc);
            }
            // A pop of a stack without adjoint ops (or of an integer stack) has nothing to do.
            (Access::Pop, _, None, _) => {}
            // The locals exist for every access `elidable` returned (see `has_primal` and
            // `has_adjoint`), and verified IR has no adjoint op on an integer stack.
            _ => unreachable!("minimize-tape: {access:?} without its local"),
        }
        ctx.erase_op(op);
    }
    let a = AllocaOp(alloca);
    a.set_primal_elided(ctx);
    ctx.remove_prop(alloca, SIZE_EXPR);
    let i64t = ctx.i64_type();
    let z = ctx.integer_attr(0, i64t);
    ctx.set_prop(alloca, MAX_SIZE, z);
}

impl Pass for MinimizeTapePass {
    fn name(&self) -> &'static str {
        PASS_NAME
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        let allocas: Vec<OpId> = ops_named(ctx, op, ALLOCA_OP)
            .into_iter()
            .filter(|&o| !AllocaOp(o).is_primal_elided(ctx))
            .collect();
        let mut changed = false;
        // A scope with no stack to elide needs no positions (a walk over every op).
        if allocas.is_empty() {
            return Ok(PassOutcome::changed(false));
        }
        let mut positions = Positions::spanning(ctx, op);
        for a in allocas {
            match elidable_in(ctx, a, &mut positions) {
                Some(ops) => {
                    elide(ctx, a, &ops);
                    self.elided += 1;
                    changed = true;
                }
                None => self.kept += 1,
            }
        }
        Ok(PassOutcome::changed(changed))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-elided",
                description: "Number of adstacks replaced by locals",
                value: self.elided,
            },
            Statistic {
                name: "num-kept",
                description: "Number of adstacks whose primal the reverse pass reads",
                value: self.kept,
            },
        ]
    }
}
