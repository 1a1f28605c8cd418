//! Adjoint access: `ad.load_field_adjoint`, `ad.acc_field_adjoint`, `ad.store_field_adjoint`
//! (on the adjoint field `x.grad` of a needs_grad field `@x`) and `ad.acc_ndarray_adjoint` (on
//! the adjoint ndarray argument of a gradient kernel).
//!
//! ```text
//! %a = ad.load_field_adjoint @x[%i] : f32        // reads x.grad[i]
//! ad.acc_field_adjoint %v, @x[%i] : f32           // x.grad[i] += v (atomic)
//! ad.store_field_adjoint %v, @x[%i] : f32         // x.grad[i] := v
//! ad.acc_ndarray_adjoint %v, %g[%i] : !qd.ndarray<?xf32>   // g[i] += v (atomic)
//! ```
//!
//! Generic form: the field is a `field = @x` property; operands are (value,) indices, or
//! (value, ndarray, indices...). Indices are i32, one per dimension; one out of bounds (even a
//! constant) is an error at run time. The field must be needs_grad with a float element; the
//! ndarray must have float elements.

use crate::verify::*;
use crate::{ACC_FIELD_ADJOINT_OP, STORE_FIELD_ADJOINT_OP};
use qd_frontend::constraints::{ndarray_elem, INDEX, NDARRAY};
use qd_frontend::NdarrayType;
use qd_ir::op_def::{constraint, prop};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{
    Attribute, Builder, Context, DiagResult, Location, OpId, OpInfo, OpTraits, OperationState,
    Type, Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        LoadFieldAdjointOp::op_info(),
        AccFieldAdjointOp::op_info(),
        StoreFieldAdjointOp::op_info(),
        AccNdarrayAdjointOp::op_info(),
    ]
}

qd_ir::declare_op! {
    /// `%a = ad.load_field_adjoint @x[indices] : T`.
    pub struct LoadFieldAdjointOp = "ad.load_field_adjoint" {
        summary: "reads one element of a field's adjoint",
        traits: [OpTraits::READ_ONLY],
        operands: [indices: variadic(INDEX)],
        results: [result: single(constraint::ANY)],
        properties: [field as field_name: required(prop::SymbolRef)],
        format: "$field `[` $indices `]` attr-dict `:` type($result)",
        verify_symbol_uses: verify_load,
    }
}

qd_ir::declare_op! {
    /// `ad.acc_field_adjoint %v, @x[indices] : T`: x.grad[indices] += v (atomic).
    pub struct AccFieldAdjointOp = "ad.acc_field_adjoint" {
        summary: "atomically adds to one element of a field's adjoint",
        operands: [value: single(constraint::ANY), indices: variadic(INDEX)],
        properties: [field as field_name: required(prop::SymbolRef)],
        format: "$value `,` $field `[` $indices `]` attr-dict `:` type($value)",
        verify_symbol_uses: verify_field_write,
    }
}

qd_ir::declare_op! {
    /// `ad.store_field_adjoint %v, @x[indices] : T`: x.grad[indices] := v.
    pub struct StoreFieldAdjointOp = "ad.store_field_adjoint" {
        summary: "writes one element of a field's adjoint",
        operands: [value: single(constraint::ANY), indices: variadic(INDEX)],
        properties: [field as field_name: required(prop::SymbolRef)],
        format: "$value `,` $field `[` $indices `]` attr-dict `:` type($value)",
        verify_symbol_uses: verify_field_write,
    }
}

qd_ir::declare_op! {
    /// `ad.acc_ndarray_adjoint %v, %g[indices] : !qd.ndarray<...>`: g[indices] += v (atomic).
    pub struct AccNdarrayAdjointOp = "ad.acc_ndarray_adjoint" {
        summary: "atomically adds to one element of an adjoint ndarray",
        operands: [
            value: single(constraint::ANY) = ndarray_elem(array),
            array: single(NDARRAY),
            indices: variadic(INDEX),
        ],
        format: "$value `,` $array `[` $indices `]` attr-dict `:` type($array)",
        verify: verify_ndarray_acc,
    }
}

/// `ad.acc_field_adjoint` or `ad.store_field_adjoint`: one wrapper for both writes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FieldAdjointWriteOp(pub OpId);

impl FieldAdjointWriteOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        matches!(ctx.name(op), ACC_FIELD_ADJOINT_OP | STORE_FIELD_ADJOINT_OP)
            .then_some(FieldAdjointWriteOp(op))
    }
    /// Creates `ad.acc_field_adjoint` (`accumulate`) or `ad.store_field_adjoint`.
    pub fn build(
        b: &mut Builder,
        accumulate: bool,
        value: Value,
        field: &str,
        indices: &[Value],
        loc: Location,
    ) -> Self {
        let op = if accumulate {
            AccFieldAdjointOp::build(b, value, indices, field, loc).0
        } else {
            StoreFieldAdjointOp::build(b, value, indices, field, loc).0
        };
        FieldAdjointWriteOp(op)
    }
    /// Whether the write accumulates (`acc_field_adjoint`) rather than overwrites.
    pub fn is_accumulate(self, ctx: &Context) -> bool {
        ctx.name(self.0) == ACC_FIELD_ADJOINT_OP
    }
    pub fn field_name(self, ctx: &Context) -> &str {
        AccFieldAdjointOp(self.0).field_name(ctx)
    }
    pub fn value(self, ctx: &Context) -> Value {
        AccFieldAdjointOp(self.0).value(ctx)
    }
    pub fn indices(self, ctx: &Context) -> Vec<Value> {
        AccFieldAdjointOp(self.0).indices(ctx)
    }
}

