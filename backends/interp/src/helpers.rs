//! Building blocks for dialect interpreters: operand/result registers and closures for
//! elementwise integer and float ops (monomorphized per operation, so the arithmetic inlines).

use crate::exec::{Compiler, Exec, Flow, Frame, Slot};
use crate::num::{Float, Kind};
use qd_ir::{Diagnostic, Location, OpId};
use qd_runtime::{NdarrayId, RuntimeError, RuntimeErrorKind};

/// Registers of operand 0 and result 0.
pub fn unary_slots(c: &mut Compiler<'_>, op: OpId) -> (Slot, Slot) {
    let ctx = c.ctx();
    (c.slot(ctx.operand(op, 0)), c.slot(ctx.result(op, 0)))
}

/// Registers of operands 0 and 1 and result 0.
pub fn binary_slots(c: &mut Compiler<'_>, op: OpId) -> (Slot, Slot, Slot) {
    let ctx = c.ctx();
    (
        c.slot(ctx.operand(op, 0)),
        c.slot(ctx.operand(op, 1)),
        c.slot(ctx.result(op, 0)),
    )
}

/// The kind of operand `i` of `op`.
pub fn operand_kind(c: &Compiler<'_>, op: OpId, i: usize) -> Result<Kind, Diagnostic> {
    let ctx = c.ctx();
    c.kind(op, ctx.value_type(ctx.operand(op, i)))
}

/// The kind of result `i` of `op`.
pub fn result_kind(c: &Compiler<'_>, op: OpId, i: usize) -> Result<Kind, Diagnostic> {
    let ctx = c.ctx();
    c.kind(op, ctx.value_type(ctx.result(op, i)))
}

/// The width of an integer result, or an error.
pub fn int_width(c: &Compiler<'_>, op: OpId) -> Result<u32, Diagnostic> {
    match result_kind(c, op, 0)? {
        Kind::Int { width, .. } => Ok(width),
        _ => Err(c.error(op, format!("'{}' expects integers", c.ctx().name(op)))),
    }
}

/// Whether a float result is f32 (true) or f64 (false), or an error.
pub fn is_f32(c: &Compiler<'_>, op: OpId) -> Result<bool, Diagnostic> {
    match result_kind(c, op, 0)? {
        Kind::F32 => Ok(true),
        Kind::F64 => Ok(false),
        _ => Err(c.error(op, format!("'{}' expects floats", c.ctx().name(op)))),
    }
}

/// The row-major position of the indices held in `idx` within `shape`, or None when one is out
/// of bounds. Indices are read as signed integers (canonical registers are sign-extended).
#[inline]
pub fn flat_index(f: &Frame<'_>, idx: &[Slot], shape: &[usize]) -> Option<usize> {
    let mut lin = 0usize;
    for (&s, &d) in idx.iter().zip(shape) {
        let i = f.get(s) as i64;
        if i < 0 || i as u64 >= d as u64 {
            return None;
        }
        lin = lin * d + i as usize;
    }
    Some(lin)
}

pub fn out_of_bounds(
    f: &Frame<'_>,
    loc: Location,
    idx: &[Slot],
    what: &str,
    shape: &[usize],
) -> Box<RuntimeError> {
    let values: Vec<i64> = idx.iter().map(|&s| f.get(s) as i64).collect();
    f.error(
        loc,
        RuntimeErrorKind::OutOfBounds,
        format!("index {values:?} is out of bounds for {what} of shape {shape:?}"),
    )
}

/// The ndarray named by the handle in register `arr` and the flat index of the element at `idx`,
/// or the located error: an unregistered handle, or an index out of bounds of `what`.
pub fn ndarray_element(
    f: &Frame<'_>,
    arr: Slot,
    idx: &[Slot],
    loc: Location,
    what: &str,
) -> Result<(NdarrayId, usize), Box<RuntimeError>> {
    let id = NdarrayId(f.get(arr) as u32);
    let Some(nd) = f.mem.ndarray(id) else {
        return Err(missing_ndarray(f, loc, id));
    };
    match flat_index(f, idx, nd.shape()) {
        Some(i) => Ok((id, i)),
        None => Err(out_of_bounds(f, loc, idx, what, nd.shape())),
    }
}

