//! The naive whole-aggregate treatment, `reverse-mode-ad{aggregates=ssa}`: what an SSA pass
//! that turns a local array into a value does to reverse mode (Slang's address elimination,
//! Taichi's tensor-typed adstacks; Slang issue #4197). Kept as the baseline the element mode is
//! measured against; it is correct, only expensive.
//!
//! An aggregate stored inside a serial loop that does not hold its alloca is one loop-carried
//! value, kept on stacks like a stacked scalar local (`stacks`), one stack per scalar (leaf) of
//! the aggregate, so that a stack entry across all leaf stacks is one whole aggregate value:
//! - the alloca pushes the zero aggregate (every leaf); each `store_element` pushes the whole
//!   new aggregate (every leaf: the stored value where the path selects the leaf, the old top
//!   elsewhere); each `load_element` selects its leaf among the tops by comparing the path's
//!   indices (O(len) per access);
//! - in reverse, a load adds its adjoint to the top of every leaf it may read, masked (a zeroed
//!   adjoint aggregate with one slot set, materialised per read, O(len)); a store takes the
//!   stored leaf's adjoint into the stored value, pops every leaf, and hands the other leaves'
//!   adjoints on to the aggregate it replaced; the alloca pops the zero aggregate.
//!
//! So every store saves len values (the whole aggregate), where the element mode saves at most
//! one scalar.

use crate::emitter::Emitter;
use qd_ad::{LoadElementOp, PathIndex, StoreElementOp, LOAD_ELEMENT_OP};
use qd_arith::{build_binary, build_cmpi, build_constant_int, build_select, CmpIPredicate};
use qd_frontend::{ArrayType, StructType};
use qd_ir::{BlockId, Builder, Context, Location, OpId, Type, Value};

/// The most scalars an aggregate kept whole may have (the mode emits per-leaf code per access).
pub(crate) const MAX_LEAVES: usize = 4096;

/// One scalar of an aggregate: its literal path and type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Leaf {
    pub path: Vec<i64>,
    pub ty: Type,
}

/// The scalars of `ty`, row-major, members in order (stops growing past [`MAX_LEAVES`]).
pub(crate) fn leaves(ctx: &Context, ty: Type) -> Vec<Leaf> {
    let mut out = Vec::new();
    walk(ctx, ty, &mut Vec::new(), &mut out);
    out
}

fn walk(ctx: &Context, ty: Type, prefix: &mut Vec<i64>, out: &mut Vec<Leaf>) {
    if out.len() > MAX_LEAVES {
        return;
    }
    if let Some(a) = ArrayType::from_type(ctx, ty) {
        for i in 0..a.len(ctx) {
            prefix.push(i);
            walk(ctx, a.elem(ctx), prefix, out);
            prefix.pop();
        }
    } else if let Some(s) = StructType::from_type(ctx, ty) {
        for (i, m) in s.members(ctx).into_iter().enumerate() {
            prefix.push(i as i64);
            walk(ctx, m, prefix, out);
            prefix.pop();
        }
    } else {
        out.push(Leaf {
            path: prefix.clone(),
            ty,
        });
    }
}

/// Whether an access with `path` addresses `leaf`: never, always, or when each (index value,
/// literal) pair is equal.
enum Match {
    Never,
    Always,
    When(Vec<(Value, i64)>),
}

fn matches(leaf: &Leaf, path: &[PathIndex]) -> Match {
    let mut conds = Vec::new();
    for (p, &l) in path.iter().zip(&leaf.path) {
        match *p {
            PathIndex::Const(c) if c != l => return Match::Never,
            PathIndex::Const(_) => {}
            PathIndex::Value(v) => conds.push((v, l)),
        }
    }
    if path.len() != leaf.path.len() {
        return Match::Never;
    }
    if conds.is_empty() {
        Match::Always
    } else {
        Match::When(conds)
    }
}

