//! The adstack ops, declared with [`qd_ir::declare_op!`]: each gets its wrapper `XOp(pub OpId)`
//! (`from_op` checks the name; accessors assume verified IR), its `build` at a [`Builder`]'s
//! insertion point, its structural verifier and its custom form. The free functions
//! (`build_alloca`, `build_push`, ...) are the short forms that reverse mode uses.

use crate::syntax::{parse_elem, print_elem};
use crate::types::{stack_type, StackType};
use crate::verify;
use crate::{ID, MAX_SIZE, PRIMAL_ELIDED};
use qd_ir::op_def::{constraint, prop, TypeConstraint};
use qd_ir::{AttrData, Builder, Context, Location, OpId, OpTraits, Type, Value};

/// `!adstack.stack<T>`, written as its element type `T` in the ops' custom forms.
pub const STACK: TypeConstraint = TypeConstraint::new("an !adstack.stack", is_stack)
    .syntax(parse_elem, print_elem)
    .irdl(qd_ir::irdl::Irdl::Dialect(
        crate::types::DIALECT,
        crate::types::STACK,
    ));

fn is_stack(ctx: &Context, ty: Type) -> bool {
    StackType::from_type(ctx, ty).is_some()
}

/// The element type of a stack type (the type itself when it is not a stack).
fn elem_of(ctx: &mut Context, ty: Type) -> Type {
    StackType::from_type(ctx, ty).map_or(ty, |s| s.elem(ctx))
}

/// The element type of a stack value (the value's own type when it is not a stack).
pub fn stack_elem(ctx: &Context, stack: Value) -> Type {
    let ty = ctx.value_type(stack);
    StackType::from_type(ctx, ty).map_or(ty, |s| s.elem(ctx))
}

qd_ir::declare_op! {
    /// `%s = adstack.alloca : T {id = I, max_size = N, size_expr = E}`.
    pub struct AllocaOp = "adstack.alloca" {
        summary: "a per-thread stack of (primal, adjoint) entries; executing it empties the stack",
        results: [result: single(STACK)],
        properties: [
            id: optional(prop::NonNeg<u32>),
            max_size: optional(prop::NonNeg<i64>) => set_max_size,
            size_expr: optional(prop::AnyAttr) => set_size_expr,
            primal_elided as _: optional(prop::Flag),
        ],
        builder: create,
        format: "`:` type($result) attr-dict",
        verify: verify::verify_alloca,
    }
}

qd_ir::declare_op! {
    /// `adstack.push %s, %v : T`.
    pub struct PushOp = "adstack.push" {
        summary: "pushes a value with a zero adjoint",
        operands: [stack: single(STACK), value: single(constraint::ANY) = elem_of(stack)],
        format: "$stack `,` $value attr-dict `:` type($stack)",
        verify: verify::verify_push,
    }
}

qd_ir::declare_op! {
    /// `adstack.pop %s : T`.
    pub struct PopOp = "adstack.pop" {
        summary: "drops the top entry (no-op on an empty stack)",
        operands: [stack: single(STACK)],
        format: "$stack attr-dict `:` type($stack)",
    }
}

qd_ir::declare_op! {
    /// `%v = adstack.load_top %s : T`: the primal of the top entry.
    pub struct LoadTopOp = "adstack.load_top" {
        summary: "reads the primal of the top entry",
        traits: [OpTraits::READ_ONLY],
        operands: [stack: single(STACK)],
        results: [result: single(constraint::ANY) = elem_of(stack)],
        format: "$stack attr-dict `:` type($stack)",
        verify: verify::verify_load_top,
    }
}

qd_ir::declare_op! {
    /// `%a = adstack.load_top_adj %s : T`: the adjoint of the top entry (float stacks only).
    pub struct LoadTopAdjOp = "adstack.load_top_adj" {
        summary: "reads the adjoint of the top entry",
        traits: [OpTraits::READ_ONLY],
        operands: [stack: single(STACK)],
        results: [result: single(constraint::ANY) = elem_of(stack)],
        format: "$stack attr-dict `:` type($stack)",
        verify: verify::verify_load_top_adj,
    }
}

qd_ir::declare_op! {
    /// `adstack.acc_adjoint %s, %v : T`: top.adjoint += v (float stacks only).
    pub struct AccAdjointOp = "adstack.acc_adjoint" {
        summary: "adds to the adjoint of the top entry",
        operands: [stack: single(STACK), value: single(constraint::ANY) = elem_of(stack)],
        format: "$stack `,` $value attr-dict `:` type($stack)",
        verify: verify::verify_acc_adjoint,
    }
}

impl AllocaOp {
    /// Creates an alloca of a stack of `elem`, with `max_size` when given.
    pub fn build(b: &mut Builder, elem: Type, max_size: Option<i64>, loc: Location) -> Self {
        let ty = stack_type(b.ctx, elem);
        AllocaOp::create(b, ty, None, max_size, None, None, loc)
    }
    pub fn elem(self, ctx: &Context) -> Type {
        stack_elem(ctx, self.result(ctx))
    }
    /// Whether minimize-tape elided the stack (see [`crate::PRIMAL_ELIDED`]).
    pub fn is_primal_elided(self, ctx: &Context) -> bool {
        ctx.prop(self.0, PRIMAL_ELIDED).is_some()
    }
    /// Marks the stack as elided (its ops must all be gone).
    pub fn set_primal_elided(self, ctx: &mut Context) {
        let u = ctx.unit_attr();
        ctx.set_prop(self.0, PRIMAL_ELIDED, u);
    }
    pub fn set_id(self, ctx: &mut Context, id: u32) {
        let i64t = ctx.i64_type();
        let a = ctx.integer_attr(i64::from(id), i64t);
        ctx.set_prop(self.0, ID, a);
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
