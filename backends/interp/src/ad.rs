//! The interpreter of the ad dialect: adjoint access to fields (`x.grad`, owned by the runtime
//! for every `needs_grad` field) and to the adjoint ndarray arguments of gradient kernels.
//!
//! - `ad.load_field_adjoint` reads x.grad[i]; `ad.store_field_adjoint` writes it;
//!   `ad.acc_field_adjoint` adds to it (threads run one after another, so the add is atomic).
//! - `ad.acc_ndarray_adjoint` adds to an element of an ndarray argument.
//! - Adds happen in the element's precision. Every index is checked, as qd's accesses are.
//! - `ad.load_element` / `ad.store_element` read and write one scalar of a local aggregate,
//!   exactly as the `qd.elem_ptr`/`qd.member_ptr` chain of their path followed by
//!   `qd.local_load`/`qd.local_store` would (same layout, same bounds checks and messages).
//! - `ad.reverse` is a module-level declaration: it never reaches a kernel body.

use crate::exec::{Compiler, DialectInterpreter, Exec, Flow, Slot};
use crate::helpers::{flat_index, ndarray_element, out_of_bounds};
use crate::num::{Float, Kind};
use qd_ad::{
    element_access, AccNdarrayAdjointOp, FieldAdjointWriteOp, LoadFieldAdjointOp, PathIndex,
    ACC_FIELD_ADJOINT_OP, ACC_NDARRAY_ADJOINT_OP, LOAD_ELEMENT_OP, LOAD_FIELD_ADJOINT_OP,
    STORE_ELEMENT_OP, STORE_FIELD_ADJOINT_OP,
};
use qd_frontend::{pointee_of, ArrayType, StructType};
use qd_ir::{Diagnostic, OpId, Value, ValueDef};
use qd_runtime::RuntimeErrorKind;

/// Runs `ad.*` ops.
#[derive(Default)]
pub struct AdInterpreter;

impl DialectInterpreter for AdInterpreter {
    fn dialect(&self) -> &'static str {
        "ad"
    }

    fn compile(&self, c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
        match c.ctx().name(op) {
            LOAD_FIELD_ADJOINT_OP => load_field(c, op),
            ACC_FIELD_ADJOINT_OP | STORE_FIELD_ADJOINT_OP => write_field(c, op),
            ACC_NDARRAY_ADJOINT_OP => acc_ndarray(c, op),
            LOAD_ELEMENT_OP | STORE_ELEMENT_OP => element(c, op),
            _ => Err(c.unsupported(op)),
        }
    }
}

/// The adjoint storage of field `name`, resolved at compile time: (field index, `x.grad` for
/// messages, shape).
fn adjoint_field(
    c: &Compiler<'_>,
    op: OpId,
    name: &str,
) -> Result<(usize, String, Vec<usize>), Diagnostic> {
    let mem = c.memory();
    let Some(index) = mem.field_index(name) else {
        return Err(c.error(
            op,
            format!("'{}' refers to unknown field @{name}", c.ctx().name(op)),
        ));
    };
    if mem.field(index).grad.is_none() {
        return Err(c.error(
            op,
            format!("field @{name} has no adjoint: it is not needs_grad"),
        ));
    }
    let shape = mem.field(index).info.shape.clone();
    Ok((index, format!("field @{name}.grad"), shape))
}

fn slots(c: &mut Compiler<'_>, vs: Vec<Value>) -> Vec<Slot> {
    vs.into_iter().map(|v| c.slot(v)).collect()
}

fn load_field(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let l = LoadFieldAdjointOp(op);
    let (index, what, shape) = adjoint_field(c, op, l.field_name(ctx))?;
    let idx = slots(c, l.indices(ctx));
    let r = c.slot(l.result(ctx));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let Some(i) = flat_index(f, &idx, &shape) else {
            return Err(out_of_bounds(f, loc, &idx, &what, &shape));
        };
        let v = f
            .mem
            .field(index)
            .grad
            .as_ref()
            .map_or(0, |g| g.load_bits(i));
        f.set(r, v);
        Ok(Flow::Next)
    }))
}

/// `combine(old, value)` of one element's bits: an add in the value's precision, or a store.
fn combiner(
    c: &Compiler<'_>,
    op: OpId,
    v: Value,
    accumulate: bool,
) -> Result<fn(u64, u64) -> u64, Diagnostic> {
    fn add<T: Float>(a: u64, b: u64) -> u64 {
        (T::from_bits64(a) + T::from_bits64(b)).to_bits64()
    }
    fn store(_: u64, b: u64) -> u64 {
        b
    }
    if !accumulate {
        return Ok(store);
    }
    match c.kind(op, c.ctx().value_type(v))? {
        Kind::F32 => Ok(add::<f32>),
        Kind::F64 => Ok(add::<f64>),
        Kind::Int { .. } => Err(c.error(op, "adjoints are floats")),
    }
}

