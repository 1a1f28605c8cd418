//! Memory through pointers, global and private alike.
//!
//! ```text
//! %q = lowered.offset %p, %i : !lowered.ptr<f32>                   // p + i elements, i: i64
//! %v = lowered.load %p : !lowered.ptr<f32>
//! lowered.store %v, %p : !lowered.ptr<f32>
//! %old = lowered.atomic_add %v, %p : !lowered.ptr<f32>             // atomic_min, atomic_max
//! %a = lowered.alloca : !lowered.ptr<!qd.array<10xf32>, private>   // zeroed each time it runs
//! %e = lowered.elem_ptr %a[%k] : !lowered.ptr<!qd.array<10xf32>, private>
//! %m = lowered.member_ptr %s[1] : !lowered.ptr<!qd.struct<f32, i32>, private>
//! lowered.bounds_check [%i, %j] in [%n0, %n1] {what = "field @x"} : i64
//! lowered.bounds_check [%k] in [%c10] {what = "local array '!qd.array<10xf32>'", local} : i64
//! ```
//!
//! The type after `:` is always the pointer operand's (the alloca's result); the other types
//! follow from it (`bounds_check`'s is i64, the type of all its operands). `offset`, `elem_ptr` and `member_ptr` are PURE, `load` READ_ONLY.

use crate::constraints::{elem_ptr_of, pointee, ANY, GLOBAL_PTR, PRIVATE_PTR, PTR};
use crate::types::{is_scalar, private_ptr, PtrType};
use crate::verify::err;
use qd_frontend::{ArrayType, StructType};
use qd_ir::asm::Delimiter;
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::{constraint, prop};
use qd_ir::{Attribute, Context, DiagResult, Ident, OpId, OpTraits, OperationState, Type, Value};

qd_ir::declare_op! {
    /// `%q = lowered.offset %p, %i : !lowered.ptr<T>`.
    pub struct OffsetOp = "lowered.offset" {
        summary: "a pointer some elements past another",
        traits: [OpTraits::PURE],
        operands: [base: single(PTR), index: single(constraint::I64)],
        results: [result: single(PTR) = same(base)],
        format: "$base `,` $index attr-dict `:` type($base)",
        verify: verify_offset,
    }
}

qd_ir::declare_op! {
    /// `%v = lowered.load %p : !lowered.ptr<T>`.
    pub struct LoadOp = "lowered.load" {
        summary: "reads the scalar a pointer points to",
        traits: [OpTraits::READ_ONLY],
        operands: [ptr: single(PTR)],
        results: [result: single(ANY) = pointee(ptr)],
        format: "$ptr attr-dict `:` type($ptr)",
        verify: verify_load,
    }
}

qd_ir::declare_op! {
    /// `lowered.store %v, %p : !lowered.ptr<T>`.
    pub struct StoreOp = "lowered.store" {
        summary: "writes the scalar a pointer points to",
        operands: [value: single(ANY) = pointee(ptr), ptr: single(PTR)],
        format: "$value `,` $ptr attr-dict `:` type($ptr)",
        verify: verify_store,
    }
}

qd_ir::declare_op! {
    /// `%old = lowered.atomic_add %v, %p : !lowered.ptr<T>`.
    pub struct AtomicAddOp = "lowered.atomic_add" {
        summary: "adds to a global element atomically (relaxed); returns its previous value",
        operands: [value: single(ANY) = pointee(ptr), ptr: single(GLOBAL_PTR)],
        results: [old: single(ANY) = pointee(ptr)],
        format: "$value `,` $ptr attr-dict `:` type($ptr)",
        verify: verify_atomic,
    }
}

qd_ir::declare_op! {
    /// `%old = lowered.atomic_min %v, %p : !lowered.ptr<T>`.
    pub struct AtomicMinOp = "lowered.atomic_min" {
        summary: "takes the minimum with a global element atomically (relaxed); returns its previous value",
        operands: [value: single(ANY) = pointee(ptr), ptr: single(GLOBAL_PTR)],
        results: [old: single(ANY) = pointee(ptr)],
        format: "$value `,` $ptr attr-dict `:` type($ptr)",
        verify: verify_atomic,
    }
}

qd_ir::declare_op! {
    /// `%old = lowered.atomic_max %v, %p : !lowered.ptr<T>`.
    pub struct AtomicMaxOp = "lowered.atomic_max" {
        summary: "takes the maximum with a global element atomically (relaxed); returns its previous value",
        operands: [value: single(ANY) = pointee(ptr), ptr: single(GLOBAL_PTR)],
        results: [old: single(ANY) = pointee(ptr)],
        format: "$value `,` $ptr attr-dict `:` type($ptr)",
        verify: verify_atomic,
    }
}

