//! Field access: `qd.load`, `qd.store`, `qd.atomic_add`, `qd.atomic_min`, `qd.atomic_max`.
//!
//! ```text
//! %v = qd.load @x[%i, %j] : f32         // one i32 index per field dimension; `@y[]` for a scalar
//! qd.store %v, @x[%i] : f32
//! qd.atomic_add %v, @y[] : f32          // no result: the example kernels' form
//! %old = qd.atomic_max %v, @m[%i] : i32 // with a result: the value before the update
//! ```
//!
//! The type after `:` is the field's element type. An index out of bounds, even a constant one,
//! is an error at run time (see [`crate::verify::check_indices`]). Atomics take integer (wider
//! than i1) or float elements.

use crate::constraints::{check_atomic_elem, same, INDEX};
use crate::types::FieldType;
use crate::verify::*;
use crate::{
    ATOMIC_ADD_OP, ATOMIC_MAX_OP, ATOMIC_MIN_OP, NDARRAY_ATOMIC_ADD_OP, NDARRAY_ATOMIC_MAX_OP,
    NDARRAY_ATOMIC_MIN_OP, NDARRAY_ATOMIC_SUB_OP,
};
use qd_ir::op_def::{constraint, prop};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{
    AttrData, Builder, Context, DiagResult, Location, OpId, OpInfo, OpTraits, Type, Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        LoadOp::op_info(),
        StoreOp::op_info(),
        AtomicAddOp::op_info(),
        AtomicMinOp::op_info(),
        AtomicMaxOp::op_info(),
    ]
}

qd_ir::declare_op! {
    /// `%r = qd.load @field[indices] : T`.
    pub struct LoadOp = "qd.load" {
        summary: "reads one element of a field",
        traits: [OpTraits::READ_ONLY],
        operands: [indices: variadic(INDEX)],
        results: [result: single(constraint::ANY)],
        properties: [field as field_name: required(prop::SymbolRef)],
        builder: create,
        format: "$field `[` $indices `]` attr-dict `:` type($result)",
        verify_symbol_uses: verify_load,
    }
}

qd_ir::declare_op! {
    /// `qd.store %v, @field[indices] : T`.
    pub struct StoreOp = "qd.store" {
        summary: "writes one element of a field",
        operands: [value: single(constraint::ANY), indices: variadic(INDEX)],
        properties: [field as field_name: required(prop::SymbolRef)],
        builder: create,
        format: "$value `,` $field `[` $indices `]` attr-dict `:` type($value)",
        verify_symbol_uses: verify_store,
    }
}

qd_ir::declare_op! {
    /// `[%old =] qd.atomic_add %v, @field[indices] : T`.
    pub struct AtomicAddOp = "qd.atomic_add" {
        summary: "atomically adds to one element of a field",
        operands: [value: single(constraint::ANY), indices: variadic(INDEX)],
        results: [old: optional(constraint::ANY) = same(value)],
        properties: [field as field_name: required(prop::SymbolRef)],
        format: "$value `,` $field `[` $indices `]` attr-dict `:` type($value)",
        verify_symbol_uses: verify_atomic,
    }
}

qd_ir::declare_op! {
    /// `[%old =] qd.atomic_min %v, @field[indices] : T`.
    pub struct AtomicMinOp = "qd.atomic_min" {
        summary: "atomically lowers one element of a field to a value",
        operands: [value: single(constraint::ANY), indices: variadic(INDEX)],
        results: [old: optional(constraint::ANY) = same(value)],
        properties: [field as field_name: required(prop::SymbolRef)],
        format: "$value `,` $field `[` $indices `]` attr-dict `:` type($value)",
        verify_symbol_uses: verify_atomic,
    }
}

qd_ir::declare_op! {
    /// `[%old =] qd.atomic_max %v, @field[indices] : T`.
    pub struct AtomicMaxOp = "qd.atomic_max" {
        summary: "atomically raises one element of a field to a value",
        operands: [value: single(constraint::ANY), indices: variadic(INDEX)],
        results: [old: optional(constraint::ANY) = same(value)],
        properties: [field as field_name: required(prop::SymbolRef)],
        format: "$value `,` $field `[` $indices `]` attr-dict `:` type($value)",
        verify_symbol_uses: verify_atomic,
    }
}

/// The symbol name of an op's `field` property ("" when missing).
pub fn field_name_of(ctx: &Context, op: OpId) -> &str {
    match ctx.prop(op, "field").map(|a| ctx.attr_data(a)) {
        Some(AttrData::SymbolRef { root, .. }) => ctx.ident_str(*root),
        _ => "",
    }
}

/// An atomic read-modify-write: `Add`, `Min` and `Max` exist on fields (`qd.atomic_*`) and
/// ndarrays (`qd.ndarray_atomic_*`); `Sub` on ndarrays only.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AtomicKind {
    Add,
    Sub,
    Min,
    Max,
}

