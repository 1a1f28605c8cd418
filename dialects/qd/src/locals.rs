//! Per-thread locals: `qd.alloca`, `qd.local_load`, `qd.local_store`, and addressing into local
//! aggregates with `qd.elem_ptr` / `qd.member_ptr`.
//!
//! ```text
//! %p = qd.alloca : !qd.ptr<f32>                           // uninitialized local
//! %v = qd.local_load %p : !qd.ptr<f32>
//! qd.local_store %v, %p : !qd.ptr<f32>
//! %e = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<10xf32>>  // -> !qd.ptr<f32>, i32 index
//! %m = qd.member_ptr %st[1] : !qd.ptr<!qd.struct<f32, i32>> // -> !qd.ptr<i32>, constant index
//! ```
//!
//! The type after `:` is the pointer operand's (the alloca's result). Aggregates are never whole
//! SSA values: `local_load`/`local_store` take pointers to scalars only, so a pass sees every
//! element access on its own. `elem_ptr`/`member_ptr` compute addresses and are PURE.

use crate::syntax::*;
use crate::types::{is_local_value_type, is_scalar, ptr_type, ArrayType, PtrType, StructType};
use crate::verify::*;
use crate::{ALLOCA_OP, ELEM_PTR_OP, LOCAL_LOAD_OP, LOCAL_STORE_OP, MEMBER_PTR_OP};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::{
    Builder, Context, DiagResult, Diagnostic, Location, OpId, OpInfo, OpTraits, OperationState,
    Type, Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        OpInfo::new(
            ALLOCA_OP,
            "allocates a per-thread local (scalar, array or struct)",
        )
        .verify(verify_alloca)
        .syntax(parse_alloca, print_alloca),
        OpInfo::new(LOCAL_LOAD_OP, "reads a scalar local")
            .traits(OpTraits::READ_ONLY)
            .verify(verify_local_load)
            .syntax(parse_local_load, print_local_load),
        OpInfo::new(LOCAL_STORE_OP, "writes a scalar local")
            .verify(verify_local_store)
            .syntax(parse_local_store, print_local_store),
        OpInfo::new(ELEM_PTR_OP, "the address of an element of a local array")
            .traits(OpTraits::PURE)
            .verify(verify_elem_ptr)
            .syntax(parse_elem_ptr, print_elem_ptr),
        OpInfo::new(MEMBER_PTR_OP, "the address of a member of a local struct")
            .traits(OpTraits::PURE)
            .verify(verify_member_ptr)
            .syntax(parse_member_ptr, print_member_ptr),
    ]
}

/// A `qd.alloca` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AllocaOp(pub OpId);

impl AllocaOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == ALLOCA_OP).then_some(AllocaOp(op))
    }
    /// Creates `%p = qd.alloca : !qd.ptr<pointee>`.
    pub fn build(b: &mut Builder, pointee: Type, loc: Location) -> Self {
        let pt = ptr_type(b.ctx, pointee);
        AllocaOp(b.insert(OperationState::new(ALLOCA_OP, loc).results(&[pt])))
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
    pub fn pointee(self, ctx: &Context) -> Type {
        pointee_of(ctx, self.result(ctx))
    }
}

/// A `qd.local_load` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LocalLoadOp(pub OpId);

impl LocalLoadOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == LOCAL_LOAD_OP).then_some(LocalLoadOp(op))
    }
    /// Creates `%v = qd.local_load ptr` (the result has the pointee type).
    pub fn build(b: &mut Builder, ptr: Value, loc: Location) -> Self {
        let t = pointee_of(b.ctx, ptr);
        LocalLoadOp(
            b.insert(
                OperationState::new(LOCAL_LOAD_OP, loc)
                    .operands(&[ptr])
                    .results(&[t]),
            ),
        )
    }
    pub fn ptr(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
}

/// A `qd.local_store` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LocalStoreOp(pub OpId);

