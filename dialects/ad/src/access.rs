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
//! (value, ndarray, indices...). Indices are i32, one per dimension; constant indices must be in
//! bounds. The field must be needs_grad with a float element; the ndarray must have float elements.

use crate::verify::*;
use crate::{
    ACC_FIELD_ADJOINT_OP, ACC_NDARRAY_ADJOINT_OP, LOAD_FIELD_ADJOINT_OP, STORE_FIELD_ADJOINT_OP,
};
use qd_frontend::memory::{field_name_of, parse_field_load, print_field_load, print_field_write};
use qd_frontend::ndarray::print_ndarray_write;
use qd_frontend::syntax::*;
use qd_frontend::NdarrayType;
use qd_ir::asm::OpAsmParser;
use qd_ir::{
    Builder, Context, DiagResult, Diagnostic, Location, OpId, OpInfo, OpTraits, OperationState,
    Type, Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        OpInfo::new(
            LOAD_FIELD_ADJOINT_OP,
            "reads one element of a field's adjoint",
        )
        .traits(OpTraits::READ_ONLY)
        .verify(verify_load)
        .syntax(parse_field_load, print_field_load),
        OpInfo::new(
            ACC_FIELD_ADJOINT_OP,
            "atomically adds to one element of a field's adjoint",
        )
        .verify(verify_field_write)
        .syntax(parse_field_write, print_field_write),
        OpInfo::new(
            STORE_FIELD_ADJOINT_OP,
            "writes one element of a field's adjoint",
        )
        .verify(verify_field_write)
        .syntax(parse_field_write, print_field_write),
        OpInfo::new(
            ACC_NDARRAY_ADJOINT_OP,
            "atomically adds to one element of an adjoint ndarray",
        )
        .verify(verify_ndarray_acc)
        .syntax(parse_ndarray_acc, print_ndarray_write),
    ]
}

// ----- wrappers and builders ---------------------------------------------------------------

/// `%a = ad.load_field_adjoint @x[indices] : T`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LoadFieldAdjointOp(pub OpId);

impl LoadFieldAdjointOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == LOAD_FIELD_ADJOINT_OP).then_some(LoadFieldAdjointOp(op))
    }
    pub fn build(b: &mut Builder, field: &str, indices: &[Value], ty: Type, loc: Location) -> Self {
        let sym = b.ctx.symbol_ref_attr(field);
        let st = OperationState::new(LOAD_FIELD_ADJOINT_OP, loc)
            .operands(indices)
            .results(&[ty])
            .prop(b.ctx, "field", sym);
        LoadFieldAdjointOp(b.insert(st))
    }
    pub fn field_name(self, ctx: &Context) -> &str {
        field_name_of(ctx, self.0)
    }
    pub fn indices(self, ctx: &Context) -> Vec<Value> {
        ctx.operand_vec(self.0)
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
}

/// `ad.acc_field_adjoint %v, @x[indices] : T` or `ad.store_field_adjoint ...`.
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
        let name = if accumulate {
            ACC_FIELD_ADJOINT_OP
        } else {
            STORE_FIELD_ADJOINT_OP
        };
        let sym = b.ctx.symbol_ref_attr(field);
        let st = OperationState::new(name, loc)
            .operands(&[value])
            .operands(indices)
            .prop(b.ctx, "field", sym);
        FieldAdjointWriteOp(b.insert(st))
    }
    /// Whether the write accumulates (`acc_field_adjoint`) rather than overwrites.
    pub fn is_accumulate(self, ctx: &Context) -> bool {
        ctx.name(self.0) == ACC_FIELD_ADJOINT_OP
    }
    pub fn field_name(self, ctx: &Context) -> &str {
        field_name_of(ctx, self.0)
    }
    pub fn value(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn indices(self, ctx: &Context) -> Vec<Value> {
        ctx.operands(self.0).skip(1).collect()
    }
}

/// `ad.acc_ndarray_adjoint %v, %g[indices] : !qd.ndarray<...>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AccNdarrayAdjointOp(pub OpId);