impl AtomicKind {
    /// The field op of this kind (fields have no atomic sub).
    pub fn field_op_name(self) -> Option<&'static str> {
        match self {
            AtomicKind::Add => Some(ATOMIC_ADD_OP),
            AtomicKind::Sub => None,
            AtomicKind::Min => Some(ATOMIC_MIN_OP),
            AtomicKind::Max => Some(ATOMIC_MAX_OP),
        }
    }
    /// The kind of a field atomic op (`qd.atomic_*`), None for any other op name.
    pub fn from_op_name(name: &str) -> Option<Self> {
        match name {
            ATOMIC_ADD_OP => Some(AtomicKind::Add),
            ATOMIC_MIN_OP => Some(AtomicKind::Min),
            ATOMIC_MAX_OP => Some(AtomicKind::Max),
            _ => None,
        }
    }
    /// The ndarray op of this kind (`qd.ndarray_atomic_*`).
    pub fn ndarray_op_name(self) -> &'static str {
        match self {
            AtomicKind::Add => NDARRAY_ATOMIC_ADD_OP,
            AtomicKind::Sub => NDARRAY_ATOMIC_SUB_OP,
            AtomicKind::Min => NDARRAY_ATOMIC_MIN_OP,
            AtomicKind::Max => NDARRAY_ATOMIC_MAX_OP,
        }
    }
    /// The kind of an ndarray atomic op (`qd.ndarray_atomic_*`), None for any other op name.
    pub fn from_ndarray_op_name(name: &str) -> Option<Self> {
        match name {
            NDARRAY_ATOMIC_ADD_OP => Some(AtomicKind::Add),
            NDARRAY_ATOMIC_SUB_OP => Some(AtomicKind::Sub),
            NDARRAY_ATOMIC_MIN_OP => Some(AtomicKind::Min),
            NDARRAY_ATOMIC_MAX_OP => Some(AtomicKind::Max),
            _ => None,
        }
    }
}

impl LoadOp {
    /// Creates `%r = qd.load @field[indices] : elem`.
    pub fn build(
        b: &mut Builder,
        field: &str,
        indices: &[Value],
        elem: Type,
        loc: Location,
    ) -> Self {
        LoadOp::create(b, indices, elem, field, loc)
    }
}

impl StoreOp {
    /// Creates `qd.store value, @field[indices]`.
    pub fn build(
        b: &mut Builder,
        value: Value,
        field: &str,
        indices: &[Value],
        loc: Location,
    ) -> Self {
        StoreOp::create(b, value, indices, field, loc)
    }
}

/// A `qd.atomic_add` / `qd.atomic_min` / `qd.atomic_max` op: one wrapper for the three.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AtomicOp(pub OpId);

impl AtomicOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        AtomicKind::from_op_name(ctx.name(op)).map(|_| AtomicOp(op))
    }
    /// Creates `qd.atomic_<kind> value, @field[indices]`; with `with_result` it also returns the
    /// element's value before the update. Fields have no atomic sub: `AtomicKind::Sub` is a
    /// caller's bug (negate the value and add).
    pub fn build(
        b: &mut Builder,
        kind: AtomicKind,
        value: Value,
        field: &str,
        indices: &[Value],
        with_result: bool,
        loc: Location,
    ) -> Self {
        let op = match kind {
            AtomicKind::Add => AtomicAddOp::build(b, value, indices, with_result, field, loc).0,
            AtomicKind::Min => AtomicMinOp::build(b, value, indices, with_result, field, loc).0,
            AtomicKind::Max => AtomicMaxOp::build(b, value, indices, with_result, field, loc).0,
            AtomicKind::Sub => panic!("qd has no field atomic sub; add the negated value"),
        };
        AtomicOp(op)
    }
    pub fn kind(self, ctx: &Context) -> AtomicKind {
        AtomicKind::from_op_name(ctx.name(self.0)).expect("not an atomic op")
    }
    pub fn field_name(self, ctx: &Context) -> &str {
        AtomicAddOp(self.0).field_name(ctx)
    }
    pub fn value(self, ctx: &Context) -> Value {
        AtomicAddOp(self.0).value(ctx)
    }
    pub fn indices(self, ctx: &Context) -> Vec<Value> {
        AtomicAddOp(self.0).indices(ctx)
    }
    /// The element's old value, when the op returns it.
    pub fn old_value(self, ctx: &Context) -> Option<Value> {
        AtomicAddOp(self.0).old(ctx)
    }
}

/// Checks the field reference, the index count and the index types; returns the field type
/// (None when the symbol does not resolve, which the IR verifier reports).
fn check_access(
    ctx: &Context,
    op: OpId,
    indices: &[Value],
    symbols: &mut SymbolTableCollection,
) -> DiagResult<Option<FieldType>> {
    let Some((name, field)) = referenced_field(ctx, op, symbols)? else {
        return Ok(None);
    };
    let rank = field.rank(ctx);
    check_access_indices(ctx, op, indices, rank, &format!("field @{name}"))?;
    Ok(Some(field))
}

fn check_elem(ctx: &Context, op: OpId, field: FieldType, got: Type, what: &str) -> DiagResult<()> {
    qd_ir::verify_helpers::check_elem_type(ctx, op, field.elem(ctx), got, what, "field")
}

// The checks of the field accesses all depend on the field: they are symbol-use hooks.

fn verify_load(ctx: &Context, op: OpId, symbols: &mut SymbolTableCollection) -> DiagResult<()> {
    let Some(field) = check_access(ctx, op, &ctx.operand_vec(op), symbols)? else {
        return Ok(());
    };
    check_elem(ctx, op, field, ctx.value_type(ctx.result(op, 0)), "result")
}

fn verify_store(ctx: &Context, op: OpId, symbols: &mut SymbolTableCollection) -> DiagResult<()> {
    let ops = ctx.operand_vec(op);
    let Some(field) = check_access(ctx, op, &ops[1..], symbols)? else {
        return Ok(());
    };
    check_elem(ctx, op, field, ctx.value_type(ops[0]), "value")
}

fn verify_atomic(ctx: &Context, op: OpId, symbols: &mut SymbolTableCollection) -> DiagResult<()> {
    let ops = ctx.operand_vec(op);
    let Some(field) = check_access(ctx, op, &ops[1..], symbols)? else {
        return Ok(());
    };
    check_elem(ctx, op, field, ctx.value_type(ops[0]), "value")?;
    if let Some(&r) = ctx.results(op).first() {
        check_elem(ctx, op, field, ctx.value_type(r), "result")?;
    }
    check_atomic_elem(ctx, op, field.elem(ctx))
}
