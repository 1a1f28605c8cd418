//! Verifiers of the ndarray ops: operand and result types, NumPy broadcasting (a located error
//! names the shapes and the axis that disagree), reduction axes, primitive arities.

use crate::broadcast::{broadcast, show};
use crate::primitives::{primitive, ResultKind};
use crate::types::{is_float_elem, shape_and_elem, ArrayType};
use qd_ir::op_def::{prop, PropKind};
use qd_ir::verify_helpers::op_error;
use qd_ir::{Context, DiagResult, OpId, TypeData};

fn callee(ctx: &Context, op: OpId) -> Option<&str> {
    ctx.prop(op, "callee").and_then(|a| prop::Str::get(ctx, a))
}

fn is_i1(ctx: &Context, t: qd_ir::Type) -> bool {
    matches!(ctx.type_data(t), TypeData::Integer { width: 1, .. })
}

/// Every elementwise op (built-in or `ndarray.primitive`): the primitive exists and takes this
/// many operands; each operand is an array or a scalar; the float operands share one element type
/// (conditions are i1); the shapes broadcast; the result is the array of the broadcast shape and
/// of the float element type (i1 for comparisons).
pub fn verify_elementwise(ctx: &Context, op: OpId) -> DiagResult<()> {
    let name = match ctx.name(op) {
        crate::ops::PrimitiveOp::NAME => callee(ctx, op)
            .ok_or_else(|| op_error(ctx, op, "expects a string property 'callee'"))?
            .to_string(),
        n => n.trim_start_matches("ndarray.").to_string(),
    };
    let Some(p) = primitive(&name) else {
        return Err(op_error(
            ctx,
            op,
            format!("calls '{name}', which is not a registered primitive"),
        ));
    };
    let operands = ctx.operand_vec(op);
    if operands.len() != p.arity {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects {} operand{} for primitive '{name}', got {}",
                p.arity,
                if p.arity == 1 { "" } else { "s" },
                operands.len()
            ),
        ));
    }
    let mut shape: Vec<i64> = Vec::new();
    let mut shapes = Vec::new();
    let mut elem = None;
    let mut any_array = false;
    for (i, &v) in operands.iter().enumerate() {
        let ty = ctx.value_type(v);
        any_array |= ArrayType::from_type(ctx, ty).is_some();
        let (s, e) = shape_and_elem(ctx, ty);
        if p.bool_operands.contains(&i) {
            if !is_i1(ctx, e) {
                return Err(op_error(
                    ctx,
                    op,
                    format!("expects operand {i} to be i1 or an array of i1"),
                ));
            }
        } else {
            if !is_float_elem(ctx, e) {
                return Err(op_error(
                    ctx,
                    op,
                    format!("expects operand {i} to be a float or an array of floats"),
                ));
            }
            match elem {
                None => elem = Some(e),
                Some(t) if t != e => {
                    return Err(op_error(
                        ctx,
                        op,
                        "expects every float operand to have the same element type",
                    ))
                }
                _ => {}
            }
        }
        shape = broadcast(&shape, &s).map_err(|_| {
            let all: Vec<_> = shapes.iter().map(|s: &Vec<i64>| show(s)).collect();
            let why = broadcast(&shape, &s).unwrap_err();
            op_error(
                ctx,
                op,
                format!(
                    "operand shapes do not broadcast: {why}{}",
                    if all.len() > 1 {
                        format!(" (earlier operands: {})", all.join(", "))
                    } else {
                        String::new()
                    }
                ),
            )
        })?;
        shapes.push(s);
    }
    if !any_array {
        return Err(op_error(ctx, op, "expects at least one array operand"));
    }
    let Some(elem) = elem else {
        return Err(op_error(ctx, op, "expects a float operand"));
    };
    let rt = ctx.value_type(ctx.result(op, 0));
    let want_elem = match p.result {
        ResultKind::Float => Some(elem),
        ResultKind::Bool => None,
    };
    let ok = ArrayType::from_type(ctx, rt).is_some_and(|a| {
        a.shape(ctx) == shape
            && match want_elem {
                Some(t) => a.elem(ctx) == t,
                None => is_i1(ctx, a.elem(ctx)),
            }
    });
    if !ok {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects the result to be an array of shape {} and element type {}",
                show(&shape),
                match want_elem {
                    Some(t) => qd_ir::text::type_to_string(ctx, t),
                    None => "i1".into(),
                }
            ),
        ));
    }
    Ok(())
}

/// sum/mean/max: a float array operand; `axis` in range; the result drops that axis (every
/// axis when there is none).
pub fn verify_reduction(ctx: &Context, op: OpId) -> DiagResult<()> {
    let x = ctx.value_type(ctx.operand(op, 0));
    let Some(a) = ArrayType::from_type(ctx, x) else {
        return Err(op_error(ctx, op, "expects an array operand"));
    };
    if !is_float_elem(ctx, a.elem(ctx)) {
        return Err(op_error(ctx, op, "expects an array of floats"));
    }
    let shape = a.shape(ctx);
    let axis = ctx.prop(op, "axis").and_then(|p| ctx.attr_data(p).as_int());
    let out: Vec<i64> = match axis {
        None => Vec::new(),
        Some(ax) if ax >= 0 && (ax as usize) < shape.len() => {
            let mut s = shape.clone();
            s.remove(ax as usize);
            s
        }
        Some(ax) => {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects an axis in [0, {}) for an array of shape {}, got {ax}",
                    shape.len(),
                    show(&shape)
                ),
            ))
        }
    };
    let rt = ctx.value_type(ctx.result(op, 0));
    let ok = ArrayType::from_type(ctx, rt)
        .is_some_and(|r| r.shape(ctx) == out && r.elem(ctx) == a.elem(ctx));
    if !ok {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects the result to be an array of shape {} and element type {}",
                show(&out),
                qd_ir::text::type_to_string(ctx, a.elem(ctx))
            ),
        ));
    }
    Ok(())
}

/// `ndarray.scalar_apply`: a registered primitive with a backward, on scalars.
pub fn verify_scalar_apply(ctx: &Context, op: OpId) -> DiagResult<()> {
    let name = callee(ctx, op).unwrap_or_default();
    let Some(p) = primitive(name) else {
        return Err(op_error(
            ctx,
            op,
            format!("calls '{name}', which is not a registered primitive"),
        ));
    };
    if p.arity != ctx.num_operands(op) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects {} operands for primitive '{name}', got {}",
                p.arity,
                ctx.num_operands(op)
            ),
        ));
    }
    let all_scalar = ctx
        .operands(op)
        .map(|v| ctx.value_type(v))
        .chain([ctx.value_type(ctx.result(op, 0))])
        .all(|t| is_float_elem(ctx, t) || is_i1(ctx, t));
    if !all_scalar {
        return Err(op_error(ctx, op, "expects scalar operands and result"));
    }
    Ok(())
}

/// `ndarray.launch`: operands and results are arrays or scalars (the kernel's signature is the
/// fusion pass's contract; the runtime checks it at launch).
pub fn verify_launch(ctx: &Context, op: OpId) -> DiagResult<()> {
    for v in ctx.operands(op).chain(ctx.results(op).iter().copied()) {
        let t = ctx.value_type(v);
        if ArrayType::from_type(ctx, t).is_none() && !is_float_elem(ctx, t) {
            return Err(op_error(
                ctx,
                op,
                "expects array or float scalar operands and results",
            ));
        }
    }
    if ctx.num_results(op) == 0 {
        return Err(op_error(ctx, op, "expects at least one result"));
    }
    Ok(())
}
