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

use crate::constraints::{pointee, INDEX, PTR_OPERAND};
use crate::syntax::*;
use crate::types::{is_local_value_type, is_scalar, ptr_type, ArrayType, PtrType, StructType};
use crate::verify::*;
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::{constraint, prop};
use qd_ir::{
    Builder, Context, DiagResult, Diagnostic, Location, OpId, OpInfo, OpTraits, OperationState,
    Type, Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        AllocaOp::op_info(),
        LocalLoadOp::op_info(),
        LocalStoreOp::op_info(),
        ElemPtrOp::op_info(),
        MemberPtrOp::op_info(),
    ]
}

qd_ir::declare_op! {
    /// `%p = qd.alloca : !qd.ptr<T>`: an uninitialized local.
    pub struct AllocaOp = "qd.alloca" {
        summary: "allocates a per-thread local (scalar, array or struct)",
        results: [result: single(PTR_OPERAND)],
        builder: create,
        format: "attr-dict `:` type($result)",
        verify: verify_alloca,
    }
}

qd_ir::declare_op! {
    /// `%v = qd.local_load %p : !qd.ptr<T>` (the result has the pointee type).
    pub struct LocalLoadOp = "qd.local_load" {
        summary: "reads a scalar local",
        traits: [OpTraits::READ_ONLY],
        operands: [ptr: single(PTR_OPERAND)],
        results: [result: single(constraint::ANY) = pointee(ptr)],
        format: "$ptr attr-dict `:` type($ptr)",
        verify: verify_local_load,
    }
}

qd_ir::declare_op! {
    /// `qd.local_store %v, %p : !qd.ptr<T>`.
    pub struct LocalStoreOp = "qd.local_store" {
        summary: "writes a scalar local",
        operands: [value: single(constraint::ANY) = pointee(ptr), ptr: single(PTR_OPERAND)],
        format: "$value `,` $ptr attr-dict `:` type($ptr)",
        verify: verify_local_store,
    }
}

/// The pointer to the element type of a pointer to an array (the type itself otherwise).
fn elem_ptr_of(ctx: &mut Context, base: Type) -> Type {
    let arr = pointee(ctx, base);
    let elem = ArrayType::from_type(ctx, arr).map_or(arr, |a| a.elem(ctx));
    ptr_type(ctx, elem)
}

qd_ir::declare_op! {
    /// `%e = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<10xf32>>` (-> `!qd.ptr<f32>`).
    pub struct ElemPtrOp = "qd.elem_ptr" {
        summary: "the address of an element of a local array",
        traits: [OpTraits::PURE],
        operands: [base: single(constraint::ANY), index: single(INDEX)],
        results: [result: single(constraint::ANY) = elem_ptr_of(base)],
        syntax: (parse_elem_ptr, print_elem_ptr),
        verify: verify_elem_ptr,
    }
}

qd_ir::declare_op! {
    /// `%m = qd.member_ptr %st[1] : !qd.ptr<!qd.struct<f32, i32>>` (-> `!qd.ptr<i32>`).
    pub struct MemberPtrOp = "qd.member_ptr" {
        summary: "the address of a member of a local struct",
        traits: [OpTraits::PURE],
        operands: [base: single(constraint::ANY)],
        results: [result: single(constraint::ANY)],
        properties: [index as _: required(prop::Int)],
        builder: create,
        syntax: (parse_member_ptr, print_member_ptr),
        verify: verify_member_ptr,
    }
}

impl AllocaOp {
    /// Creates `%p = qd.alloca : !qd.ptr<pointee>`.
    pub fn build(b: &mut Builder, pointee: Type, loc: Location) -> Self {
        let pt = ptr_type(b.ctx, pointee);
        AllocaOp::create(b, pt, loc)
    }
    pub fn pointee(self, ctx: &Context) -> Type {
        pointee_of(ctx, self.result(ctx))
    }
}

impl MemberPtrOp {
    /// Creates `%m = qd.member_ptr base[index]` (`base` points to a struct).
    pub fn build(b: &mut Builder, base: Value, index: usize, loc: Location) -> Self {
        let st = pointee_of(b.ctx, base);
        let member = StructType::from_type(b.ctx, st)
            .and_then(|s| s.member(b.ctx, index))
            .unwrap_or(st);
        let rt = ptr_type(b.ctx, member);
        MemberPtrOp::create(b, base, rt, index as i64, loc)
    }
    pub fn index(self, ctx: &Context) -> usize {
        ctx.prop(self.0, "index")
            .and_then(|a| ctx.attr_data(a).as_int())
            .unwrap_or(0) as usize
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
    check_indices(ctx, op, &[ctx.operand(op, 1)])?;
    check_result_ptr(ctx, op, arr.elem(ctx))
}

fn verify_member_ptr(ctx: &Context, op: OpId) -> DiagResult<()> {
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