/// `and` of `index == literal` over the pairs (indices already mapped to the code being built).
fn condition(b: &mut Builder, conds: &[(Value, i64)], loc: Location) -> Value {
    let mut acc: Option<Value> = None;
    for &(v, l) in conds {
        let ty = b.ctx.value_type(v);
        let k = build_constant_int(b, l, ty, loc);
        let c = build_cmpi(b, CmpIPredicate::Eq, v, k, loc);
        acc = Some(match acc {
            Some(a) => build_binary(b, qd_arith::names::ANDI, a, c, loc),
            None => c,
        });
    }
    acc.expect("a condition has at least one index")
}

/// The zero of a leaf's type.
fn zero(b: &mut Builder, ty: Type, loc: Location) -> Value {
    if b.ctx.type_data(ty).is_float() {
        qd_arith::build_constant_float(b, 0.0, ty, loc)
    } else {
        build_constant_int(b, 0, ty, loc)
    }
}

/// The leaf `path` selects among the stack tops: a chain of selects over the leaves it may be.
fn select_top(
    b: &mut Builder,
    leaves: &[Leaf],
    stacks: &[Value],
    path: &[PathIndex],
    loc: Location,
) -> Value {
    let mut acc: Option<Value> = None;
    for (leaf, &s) in leaves.iter().zip(stacks).rev() {
        match matches(leaf, path) {
            Match::Never => {}
            Match::Always => return qd_adstack::build_load_top(b, s, loc),
            Match::When(c) => {
                let top = qd_adstack::build_load_top(b, s, loc);
                acc = Some(match acc {
                    None => top,
                    Some(a) => {
                        let cond = condition(b, &c, loc);
                        build_select(b, cond, top, a, loc)
                    }
                });
            }
        }
    }
    acc.expect("a verified path addresses some leaf")
}