/// The error for a handle that names no ndarray of the program.
pub fn missing_ndarray(f: &Frame<'_>, loc: Location, id: NdarrayId) -> Box<RuntimeError> {
    f.error(
        loc,
        RuntimeErrorKind::Device,
        format!("ndarray handle {} is not registered", id.0),
    )
}

pub fn int_unary(x: Slot, d: Slot, op: impl Fn(u64) -> u64 + 'static) -> Exec {
    Box::new(move |f| {
        let r = op(f.get(x));
        f.set(d, r);
        Ok(Flow::Next)
    })
}

pub fn int_binary(x: Slot, y: Slot, d: Slot, op: impl Fn(u64, u64) -> u64 + 'static) -> Exec {
    Box::new(move |f| {
        let r = op(f.get(x), f.get(y));
        f.set(d, r);
        Ok(Flow::Next)
    })
}

/// A binary integer op that can fail (division by zero, oversized shift): the error is located
/// at `loc`.
pub fn int_binary_checked(
    x: Slot,
    y: Slot,
    d: Slot,
    loc: Location,
    op: impl Fn(u64, u64) -> Result<u64, (RuntimeErrorKind, String)> + 'static,
) -> Exec {
    Box::new(move |f| match op(f.get(x), f.get(y)) {
        Ok(r) => {
            f.set(d, r);
            Ok(Flow::Next)
        }
        Err((kind, msg)) => Err(f.error(loc, kind, msg)),
    })
}

pub fn float_unary<T: Float>(x: Slot, d: Slot, op: impl Fn(T) -> T + 'static) -> Exec {
    Box::new(move |f| {
        let r = op(T::from_bits64(f.get(x)));
        f.set(d, r.to_bits64());
        Ok(Flow::Next)
    })
}

pub fn float_binary<T: Float>(x: Slot, y: Slot, d: Slot, op: impl Fn(T, T) -> T + 'static) -> Exec {
    Box::new(move |f| {
        let r = op(T::from_bits64(f.get(x)), T::from_bits64(f.get(y)));
        f.set(d, r.to_bits64());
        Ok(Flow::Next)
    })
}

pub fn float_ternary<T: Float>(
    x: Slot,
    y: Slot,
    z: Slot,
    d: Slot,
    op: impl Fn(T, T, T) -> T + 'static,
) -> Exec {
    Box::new(move |f| {
        let r = op(
            T::from_bits64(f.get(x)),
            T::from_bits64(f.get(y)),
            T::from_bits64(f.get(z)),
        );
        f.set(d, r.to_bits64());
        Ok(Flow::Next)
    })
}

/// `float_un!(c, op, |a| expr)`: a unary float op computed in the result's precision (the
/// expression is instantiated once for f32 and once for f64).
#[macro_export]
macro_rules! float_un {
    ($c:expr, $op:expr, |$a:ident| $e:expr) => {{
        let (x, d) = $crate::helpers::unary_slots($c, $op);
        if $crate::helpers::is_f32($c, $op)? {
            $crate::helpers::float_unary::<f32>(x, d, |$a| $e)
        } else {
            $crate::helpers::float_unary::<f64>(x, d, |$a| $e)
        }
    }};
}

/// `float_bin!(c, op, |a, b| expr)`: a binary float op computed in the result's precision.
#[macro_export]
macro_rules! float_bin {
    ($c:expr, $op:expr, |$a:ident, $b:ident| $e:expr) => {{
        let (x, y, d) = $crate::helpers::binary_slots($c, $op);
        if $crate::helpers::is_f32($c, $op)? {
            $crate::helpers::float_binary::<f32>(x, y, d, |$a, $b| $e)
        } else {
            $crate::helpers::float_binary::<f64>(x, y, d, |$a, $b| $e)
        }
    }};
}