impl AccNdarrayAdjointOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == ACC_NDARRAY_ADJOINT_OP).then_some(AccNdarrayAdjointOp(op))
    }
    pub fn build(
        b: &mut Builder,
        value: Value,
        array: Value,
        indices: &[Value],
        loc: Location,
    ) -> Self {
        let st = OperationState::new(ACC_NDARRAY_ADJOINT_OP, loc)
            .operands(&[value, array])
            .operands(indices);
        AccNdarrayAdjointOp(b.insert(st))
    }
    pub fn value(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn array(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 1)
    }
    pub fn indices(self, ctx: &Context) -> Vec<Value> {
        ctx.operands(self.0).skip(2).collect()
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
    let op = LoadFieldAdjointOp::build(b, field, indices, ty, loc);
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
    FieldAdjointWriteOp::build(b, true, value, field, indices, loc).0
}

/// Creates `ad.store_field_adjoint value, @field[indices]`.
pub fn build_store_field_adjoint(
    b: &mut Builder,
    value: Value,
    field: &str,
    indices: &[Value],
    loc: Location,
) -> OpId {
    FieldAdjointWriteOp::build(b, false, value, field, indices, loc).0
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

// ----- verifiers -----------------------------------------------------------------------------

/// Checks the field and the indices; returns the field's element type (None when the symbol does
/// not resolve, which the IR verifier reports).
fn check_field_access(ctx: &Context, op: OpId, indices: &[Value]) -> DiagResult<Option<Type>> {
    let Some((name, field)) = adjoint_field(ctx, op)? else {
        return Ok(None);
    };
    let bounds: Vec<Option<i64>> = field.shape(ctx).into_iter().map(Some).collect();
    check_indices(ctx, op, indices, &bounds, &format!("field @{name}"))?;
    Ok(Some(field.elem(ctx)))
}

fn verify_load(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 0, false, 1, &["field"])?;
    let Some(elem) = check_field_access(ctx, op, &ctx.operand_vec(op))? else {
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

fn verify_field_write(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, false, 0, &["field"])?;
    let ops = ctx.operand_vec(op);
    let Some(elem) = check_field_access(ctx, op, &ops[1..])? else {
        return Ok(());
    };
    check_elem(ctx, op, elem, ctx.value_type(ops[0]), "value", "field")
}

fn verify_ndarray_acc(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 2, false, 0, &[])?;
    let ops = ctx.operand_vec(op);
    let aty = ctx.value_type(ops[1]);
    let Some(array) = NdarrayType::from_type(ctx, aty) else {
        return Err(err(
            ctx,
            op,
            format!(
                "expects operand 1 to be a !qd.ndarray, got {}",
                type_str(ctx, aty)
            ),
        ));
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
    let bounds = vec![None; array.rank(ctx)];
    check_indices(ctx, op, &ops[2..], &bounds, "the ndarray")?;
    check_elem(ctx, op, elem, ctx.value_type(ops[0]), "value", "ndarray")
}

// ----- syntax ------------------------------------------------------------------------------

/// `%v, @x[%i] {attrs} : T`.
fn parse_field_write(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    qd_frontend::memory::parse_field_write(p, st).map(|_| ())
}

/// `%v, %g[%i] {attrs} : !qd.ndarray<...>`: the value has the ndarray's element type.
fn parse_ndarray_acc(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let value = p.parse_operand()?;
    p.parse_punct(",")?;
    let array = p.parse_operand()?;
    let idx = parse_indices(p)?;
    parse_attrs(p, st)?;
    p.parse_punct(":")?;
    let loc = p.current_loc();
    let aty = p.parse_type()?;
    let Some(nd) = NdarrayType::from_type(p.ctx_ref(), aty) else {
        let t = type_str(p.ctx_ref(), aty);
        return Err(Diagnostic::error(
            loc,
            format!("expected a !qd.ndarray type, got {t}"),
        ));
    };
    let elem = nd.elem(p.ctx_ref());
    st.operands = p.resolve_operands(&[value, array], &[elem, aty])?;
    st.operands.extend(resolve_i32(p, &idx)?);
    Ok(())
}
