//! The adjoint of each op, emitted where the reverse pass reaches it (see `control` for the
//! order and for control flow).
//!
//! - arith/math ops: the op's own `ReverseRule` (defined next to the op in its dialect crate),
//!   given the adjoints of its results, the primals it asks for, and which operands are active.
//! - `y = qd.load @x[i]`, x needs_grad: `ad.acc_field_adjoint adj(y), @x[i]`.
//! - `qd.store v, @y[i]`, y needs_grad: `adj(v) += ad.load_field_adjoint @y[i]`, then
//!   `ad.store_field_adjoint 0, @y[i]`: a store overwrites, so whatever the element held before
//!   contributed nothing to the outputs (the zeroing happens even when v is inactive).
//! - `qd.atomic_add v, @y[i]`: `adj(v) += ad.load_field_adjoint @y[i]` (the element keeps its
//!   adjoint: the earlier contributions still count).
//! - `y = qd.ndarray_load %a[i]`, a active: `ad.acc_ndarray_adjoint adj(y), %a_adj[i]`;
//!   `qd.ndarray_store v, %a[i]`: `adj(v) += %a_adj[i]`, then `%a_adj[i] = 0`;
//!   `qd.ndarray_atomic_add v, %a[i]`: `adj(v) += %a_adj[i]` (`-=` for `qd.ndarray_atomic_sub`),
//!   the element keeping its adjoint, as for fields. Atomic min/max into a differentiable
//!   output are refused before (see `pass`), on fields and ndarrays alike.
//! - Locals: a load adds its adjoint to the local's adjoint (an adjoint local of the same type);
//!   a store moves the local's adjoint to the stored value and zeroes it. Stacked locals keep
//!   their adjoints in the stack's entries (see `stacks`); element accesses of local arrays and
//!   structs (`ad.load_element` / `ad.store_element`) address the adjoint aggregate with the same
//!   path (see `element`, and `aggregate_ssa` for `aggregates=ssa`).

use crate::activity::rule_of;
use crate::emitter::Emitter;
use qd_arith::names::{ADDF, NEGF};
use qd_frontend::{AtomicKind, ElemPtrOp, MemberPtrOp, NdarrayAtomicOp};
use qd_frontend::{
    AtomicOp, LoadOp, LocalLoadOp, LocalStoreOp, NdarrayLoadOp, NdarrayStoreOp, StoreOp, ALLOCA_OP,
    ATOMIC_ADD_OP, ELEM_PTR_OP, IF_OP, LOAD_OP, LOCAL_LOAD_OP, LOCAL_STORE_OP, MEMBER_PTR_OP,
    NDARRAY_LOAD_OP, NDARRAY_STORE_OP, RANGE_FOR_OP, STORE_OP, STRUCT_FOR_OP, WHILE_OP,
};
use qd_frontend::{NDARRAY_ATOMIC_ADD_OP, NDARRAY_ATOMIC_SUB_OP};
use qd_ir::{Context, Location, OpId, Value};

