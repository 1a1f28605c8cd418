//! Ndarray access: `qd.ndarray_load`, `qd.ndarray_store`, `qd.ndarray_shape`.
//!
//! ```text
//! %v = qd.ndarray_load %a[%i, %j] : !qd.ndarray<?x?xf32>
//! qd.ndarray_store %v, %a[%i, %j] : !qd.ndarray<?x?xf32>
//! %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?x?xf32>      // i32 extent of axis 0
//! ```
//!
//! The type after `:` is the ndarray's; values have its element type, indices are i32.
//! `qd.ndarray_shape` is PURE: an ndarray is bound for a whole launch and stores change its
//! contents, never its shape, so two reads of the same axis agree and an unused one may go.

use crate::syntax::*;
use crate::types::NdarrayType;
use crate::verify::*;
use crate::{NDARRAY_LOAD_OP, NDARRAY_SHAPE_OP, NDARRAY_STORE_OP};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::{
    Builder, Context, DiagResult, Diagnostic, Location, OpId, OpInfo, OpTraits, OperationState,
    Type, Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        OpInfo::new(NDARRAY_LOAD_OP, "reads one element of an ndarray")
            .traits(OpTraits::READ_ONLY)
            .verify(verify_load)
            .syntax(parse_load, print_load),
        OpInfo::new(NDARRAY_STORE_OP, "writes one element of an ndarray")
            .verify(verify_store)
            .syntax(parse_store, print_ndarray_write),
        OpInfo::new(
            NDARRAY_SHAPE_OP,
            "the extent of one axis of an ndarray, as i32",
        )
        .traits(OpTraits::PURE)
        .verify(verify_shape)
        .syntax(parse_shape, print_shape),
    ]
}

/// A `qd.ndarray_load` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct NdarrayLoadOp(pub OpId);

impl NdarrayLoadOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == NDARRAY_LOAD_OP).then_some(NdarrayLoadOp(op))
    }
    /// Creates `%r = qd.ndarray_load array[indices]` (the result has the element type).
    pub fn build(b: &mut Builder, array: Value, indices: &[Value], loc: Location) -> Self {
        let ty = b.ctx.value_type(array);
        let elem = NdarrayType::from_type(b.ctx, ty)
            .map(|a| a.elem(b.ctx))
            .unwrap_or(ty);
        let st = OperationState::new(NDARRAY_LOAD_OP, loc)
            .operands(&[array])
            .operands(indices)
            .results(&[elem]);
        NdarrayLoadOp(b.insert(st))
    }
    pub fn array(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn indices(self, ctx: &Context) -> Vec<Value> {
        ctx.operands(self.0).skip(1).collect()
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
}

/// A `qd.ndarray_store` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct NdarrayStoreOp(pub OpId);

impl NdarrayStoreOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == NDARRAY_STORE_OP).then_some(NdarrayStoreOp(op))
    }
    /// Creates `qd.ndarray_store value, array[indices]`.
    pub fn build(
        b: &mut Builder,
        value: Value,
        array: Value,
        indices: &[Value],
        loc: Location,
    ) -> Self {
        let st = OperationState::new(NDARRAY_STORE_OP, loc)
            .operands(&[value, array])
            .operands(indices);
        NdarrayStoreOp(b.insert(st))
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

/// A `qd.ndarray_shape` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct NdarrayShapeOp(pub OpId);

impl NdarrayShapeOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == NDARRAY_SHAPE_OP).then_some(NdarrayShapeOp(op))
    }
    /// Creates `%n = qd.ndarray_shape array, axis` (an i32).
    pub fn build(b: &mut Builder, array: Value, axis: i64, loc: Location) -> Self {
        let i32t = b.ctx.i32_type();
        let i64t = b.ctx.i64_type();
        let ax = b.ctx.integer_attr(axis, i64t);
        let st = OperationState::new(NDARRAY_SHAPE_OP, loc)
            .operands(&[array])
            .results(&[i32t])
            .prop(b.ctx, "axis", ax);
        NdarrayShapeOp(b.insert(st))
    }
    pub fn array(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn axis(self, ctx: &Context) -> usize {
        ctx.prop(self.0, "axis")
            .and_then(|a| ctx.attr_data(a).as_int())
            .unwrap_or(0) as usize
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
}

/// The ndarray type of `array`, or an error naming the operand.
fn ndarray_of(ctx: &Context, op: OpId, array: Value) -> DiagResult<NdarrayType> {
    let t = ctx.value_type(array);
    let a = NdarrayType::from_type(ctx, t).ok_or_else(|| {
        err(
            ctx,
            op,
            format!("expects a !qd.ndarray operand, got {}", type_str(ctx, t)),
        )
    })?;
    check_type(ctx, op, t, "invalid ndarray type")?;
    Ok(a)
}

fn check_access(ctx: &Context, op: OpId, array: NdarrayType, indices: &[Value]) -> DiagResult<()> {
    only_props(ctx, op, &[])?;
    check_access_indices(ctx, op, indices, &vec![None; array.rank(ctx)], "an ndarray")
}

fn check_elem(
    ctx: &Context,
    op: OpId,
    array: NdarrayType,
    got: Type,
    what: &str,
) -> DiagResult<()> {
    qd_ir::verify_helpers::check_elem_type(ctx, op, array.elem(ctx), got, what, "ndarray")
}

fn verify_load(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, false, 1..=1, 0)?;
    let ops = ctx.operand_vec(op);
    let a = ndarray_of(ctx, op, ops[0])?;
    check_access(ctx, op, a, &ops[1..])?;
    check_elem(ctx, op, a, ctx.value_type(ctx.result(op, 0)), "result")
}

