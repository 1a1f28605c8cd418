//! Typed wrappers and builders of the adstack ops. Each wrapper is `XOp(pub OpId)` with
//! `from_op` (checks the name only) and accessors that assume verified IR; each `build` creates
//! the op at a [`Builder`]'s insertion point. The free functions (`build_alloca`, `build_push`,
//! ...) are the short forms that reverse mode uses.

use crate::types::{stack_type, StackType};
use crate::*;
use qd_ir::{AttrData, Attribute, Builder, Context, Location, OpId, OperationState, Type, Value};

fn is(ctx: &Context, op: OpId, name: &str) -> bool {
    ctx.name(op) == name
}

/// The element type of a stack value (the value's own type when it is not a stack).
pub fn stack_elem(ctx: &Context, stack: Value) -> Type {
    let ty = ctx.value_type(stack);
    StackType::from_type(ctx, ty).map_or(ty, |s| s.elem(ctx))
}

/// `%s = adstack.alloca : T {max_size = N, size_expr = E}`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AllocaOp(pub OpId);

impl AllocaOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        is(ctx, op, ALLOCA_OP).then_some(AllocaOp(op))
    }
    /// Creates an alloca of a stack of `elem`, with `max_size` when given.
    pub fn build(b: &mut Builder, elem: Type, max_size: Option<i64>, loc: Location) -> Self {
        let ty = stack_type(b.ctx, elem);
        let mut st = OperationState::new(ALLOCA_OP, loc).results(&[ty]);
        if let Some(n) = max_size {
            let i64t = b.ctx.i64_type();
            let a = b.ctx.integer_attr(n, i64t);
            st.add_prop(b.ctx, MAX_SIZE, a);
        }
        AllocaOp(b.insert(st))
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
    pub fn elem(self, ctx: &Context) -> Type {
        stack_elem(ctx, self.result(ctx))
    }
    /// The static capacity, when set.
    pub fn max_size(self, ctx: &Context) -> Option<i64> {
        ctx.prop(self.0, MAX_SIZE)
            .and_then(|a| ctx.attr_data(a).as_int())
    }
    pub fn set_max_size(self, ctx: &mut Context, n: Option<i64>) {
        match n {
            Some(n) => {
                let i64t = ctx.i64_type();
                let a = ctx.integer_attr(n, i64t);
                ctx.set_prop(self.0, MAX_SIZE, a);
            }
            None => {
                ctx.remove_prop(self.0, MAX_SIZE);
            }
        }
    }
    /// The stack's id in its kernel, when `determine-ad-stack-size` has set it.
    pub fn id(self, ctx: &Context) -> Option<u32> {
        stack_id_of(ctx, self.0)
    }
    pub fn set_id(self, ctx: &mut Context, id: u32) {
        let i64t = ctx.i64_type();
        let a = ctx.integer_attr(i64::from(id), i64t);
        ctx.set_prop(self.0, ID, a);
    }
    /// The symbolic bound, when set.
    pub fn size_expr(self, ctx: &Context) -> Option<Attribute> {
        ctx.prop(self.0, SIZE_EXPR)
    }
    pub fn set_size_expr(self, ctx: &mut Context, e: Option<Attribute>) {
        match e {
            Some(a) => ctx.set_prop(self.0, SIZE_EXPR, a),
            None => {
                ctx.remove_prop(self.0, SIZE_EXPR);
            }
        }
    }
}

/// `adstack.push %s, %v : T`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PushOp(pub OpId);

impl PushOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        is(ctx, op, PUSH_OP).then_some(PushOp(op))
    }
    pub fn build(b: &mut Builder, stack: Value, value: Value, loc: Location) -> Self {
        PushOp(b.insert(OperationState::new(PUSH_OP, loc).operands(&[stack, value])))
    }
    pub fn stack(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn value(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 1)
    }
}

/// `adstack.pop %s : T`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PopOp(pub OpId);

impl PopOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        is(ctx, op, POP_OP).then_some(PopOp(op))
    }
    pub fn build(b: &mut Builder, stack: Value, loc: Location) -> Self {
        PopOp(b.insert(OperationState::new(POP_OP, loc).operands(&[stack])))
    }
    pub fn stack(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
}

