//! The ops of the ndarray dialect, each declared once with `qd_ir::declare_op!`.
//!
//! ```text
//! %r = ndarray.add %a, %b : !ndarray.array<4x1xf32>, !ndarray.array<1x8xf32> -> !ndarray.array<4x8xf32>
//! %s = ndarray.mul %a, %c : !ndarray.array<4x1xf32>, f32 -> !ndarray.array<4x1xf32>
//! %e = ndarray.exp %r : !ndarray.array<4x8xf32>
//! %m = ndarray.lt %r, %c : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xi1>
//! %w = ndarray.select %m, %r, %c : !ndarray.array<4x8xi1>, !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xf32>
//! %p = ndarray.primitive "softplus"(%r) : !ndarray.array<4x8xf32> -> !ndarray.array<4x8xf32>
//! %t = ndarray.sum %r {axis = 1} : !ndarray.array<4x8xf32> -> !ndarray.array<4xf32>
//! %y = ndarray.launch @k(%a, %c) : !ndarray.array<4x1xf32>, f32 -> !ndarray.array<4x1xf32>
//! ```

use crate::verify::{verify_elementwise, verify_launch, verify_reduction, verify_scalar_apply};
use qd_ir::op_def::{constraint, prop};
use qd_ir::{Context, OpTraits, Type};

fn same(_: &mut Context, t: Type) -> Type {
    t
}