fn verify_store(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 2, false, 0..=0, 0)?;
    let ops = ctx.operand_vec(op);
    let a = ndarray_of(ctx, op, ops[1])?;
    check_access(ctx, op, a, &ops[2..])?;
    check_elem(ctx, op, a, ctx.value_type(ops[0]), "value")
}

fn verify_shape(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, true, 1..=1, 0)?;
    only_props(ctx, op, &["axis"])?;
    let a = ndarray_of(ctx, op, ctx.operand(op, 0))?;
    let axis = int_prop(ctx, op, "axis")?;
    let rank = a.rank(ctx);
    if axis < 0 || axis as u64 >= rank as u64 {
        return Err(err(
            ctx,
            op,
            format!("axis {axis} is out of bounds for an ndarray of rank {rank}"),
        ));
    }
    let r = ctx.value_type(ctx.result(op, 0));
    if !is_i32(ctx, r) {
        return Err(err(
            ctx,
            op,
            format!("expects an i32 result, got {}", type_str(ctx, r)),
        ));
    }
    Ok(())
}

/// `: !qd.ndarray<...>`, returning the type and its view (a parse error otherwise).
fn parse_ndarray_type(p: &mut dyn OpAsmParser) -> DiagResult<(Type, NdarrayType)> {
    p.parse_punct(":")?;
    let loc = p.current_loc();
    let t = p.parse_type()?;
    match NdarrayType::from_type(p.ctx_ref(), t) {
        Some(a) => Ok((t, a)),
        None => Err(Diagnostic::error(loc, "expected a !qd.ndarray type")),
    }
}

fn parse_load(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let array = p.parse_operand()?;
    let idx = parse_indices(p)?;
    parse_attrs(p, st)?;
    let (t, a) = parse_ndarray_type(p)?;
    st.operands = vec![p.resolve_operand(&array, t)?];
    st.operands.extend(resolve_i32(p, &idx)?);
    st.result_types.push(a.elem(p.ctx_ref()));
    Ok(())
}

fn print_array_type(p: &mut dyn OpAsmPrinter, array: Option<Value>) {
    let t = array.map(|v| p.ctx().value_type(v));
    print_colon_type(p, t);
}

fn print_load(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let a = operand(p, op, 0);
    print_opt_value(p, a);
    let idx: Vec<Value> = p.ctx().operands(op).skip(1).collect();
    print_index_list(p, &idx);
    print_attrs(p, op);
    print_array_type(p, a);
}

fn parse_store(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let value = p.parse_operand()?;
    p.parse_punct(",")?;
    let array = p.parse_operand()?;
    let idx = parse_indices(p)?;
    parse_attrs(p, st)?;
    let (t, a) = parse_ndarray_type(p)?;
    let elem = a.elem(p.ctx_ref());
    st.operands = vec![
        p.resolve_operand(&value, elem)?,
        p.resolve_operand(&array, t)?,
    ];
    st.operands.extend(resolve_i32(p, &idx)?);
    Ok(())
}

/// Prints `%v, %a[%i] {attrs} : !qd.ndarray<...>` (an ndarray element write). Shared with the
/// dialects that write other views of an ndarray (e.g. an adjoint accumulation).
pub fn print_ndarray_write(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let v = operand(p, op, 0);
    print_opt_value(p, v);
    p.write(", ");
    let a = operand(p, op, 1);
    print_opt_value(p, a);
    let idx: Vec<Value> = p.ctx().operands(op).skip(2).collect();
    print_index_list(p, &idx);
    print_attrs(p, op);
    print_array_type(p, a);
}

fn parse_shape(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let array = p.parse_operand()?;
    p.parse_punct(",")?;
    let axis = p.parse_integer()?;
    parse_attrs(p, st)?;
    let (t, _) = parse_ndarray_type(p)?;
    st.operands = vec![p.resolve_operand(&array, t)?];
    let i32t = p.ctx().i32_type();
    st.result_types.push(i32t);
    let i64t = p.ctx().i64_type();
    let ax = p.ctx().integer_attr(axis, i64t);
    st.add_prop(p.ctx(), "axis", ax);
    Ok(())
}

fn print_shape(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let a = operand(p, op, 0);
    print_opt_value(p, a);
    p.write(", ");
    let axis = p.ctx().prop(op, "axis");
    match axis {
        Some(ax) => p.print_attribute_without_type(ax),
        None => p.write("<<missing axis>>"),
    }
    print_attrs(p, op);
    print_array_type(p, a);
}
