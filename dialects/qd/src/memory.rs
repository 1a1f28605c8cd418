//! Field access: `qd.load`, `qd.store`, `qd.atomic_add`, `qd.atomic_min`, `qd.atomic_max`.
//!
//! ```text
//! %v = qd.load @x[%i, %j] : f32         // one i32 index per field dimension; `@y[]` for a scalar
//! qd.store %v, @x[%i] : f32
//! qd.atomic_add %v, @y[] : f32          // no result: the example kernels' form
//! %old = qd.atomic_max %v, @m[%i] : i32 // with a result: the value before the update
//! ```
//!
//! The type after `:` is the field's element type. Constant indices (from constant-like ops)
//! must be in bounds. Atomics take integer (wider than i1) or float elements.

use crate::syntax::*;
use crate::types::FieldType;
use crate::verify::*;
use crate::{ATOMIC_ADD_OP, ATOMIC_MAX_OP, ATOMIC_MIN_OP, LOAD_OP, STORE_OP};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::{
    AttrData, Builder, Context, DiagResult, Location, OpId, OpInfo, OpTraits, OperationState, Type,
    Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        OpInfo::new(LOAD_OP, "reads one element of a field")
            .traits(OpTraits::READ_ONLY)
            .verify(verify_load)
            .syntax(parse_field_load, print_field_load),
        OpInfo::new(STORE_OP, "writes one element of a field")
            .verify(verify_store)
            .syntax(parse_store, print_field_write),
        OpInfo::new(ATOMIC_ADD_OP, "atomically adds to one element of a field")
            .verify(verify_atomic)
            .syntax(parse_store, print_field_write),
        OpInfo::new(
            ATOMIC_MIN_OP,
            "atomically lowers one element of a field to a value",
        )
        .verify(verify_atomic)
        .syntax(parse_store, print_field_write),
        OpInfo::new(
            ATOMIC_MAX_OP,
            "atomically raises one element of a field to a value",
        )
        .verify(verify_atomic)
        .syntax(parse_store, print_field_write),
    ]
}

/// The symbol name of an op's `field` property ("" when missing).
pub fn field_name_of(ctx: &Context, op: OpId) -> &str {
    match ctx.prop(op, "field").map(|a| ctx.attr_data(a)) {
        Some(AttrData::SymbolRef { root, .. }) => ctx.ident_str(*root),
        _ => "",
    }
}

/// An atomic read-modify-write on a field element.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AtomicKind {
    Add,
    Min,
    Max,
}

impl AtomicKind {
    pub fn op_name(self) -> &'static str {
        match self {
            AtomicKind::Add => ATOMIC_ADD_OP,
            AtomicKind::Min => ATOMIC_MIN_OP,
            AtomicKind::Max => ATOMIC_MAX_OP,
        }
    }
    pub fn from_op_name(name: &str) -> Option<Self> {
        match name {
            ATOMIC_ADD_OP => Some(AtomicKind::Add),
            ATOMIC_MIN_OP => Some(AtomicKind::Min),
            ATOMIC_MAX_OP => Some(AtomicKind::Max),
            _ => None,
        }
    }
}

/// A `qd.load` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LoadOp(pub OpId);

impl LoadOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == LOAD_OP).then_some(LoadOp(op))
    }
    /// Creates `%r = qd.load @field[indices] : elem`.
    pub fn build(
        b: &mut Builder,
        field: &str,
        indices: &[Value],
        elem: Type,
        loc: Location,
    ) -> Self {
        let sym = b.ctx.symbol_ref_attr(field);
        let st = OperationState::new(LOAD_OP, loc)
            .operands(indices)
            .results(&[elem])
            .prop(b.ctx, "field", sym);
        LoadOp(b.insert(st))
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

/// A `qd.store` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct StoreOp(pub OpId);

impl StoreOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == STORE_OP).then_some(StoreOp(op))
    }
    /// Creates `qd.store value, @field[indices]`.
    pub fn build(
        b: &mut Builder,
        value: Value,
        field: &str,
        indices: &[Value],
        loc: Location,
    ) -> Self {
        let sym = b.ctx.symbol_ref_attr(field);
        let st = OperationState::new(STORE_OP, loc)
            .operands(&[value])
            .operands(indices)
            .prop(b.ctx, "field", sym);
        StoreOp(b.insert(st))
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

/// A `qd.atomic_add` / `qd.atomic_min` / `qd.atomic_max` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AtomicOp(pub OpId);

impl AtomicOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        AtomicKind::from_op_name(ctx.name(op)).map(|_| AtomicOp(op))
    }
    /// Creates `qd.atomic_<kind> value, @field[indices]`; with `with_result` it also returns the
    /// element's value before the update.
    pub fn build(
        b: &mut Builder,
        kind: AtomicKind,
        value: Value,
        field: &str,
        indices: &[Value],
        with_result: bool,
        loc: Location,
    ) -> Self {
        let sym = b.ctx.symbol_ref_attr(field);
        let ty = b.ctx.value_type(value);
        let mut st = OperationState::new(kind.op_name(), loc)
            .operands(&[value])
            .operands(indices)
            .prop(b.ctx, "field", sym);
        if with_result {
            st.result_types.push(ty);
        }
        AtomicOp(b.insert(st))
    }
    pub fn kind(self, ctx: &Context) -> AtomicKind {
        AtomicKind::from_op_name(ctx.name(self.0)).expect("not an atomic op")
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
    /// The element's old value, when the op returns it.
    pub fn old_value(self, ctx: &Context) -> Option<Value> {
        ctx.results(self.0).first().copied()
    }
}