qd_ir::declare_op! {
    /// `%p = lowered.alloca : !lowered.ptr<T, private>`.
    pub struct AllocaOp = "lowered.alloca" {
        summary: "private memory for a local, zeroed each time the op runs",
        results: [result: single(PRIVATE_PTR)],
        format: "attr-dict `:` type($result)",
    }
}

qd_ir::declare_op! {
    /// `%e = lowered.elem_ptr %a[%k] : !lowered.ptr<!qd.array<N x T>, private>`.
    pub struct ElemPtrOp = "lowered.elem_ptr" {
        summary: "the address of an element of a private array (the index is not checked)",
        traits: [OpTraits::PURE],
        operands: [base: single(PRIVATE_PTR), index: single(constraint::I64)],
        results: [result: single(PRIVATE_PTR) = elem_ptr_of(base)],
        format: "$base `[` $index `]` attr-dict `:` type($base)",
        verify: verify_elem_ptr,
    }
}

qd_ir::declare_op! {
    /// `%m = lowered.member_ptr %s[K] : !lowered.ptr<!qd.struct<...>, private>`.
    pub struct MemberPtrOp = "lowered.member_ptr" {
        summary: "the address of a member of a private struct",
        traits: [OpTraits::PURE],
        operands: [base: single(PRIVATE_PTR)],
        results: [result: single(PRIVATE_PTR)],
        properties: [index: required(prop::NonNeg<u32>)],
        syntax: (parse_member_ptr, print_member_ptr),
        verify: verify_member_ptr,
    }
}

qd_ir::declare_op! {
    /// `lowered.bounds_check [%i, %j] in [%n0, %n1] {what = "field @x"} : i64`: one access's
    /// indices, then as many extents, in one operand list (the declaration allows one variadic
    /// group; the custom form splits it in half).
    pub struct BoundsCheckOp = "lowered.bounds_check" {
        summary: "stops the thread with an out-of-bounds error unless 0 <= index < extent on every axis",
        operands: [bounds: variadic(constraint::I64)],
        properties: [what: required(prop::Str), local as _: optional(prop::Flag)],
        builder: none,
        syntax: (parse_bounds_check, print_bounds_check),
        verify: verify_bounds_check,
    }
}

impl BoundsCheckOp {
    /// Creates the check of `indices` against `extents` (as many; i64). `local` selects the
    /// local-array message (one index, `of length n`).
    pub fn build(
        b: &mut qd_ir::Builder,
        indices: &[Value],
        extents: &[Value],
        what: &str,
        local: bool,
        loc: qd_ir::Location,
    ) -> Self {
        let mut st = OperationState::new(Self::NAME, loc);
        st.operands.extend_from_slice(indices);
        st.operands.extend_from_slice(extents);
        let w = b.ctx.string_attr(what);
        st.add_prop(b.ctx, "what", w);
        if local {
            let u = b.ctx.unit_attr();
            st.add_prop(b.ctx, "local", u);
        }
        BoundsCheckOp(b.insert(st))
    }

    /// The checked indices: the first half of the operands.
    pub fn indices(self, ctx: &Context) -> Vec<Value> {
        let all = self.bounds(ctx);
        all[..all.len() / 2].to_vec()
    }

    /// The extents, one per index: the second half of the operands.
    pub fn extents(self, ctx: &Context) -> Vec<Value> {
        let all = self.bounds(ctx);
        all[all.len() / 2..].to_vec()
    }

    /// Whether the message is a local array's (`index k is out of bounds for local array '..'
    /// of length n`) rather than an array's (`index [i, j] is out of bounds for .. of shape
    /// [n0, n1]`).
    pub fn is_local(self, ctx: &Context) -> bool {
        ctx.prop(self.0, "local").is_some()
    }
}

fn same(_: &mut Context, t: Type) -> Type {
    t
}

fn type_str(ctx: &Context, t: Type) -> String {
    qd_ir::text::type_to_string(ctx, t)
}

/// The pointee of operand `i` (a pointer by the declaration), which must be a scalar.
fn scalar_pointee(ctx: &Context, op: OpId, i: usize) -> DiagResult<Type> {
    let t = ctx.value_type(ctx.operand(op, i));
    let p = PtrType::from_type(ctx, t).map_or(t, |p| p.pointee(ctx));
    if !is_scalar(ctx, p) {
        return Err(err(
            ctx,
            op,
            format!("expects a pointer to a scalar, got {}", type_str(ctx, t)),
        ));
    }
    Ok(p)
}

