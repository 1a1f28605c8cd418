//! Element addresses of fields and ndarrays: a pointer to the buffer (once per task), one
//! `lowered.bounds_check` over all the indices of the access unless every one is provably in
//! range (see `facts`) or the pass's `check-bounds` is off, and the row-major
//! offset `((i0 * d1) + i1) * d2 + i2` in i64. Elements of type `i1` live as `i8`.

use super::emit::{Em, InvKey, R};
use crate::facts::{Extent, IndexFact};
use qd_arith::names::{ADDI, EXTUI, MULI, TRUNCI};
use qd_frontend::NdarrayType;
use qd_ir::{Attribute, Ident, OpId, OperationState, Type, Value, ValueDef};
use qd_lowered::types::pointee;
use qd_lowered::{
    BoundsCheckOp, FieldPtrOp, LoadOp, NdarrayDimOp, NdarrayPtrOp, OffsetOp, KERNEL_OP,
};

/// Loads an element of type `elem` through `p` (a pointer to its stored type).
pub fn load_elem(em: &mut Em, p: Value, elem: Type) -> Value {
    let loc = em.loc;
    let v = em.b(|b| LoadOp::build(b, p, loc).result(b.ctx));
    if em.ctx().value_type(v) == elem {
        v
    } else {
        em.cast(TRUNCI, v, elem)
    }
}

/// `v` as stored through `p` (widened when the element is `i1`).
pub fn stored_value(em: &mut Em, v: Value, p: Value) -> Value {
    let pty = em.ctx().value_type(p);
    let Some(st) = pointee(em.ctx(), pty) else {
        return v;
    };
    if em.ctx().value_type(v) == st {
        v
    } else {
        em.cast(EXTUI, v, st)
    }
}

/// What a bounds check's message calls the array: made into text only when a check is emitted
/// (most accesses need none).
#[derive(Copy, Clone, Debug)]
pub enum What {
    /// `field @x`, or `field @x.grad` for its adjoint.
    Field { name: Ident, grad: bool },
    /// `ndarray argument N`, or `adjoint ndarray argument N`, as the interpreter names them.
    Ndarray { arg: u32, adjoint: bool },
    /// `local array '<its type>'`.
    LocalArray(Type),
}

impl What {
    fn text(self, em: &Em) -> String {
        match self {
            What::Field { name, grad } => {
                let n = em.ctx().ident_str(name);
                if grad {
                    format!("field @{n}.grad")
                } else {
                    format!("field @{n}")
                }
            }
            What::Ndarray { arg, adjoint } => {
                let prefix = if adjoint {
                    "adjoint ndarray"
                } else {
                    "ndarray"
                };
                format!("{prefix} argument {arg}")
            }
            What::LocalArray(ty) => format!("local array '{}'", em.type_str(ty)),
        }
    }
}

/// The field an access op names: its name, declaration (`qd.field` op), shape and element type.
pub struct FieldInfo {
    pub name: Ident,
    /// The access's own `@name` attribute, when flat (what `lowered.field_ptr` holds).
    pub sym: Option<Attribute>,
    pub decl: OpId,
    pub shape: Vec<i64>,
    pub elem: Type,
}

/// The field `op` names (an error when it names no field).
pub fn field_info(em: &Em, op: OpId) -> R<FieldInfo> {
    let ctx = em.ctx();
    let name = em.facts.field_sym(ctx, op);
    match name.and_then(|n| em.facts.field(ctx, op, n).map(|f| (n, f))) {
        Some((name, f)) => {
            let ty = f.field_type(ctx);
            Ok(FieldInfo {
                name,
                sym: em.facts.flat_field_ref(ctx, op),
                decl: f.0,
                shape: ty.shape(ctx),
                elem: ty.elem(ctx),
            })
        }
        None => Err(em.error(format!(
            "'{}' refers to unknown field @{}",
            ctx.name(op),
            name.map_or("", |n| ctx.ident_str(n))
        ))),
    }
}