impl Emitter<'_> {
    fn leaf_info(&self, alloca: OpId) -> (Vec<Leaf>, Vec<Value>) {
        (
            self.f.elements.whole[&alloca].clone(),
            self.elem.leaf_stacks[&alloca].clone(),
        )
    }

    fn is_active_aggregate(&self, alloca: OpId) -> bool {
        self.f.act.is_active_mem(alloca)
    }

    /// The alloca of an aggregate kept whole: its leaf stacks, and the zero aggregate pushed.
    pub(crate) fn replay_whole_alloca(&mut self, ctx: &mut Context, op: OpId, dst: BlockId) {
        let loc = ctx.loc(op);
        let leaves = self.f.elements.whole[&op].clone();
        let mut stacks = Vec::with_capacity(leaves.len());
        for leaf in &leaves {
            let s = self.new_stack(ctx, leaf.ty, loc);
            let mut b = Builder::at_end(ctx, dst);
            let z = zero(&mut b, leaf.ty, loc);
            qd_adstack::build_push(&mut b, s, z, loc);
            stacks.push(s);
        }
        self.elem.leaf_stacks.insert(op, stacks);
    }

    /// The forward replay of an access to an aggregate kept whole.
    pub(crate) fn replay_whole_access(
        &mut self,
        ctx: &mut Context,
        alloca: OpId,
        op: OpId,
        dst: BlockId,
    ) {
        let loc = ctx.loc(op);
        let (leaves, stacks) = self.leaf_info(alloca);
        if ctx.name(op) == LOAD_ELEMENT_OP {
            let l = LoadElementOp(op);
            let path = self.fwd_path(&l.path(ctx));
            let mut b = Builder::at_end(ctx, dst);
            let v = select_top(&mut b, &leaves, &stacks, &path, loc);
            self.fwd.insert(l.result(ctx), v);
            if let Some(d) = ctx.defining_op(v) {
                self.fwd_op.insert(op, d);
            }
            return;
        }
        let s = StoreElementOp(op);
        let path = self.fwd_path(&s.path(ctx));
        let v = self.fwd(s.value(ctx));
        let mut b = Builder::at_end(ctx, dst);
        for (leaf, &st) in leaves.iter().zip(&stacks) {
            let new = match matches(leaf, &path) {
                Match::Always => v,
                Match::Never => qd_adstack::build_load_top(&mut b, st, loc),
                Match::When(c) => {
                    let old = qd_adstack::build_load_top(&mut b, st, loc);
                    let cond = condition(&mut b, &c, loc);
                    build_select(&mut b, cond, v, old, loc)
                }
            };
            qd_adstack::build_push(&mut b, st, new, loc);
        }
    }

    /// The reverse of the alloca of an aggregate kept whole: pop the zero aggregate.
    pub(crate) fn reverse_whole_alloca(&mut self, ctx: &mut Context, op: OpId) {
        let Some(stacks) = self.elem.leaf_stacks.get(&op).cloned() else {
            return;
        };
        let loc = ctx.loc(op);
        let mut b = self.builder(ctx);
        for s in stacks {
            qd_adstack::build_pop(&mut b, s, loc);
        }
    }

    /// The reverse of an access to an aggregate kept whole.
    pub(crate) fn reverse_whole_access(&mut self, ctx: &mut Context, alloca: OpId, op: OpId) {
        let loc = ctx.loc(op);
        let (leaves, stacks) = self.leaf_info(alloca);
        let active = self.is_active_aggregate(alloca);
        if ctx.name(op) == LOAD_ELEMENT_OP {
            let r = LoadElementOp(op).result(ctx);
            if !active || !self.f.act.is_active(r) {
                return;
            }
            let Some(a) = self.take_adjoint(ctx, r, loc) else {
                return;
            };
            let path = self.primal_path(ctx, &LoadElementOp(op).path(ctx));
            let mut b = self.builder(ctx);
            let ty = b.ctx.value_type(a);
            for (leaf, &st) in leaves.iter().zip(&stacks) {
                let g = match matches(leaf, &path) {
                    Match::Never => continue,
                    Match::Always => a,
                    Match::When(c) => {
                        let cond = condition(&mut b, &c, loc);
                        let z = zero(&mut b, ty, loc);
                        build_select(&mut b, cond, a, z, loc)
                    }
                };
                qd_adstack::build_acc_adjoint(&mut b, st, g, loc);
            }
            return;
        }
        let s = StoreElementOp(op);
        let v = s.value(ctx);
        let path = self.primal_path(ctx, &s.path(ctx));
        let ty = ctx.value_type(v);
        let mut contrib: Option<Value> = None;
        let mut b = self.builder(ctx);
        for (leaf, &st) in leaves.iter().zip(&stacks) {
            let float = active && b.ctx.type_data(leaf.ty).is_float();
            let g = float.then(|| qd_adstack::build_load_top_adj(&mut b, st, loc));
            qd_adstack::build_pop(&mut b, st, loc);
            let Some(g) = g else {
                continue;
            };
            // The leaf's adjoint goes to the stored value where the path selects it, to the
            // aggregate the store replaced elsewhere.
            match matches(leaf, &path) {
                Match::Never => {
                    qd_adstack::build_acc_adjoint(&mut b, st, g, loc);
                }
                Match::Always => contrib = Some(g),
                Match::When(c) => {
                    let cond = condition(&mut b, &c, loc);
                    let z = zero(&mut b, leaf.ty, loc);
                    let kept = build_select(&mut b, cond, z, g, loc);
                    qd_adstack::build_acc_adjoint(&mut b, st, kept, loc);
                    let taken = build_select(&mut b, cond, g, z, loc);
                    contrib = Some(match contrib {
                        None => taken,
                        Some(acc) => build_binary(&mut b, qd_arith::names::ADDF, acc, taken, loc),
                    });
                }
            }
        }
        if let Some(c) = contrib.filter(|_| self.f.act.is_active(v) && ctx.type_data(ty).is_float())
        {
            self.accumulate(ctx, v, c, loc);
        }
    }

    /// The primal of what load `d` of an aggregate kept whole read, from the stack tops.
    pub(crate) fn whole_primal(&mut self, ctx: &mut Context, alloca: OpId, d: OpId) -> Value {
        let loc = ctx.loc(d);
        let (leaves, stacks) = self.leaf_info(alloca);
        let path = self.primal_path(ctx, &LoadElementOp(d).path(ctx));
        let mut b = self.builder(ctx);
        select_top(&mut b, &leaves, &stacks, &path, loc)
    }
}