fn verify_offset(ctx: &Context, op: OpId) -> DiagResult<()> {
    scalar_pointee(ctx, op, 0)?;
    let (b, r) = (
        ctx.value_type(ctx.operand(op, 0)),
        ctx.value_type(ctx.result(op, 0)),
    );
    if b != r {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the result type {} to be the base's, got {}",
                type_str(ctx, b),
                type_str(ctx, r)
            ),
        ));
    }
    Ok(())
}

/// `got`, the type of the op's `what`, must be the pointee type.
fn expect_pointee(ctx: &Context, op: OpId, pointee: Type, got: Type, what: &str) -> DiagResult<()> {
    if got != pointee {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the {what} type to be the pointee type {}, got {}",
                type_str(ctx, pointee),
                type_str(ctx, got)
            ),
        ));
    }
    Ok(())
}

fn verify_load(ctx: &Context, op: OpId) -> DiagResult<()> {
    let p = scalar_pointee(ctx, op, 0)?;
    expect_pointee(ctx, op, p, ctx.value_type(ctx.result(op, 0)), "result")
}

fn verify_store(ctx: &Context, op: OpId) -> DiagResult<()> {
    let p = scalar_pointee(ctx, op, 1)?;
    expect_pointee(ctx, op, p, ctx.value_type(ctx.operand(op, 0)), "value")
}

fn verify_atomic(ctx: &Context, op: OpId) -> DiagResult<()> {
    let p = scalar_pointee(ctx, op, 1)?;
    expect_pointee(ctx, op, p, ctx.value_type(ctx.operand(op, 0)), "value")?;
    expect_pointee(ctx, op, p, ctx.value_type(ctx.result(op, 0)), "result")
}

/// The pointee of the (private pointer) operand 0.
fn base_pointee(ctx: &Context, op: OpId) -> Type {
    let t = ctx.value_type(ctx.operand(op, 0));
    PtrType::from_type(ctx, t).map_or(t, |p| p.pointee(ctx))
}

fn expect_result_ptr(ctx: &Context, op: OpId, to: Type, what: &str) -> DiagResult<()> {
    let r = ctx.value_type(ctx.result(op, 0));
    let ok = PtrType::from_type(ctx, r).is_some_and(|p| p.pointee(ctx) == to && p.is_private(ctx));
    if !ok {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a private pointer to the {what} type {}, got {}",
                type_str(ctx, to),
                type_str(ctx, r)
            ),
        ));
    }
    Ok(())
}

fn verify_elem_ptr(ctx: &Context, op: OpId) -> DiagResult<()> {
    let base = base_pointee(ctx, op);
    let Some(a) = ArrayType::from_type(ctx, base) else {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a pointer to a !qd.array, got a pointer to {}",
                type_str(ctx, base)
            ),
        ));
    };
    expect_result_ptr(ctx, op, a.elem(ctx), "element")
}

fn verify_member_ptr(ctx: &Context, op: OpId) -> DiagResult<()> {
    let base = base_pointee(ctx, op);
    let Some(s) = StructType::from_type(ctx, base) else {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a pointer to a !qd.struct, got a pointer to {}",
                type_str(ctx, base)
            ),
        ));
    };
    let i = MemberPtrOp(op).index(ctx) as usize;
    let members = s.members(ctx);
    let Some(&m) = members.get(i) else {
        return Err(err(
            ctx,
            op,
            format!("expects a member index below {}, got {i}", members.len()),
        ));
    };
    expect_result_ptr(ctx, op, m, "member")
}

/// The member pointer type of member `index` of the struct `base` points to (None when it has
/// no such member).
pub fn member_ptr_type(ctx: &mut Context, base: Type, index: usize) -> Option<Type> {
    let p = PtrType::from_type(ctx, base)?;
    let m = StructType::from_type(ctx, p.pointee(ctx))?.member(ctx, index)?;
    Some(private_ptr(ctx, m))
}

