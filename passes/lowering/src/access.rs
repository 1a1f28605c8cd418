//! Element addresses of fields and ndarrays: a pointer to the buffer, one `lowered.bounds_check`
//! per index that is not provably in range, and the row-major offset `((i0 * d1) + i1) * d2 + i2`
//! in i64.
//!
//! An index is provably in `[0, extent)` when it is
//! - an integer constant in range;
//! - an induction variable of a `qd.struct_for` over a field whose extent on that axis is at
//!   most `extent` (static extents);
//! - the induction variable of a `qd.range_for` whose lower bound is a constant `>= 0` and whose
//!   upper bound is a constant `<= extent`, or is `qd.ndarray_shape %a, k` when `extent` is that
//!   same ndarray extent.
//!
//! (Induction variables are SSA values: nothing in the body can change them.)

use crate::emit;
use crate::lowerer::{Cached, Lowerer, R};
use crate::remat::const_int;
use qd_arith::names::{ADDI, EXTUI, MULI, TRUNCI};
use qd_frontend::{
    lookup_field, NdarrayShapeOp, NdarrayType, RangeForOp, StructForOp, RANGE_FOR_OP, STRUCT_FOR_OP,
};
use qd_ir::{OpId, Type, Value, ValueDef};

/// The extent of one axis of an accessed array.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Extent {
    Static(i64),
    /// Axis `axis` of ndarray argument `arg`.
    Ndarray {
        arg: u32,
        axis: u32,
    },
}

/// How an element type is kept in global memory: `i1` as `i8`.
pub fn stored_type(lw: &mut Lowerer, elem: Type) -> Type {
    qd_lowered::types::storage_type(lw.ctx, elem)
}

/// Loads an element of type `elem` through `p` (a pointer to its stored type).
pub fn load_elem(lw: &mut Lowerer, p: Value, elem: Type) -> R<Value> {
    let v = emit::load(lw, p)?;
    Ok(if lw.ctx.value_type(v) == elem {
        v
    } else {
        lw.cast(TRUNCI, v, elem)
    })
}

/// `v` as stored through `p` (widened when the element is `i1`).
pub fn stored_value(lw: &mut Lowerer, v: Value, p: Value) -> Value {
    let pty = lw.ctx.value_type(p);
    let Some(st) = qd_lowered::types::pointee(lw.ctx, pty) else {
        return v;
    };
    if lw.ctx.value_type(v) == st {
        v
    } else {
        lw.cast(EXTUI, v, st)
    }
}

/// A field element: `(pointer to it, element type)`; `grad` addresses the adjoint buffer.
pub fn field_element(
    lw: &mut Lowerer,
    op: OpId,
    field: &str,
    grad: bool,
    indices: &[Value],
) -> R<(Value, Type)> {
    let Some(f) = lookup_field(lw.ctx, op, field) else {
        return Err(lw.error(format!(
            "'{}' refers to unknown field @{field}",
            lw.ctx.name(op)
        )));
    };
    let shape = f.shape(lw.ctx);
    let elem = f.elem(lw.ctx);
    if indices.len() != shape.len() {
        return Err(lw.internal(format!(
            "field @{field} of rank {} accessed with {} indices",
            shape.len(),
            indices.len()
        )));
    }
    let stored = stored_type(lw, elem);
    let name = field.to_string();
    let base = lw.cached(Cached::FieldPtr(name.clone(), grad), |lw| {
        emit::field_ptr(lw, &name, grad, stored)
    });
    let what = if grad {
        format!("field @{field}.grad")
    } else {
        format!("field @{field}")
    };
    let extents: Vec<Extent> = shape.iter().map(|&d| Extent::Static(d)).collect();
    let p = element(lw, base, indices, &extents, &what)?;
    Ok((p, elem))
}

/// The kernel argument index of ndarray value `arr`.
pub fn ndarray_arg(lw: &Lowerer, arr: Value) -> R<u32> {
    match lw.ctx.value_def(arr) {
        ValueDef::BlockArg { block, index } if Some(block) == lw.body => Ok(index),
        _ => Err(lw.error("cannot lower an ndarray that is not a kernel argument")),
    }
}

/// An ndarray element: `(pointer to it, element type)`. `what` names the array in bounds-check
/// messages (`ndarray argument 0`).
pub fn ndarray_element(
    lw: &mut Lowerer,
    arr: Value,
    indices: &[Value],
    what: &str,
) -> R<(Value, Type)> {
    let arg = ndarray_arg(lw, arr)?;
    let ty = lw.ctx.value_type(arr);
    let Some(nd) = NdarrayType::from_type(lw.ctx, ty) else {
        return Err(lw.internal("expected an !qd.ndarray"));
    };
    let (rank, elem) = (nd.rank(lw.ctx), nd.elem(lw.ctx));
    if indices.len() != rank {
        return Err(lw.internal(format!(
            "ndarray of rank {rank} accessed with {} indices",
            indices.len()
        )));
    }
    let stored = stored_type(lw, elem);
    let base = lw.cached(Cached::NdarrayPtr(arg), |lw| {
        emit::ndarray_ptr(lw, arg, stored)
    });
    let extents: Vec<Extent> = (0..rank as u32)
        .map(|axis| Extent::Ndarray { arg, axis })
        .collect();
    let p = element(lw, base, indices, &extents, what)?;
    Ok((p, elem))
}

/// `lowered.ndarray_dim arg, axis`, once per task.
pub fn ndarray_dim(lw: &mut Lowerer, arg: u32, axis: u32) -> Value {
    lw.cached(Cached::NdarrayDim(arg, axis), |lw| {
        emit::ndarray_dim(lw, arg, axis)
    })
}

