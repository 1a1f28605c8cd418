//! Activity analysis. A float value is *active* when it depends, through differentiable ops, on
//! an input that has a gradient (a load of a `needs_grad` field, a read of an active ndarray) AND
//! influences an output that has one (a store or atomic to a `needs_grad` field or to an active
//! ndarray). Only active values get adjoints, and derivative rules are told which operands are
//! active, so that they read no more primals than they must.
//!
//! Differentiable ops are those with a `ReverseRule`; an op without one (integer arithmetic,
//! comparisons, integer casts) stops the dependence. Locals are followed through memory: a store
//! makes its local (the whole `qd.alloca`, aggregates included, conservatively) depend on the
//! stored value, and a load depends on its local (`ad.load_element` / `ad.store_element` as
//! loads and stores of their aggregate). Both directions are fixpoints over the kernel,
//! so values carried around loops through locals are covered.

use crate::field_set::FieldSet;
use crate::handle_set::HandleSet;
use crate::structure::{is_float_value, local_read, local_write, root_alloca, write_of};
use qd_ad::{LOAD_ELEMENT_OP, STORE_ELEMENT_OP};
use qd_frontend::{NdarrayLoadOp, LOAD_OP, LOCAL_LOAD_OP, LOCAL_STORE_OP, NDARRAY_LOAD_OP};
use qd_ir::interfaces::ReverseRule;
use qd_ir::{Context, OpId, Value};
use std::collections::HashSet;

/// What the gradient flows through.
#[derive(Default, Debug)]
pub(crate) struct Activity {
    varied: HandleSet<Value>,
    useful: HandleSet<Value>,
    varied_mem: HandleSet<OpId>,
    useful_mem: HandleSet<OpId>,
}

/// The derivative rule of an op, if it has one.
pub(crate) fn rule_of(ctx: &Context, op: OpId) -> Option<&'static dyn ReverseRule> {
    ctx.info(op)
        .and_then(|i| i.get_interface::<dyn ReverseRule>())
}

impl Activity {
    /// `ops`: the kernel's ops in pre-order; `needs_grad`: the fields with adjoints;
    /// `active_arrays`: the kernel's ndarray arguments that carry gradients.
    pub(crate) fn compute(
        ctx: &Context,
        ops: &[OpId],
        needs_grad: &FieldSet,
        active_arrays: &HashSet<Value>,
    ) -> Activity {
        let mut a = Activity::default();
        // Forward: what depends on a differentiable input.
        loop {
            let mut changed = false;
            for &op in ops {
                changed |= a.forward(ctx, op, needs_grad, active_arrays);
            }
            if !changed {
                break;
            }
        }
        // Backward: what influences a differentiable output.
        loop {
            let mut changed = false;
            for &op in ops.iter().rev() {
                changed |= a.backward(ctx, op, needs_grad, active_arrays);
            }
            if !changed {
                break;
            }
        }
        a
    }

    fn forward(
        &mut self,
        ctx: &Context,
        op: OpId,
        needs_grad: &FieldSet,
        arrays: &HashSet<Value>,
    ) -> bool {
        let mut changed = false;
        match ctx.name(op) {
            LOAD_OP => {
                if needs_grad.has_field_of(ctx, op) {
                    changed |= self.vary(ctx, ctx.result(op, 0));
                }
            }
            NDARRAY_LOAD_OP => {
                if arrays.contains(&NdarrayLoadOp(op).array(ctx)) {
                    changed |= self.vary(ctx, ctx.result(op, 0));
                }
            }
            LOCAL_STORE_OP | STORE_ELEMENT_OP => {
                let (value, addr) = local_write(ctx, op).expect("a local write");
                if self.varied.contains(value) {
                    if let Some(a) = root_alloca(ctx, addr) {
                        changed |= self.varied_mem.insert(a);
                    }
                }
            }
            LOCAL_LOAD_OP | LOAD_ELEMENT_OP => {
                let (result, addr) = local_read(ctx, op).expect("a local read");
                if root_alloca(ctx, addr).is_some_and(|a| self.varied_mem.contains(a)) {
                    changed |= self.vary(ctx, result);
                }
            }
            _ => {
                if rule_of(ctx, op).is_some() && ctx.operands(op).any(|v| self.varied.contains(v)) {
                    for &r in ctx.results(op) {
                        changed |= self.vary(ctx, r);
                    }
                }
            }
        }
        changed
    }

    fn vary(&mut self, ctx: &Context, v: Value) -> bool {
        is_float_value(ctx, v) && self.varied.insert(v)
    }

    fn backward(
        &mut self,
        ctx: &Context,
        op: OpId,
        needs_grad: &FieldSet,
        arrays: &HashSet<Value>,
    ) -> bool {
        // A value stored or combined into differentiable memory is used.
        if let Some((value, array)) = write_of(ctx, op) {
            let differentiable = match array {
                None => needs_grad.has_field_of(ctx, op),
                Some(a) => arrays.contains(&a),
            };
            return differentiable && self.use_(ctx, value);
        }
        let mut changed = false;
        match ctx.name(op) {
            LOCAL_LOAD_OP | LOAD_ELEMENT_OP => {
                let (result, addr) = local_read(ctx, op).expect("a local read");
                if self.useful.contains(result) {
                    if let Some(a) = root_alloca(ctx, addr) {
                        changed |= self.useful_mem.insert(a);
                    }
                }
            }
            LOCAL_STORE_OP | STORE_ELEMENT_OP => {
                let (value, addr) = local_write(ctx, op).expect("a local write");
                if root_alloca(ctx, addr).is_some_and(|a| self.useful_mem.contains(a)) {
                    changed |= self.use_(ctx, value);
                }
            }
            _ => {
                if rule_of(ctx, op).is_some()
                    && ctx.results(op).iter().any(|r| self.useful.contains(*r))
                {
                    for v in ctx.operand_vec(op) {
                        changed |= self.use_(ctx, v);
                    }
                }
            }
        }
        changed
    }

    fn use_(&mut self, ctx: &Context, v: Value) -> bool {
        is_float_value(ctx, v) && self.useful.insert(v)
    }

    /// Whether `v` gets an adjoint.
    pub(crate) fn is_active(&self, v: Value) -> bool {
        self.varied.contains(v) && self.useful.contains(v)
    }

    /// Whether a local (a `qd.alloca`) gets an adjoint.
    pub(crate) fn is_active_mem(&self, alloca: OpId) -> bool {
        self.varied_mem.contains(alloca) && self.useful_mem.contains(alloca)
    }
}