/// `%s[K] {attrs} : base-type`: the result type is the member's pointer.
fn parse_member_ptr(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let base = p.parse_operand()?;
    p.parse_punct("[")?;
    let loc = p.current_loc();
    let index = p.parse_integer()?;
    p.parse_punct("]")?;
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    st.attributes.extend(attrs);
    p.parse_punct(":")?;
    let tloc = p.current_loc();
    let ty = p.parse_type()?;
    let k = usize::try_from(index).ok();
    let Some(result) = k.and_then(|k| member_ptr_type(p.ctx(), ty, k)) else {
        let t = type_str(p.ctx_ref(), ty);
        let at = if k.is_none() { loc } else { tloc };
        return Err(qd_ir::Diagnostic::error(
            at,
            format!("expected a private pointer to a !qd.struct with a member {index}, got {t}"),
        ));
    };
    st.operands = vec![p.resolve_operand(&base, ty)?];
    st.result_types.push(result);
    let i64t = p.ctx().i64_type();
    let a = p.ctx().integer_attr(index, i64t);
    st.add_prop(p.ctx(), "index", a);
    Ok(())
}

fn print_member_ptr(op: OpId, p: &mut dyn OpAsmPrinter) {
    let ctx = p.ctx();
    let base = (ctx.num_operands(op) > 0).then(|| ctx.operand(op, 0));
    let index: Option<Attribute> = ctx.prop(op, "index");
    p.write(" ");
    match base {
        Some(b) => p.print_operand(b),
        None => p.write("<<missing operand>>"),
    }
    p.write("[");
    match index {
        Some(a) => p.print_attribute_without_type(a),
        None => p.write("<<missing index>>"),
    }
    p.write("]");
    let ctx = p.ctx();
    let entries: Vec<(Ident, Attribute)> = ctx
        .properties(op)
        .iter()
        .filter(|(k, _)| ctx.ident_str(*k) != "index")
        .chain(ctx.attrs(op))
        .copied()
        .collect();
    p.print_optional_attr_dict(&entries, &[]);
    p.write(" : ");
    match base {
        Some(b) => {
            let t = p.ctx().value_type(b);
            p.print_type(t)
        }
        None => p.write("<<missing type>>"),
    }
}

fn verify_bounds_check(ctx: &Context, op: OpId) -> DiagResult<()> {
    let n = ctx.num_operands(op);
    if n == 0 {
        return Err(err(ctx, op, "expects at least one index and its extent"));
    }
    if !n.is_multiple_of(2) {
        return Err(err(
            ctx,
            op,
            format!("expects indices then as many extents, got {n} operands"),
        ));
    }
    if BoundsCheckOp(op).is_local(ctx) && n != 2 {
        return Err(err(
            ctx,
            op,
            format!(
                "expects one index with 'local' (a local array's), got {}",
                n / 2
            ),
        ));
    }
    Ok(())
}

/// `[%i, ...] in [%n, ...] {attrs} : i64`: the operands are the two lists, in order (their
/// counts are checked by the verifier); every operand has the type after `:`.
fn parse_bounds_check(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let mut names = p.parse_operand_list(Delimiter::Square)?;
    p.parse_keyword("in")?;
    names.extend(p.parse_operand_list(Delimiter::Square)?);
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    for (k, v) in entries {
        if matches!(p.ctx_ref().ident_str(k), "what" | "local") {
            st.properties.push((k, v));
        } else {
            st.attributes.push((k, v));
        }
    }
    p.parse_punct(":")?;
    let ty = p.parse_type()?;
    for n in &names {
        let v = p.resolve_operand(n, ty)?;
        st.operands.push(v);
    }
    Ok(())
}

/// Prints the first half of the operands as the indices and the rest as the extents (so that
/// even a malformed op reads back as the same operand list); `what`, then `local`, then any
/// other entries in the dictionary.
fn print_bounds_check(op: OpId, p: &mut dyn OpAsmPrinter) {
    let ctx = p.ctx();
    let all: Vec<Value> = ctx.operands(op).collect();
    let (indices, extents) = all.split_at(all.len() / 2);
    p.write(" [");
    p.print_operands(indices);
    p.write("] in [");
    p.print_operands(extents);
    p.write("]");
    let ctx = p.ctx();
    let key = |k: &Ident| ctx.ident_str(*k).to_string();
    let props = ctx.properties(op);
    let mut entries: Vec<(Ident, Attribute)> = Vec::new();
    for name in ["what", "local"] {
        entries.extend(props.iter().filter(|(k, _)| key(k) == name).copied());
    }
    entries.extend(
        props
            .iter()
            .filter(|(k, _)| !matches!(key(k).as_str(), "what" | "local"))
            .chain(ctx.attrs(op))
            .copied(),
    );
    p.print_optional_attr_dict(&entries, &[]);
    p.write(" : ");
    match all.first() {
        Some(&v) => {
            let t = p.ctx().value_type(v);
            p.print_type(t)
        }
        None => p.write("i64"),
    }
}