fn write_field(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let w = FieldAdjointWriteOp(op);
    let (index, what, shape) = adjoint_field(c, op, w.field_name(ctx))?;
    let combine = combiner(c, op, w.value(ctx), w.is_accumulate(ctx))?;
    let idx = slots(c, w.indices(ctx));
    let v = c.slot(w.value(ctx));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let Some(i) = flat_index(f, &idx, &shape) else {
            return Err(out_of_bounds(f, loc, &idx, &what, &shape));
        };
        let bits = f.get(v);
        if let Some(g) = f.mem.field_mut(index).grad.as_mut() {
            let old = g.load_bits(i);
            g.store_bits(i, combine(old, bits));
        }
        Ok(Flow::Next)
    }))
}

fn acc_ndarray(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let a = AccNdarrayAdjointOp(op);
    let combine = combiner(c, op, a.value(ctx), true)?;
    let what = match ctx.value_def(a.array(ctx)) {
        ValueDef::BlockArg { index, .. } => format!("adjoint ndarray argument {index}"),
        ValueDef::OpResult { .. } => "adjoint ndarray".to_string(),
    };
    let arr = c.slot(a.array(ctx));
    let idx = slots(c, a.indices(ctx));
    let v = c.slot(a.value(ctx));
    let loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let (id, i) = ndarray_element(f, arr, &idx, loc, &what)?;
        let bits = f.get(v);
        if let Some(nd) = f.mem.ndarray_mut(id) {
            let old = nd.data().load_bits(i);
            nd.data_mut().store_bits(i, combine(old, bits));
        }
        Ok(Flow::Next)
    }))
}

/// One dynamic level of an element path: the index register, the array's length and text (for
/// messages), and the element's stride in cells.
struct DynLevel {
    index: Slot,
    len: i64,
    stride: u64,
    ty_text: String,
}

/// The layout of an element path: a constant cell offset plus the dynamic levels.
fn element_layout(
    c: &mut Compiler<'_>,
    op: OpId,
) -> Result<(Slot, u64, Vec<DynLevel>), Diagnostic> {
    let Some((base, path)) = element_access(c.ctx(), op) else {
        return Err(c.error(op, format!("'{}' has too few operands", c.ctx().name(op))));
    };
    let mut ty = pointee_of(c.ctx(), base);
    let mut offset = 0u64;
    let mut dynamic = Vec::new();
    let bad = |c: &Compiler<'_>| c.error(op, "the element path does not fit the local's type");
    for p in path {
        let ctx = c.ctx();
        if let Some(a) = ArrayType::from_type(ctx, ty) {
            let (elem, len) = (a.elem(ctx), a.len(ctx));
            let stride = crate::qd::local_cells(ctx, elem).ok_or_else(|| bad(c))? as u64;
            match p {
                PathIndex::Const(k) if (0..len).contains(&k) => offset += k as u64 * stride,
                PathIndex::Const(_) => return Err(bad(c)),
                PathIndex::Value(v) => {
                    let ty_text = qd_ir::text::type_to_string(ctx, ty);
                    let index = c.slot(v);
                    dynamic.push(DynLevel {
                        index,
                        len,
                        stride,
                        ty_text,
                    });
                }
            }
            ty = elem;
        } else if let Some(s) = StructType::from_type(ctx, ty) {
            let PathIndex::Const(k) = p else {
                return Err(bad(c));
            };
            let members = s.members(ctx);
            let k = usize::try_from(k)
                .ok()
                .filter(|&k| k < members.len())
                .ok_or_else(|| bad(c))?;
            for &m in &members[..k] {
                offset += crate::qd::local_cells(ctx, m).ok_or_else(|| bad(c))? as u64;
            }
            ty = members[k];
        } else {
            return Err(bad(c));
        }
    }
    let base = c.slot(base);
    Ok((base, offset, dynamic))
}

/// `ad.load_element` / `ad.store_element`: the cell of the path, then a load or a store.
fn element(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let (base, offset, dynamic) = element_layout(c, op)?;
    let loc = c.ctx().loc(op);
    let cell =
        move |f: &mut crate::exec::Frame<'_>| -> Result<usize, Box<qd_runtime::RuntimeError>> {
            let mut p = f.get(base) + offset;
            for d in &dynamic {
                let k = f.get(d.index) as i64;
                if k < 0 || k >= d.len {
                    return Err(f.error(
                        loc,
                        RuntimeErrorKind::OutOfBounds,
                        format!(
                            "index {k} is out of bounds for local array '{}' of length {}",
                            d.ty_text, d.len
                        ),
                    ));
                }
                p += k as u64 * d.stride;
            }
            Ok(p as usize)
        };
    if c.ctx().name(op) == LOAD_ELEMENT_OP {
        let r = c.slot(c.ctx().result(op, 0));
        Ok(Box::new(move |f| {
            let i = cell(f)?;
            let v = f.locals[i];
            f.set(r, v);
            Ok(Flow::Next)
        }))
    } else {
        let v = c.slot(c.ctx().operand(op, 0));
        Ok(Box::new(move |f| {
            let i = cell(f)?;
            f.locals[i] = f.get(v);
            Ok(Flow::Next)
        }))
    }
}