fn extent_value(lw: &mut Lowerer, e: Extent) -> Value {
    match e {
        Extent::Static(n) => lw.const_i64(n),
        Extent::Ndarray { arg, axis } => ndarray_dim(lw, arg, axis),
    }
}

/// A linear offset being built: constant while every part is.
#[derive(Copy, Clone)]
enum Lin {
    Const(i64),
    Val(Value),
}

impl Lin {
    fn value(self, lw: &mut Lowerer) -> Value {
        match self {
            Lin::Const(c) => lw.const_i64(c),
            Lin::Val(v) => v,
        }
    }
}

fn mul(lw: &mut Lowerer, a: Lin, b: Lin) -> Lin {
    match (a, b) {
        (Lin::Const(x), Lin::Const(y)) => Lin::Const(x.wrapping_mul(y)),
        (Lin::Const(0), _) | (_, Lin::Const(0)) => Lin::Const(0),
        (Lin::Const(1), v) | (v, Lin::Const(1)) => v,
        (a, b) => {
            let (a, b) = (a.value(lw), b.value(lw));
            Lin::Val(lw.arith(MULI, &[a, b]))
        }
    }
}

fn add(lw: &mut Lowerer, a: Lin, b: Lin) -> Lin {
    match (a, b) {
        (Lin::Const(x), Lin::Const(y)) => Lin::Const(x.wrapping_add(y)),
        (Lin::Const(0), v) | (v, Lin::Const(0)) => v,
        (a, b) => {
            let (a, b) = (a.value(lw), b.value(lw));
            Lin::Val(lw.arith(ADDI, &[a, b]))
        }
    }
}

/// The pointer to element `indices` (qd values) of the buffer `base` of shape `extents`, with
/// the bounds checks it needs.
pub fn element(
    lw: &mut Lowerer,
    base: Value,
    indices: &[Value],
    extents: &[Extent],
    what: &str,
) -> R<Value> {
    let mut lin: Option<Lin> = None;
    for (axis, (&i, &e)) in indices.iter().zip(extents).enumerate() {
        let ix = checked_index(lw, i, e, &format!("{what} axis {axis}"))?;
        lin = Some(match lin {
            None => ix,
            Some(l) => {
                let d = match e {
                    Extent::Static(n) => Lin::Const(n),
                    e => Lin::Val(extent_value(lw, e)),
                };
                let scaled = mul(lw, l, d);
                add(lw, scaled, ix)
            }
        });
    }
    Ok(match lin {
        None | Some(Lin::Const(0)) => base,
        Some(l) => {
            let off = l.value(lw);
            emit::offset(lw, base, off)
        }
    })
}

/// Index `i` (a qd value) as i64, after a bounds check against `e` unless it is provably in
/// range.
fn checked_index(lw: &mut Lowerer, i: Value, e: Extent, what: &str) -> R<Lin> {
    let c = const_int(lw.ctx, i);
    if let (Some(c), Extent::Static(n)) = (c, e) {
        if (0..n).contains(&c) {
            return Ok(Lin::Const(c));
        }
    }
    let v = lw.get(i)?;
    let v = lw.widen_i64(v)?;
    if c.is_none() && in_range(lw, i, e) {
        return Ok(Lin::Val(v));
    }
    let n = extent_value(lw, e);
    emit::bounds_check(lw, v, n, what);
    Ok(Lin::Val(v))
}

/// A local array element index (qd value `i`) as i64, checked against `len`.
pub fn local_index(lw: &mut Lowerer, i: Value, len: i64, what: &str) -> R<Value> {
    match checked_index(lw, i, Extent::Static(len), what)? {
        Lin::Const(c) => Ok(lw.const_i64(c)),
        Lin::Val(v) => Ok(v),
    }
}

/// Whether qd value `i` is provably in `[0, e)` (see the module doc).
pub fn in_range(lw: &mut Lowerer, i: Value, e: Extent) -> bool {
    let ValueDef::BlockArg { block, index } = lw.ctx.value_def(i) else {
        return false;
    };
    let Some(owner) = lw.ctx.block_parent_op(block) else {
        return false;
    };
    match lw.ctx.name(owner) {
        STRUCT_FOR_OP => {
            let Extent::Static(n) = e else {
                return false;
            };
            let name = StructForOp(owner).field_name(lw.ctx).to_string();
            lookup_field(lw.ctx, owner, &name)
                .and_then(|f| f.shape(lw.ctx).get(index as usize).copied())
                .is_some_and(|d| d <= n)
        }
        RANGE_FOR_OP if index == 0 => {
            let r = RangeForOp(owner);
            let (lo, hi) = (r.lower(lw.ctx), r.upper(lw.ctx));
            if const_int(lw.ctx, lo).is_none_or(|c| c < 0) {
                return false;
            }
            match e {
                Extent::Static(n) => const_int(lw.ctx, hi).is_some_and(|c| c <= n),
                Extent::Ndarray { arg, axis } => {
                    let Some(shape) = lw
                        .ctx
                        .defining_op(hi)
                        .and_then(|o| NdarrayShapeOp::from_op(lw.ctx, o))
                    else {
                        return false;
                    };
                    let arr = shape.array(lw.ctx);
                    shape.axis(lw.ctx) == axis as usize
                        && ndarray_arg(lw, arr).is_ok_and(|a| a == arg)
                }
            }
        }
        _ => false,
    }
}