/// A field element: `(pointer to it, element type)`; `grad` addresses the adjoint buffer.
/// `indices` are the access's (converted) index operands. The field's declaration (one per
/// name) stands for the name in what is remembered.
pub fn field_element(
    em: &mut Em,
    field: &FieldInfo,
    grad: bool,
    indices: &[Value],
) -> R<(Value, Type)> {
    let (name, shape, elem) = (field.name, &field.shape, field.elem);
    if indices.len() != shape.len() {
        return Err(em.internal(format!(
            "field @{} of rank {} accessed with {} indices",
            em.ctx().ident_str(name),
            shape.len(),
            indices.len()
        )));
    }
    let loc = em.loc;
    let stored = em.stored_ptr(elem);
    let key = InvKey::FieldPtr {
        decl: field.decl,
        grad,
        ty: stored,
    };
    let sym = field.sym;
    let base = em.remembered(key, |b| match sym {
        // The attribute FieldPtrOp::build would make of the name, without interning it.
        Some(sym) => {
            let mut st = OperationState::new(FieldPtrOp::NAME, loc).results(&[stored]);
            st.add_prop(b.ctx, "field", sym);
            if grad {
                let unit = b.ctx.unit_attr();
                st.add_prop(b.ctx, "grad", unit);
            }
            b.insert(st)
        }
        None => {
            let n = b.ctx.ident_str(name).to_string();
            FieldPtrOp::build(b, stored, &n, grad.then_some(()), loc).0
        }
    });
    let extents: Vec<Extent> = shape.iter().map(|&d| Extent::Static(d)).collect();
    let p = element(em, base, indices, &extents, What::Field { name, grad }, 0)?;
    Ok((p, elem))
}

/// The kernel argument index of a (converted) ndarray operand: a block argument of the lowered
/// kernel.
pub fn ndarray_arg(em: &Em, arr: Value) -> R<u32> {
    let ctx = em.ctx();
    match ctx.value_def(arr) {
        ValueDef::BlockArg { block, index }
            if ctx
                .block_parent_op(block)
                .is_some_and(|k| ctx.name(k) == KERNEL_OP) =>
        {
            Ok(index)
        }
        _ => Err(em.error("cannot lower an ndarray that is not a kernel argument")),
    }
}

/// An ndarray element: `(pointer to it, element type)`; `adjoint`: the array is an adjoint
/// (as bounds-check messages name it).
pub fn ndarray_element(
    em: &mut Em,
    arr: Value,
    indices: &[Value],
    adjoint: bool,
) -> R<(Value, Type)> {
    let arg = ndarray_arg(em, arr)?;
    let ty = em.ctx().value_type(arr);
    let Some(nd) = NdarrayType::from_type(em.ctx(), ty) else {
        return Err(em.internal("expected an !qd.ndarray"));
    };
    let (rank, elem) = (nd.rank(em.ctx()), nd.elem(em.ctx()));
    if indices.len() != rank {
        return Err(em.internal(format!(
            "ndarray of rank {rank} accessed with {} indices",
            indices.len()
        )));
    }
    let loc = em.loc;
    let pty = em.stored_ptr(elem);
    let base = em.remembered(InvKey::NdarrayPtr { arg, ty: pty }, |b| {
        NdarrayPtrOp::build(b, pty, arg, loc).0
    });
    let extents: Vec<Extent> = (0..rank as u32)
        .map(|axis| Extent::Ndarray { arg, axis })
        .collect();
    let p = element(
        em,
        base,
        indices,
        &extents,
        What::Ndarray { arg, adjoint },
        0,
    )?;
    Ok((p, elem))
}

/// `lowered.ndarray_dim arg, axis`, once per task.
pub fn ndarray_dim(em: &mut Em, arg: u32, axis: u32) -> Value {
    let loc = em.loc;
    let t = em.i64_type();
    em.remembered(InvKey::NdarrayDim { arg, axis }, |b| {
        NdarrayDimOp::build(b, t, arg, axis, loc).0
    })
}

fn extent_value(em: &mut Em, e: Extent) -> Value {
    match e {
        Extent::Static(n) => em.const_i64(n),
        Extent::Ndarray { arg, axis } => ndarray_dim(em, arg, axis),
    }
}

/// A linear offset being built: constant while every part is.
#[derive(Copy, Clone)]
enum Lin {
    Const(i64),
    Val(Value),
}

impl Lin {
    fn value(self, em: &mut Em) -> Value {
        match self {
            Lin::Const(c) => em.const_i64(c),
            Lin::Val(v) => v,
        }
    }
}

