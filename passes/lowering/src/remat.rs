//! Values the conversion may recompute instead of passing between tasks, and integer constants.
//!
//! A top-level op of a kernel is rematerializable when it has no regions and no effects (PURE:
//! constants, arith/math, `qd.ndarray_shape`, whose value is fixed for a launch) and each of its
//! operands is a kernel argument or the result of a rematerializable op. Its value is the same in
//! every task, so each task that uses it gets its own copy, and no serial task is needed for it.

use qd_frontend::PtrType;
use qd_ir::{AttrData, Attribute, BlockId, Context, FoldResult, OpId, OpTraits, Value, ValueDef};
use std::collections::HashSet;

/// The rematerializable ops among `ops` (the top-level ops of kernel body `body`, in order).
pub fn rematerializable(ctx: &Context, body: BlockId, ops: &[OpId]) -> HashSet<OpId> {
    let mut set = HashSet::new();
    for &op in ops {
        let pure = ctx.regions(op).is_empty()
            && ctx.has_trait(op, OpTraits::PURE)
            && ctx.num_results(op) > 0
            && ctx
                .results(op)
                .iter()
                .all(|&r| PtrType::from_type(ctx, ctx.value_type(r)).is_none());
        let operands_ok = ctx.operands(op).all(|v| match ctx.value_def(v) {
            ValueDef::BlockArg { block, .. } => block == body,
            ValueDef::OpResult { op: d, .. } => set.contains(&d),
        });
        if pure && operands_ok {
            set.insert(op);
        }
    }
    set
}

/// How deep [`const_attr`] follows operands through folders.
const FOLD_DEPTH: u32 = 16;

/// The constant attribute of `v`: a constant-like op's `value`, or what the defining op's folder
/// makes of constant operands.
pub fn const_attr(ctx: &mut Context, v: Value) -> Option<Attribute> {
    const_attr_at(ctx, v, FOLD_DEPTH)
}

fn const_attr_at(ctx: &mut Context, v: Value, depth: u32) -> Option<Attribute> {
    let op = ctx.defining_op(v)?;
    if ctx.has_trait(op, OpTraits::CONSTANT_LIKE) {
        return ctx.prop_or_attr(op, "value");
    }
    if depth == 0 || !ctx.has_trait(op, OpTraits::PURE) || !ctx.regions(op).is_empty() {
        return None;
    }
    let fold = ctx.info(op)?.fold?;
    let operands = ctx.operand_vec(op);
    let mut consts = Vec::with_capacity(operands.len());
    for o in operands {
        consts.push(Some(const_attr_at(ctx, o, depth - 1)?));
    }
    let index = ctx.results(op).iter().position(|&r| r == v)?;
    match fold(ctx, op, &consts)?.get(index)? {
        FoldResult::Attr(a) => Some(*a),
        FoldResult::Value(w) => {
            let w = *w;
            const_attr_at(ctx, w, depth - 1)
        }
    }
}

/// The value of an integer (or index, or i1) constant, sign-extended from its width.
pub fn const_int(ctx: &mut Context, v: Value) -> Option<i64> {
    let a = const_attr(ctx, v)?;
    match ctx.attr_data(a) {
        AttrData::Integer { .. } | AttrData::Bool(_) => {
            qd_arith::consts::IntVal::from_attr(ctx, a).map(|i| i.sext())
        }
        _ => None,
    }
}