/// Creates `ad.load_field_adjoint @field[indices] : ty` and returns the adjoint.
pub fn build_load_field_adjoint(
    b: &mut Builder,
    field: &str,
    indices: &[Value],
    ty: Type,
    loc: Location,
) -> Value {
    let op = LoadFieldAdjointOp::build(b, indices, ty, field, loc);
    op.result(b.ctx)
}

/// Creates `ad.acc_field_adjoint value, @field[indices]`.
pub fn build_acc_field_adjoint(
    b: &mut Builder,
    value: Value,
    field: &str,
    indices: &[Value],
    loc: Location,
) -> OpId {
    AccFieldAdjointOp::build(b, value, indices, field, loc).0
}

/// Creates `ad.store_field_adjoint value, @field[indices]`.
pub fn build_store_field_adjoint(
    b: &mut Builder,
    value: Value,
    field: &str,
    indices: &[Value],
    loc: Location,
) -> OpId {
    StoreFieldAdjointOp::build(b, value, indices, field, loc).0
}

/// [`build_load_field_adjoint`] with the field given as its symbol reference (`@x`: a flat
/// `SymbolRef` attribute, such as the `field` property of the primal access), which interns
/// nothing: the name form looks the name up among the context's identifiers for every op.
pub fn build_load_field_adjoint_ref(
    b: &mut Builder,
    field: Attribute,
    indices: &[Value],
    ty: Type,
    loc: Location,
) -> Value {
    let st = field_adjoint_state(b, LoadFieldAdjointOp::NAME, field, &[], indices, loc);
    b.insert_value(st.results(&[ty]))
}

/// [`build_acc_field_adjoint`] with the field as its symbol reference (see
/// [`build_load_field_adjoint_ref`]).
pub fn build_acc_field_adjoint_ref(
    b: &mut Builder,
    value: Value,
    field: Attribute,
    indices: &[Value],
    loc: Location,
) -> OpId {
    let st = field_adjoint_state(b, AccFieldAdjointOp::NAME, field, &[value], indices, loc);
    b.insert(st)
}

/// [`build_store_field_adjoint`] with the field as its symbol reference (see
/// [`build_load_field_adjoint_ref`]).
pub fn build_store_field_adjoint_ref(
    b: &mut Builder,
    value: Value,
    field: Attribute,
    indices: &[Value],
    loc: Location,
) -> OpId {
    let st = field_adjoint_state(b, StoreFieldAdjointOp::NAME, field, &[value], indices, loc);
    b.insert(st)
}

/// The state the generated builders make: operands, then the `field` property.
fn field_adjoint_state(
    b: &mut Builder,
    name: &str,
    field: Attribute,
    value: &[Value],
    indices: &[Value],
    loc: Location,
) -> OperationState {
    let mut st = OperationState::new(name, loc)
        .operands(value)
        .operands(indices);
    st.add_prop(b.ctx, "field", field);
    st
}

/// Creates `ad.acc_ndarray_adjoint value, array[indices]`.
pub fn build_acc_ndarray_adjoint(
    b: &mut Builder,
    value: Value,
    array: Value,
    indices: &[Value],
    loc: Location,
) -> OpId {
    AccNdarrayAdjointOp::build(b, value, array, indices, loc).0
}

// ----- verify hooks (after the declared structure) -------------------------------------------

/// Checks the field and the indices; returns the field's element type (None when the symbol does
/// not resolve, which the IR verifier reports). The field ops' checks all depend on the field:
/// they are symbol-use hooks.
fn check_field_access(
    ctx: &Context,
    op: OpId,
    indices: &[Value],
    symbols: &mut SymbolTableCollection,
) -> DiagResult<Option<Type>> {
    let Some((name, field)) = adjoint_field(ctx, op, symbols)? else {
        return Ok(None);
    };
    let rank = field.rank(ctx);
    check_indices(ctx, op, indices, rank, &format!("field @{name}"))?;
    Ok(Some(field.elem(ctx)))
}

fn verify_load(ctx: &Context, op: OpId, symbols: &mut SymbolTableCollection) -> DiagResult<()> {
    let Some(elem) = check_field_access(ctx, op, &ctx.operand_vec(op), symbols)? else {
        return Ok(());
    };
    check_elem(
        ctx,
        op,
        elem,
        ctx.value_type(ctx.result(op, 0)),
        "result",
        "field",
    )
}

fn verify_field_write(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<()> {
    let ops = ctx.operand_vec(op);
    let Some(elem) = check_field_access(ctx, op, &ops[1..], symbols)? else {
        return Ok(());
    };
    check_elem(ctx, op, elem, ctx.value_type(ops[0]), "value", "field")
}

fn verify_ndarray_acc(ctx: &Context, op: OpId) -> DiagResult<()> {
    let ops = ctx.operand_vec(op);
    let aty = ctx.value_type(ops[1]);
    let Some(array) = NdarrayType::from_type(ctx, aty) else {
        return Ok(()); // the structure reports it
    };
    let elem = array.elem(ctx);
    if !ctx.type_data(elem).is_float() {
        return Err(err(
            ctx,
            op,
            format!(
                "expects an ndarray with a float element type, got {}",
                type_str(ctx, aty)
            ),
        ));
    }
    check_indices(ctx, op, &ops[2..], array.rank(ctx), "the ndarray")?;
    check_elem(ctx, op, elem, ctx.value_type(ops[0]), "value", "ndarray")
}