/// Checks the field reference, the index count, types and constant bounds; returns the field type
/// (None when the symbol does not resolve, which the IR verifier reports).
fn check_access(ctx: &Context, op: OpId, indices: &[Value]) -> DiagResult<Option<FieldType>> {
    only_props(ctx, op, &["field"])?;
    let Some((name, field)) = referenced_field(ctx, op)? else {
        return Ok(None);
    };
    let bounds: Vec<Option<i64>> = field.shape(ctx).into_iter().map(Some).collect();
    check_access_indices(ctx, op, indices, &bounds, &format!("field @{name}"))?;
    Ok(Some(field))
}

fn check_elem(ctx: &Context, op: OpId, field: FieldType, got: Type, what: &str) -> DiagResult<()> {
    qd_ir::verify_helpers::check_elem_type(ctx, op, field.elem(ctx), got, what, "field")
}

fn verify_load(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 0, false, 1..=1, 0)?;
    let Some(field) = check_access(ctx, op, &ctx.operand_vec(op))? else {
        return Ok(());
    };
    check_elem(ctx, op, field, ctx.value_type(ctx.result(op, 0)), "result")
}

fn verify_store(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, false, 0..=0, 0)?;
    let ops = ctx.operand_vec(op);
    let Some(field) = check_access(ctx, op, &ops[1..])? else {
        return Ok(());
    };
    check_elem(ctx, op, field, ctx.value_type(ops[0]), "value")
}

fn verify_atomic(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, false, 0..=1, 0)?;
    let ops = ctx.operand_vec(op);
    let Some(field) = check_access(ctx, op, &ops[1..])? else {
        return Ok(());
    };
    check_elem(ctx, op, field, ctx.value_type(ops[0]), "value")?;
    if let Some(&r) = ctx.results(op).first() {
        check_elem(ctx, op, field, ctx.value_type(r), "result")?;
    }
    let elem = field.elem(ctx);
    let d = ctx.type_data(elem);
    if !(d.is_float() || (d.is_integer() && d.bit_width() != Some(1))) {
        return Err(err(
            ctx,
            op,
            format!(
                "expects an integer (wider than i1) or float element, got {}",
                type_str(ctx, elem)
            ),
        ));
    }
    Ok(())
}

/// `@x[%i] {attrs} : T`: a field element read, whose result has type T. Shared with the
/// dialects that read other views of a field (e.g. its adjoint).
pub fn parse_field_load(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let field = p.parse_symbol_name()?;
    let idx = parse_indices(p)?;
    parse_attrs(p, st)?;
    let ty = p.parse_colon_type()?;
    st.operands = resolve_i32(p, &idx)?;
    st.result_types.push(ty);
    let sym = p.ctx().symbol_ref_attr(&field);
    st.add_prop(p.ctx(), "field", sym);
    Ok(())
}

/// Prints what [`parse_field_load`] reads.
pub fn print_field_load(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    print_symbol_prop(p, op, "field");
    let idx = p.ctx().operand_vec(op);
    print_index_list(p, &idx);
    print_attrs(p, op);
    let ty = p.ctx().results(op).first().map(|&r| p.ctx().value_type(r));
    print_colon_type(p, ty);
}

/// `%v, @x[%i] {attrs} : T`: a field element write of a T value. Sets the operands (value,
/// indices...) and the `field` property; returns T.
pub fn parse_field_write(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<Type> {
    let value = p.parse_operand()?;
    p.parse_punct(",")?;
    let field = p.parse_symbol_name()?;
    let idx = parse_indices(p)?;
    parse_attrs(p, st)?;
    let ty = p.parse_colon_type()?;
    st.operands = vec![p.resolve_operand(&value, ty)?];
    st.operands.extend(resolve_i32(p, &idx)?);
    let sym = p.ctx().symbol_ref_attr(&field);
    st.add_prop(p.ctx(), "field", sym);
    Ok(ty)
}

/// Prints what [`parse_field_write`] reads.
pub fn print_field_write(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let v = operand(p, op, 0);
    print_opt_value(p, v);
    p.write(", ");
    print_symbol_prop(p, op, "field");
    let idx: Vec<Value> = p.ctx().operands(op).skip(1).collect();
    print_index_list(p, &idx);
    print_attrs(p, op);
    let ty = v.map(|v| p.ctx().value_type(v));
    print_colon_type(p, ty);
}

/// `%v, @x[%i] : T` — shared by store and the atomics (whose optional result has type T).
fn parse_store(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let ty = parse_field_write(p, st)?;
    // Only atomics may name a result; a store with one fails verification.
    if p.num_results() > 0 {
        st.result_types.push(ty);
    }
    Ok(())
}