/// Declares a binary elementwise op.
macro_rules! binary {
    ($(#[$doc:meta])* $Name:ident = $op:literal, $summary:literal) => {
        qd_ir::declare_op! {
            $(#[$doc])*
            pub struct $Name = $op {
                summary: $summary,
                traits: [OpTraits::PURE],
                operands: [lhs: single(constraint::ANY), rhs: single(constraint::ANY)],
                results: [result: single(constraint::ANY)],
                format: "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)",
                verify: verify_elementwise,
            }
        }
    };
}

/// Declares a unary elementwise op (the result has the operand's type).
macro_rules! unary {
    ($(#[$doc:meta])* $Name:ident = $op:literal, $summary:literal) => {
        qd_ir::declare_op! {
            $(#[$doc])*
            pub struct $Name = $op {
                summary: $summary,
                traits: [OpTraits::PURE],
                operands: [x: single(constraint::ANY)],
                results: [result: single(constraint::ANY) = same(x)],
                format: "$x attr-dict `:` type($x)",
                verify: verify_elementwise,
            }
        }
    };
}

/// Declares a reduction (over every axis, or over `axis`).
macro_rules! reduction {
    ($(#[$doc:meta])* $Name:ident = $op:literal, $summary:literal) => {
        qd_ir::declare_op! {
            $(#[$doc])*
            pub struct $Name = $op {
                summary: $summary,
                traits: [OpTraits::PURE],
                operands: [x: single(constraint::ANY)],
                results: [result: single(constraint::ANY)],
                properties: [axis as _: optional(prop::Int)],
                format: "$x attr-dict `:` type($x) `->` type($result)",
                verify: verify_reduction,
            }
        }
    };
}

binary!(AddOp = "ndarray.add", "elementwise a + b");
binary!(SubOp = "ndarray.sub", "elementwise a - b");
binary!(MulOp = "ndarray.mul", "elementwise a * b");
binary!(DivOp = "ndarray.div", "elementwise a / b");
binary!(
    MaximumOp = "ndarray.maximum",
    "elementwise max(a, b) (NaN propagates)"
);
binary!(
    MinimumOp = "ndarray.minimum",
    "elementwise min(a, b) (NaN propagates)"
);
binary!(PowOp = "ndarray.pow", "elementwise a ** b");
binary!(LtOp = "ndarray.lt", "elementwise a < b (i1)");
binary!(LeOp = "ndarray.le", "elementwise a <= b (i1)");
binary!(GtOp = "ndarray.gt", "elementwise a > b (i1)");
binary!(GeOp = "ndarray.ge", "elementwise a >= b (i1)");
binary!(EqOp = "ndarray.eq", "elementwise a == b (i1)");
binary!(NeOp = "ndarray.ne", "elementwise a != b (i1, true for NaN)");
unary!(NegOp = "ndarray.neg", "elementwise -x");
unary!(ReluOp = "ndarray.relu", "elementwise max(x, 0)");
unary!(
    SigmoidOp = "ndarray.sigmoid",
    "elementwise 1 / (1 + exp(-x))"
);
unary!(TanhOp = "ndarray.tanh", "elementwise tanh(x)");
unary!(ExpOp = "ndarray.exp", "elementwise exp(x)");
unary!(LogOp = "ndarray.log", "elementwise log(x)");
unary!(SqrtOp = "ndarray.sqrt", "elementwise sqrt(x)");
unary!(AbsOp = "ndarray.abs", "elementwise |x|");
reduction!(
    SumOp = "ndarray.sum",
    "the sum over every axis, or over `axis`"
);
reduction!(
    MeanOp = "ndarray.mean",
    "the mean over every axis, or over `axis`"
);
reduction!(
    MaxOp = "ndarray.max",
    "the maximum over every axis, or over `axis`"
);

qd_ir::declare_op! {
    /// `%r = ndarray.select %c, %a, %b : C, A, B -> R`: where(c, a, b), broadcast.
    pub struct SelectOp = "ndarray.select" {
        summary: "elementwise c ? a : b",
        traits: [OpTraits::PURE],
        operands: [cond: single(constraint::ANY), lhs: single(constraint::ANY), rhs: single(constraint::ANY)],
        results: [result: single(constraint::ANY)],
        format: "$cond `,` $lhs `,` $rhs attr-dict `:` type($cond) `,` type($lhs) `,` type($rhs) `->` type($result)",
        verify: verify_elementwise,
    }
}

qd_ir::declare_op! {
    /// `%r = ndarray.primitive "name"(%a, ...) : A, ... -> R`: a registered primitive.
    pub struct PrimitiveOp = "ndarray.primitive" {
        summary: "a registered elementwise primitive",
        traits: [OpTraits::PURE],
        operands: [inputs: variadic(constraint::ANY)],
        results: [result: single(constraint::ANY)],
        properties: [callee: required(prop::Str)],
        format: "$callee `(` $inputs `)` attr-dict `:` type($inputs) `->` type($result)",
        verify: verify_elementwise,
    }
}

qd_ir::declare_op! {
    /// `%r = ndarray.scalar_apply "name"(%a, ...) : f32, ... -> f32`: one primitive with a
    /// hand-written backward on scalars, inside a fused kernel; reverse-mode-ad uses the
    /// primitive's backward for it, then it is expanded into its forward body.
    pub struct ScalarApplyOp = "ndarray.scalar_apply" {
        summary: "a primitive with its own backward, on scalars",
        traits: [OpTraits::PURE],
        operands: [inputs: variadic(constraint::ANY)],
        results: [result: single(constraint::ANY)],
        properties: [callee: required(prop::Str)],
        format: "$callee `(` $inputs `)` attr-dict `:` type($inputs) `->` type($result)",
        verify: verify_scalar_apply,
    }
}

qd_ir::declare_op! {
    /// `%r, ... = ndarray.launch @k(%a, ...) : A, ... -> R, ...`: runs qd.kernel @k on the
    /// inputs (ndarrays flattened to rank 1, scalars) and fresh outputs, which it returns.
    pub struct LaunchOp = "ndarray.launch" {
        summary: "a fused kernel launch",
        operands: [inputs: variadic(constraint::ANY)],
        results: [outputs: variadic(constraint::ANY)],
        properties: [kernel: required(prop::SymbolRef)],
        format: "$kernel `(` $inputs `)` attr-dict `:` type($inputs) `->` type($outputs)",
        verify: verify_launch,
    }
}

impl ScalarApplyOp {
    pub fn name(self, ctx: &Context) -> &str {
        self.callee(ctx)
    }
}

/// The reduction kind of a reduction op.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum ReduceKind {
    Sum,
    Mean,
    Max,
}

/// The kind and axis (None: every axis) of a reduction op.
pub fn reduction(ctx: &Context, op: qd_ir::OpId) -> Option<(ReduceKind, Option<i64>)> {
    let kind = match ctx.name(op) {
        SumOp::NAME => ReduceKind::Sum,
        MeanOp::NAME => ReduceKind::Mean,
        MaxOp::NAME => ReduceKind::Max,
        _ => return None,
    };
    let axis = ctx.prop(op, "axis").and_then(|a| ctx.attr_data(a).as_int());
    Some((kind, axis))
}

/// The primitive name of an elementwise op (its mnemonic, or a `primitive`'s callee).
pub fn elementwise_name(ctx: &Context, op: qd_ir::OpId) -> Option<String> {
    let name = ctx.name(op);
    if name == PrimitiveOp::NAME {
        return ctx
            .prop(op, "callee")
            .and_then(|a| <prop::Str as qd_ir::op_def::PropKind>::get(ctx, a))
            .map(str::to_string);
    }
    let m = name.strip_prefix("ndarray.")?;
    (reduction(ctx, op).is_none()
        && !matches!(name, LaunchOp::NAME | ScalarApplyOp::NAME)
        && crate::primitives::primitive(m).is_some())
    .then(|| m.to_string())
}

pub fn all() -> Vec<qd_ir::OpInfo> {
    vec![
        AddOp::op_info(),
        SubOp::op_info(),
        MulOp::op_info(),
        DivOp::op_info(),
        MaximumOp::op_info(),
        MinimumOp::op_info(),
        PowOp::op_info(),
        LtOp::op_info(),
        LeOp::op_info(),
        GtOp::op_info(),
        GeOp::op_info(),
        EqOp::op_info(),
        NeOp::op_info(),
        NegOp::op_info(),
        ReluOp::op_info(),
        SigmoidOp::op_info(),
        TanhOp::op_info(),
        ExpOp::op_info(),
        LogOp::op_info(),
        SqrtOp::op_info(),
        AbsOp::op_info(),
        SelectOp::op_info(),
        PrimitiveOp::op_info(),
        SumOp::op_info(),
        MeanOp::op_info(),
        MaxOp::op_info(),
        ScalarApplyOp::op_info()
            .interface::<dyn qd_ir::interfaces::ReverseRule>(&crate::scalar_apply::RULE),
        LaunchOp::op_info(),
    ]
}
