//! Fields (`qd.load`, `qd.store`, `qd.atomic_*`) and ndarrays (`qd.ndarray_load`,
//! `qd.ndarray_store`, `qd.ndarray_shape`, `qd.ndarray_atomic_*`). Every index is checked
//! against the shape.

use crate::exec::{Compiler, Exec, Flow, Slot};
use crate::helpers::{flat_index, missing_ndarray, ndarray_element, out_of_bounds};
use crate::num::atomic_combine;
use qd_frontend::{
    AtomicOp, LoadOp, NdarrayAtomicOp, NdarrayLoadOp, NdarrayShapeOp, NdarrayStoreOp, StoreOp,
};
use qd_ir::{Context, Diagnostic, OpId, Value, ValueDef};
use qd_runtime::{NdarrayId, RuntimeErrorKind};

/// A field an op accesses, resolved at compile time.
struct FieldAccess {
    index: usize,
    /// `field @x`, for messages.
    what: String,
    shape: Vec<usize>,
}

fn field(c: &Compiler<'_>, op: OpId, name: &str) -> Result<FieldAccess, Diagnostic> {
    let Some(index) = c.memory().field_index(name) else {
        return Err(c.error(
            op,
            format!("'{}' refers to unknown field @{name}", c.ctx().name(op)),
        ));
    };
    Ok(FieldAccess {
        index,
        what: format!("field @{name}"),
        shape: c.memory().field(index).info.shape.clone(),
    })
}

fn slots(c: &mut Compiler<'_>, vs: Vec<Value>) -> Vec<Slot> {
    vs.into_iter().map(|v| c.slot(v)).collect()
}

pub(super) fn load(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let l = LoadOp(op);
    let fa = field(c, op, l.field_name(ctx))?;
    let idx = slots(c, l.indices(ctx));
    let r = c.slot(l.result(ctx));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let Some(i) = flat_index(f, &idx, &fa.shape) else {
            return Err(out_of_bounds(f, loc, &idx, &fa.what, &fa.shape));
        };
        let v = f.mem.field(fa.index).value.load_bits(i);
        f.set(r, v);
        Ok(Flow::Next)
    }))
}

pub(super) fn store(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let s = StoreOp(op);
    let fa = field(c, op, s.field_name(ctx))?;
    let idx = slots(c, s.indices(ctx));
    let v = c.slot(s.value(ctx));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let Some(i) = flat_index(f, &idx, &fa.shape) else {
            return Err(out_of_bounds(f, loc, &idx, &fa.what, &fa.shape));
        };
        let bits = f.get(v);
        f.mem.field_mut(fa.index).value.store_bits(i, bits);
        Ok(Flow::Next)
    }))
}

/// `qd.atomic_add/min/max`: integers wrap (add) and compare by their signedness (min/max, signed
/// unless the field is `ui*`); floats add in their precision and take IEEE minNum/maxNum (a NaN
/// operand loses to a number).
pub(super) fn atomic(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let a = AtomicOp(op);
    let kind = c.kind(op, ctx.value_type(a.value(ctx)))?;
    atomic_exec(c, op, atomic_combine(kind, a.kind(ctx)))
}

/// Applies `combine(old, value)` to one field element; returns the old value.
fn atomic_exec<F>(c: &mut Compiler<'_>, op: OpId, combine: F) -> Result<Exec, Diagnostic>
where
    F: Fn(u64, u64) -> u64 + 'static,
{
    let ctx = c.ctx();
    let a = AtomicOp(op);
    let fa = field(c, op, a.field_name(ctx))?;
    let idx = slots(c, a.indices(ctx));
    let v = c.slot(a.value(ctx));
    let old = a.old_value(ctx).map(|r| c.slot(r));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let Some(i) = flat_index(f, &idx, &fa.shape) else {
            return Err(out_of_bounds(f, loc, &idx, &fa.what, &fa.shape));
        };
        let value = f.get(v);
        let storage = &mut f.mem.field_mut(fa.index).value;
        let prev = storage.load_bits(i);
        storage.store_bits(i, combine(prev, value));
        if let Some(r) = old {
            f.set(r, prev);
        }
        Ok(Flow::Next)
    }))
}

/// Describes the ndarray kernel argument `v` for messages: `ndarray argument 0`.
fn ndarray_what(ctx: &Context, v: Value) -> String {
    match ctx.value_def(v) {
        ValueDef::BlockArg { index, .. } => format!("ndarray argument {index}"),
        ValueDef::OpResult { .. } => "ndarray".to_string(),
    }
}

pub(super) fn ndarray_load(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let l = NdarrayLoadOp(op);
    let what = ndarray_what(ctx, l.array(ctx));
    let arr = c.slot(l.array(ctx));
    let idx = slots(c, l.indices(ctx));
    let r = c.slot(l.result(ctx));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let (id, i) = ndarray_element(f, arr, &idx, loc, &what)?;
        // ndarray_element has found the handle; the lookup cannot fail here.
        let v = f.mem.ndarray(id).map_or(0, |nd| nd.data().load_bits(i));
        f.set(r, v);
        Ok(Flow::Next)
    }))
}

pub(super) fn ndarray_store(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let s = NdarrayStoreOp(op);
    let what = ndarray_what(ctx, s.array(ctx));
    let arr = c.slot(s.array(ctx));
    let idx = slots(c, s.indices(ctx));
    let v = c.slot(s.value(ctx));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let (id, i) = ndarray_element(f, arr, &idx, loc, &what)?;
        let bits = f.get(v);
        if let Some(nd) = f.mem.ndarray_mut(id) {
            nd.data_mut().store_bits(i, bits);
        }
        Ok(Flow::Next)
    }))
}

/// `qd.ndarray_atomic_add/sub/min/max`, with the field atomics' arithmetic (sub wraps for
/// integers and subtracts in the element's precision for floats).
pub(super) fn ndarray_atomic(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let a = NdarrayAtomicOp(op);
    let combine = atomic_combine(c.kind(op, ctx.value_type(a.value(ctx)))?, a.kind(ctx));
    let what = ndarray_what(ctx, a.array(ctx));
    let arr = c.slot(a.array(ctx));
    let idx = slots(c, a.indices(ctx));
    let v = c.slot(a.value(ctx));
    let old = a.old_value(ctx).map(|r| c.slot(r));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let (id, i) = ndarray_element(f, arr, &idx, loc, &what)?;
        let value = f.get(v);
        // ndarray_element has found the handle; the lookup cannot fail here.
        let Some(nd) = f.mem.ndarray_mut(id) else {
            return Ok(Flow::Next);
        };
        let prev = nd.data().load_bits(i);
        nd.data_mut().store_bits(i, combine(prev, value));
        if let Some(r) = old {
            f.set(r, prev);
        }
        Ok(Flow::Next)
    }))
}

pub(super) fn ndarray_shape(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let s = NdarrayShapeOp(op);
    let arr = c.slot(s.array(ctx));
    let axis = s.axis(ctx);
    let r = c.slot(s.result(ctx));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let id = NdarrayId(f.get(arr) as u32);
        let Some(nd) = f.mem.ndarray(id) else {
            return Err(missing_ndarray(f, loc, id));
        };
        let Some(&d) = nd.shape().get(axis) else {
            let rank = nd.rank();
            return Err(f.error(
                loc,
                RuntimeErrorKind::OutOfBounds,
                format!("axis {axis} is out of range for an ndarray of rank {rank}"),
            ));
        };
        // Extents fit i32 (Ndarray guarantees it); the result is an i32.
        f.set(r, d as i64 as u64);
        Ok(Flow::Next)
    }))
}