fn mul(em: &mut Em, a: Lin, b: Lin) -> Lin {
    match (a, b) {
        (Lin::Const(x), Lin::Const(y)) => Lin::Const(x.wrapping_mul(y)),
        (Lin::Const(0), _) | (_, Lin::Const(0)) => Lin::Const(0),
        (Lin::Const(1), v) | (v, Lin::Const(1)) => v,
        (a, b) => {
            let (a, b) = (a.value(em), b.value(em));
            Lin::Val(em.arith(MULI, &[a, b]))
        }
    }
}

fn add(em: &mut Em, a: Lin, b: Lin) -> Lin {
    match (a, b) {
        (Lin::Const(x), Lin::Const(y)) => Lin::Const(x.wrapping_add(y)),
        (Lin::Const(0), v) | (v, Lin::Const(0)) => v,
        (a, b) => {
            let (a, b) = (a.value(em), b.value(em));
            Lin::Val(em.arith(ADDI, &[a, b]))
        }
    }
}

/// The pointer to element `indices` of the buffer `base` of shape `extents`, after the bounds
/// check it needs; the indices are facts `first`, `first + 1`, ... of the op being converted.
pub fn element(
    em: &mut Em,
    base: Value,
    indices: &[Value],
    extents: &[Extent],
    what: What,
    first: usize,
) -> R<Value> {
    let ixs = checked_indices(em, first, indices, extents, what, false)?;
    let mut lin: Option<Lin> = None;
    for (ix, &e) in ixs.into_iter().zip(extents) {
        lin = Some(match lin {
            None => ix,
            Some(l) => {
                let d = match e {
                    Extent::Static(n) => Lin::Const(n),
                    e => Lin::Val(extent_value(em, e)),
                };
                let scaled = mul(em, l, d);
                add(em, scaled, ix)
            }
        });
    }
    let loc = em.loc;
    Ok(match lin {
        None | Some(Lin::Const(0)) => base,
        Some(l) => {
            let off = l.value(em);
            em.b(|b| OffsetOp::build(b, base, off, loc).result(b.ctx))
        }
    })
}

/// Whether index fact `fact` keeps the index inside `e`.
fn provably_in_range(fact: Option<IndexFact>, e: Extent) -> bool {
    match (fact, e) {
        (Some(IndexFact::InRange), _) => true,
        (Some(IndexFact::Const(c)), Extent::Static(n)) => (0..n).contains(&c),
        _ => false,
    }
}

/// The indices (facts `first`, `first + 1`, ... of the op) as i64, after ONE bounds check over
/// all of them and their extents, as the qd interpreter checks an access (its message names
/// every index and the whole shape, so in-range constants are checked too), unless every index
/// is provably in range. `local`: a local array's check (one index, the length form). Without
/// the pass's `check-bounds`, only local arrays are checked (see `convert_qd_to_lowered`).
fn checked_indices(
    em: &mut Em,
    first: usize,
    indices: &[Value],
    extents: &[Extent],
    what: What,
    local: bool,
) -> R<Vec<Lin>> {
    let fact = |em: &Em, k: usize| em.facts.index(em.op, first + k);
    let checked = (local || em.options.check_bounds)
        && !(0..indices.len())
            .zip(extents)
            .all(|(k, &e)| provably_in_range(fact(em, k), e));
    let mut lins = Vec::with_capacity(indices.len());
    let mut values = Vec::new();
    for (k, (&i, &e)) in indices.iter().zip(extents).enumerate() {
        let f = fact(em, k);
        // A constant outside a static extent (or against a dynamic one) is widened like any
        // index, so that the message prints exactly the extended value.
        let lin = match (f, e) {
            (Some(IndexFact::Const(c)), Extent::Static(n)) if (0..n).contains(&c) => Lin::Const(c),
            _ => Lin::Val(em.widen_i64(i)?),
        };
        if checked {
            values.push(lin.value(em));
        }
        lins.push(lin);
    }
    if checked {
        let ns: Vec<Value> = extents.iter().map(|&e| extent_value(em, e)).collect();
        let loc = em.loc;
        let what = what.text(em);
        em.b(|b| BoundsCheckOp::build(b, &values, &ns, &what, local, loc));
    }
    Ok(lins)
}

/// A local array element index (fact `k` of the op) as i64, checked against `len`.
pub fn local_index(em: &mut Em, k: usize, i: Value, len: i64, what: What) -> R<Value> {
    let ix = checked_indices(em, k, &[i], &[Extent::Static(len)], what, true)?;
    Ok(ix[0].value(em))
}