/// `%v = adstack.load_top %s : T`: the primal of the top entry.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LoadTopOp(pub OpId);

impl LoadTopOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        is(ctx, op, LOAD_TOP_OP).then_some(LoadTopOp(op))
    }
    pub fn build(b: &mut Builder, stack: Value, loc: Location) -> Self {
        let elem = stack_elem(b.ctx, stack);
        let st = OperationState::new(LOAD_TOP_OP, loc)
            .operands(&[stack])
            .results(&[elem]);
        LoadTopOp(b.insert(st))
    }
    pub fn stack(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
}

/// `%a = adstack.load_top_adj %s : T`: the adjoint of the top entry (float stacks only).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LoadTopAdjOp(pub OpId);

impl LoadTopAdjOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        is(ctx, op, LOAD_TOP_ADJ_OP).then_some(LoadTopAdjOp(op))
    }
    pub fn build(b: &mut Builder, stack: Value, loc: Location) -> Self {
        let elem = stack_elem(b.ctx, stack);
        let st = OperationState::new(LOAD_TOP_ADJ_OP, loc)
            .operands(&[stack])
            .results(&[elem]);
        LoadTopAdjOp(b.insert(st))
    }
    pub fn stack(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
}

/// `adstack.acc_adjoint %s, %v : T`: top.adjoint += v (float stacks only).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AccAdjointOp(pub OpId);

impl AccAdjointOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        is(ctx, op, ACC_ADJOINT_OP).then_some(AccAdjointOp(op))
    }
    pub fn build(b: &mut Builder, stack: Value, value: Value, loc: Location) -> Self {
        AccAdjointOp(b.insert(OperationState::new(ACC_ADJOINT_OP, loc).operands(&[stack, value])))
    }
    pub fn stack(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn value(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 1)
    }
}

/// Creates `adstack.alloca : elem` (no bound yet: sizing sets it) and returns the stack.
pub fn build_alloca(b: &mut Builder, elem: Type, loc: Location) -> Value {
    let op = AllocaOp::build(b, elem, None, loc);
    op.result(b.ctx)
}

/// Creates `adstack.push stack, value`.
pub fn build_push(b: &mut Builder, stack: Value, value: Value, loc: Location) -> OpId {
    PushOp::build(b, stack, value, loc).0
}

/// Creates `adstack.pop stack`.
pub fn build_pop(b: &mut Builder, stack: Value, loc: Location) -> OpId {
    PopOp::build(b, stack, loc).0
}

/// Creates `adstack.load_top stack` and returns the primal.
pub fn build_load_top(b: &mut Builder, stack: Value, loc: Location) -> Value {
    let op = LoadTopOp::build(b, stack, loc);
    op.result(b.ctx)
}

/// Creates `adstack.load_top_adj stack` and returns the adjoint.
pub fn build_load_top_adj(b: &mut Builder, stack: Value, loc: Location) -> Value {
    let op = LoadTopAdjOp::build(b, stack, loc);
    op.result(b.ctx)
}

/// Creates `adstack.acc_adjoint stack, value`.
pub fn build_acc_adjoint(b: &mut Builder, stack: Value, value: Value, loc: Location) -> OpId {
    AccAdjointOp::build(b, stack, value, loc).0
}

/// The `max_size` of an alloca, when it is a well-formed non-negative integer (for consumers that
/// read unverified IR).
pub fn max_size_of(ctx: &Context, alloca: OpId) -> Option<u64> {
    match ctx.attr_data(ctx.prop(alloca, MAX_SIZE)?) {
        AttrData::Integer { value, .. } if *value >= 0 => Some(*value as u64),
        _ => None,
    }
}

/// The `id` property of an alloca, when set and in range.
pub fn stack_id_of(ctx: &Context, alloca: OpId) -> Option<u32> {
    match ctx.attr_data(ctx.prop(alloca, ID)?) {
        AttrData::Integer { value, .. } => u32::try_from(*value).ok(),
        _ => None,
    }
}