impl LocalStoreOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == LOCAL_STORE_OP).then_some(LocalStoreOp(op))
    }
    /// Creates `qd.local_store value, ptr`.
    pub fn build(b: &mut Builder, value: Value, ptr: Value, loc: Location) -> Self {
        LocalStoreOp(b.insert(OperationState::new(LOCAL_STORE_OP, loc).operands(&[value, ptr])))
    }
    pub fn value(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn ptr(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 1)
    }
}

/// A `qd.elem_ptr` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ElemPtrOp(pub OpId);

impl ElemPtrOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == ELEM_PTR_OP).then_some(ElemPtrOp(op))
    }
    /// Creates `%e = qd.elem_ptr base[index]` (`base` points to an array).
    pub fn build(b: &mut Builder, base: Value, index: Value, loc: Location) -> Self {
        let arr = pointee_of(b.ctx, base);
        let elem = ArrayType::from_type(b.ctx, arr)
            .map(|a| a.elem(b.ctx))
            .unwrap_or(arr);
        let rt = ptr_type(b.ctx, elem);
        ElemPtrOp(
            b.insert(
                OperationState::new(ELEM_PTR_OP, loc)
                    .operands(&[base, index])
                    .results(&[rt]),
            ),
        )
    }
    pub fn base(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn index(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 1)
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
}

/// A `qd.member_ptr` op.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemberPtrOp(pub OpId);

impl MemberPtrOp {
    pub fn from_op(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == MEMBER_PTR_OP).then_some(MemberPtrOp(op))
    }
    /// Creates `%m = qd.member_ptr base[index]` (`base` points to a struct).
    pub fn build(b: &mut Builder, base: Value, index: usize, loc: Location) -> Self {
        let st = pointee_of(b.ctx, base);
        let member = StructType::from_type(b.ctx, st)
            .and_then(|s| s.member(b.ctx, index))
            .unwrap_or(st);
        let rt = ptr_type(b.ctx, member);
        let i64t = b.ctx.i64_type();
        let ia = b.ctx.integer_attr(index as i64, i64t);
        let state = OperationState::new(MEMBER_PTR_OP, loc)
            .operands(&[base])
            .results(&[rt])
            .prop(b.ctx, "index", ia);
        MemberPtrOp(b.insert(state))
    }
    pub fn base(self, ctx: &Context) -> Value {
        ctx.operand(self.0, 0)
    }
    pub fn index(self, ctx: &Context) -> usize {
        ctx.prop(self.0, "index")
            .and_then(|a| ctx.attr_data(a).as_int())
            .unwrap_or(0) as usize
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
}

/// The pointee type of a pointer value (the value's own type when it is not a pointer).
pub fn pointee_of(ctx: &Context, ptr: Value) -> Type {
    let t = ctx.value_type(ptr);
    PtrType::from_type(ctx, t)
        .map(|p| p.pointee(ctx))
        .unwrap_or(t)
}

/// The pointer type of `v` with its (valid) pointee, or an error naming `role`.
fn ptr_of(ctx: &Context, op: OpId, v: Value, role: &str) -> DiagResult<PtrType> {
    let t = ctx.value_type(v);
    let p = PtrType::from_type(ctx, t).ok_or_else(|| {
        err(
            ctx,
            op,
            format!("expects {role} to be a !qd.ptr, got {}", type_str(ctx, t)),
        )
    })?;
    check_type(ctx, op, t, "invalid pointer type")?;
    Ok(p)
}

/// The scalar pointee of `v` (load/store operate on scalars only).
fn scalar_pointee(ctx: &Context, op: OpId, v: Value) -> DiagResult<Type> {
    let pointee = ptr_of(ctx, op, v, "the pointer")?.pointee(ctx);
    if !is_scalar(ctx, pointee) {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a pointer to a scalar, got a pointer to {}; address an element with qd.elem_ptr or qd.member_ptr",
                type_str(ctx, pointee)
            ),
        ));
    }
    Ok(pointee)
}