impl Emitter<'_> {
    /// Emits the adjoint of `op` at the end of the block being filled.
    pub(crate) fn reverse_op(&mut self, ctx: &mut Context, op: OpId) {
        let saved = self.cur.replace(op);
        match ctx.name(op) {
            IF_OP => self.reverse_if(ctx, op),
            RANGE_FOR_OP | STRUCT_FOR_OP | WHILE_OP => self.reverse_loop(ctx, op),
            ALLOCA_OP => {
                if let Some(s) = self.local_stack.get(op) {
                    let loc = ctx.loc(op);
                    let mut b = self.builder(ctx);
                    qd_adstack::build_pop(&mut b, s, loc);
                }
                self.reverse_whole_alloca(ctx, op);
            }
            qd_ad::LOAD_ELEMENT_OP | qd_ad::STORE_ELEMENT_OP => self.reverse_element(ctx, op),
            LOCAL_LOAD_OP => self.reverse_local_load(ctx, op),
            LOCAL_STORE_OP => self.reverse_local_store(ctx, op),
            LOAD_OP => self.reverse_field_load(ctx, op),
            STORE_OP => self.reverse_field_store(ctx, op),
            ATOMIC_ADD_OP => self.reverse_atomic_add(ctx, op),
            NDARRAY_LOAD_OP => self.reverse_ndarray_load(ctx, op),
            NDARRAY_STORE_OP => self.reverse_ndarray_store(ctx, op),
            NDARRAY_ATOMIC_ADD_OP | NDARRAY_ATOMIC_SUB_OP => self.reverse_ndarray_atomic(ctx, op),
            _ => {
                if rule_of(ctx, op).is_some() {
                    self.reverse_rule(ctx, op);
                }
            }
        }
        self.pop_tapes_of(ctx, op);
        self.cur = saved;
    }

    /// The primals of index operands.
    fn primals(&mut self, ctx: &mut Context, vs: &[Value]) -> Vec<Value> {
        vs.iter().map(|&v| self.primal(ctx, v)).collect()
    }

    fn reverse_rule(&mut self, ctx: &mut Context, op: OpId) {
        let rule = rule_of(ctx, op).expect("checked by the caller");
        let loc = ctx.loc(op);
        let results = ctx.results(op).to_vec();
        let mut adjs = Vec::with_capacity(results.len());
        let mut any = false;
        for &r in &results {
            match self.take_adjoint(ctx, r, loc) {
                Some(a) => {
                    any = true;
                    adjs.push(Some(a));
                }
                None => adjs.push(None),
            }
        }
        let operands = ctx.operand_vec(op);
        let active: Vec<bool> = operands.iter().map(|&v| self.f.act.is_active(v)).collect();
        if !any || !active.iter().any(|&a| a) {
            return;
        }
        let adjs: Vec<Value> = adjs
            .into_iter()
            .zip(&results)
            .map(|(a, &r)| {
                a.unwrap_or_else(|| {
                    let ty = ctx.value_type(r);
                    self.zero(ctx, ty, loc)
                })
            })
            .collect();
        let needs = rule.primal_needs(ctx, op, &active);
        let xs: Vec<Option<Value>> = operands
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                needs
                    .operands
                    .get(i)
                    .copied()
                    .unwrap_or(false)
                    .then(|| self.primal(ctx, v))
            })
            .collect();
        let rs: Vec<Option<Value>> = results
            .iter()
            .enumerate()
            .map(|(i, &r)| {
                needs
                    .results
                    .get(i)
                    .copied()
                    .unwrap_or(false)
                    .then(|| self.primal(ctx, r))
            })
            .collect();
        let contribs = {
            let mut b = self.builder(ctx);
            rule.emit_adjoints(&mut b, op, &xs, &rs, &adjs, &active)
        };
        for (i, c) in contribs.into_iter().enumerate() {
            if let (Some(c), true) = (c, active.get(i).copied().unwrap_or(false)) {
                self.accumulate(ctx, operands[i], c, loc);
            }
        }
    }

    fn reverse_field_load(&mut self, ctx: &mut Context, op: OpId) {
        let l = LoadOp(op);
        let loc = ctx.loc(op);
        if !self.f.needs_grad.has_field_of(ctx, op) {
            return;
        }
        let Some(field) = field_ref(ctx, op) else {
            return;
        };
        let Some(a) = self.take_adjoint(ctx, l.result(ctx), loc) else {
            return;
        };
        let idx = self.primals(ctx, &l.indices(ctx));
        let mut b = self.builder(ctx);
        qd_ad::build_acc_field_adjoint_ref(&mut b, a, field, &idx, loc);
    }

    fn reverse_field_store(&mut self, ctx: &mut Context, op: OpId) {
        let s = StoreOp(op);
        let loc = ctx.loc(op);
        if !self.f.needs_grad.has_field_of(ctx, op) {
            return;
        }
        let Some(field) = field_ref(ctx, op) else {
            return;
        };
        let v = s.value(ctx);
        let ty = ctx.value_type(v);
        let idx = self.primals(ctx, &s.indices(ctx));
        if self.f.act.is_active(v) {
            let mut b = self.builder(ctx);
            let g = qd_ad::build_load_field_adjoint_ref(&mut b, field, &idx, ty, loc);
            self.accumulate(ctx, v, g, loc);
        }
        let z = self.zero(ctx, ty, loc);
        let mut b = self.builder(ctx);
        qd_ad::build_store_field_adjoint_ref(&mut b, z, field, &idx, loc);
    }

    fn reverse_atomic_add(&mut self, ctx: &mut Context, op: OpId) {
        let a = AtomicOp(op);
        let loc = ctx.loc(op);
        let v = a.value(ctx);
        if !self.f.needs_grad.has_field_of(ctx, op) || !self.f.act.is_active(v) {
            return;
        }
        let Some(field) = field_ref(ctx, op) else {
            return;
        };
        let ty = ctx.value_type(v);
        let idx = self.primals(ctx, &a.indices(ctx));
        let mut b = self.builder(ctx);
        let g = qd_ad::build_load_field_adjoint_ref(&mut b, field, &idx, ty, loc);
        self.accumulate(ctx, v, g, loc);
    }

    fn reverse_ndarray_load(&mut self, ctx: &mut Context, op: OpId) {
        let l = NdarrayLoadOp(op);
        let loc = ctx.loc(op);
        let Some(&g) = self.adj_arrays.get(&l.array(ctx)) else {
            return;
        };
        let Some(a) = self.take_adjoint(ctx, l.result(ctx), loc) else {
            return;
        };
        let idx = self.primals(ctx, &l.indices(ctx));
        let mut b = self.builder(ctx);
        qd_ad::build_acc_ndarray_adjoint(&mut b, a, g, &idx, loc);
    }

    fn reverse_ndarray_store(&mut self, ctx: &mut Context, op: OpId) {
        let s = NdarrayStoreOp(op);
        let loc = ctx.loc(op);
        let Some(&g) = self.adj_arrays.get(&s.array(ctx)) else {
            return;
        };
        let v = s.value(ctx);
        let ty = ctx.value_type(v);
        let idx = self.primals(ctx, &s.indices(ctx));
        if self.f.act.is_active(v) {
            let mut b = self.builder(ctx);
            let t = NdarrayLoadOp::build(&mut b, g, &idx, loc).result(b.ctx);
            self.accumulate(ctx, v, t, loc);
        }
        let z = self.zero(ctx, ty, loc);
        let mut b = self.builder(ctx);
        NdarrayStoreOp::build(&mut b, z, g, &idx, loc);
    }

    /// `qd.ndarray_atomic_add/sub v, %a[i]`: `adj(v) += ±%a_adj[i]`.
    fn reverse_ndarray_atomic(&mut self, ctx: &mut Context, op: OpId) {
        let a = NdarrayAtomicOp(op);
        let loc = ctx.loc(op);
        let Some(&g) = self.adj_arrays.get(&a.array(ctx)) else {
            return;
        };
        let v = a.value(ctx);
        if !self.f.act.is_active(v) {
            return;
        }
        let idx = self.primals(ctx, &a.indices(ctx));
        let sub = a.kind(ctx) == AtomicKind::Sub;
        let mut b = self.builder(ctx);
        let mut t = NdarrayLoadOp::build(&mut b, g, &idx, loc).result(b.ctx);
        if sub {
            t = qd_arith::build_unary(&mut b, NEGF, t, loc);
        }
        self.accumulate(ctx, v, t, loc);
    }

    fn reverse_local_load(&mut self, ctx: &mut Context, op: OpId) {
        let l = LocalLoadOp(op);
        let loc = ctx.loc(op);
        let r = l.result(ctx);
        if !self.f.act.is_active(r) {
            return;
        }
        let Some(a) = self.take_adjoint(ctx, r, loc) else {
            return;
        };
        let p = l.ptr(ctx);
        if let Some(s) = ctx.defining_op(p).and_then(|d| self.local_stack.get(d)) {
            let mut b = self.builder(ctx);
            qd_adstack::build_acc_adjoint(&mut b, s, a, loc);
            return;
        }
        let Some(ap) = self.adjoint_ptr(ctx, p, loc) else {
            return;
        };
        let mut b = self.builder(ctx);
        let t = LocalLoadOp::build(&mut b, ap, loc).result(b.ctx);
        let sum = qd_arith::build_binary(&mut b, ADDF, t, a, loc);
        LocalStoreOp::build(&mut b, sum, ap, loc);
    }

    fn reverse_local_store(&mut self, ctx: &mut Context, op: OpId) {
        let s = LocalStoreOp(op);
        let loc = ctx.loc(op);
        let (v, p) = (s.value(ctx), s.ptr(ctx));
        let active = self.f.act.is_active(v);
        if let Some(st) = ctx.defining_op(p).and_then(|d| self.local_stack.get(d)) {
            if active {
                let mut b = self.builder(ctx);
                let g = qd_adstack::build_load_top_adj(&mut b, st, loc);
                self.accumulate(ctx, v, g, loc);
            }
            let mut b = self.builder(ctx);
            qd_adstack::build_pop(&mut b, st, loc);
            return;
        }
        let ty = ctx.value_type(v);
        let tracked =
            crate::structure::root_alloca(ctx, p).is_some_and(|a| self.f.act.is_active_mem(a));
        if !tracked || !crate::structure::is_float(ctx, ty) {
            return;
        }
        let Some(ap) = self.adjoint_ptr(ctx, p, loc) else {
            return;
        };
        let mut b = self.builder(ctx);
        let t = LocalLoadOp::build(&mut b, ap, loc).result(b.ctx);
        let z = qd_arith::build_constant_float(&mut b, 0.0, ty, loc);
        LocalStoreOp::build(&mut b, z, ap, loc);
        if active {
            self.accumulate(ctx, v, t, loc);
        }
    }

    /// The address of the adjoint of what `p` points to: the same `elem_ptr`/`member_ptr`
    /// chain applied to the local's adjoint local, with the indices' primals.
    fn adjoint_ptr(&mut self, ctx: &mut Context, p: Value, loc: Location) -> Option<Value> {
        let d = ctx.defining_op(p)?;
        match ctx.name(d) {
            ALLOCA_OP => Some(self.adjoint_mem(ctx, d)),
            ELEM_PTR_OP => {
                let e = ElemPtrOp(d);
                let base = self.adjoint_ptr(ctx, e.base(ctx), loc)?;
                let i = self.primal(ctx, e.index(ctx));
                let mut b = self.builder(ctx);
                Some(ElemPtrOp::build(&mut b, base, i, loc).result(b.ctx))
            }
            MEMBER_PTR_OP => {
                let m = MemberPtrOp(d);
                let k = m.index(ctx);
                let base = self.adjoint_ptr(ctx, m.base(ctx), loc)?;
                let mut b = self.builder(ctx);
                Some(MemberPtrOp::build(&mut b, base, k, loc).result(b.ctx))
            }
            _ => None,
        }
    }
}

/// The field a `qd.load` / `qd.store` / `qd.atomic_*` addresses, as the symbol reference it
/// holds (`@x`): the adjoint access takes that attribute rather than interning the name again.
fn field_ref(ctx: &Context, op: OpId) -> Option<qd_ir::Attribute> {
    ctx.prop(op, "field")
}