fn check_result_ptr(ctx: &Context, op: OpId, want: Type) -> DiagResult<()> {
    let r = ctx.value_type(ctx.result(op, 0));
    let ok = PtrType::from_type(ctx, r).is_some_and(|p| p.pointee(ctx) == want);
    if !ok {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the result to be !qd.ptr<{}>, got {}",
                type_str(ctx, want),
                type_str(ctx, r)
            ),
        ));
    }
    Ok(())
}

fn verify_alloca(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 0, true, 1..=1, 0)?;
    only_props(ctx, op, &[])?;
    let p = ptr_of(ctx, op, ctx.result(op, 0), "the result")?;
    if !is_local_value_type(ctx, p.pointee(ctx)) {
        return Err(err(
            ctx,
            op,
            "expects a pointer to a scalar, !qd.array or !qd.struct",
        ));
    }
    Ok(())
}

fn verify_local_load(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, true, 1..=1, 0)?;
    only_props(ctx, op, &[])?;
    let pointee = scalar_pointee(ctx, op, ctx.operand(op, 0))?;
    let r = ctx.value_type(ctx.result(op, 0));
    if r != pointee {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the result type to be the pointee type {}, got {}",
                type_str(ctx, pointee),
                type_str(ctx, r)
            ),
        ));
    }
    Ok(())
}

fn verify_local_store(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 2, true, 0..=0, 0)?;
    only_props(ctx, op, &[])?;
    let pointee = scalar_pointee(ctx, op, ctx.operand(op, 1))?;
    let v = ctx.value_type(ctx.operand(op, 0));
    if v != pointee {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the value type to be the pointee type {}, got {}",
                type_str(ctx, pointee),
                type_str(ctx, v)
            ),
        ));
    }
    Ok(())
}

fn verify_elem_ptr(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 2, true, 1..=1, 0)?;
    only_props(ctx, op, &[])?;
    let base = ptr_of(ctx, op, ctx.operand(op, 0), "the base")?;
    let Some(arr) = ArrayType::from_type(ctx, base.pointee(ctx)) else {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a pointer to a !qd.array, got a pointer to {}",
                type_str(ctx, base.pointee(ctx))
            ),
        ));
    };
    check_indices(ctx, op, &[ctx.operand(op, 1)], &[Some(arr.len(ctx))])?;
    check_result_ptr(ctx, op, arr.elem(ctx))
}

fn verify_member_ptr(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_shape(ctx, op, 1, true, 1..=1, 0)?;
    only_props(ctx, op, &["index"])?;
    let base = ptr_of(ctx, op, ctx.operand(op, 0), "the base")?;
    let Some(st) = StructType::from_type(ctx, base.pointee(ctx)) else {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a pointer to a !qd.struct, got a pointer to {}",
                type_str(ctx, base.pointee(ctx))
            ),
        ));
    };
    let index = int_prop(ctx, op, "index")?;
    let n = st.members(ctx).len();
    let member = usize::try_from(index).ok().and_then(|i| st.member(ctx, i));
    let Some(member) = member else {
        return Err(err(
            ctx,
            op,
            format!("member index {index} is out of bounds for a struct of {n} members"),
        ));
    };
    check_result_ptr(ctx, op, member)
}

/// `: !qd.ptr<...>`, returning the type and its pointee (a parse error otherwise).
fn parse_ptr_type(p: &mut dyn OpAsmParser) -> DiagResult<(Type, Type)> {
    p.parse_punct(":")?;
    let loc = p.current_loc();
    let t = p.parse_type()?;
    match PtrType::from_type(p.ctx_ref(), t) {
        Some(pt) => Ok((t, pt.pointee(p.ctx_ref()))),
        None => Err(Diagnostic::error(loc, "expected a !qd.ptr type")),
    }
}

fn print_ptr_type(p: &mut dyn OpAsmPrinter, v: Option<Value>) {
    let t = v.map(|v| p.ctx().value_type(v));
    print_colon_type(p, t);
}

fn result0(p: &dyn OpAsmPrinter, op: OpId) -> Option<Value> {
    p.ctx().results(op).first().copied()
}

fn parse_alloca(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    parse_attrs(p, st)?;
    let (t, _) = parse_ptr_type(p)?;
    st.result_types.push(t);
    Ok(())
}

fn print_alloca(op: OpId, p: &mut dyn OpAsmPrinter) {
    print_attrs(p, op);
    let r = result0(p, op);
    print_ptr_type(p, r);
}

fn parse_local_load(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let ptr = p.parse_operand()?;
    parse_attrs(p, st)?;
    let (t, pointee) = parse_ptr_type(p)?;
    st.operands = vec![p.resolve_operand(&ptr, t)?];
    st.result_types.push(pointee);
    Ok(())
}

fn print_local_load(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let ptr = operand(p, op, 0);
    print_opt_value(p, ptr);
    print_attrs(p, op);
    print_ptr_type(p, ptr);
}

fn parse_local_store(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let value = p.parse_operand()?;
    p.parse_punct(",")?;
    let ptr = p.parse_operand()?;
    parse_attrs(p, st)?;
    let (t, pointee) = parse_ptr_type(p)?;
    st.operands = vec![
        p.resolve_operand(&value, pointee)?,
        p.resolve_operand(&ptr, t)?,
    ];
    Ok(())
}

fn print_local_store(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let v = operand(p, op, 0);
    print_opt_value(p, v);
    p.write(", ");
    let ptr = operand(p, op, 1);
    print_opt_value(p, ptr);
    print_attrs(p, op);
    print_ptr_type(p, ptr);
}

fn parse_elem_ptr(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let base = p.parse_operand()?;
    let idx = parse_indices(p)?;
    if idx.len() != 1 {
        return Err(p.error(&format!("expected exactly one index, got {}", idx.len())));
    }
    parse_attrs(p, st)?;
    let loc = p.current_loc();
    let (t, pointee) = parse_ptr_type(p)?;
    let Some(arr) = ArrayType::from_type(p.ctx_ref(), pointee) else {
        return Err(Diagnostic::error(loc, "expected a pointer to a !qd.array"));
    };
    let elem = arr.elem(p.ctx_ref());
    st.operands = vec![p.resolve_operand(&base, t)?];
    st.operands.extend(resolve_i32(p, &idx)?);
    let rt = ptr_type(p.ctx(), elem);
    st.result_types.push(rt);
    Ok(())
}

fn print_elem_ptr(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let base = operand(p, op, 0);
    print_opt_value(p, base);
    let idx: Vec<Value> = p.ctx().operands(op).skip(1).collect();
    print_index_list(p, &idx);
    print_attrs(p, op);
    print_ptr_type(p, base);
}

fn parse_member_ptr(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let base = p.parse_operand()?;
    p.parse_punct("[")?;
    let index_loc = p.current_loc();
    let index = p.parse_integer()?;
    p.parse_punct("]")?;
    parse_attrs(p, st)?;
    let loc = p.current_loc();
    let (t, pointee) = parse_ptr_type(p)?;
    let Some(s) = StructType::from_type(p.ctx_ref(), pointee) else {
        return Err(Diagnostic::error(loc, "expected a pointer to a !qd.struct"));
    };
    let n = s.members(p.ctx_ref()).len();
    let Some(member) = usize::try_from(index)
        .ok()
        .and_then(|i| s.member(p.ctx_ref(), i))
    else {
        return Err(Diagnostic::error(
            index_loc,
            format!("member index {index} is out of bounds for a struct of {n} members"),
        ));
    };
    st.operands = vec![p.resolve_operand(&base, t)?];
    let rt = ptr_type(p.ctx(), member);
    st.result_types.push(rt);
    let i64t = p.ctx().i64_type();
    let ia = p.ctx().integer_attr(index, i64t);
    st.add_prop(p.ctx(), "index", ia);
    Ok(())
}

fn print_member_ptr(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let base = operand(p, op, 0);
    print_opt_value(p, base);
    p.write("[");
    match p.ctx().prop(op, "index") {
        Some(a) => p.print_attribute_without_type(a),
        None => p.write("<<missing index>>"),
    }
    p.write("]");
    print_attrs(p, op);
    print_ptr_type(p, base);
}
