//! Element-addressed access to local aggregates: `ad.load_element` and `ad.store_element`.
//!
//! ```text
//! %v = ad.load_element %arr[%i, 1, %j] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>
//! ad.store_element %v, %arr[%i, 1, %j] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>
//! ```
//!
//! The base is a pointer to a local array or struct (a `qd.alloca`); the path names one scalar
//! inside it, one entry per level: an array level takes an i32 value (`%i`) or a literal element
//! (`2`), a struct level a literal member (`1`). They read and write exactly what the
//! `qd.elem_ptr` / `qd.member_ptr` chain of the same path followed by `qd.local_load` /
//! `qd.local_store` would; `element-access-ad` makes them from such chains, so that
//! reverse-mode-ad sees each access of an aggregate as one addressed load or store (never the
//! whole aggregate as a value).
//!
//! Generic form, like `llvm.getelementptr`'s `rawConstantIndices`: the `path` property is an
//! `array<i64: ...>` with one entry per level, a literal index or [`DYNAMIC`] (MLIR's
//! `ShapedType::kDynamic`, i64::MIN) for an index taken from the next index operand:
//! `"ad.load_element"(%arr, %i, %j) <{path = array<i64: -9223372036854775808, 1,
//! -9223372036854775808>}> : (!qd.ptr<...>, i32, i32) -> f32`, and
//! `"ad.store_element"(%v, %arr, %i, %j) <{path = ...}> : (f32, !qd.ptr<...>, i32, i32) -> ()`.
//! Literal indices must be in bounds; a value index (even a constant) out of bounds is an error at
//! run time. `load_element` is READ_ONLY; `store_element` writes memory.

use crate::verify::*;
use qd_frontend::constraints::INDEX;
use qd_frontend::syntax::*;
use qd_frontend::types::is_scalar;
use qd_frontend::{ArrayType, PtrType, StructType};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter, UnresolvedOperand};
use qd_ir::op_def::{constraint, PropKind, PropSpec};
use qd_ir::{
    AttrData, Attribute, Builder, Context, DiagResult, Diagnostic, Location, OpId, OpInfo,
    OpTraits, OperationState, Type, Value,
};

/// The `path` entry of an index taken from an operand (MLIR's `ShapedType::kDynamic`).
pub const DYNAMIC: i64 = i64::MIN;
/// The name of the path property.
pub const PATH: &str = "path";

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![LoadElementOp::op_info(), StoreElementOp::op_info()]
}

/// The raw `path` property: `array<i64: ...>` (any integer element type is accepted) of literal
/// indices and [`DYNAMIC`] entries. Written inline with the index operands in the custom form.
pub struct Path;
impl PropKind for Path {
    const IRDL: qd_ir::irdl::Irdl = qd_ir::irdl::Irdl::Wider(
        &qd_ir::irdl::Irdl::Base("#builtin.dense_array"),
        "IRDL cannot require integer elements",
    );
    const SPEC: PropSpec = PropSpec {
        expected: "an array<i64: ...> of indices",
        check: |ctx, a| Path::get(ctx, a).is_some(),
        parse: |p| p.parse_attribute(None),
        print: |p, a| p.print_attribute(a),
        print_in_dict: |p, a| p.print_attribute(a),
    };
    type Value<'a> = Vec<i64>;
    fn get(ctx: &Context, a: Attribute) -> Option<Vec<i64>> {
        match ctx.attr_data(a) {
            AttrData::DenseIntArray { elem, values } if ctx.type_data(*elem).is_integer() => {
                Some(values.clone())
            }
            _ => None,
        }
    }
    fn make(ctx: &mut Context, raw: Vec<i64>) -> Attribute {
        path_attr(ctx, raw)
    }
}

qd_ir::declare_op! {
    /// `%v = ad.load_element %base[path] : !qd.ptr<...>`.
    pub struct LoadElementOp = "ad.load_element" {
        summary: "reads one scalar of a local array or struct",
        traits: [OpTraits::READ_ONLY],
        operands: [base: single(constraint::ANY), indices: variadic(INDEX)],
        results: [result: single(constraint::ANY)],
        properties: [path as _: required(Path)],
        builder: create,
        syntax: (parse_load, print_load),
        verify: verify_load,
    }
}

qd_ir::declare_op! {
    /// `ad.store_element %v, %base[path] : !qd.ptr<...>`.
    pub struct StoreElementOp = "ad.store_element" {
        summary: "writes one scalar of a local array or struct",
        operands: [value: single(constraint::ANY), base: single(constraint::ANY), indices: variadic(INDEX)],
        properties: [path as _: required(Path)],
        builder: create,
        syntax: (parse_store, print_store),
        verify: verify_store,
    }
}

/// One level of a path: a literal index, or an i32 value (array levels only).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PathIndex {
    Const(i64),
    Value(Value),
}

/// The type one level below `ty` for entry `index` (None when `ty` is not an aggregate or a
/// literal index is out of range).
fn step(ctx: &Context, ty: Type, index: Option<i64>) -> Option<Type> {
    if let Some(a) = ArrayType::from_type(ctx, ty) {
        return match index {
            Some(i) if i < 0 || i >= a.len(ctx) => None,
            _ => Some(a.elem(ctx)),
        };
    }
    let s = StructType::from_type(ctx, ty)?;
    s.member(ctx, usize::try_from(index?).ok()?)
}

/// The scalar type `path` reaches inside `aggregate` (None when the path does not fit it).
pub fn element_type(ctx: &Context, aggregate: Type, path: &[PathIndex]) -> Option<Type> {
    let mut ty = aggregate;
    for p in path {
        let lit = match p {
            PathIndex::Const(c) => Some(*c),
            PathIndex::Value(_) => None,
        };
        ty = step(ctx, ty, lit)?;
    }
    is_scalar(ctx, ty).then_some(ty)
}

/// The raw `path` property and the index operands of `path`.
fn encode(path: &[PathIndex]) -> (Vec<i64>, Vec<Value>) {
    let mut raw = Vec::with_capacity(path.len());
    let mut dynamic = Vec::new();
    for p in path {
        match *p {
            PathIndex::Const(c) => raw.push(c),
            PathIndex::Value(v) => {
                raw.push(DYNAMIC);
                dynamic.push(v);
            }
        }
    }
    (raw, dynamic)
}

fn path_attr(ctx: &mut Context, raw: Vec<i64>) -> qd_ir::Attribute {
    let elem = ctx.i64_type();
    ctx.intern_attr(AttrData::DenseIntArray { elem, values: raw })
}

/// The raw `path` property of an op (empty when missing or malformed).
fn raw_path(ctx: &Context, op: OpId) -> Vec<i64> {
    match ctx.prop(op, PATH).map(|a| ctx.attr_data(a)) {
        Some(AttrData::DenseIntArray { values, .. }) => values.clone(),
        _ => Vec::new(),
    }
}

/// The path of an op whose index operands start at operand `first`.
fn path_of(ctx: &Context, op: OpId, first: usize) -> Vec<PathIndex> {
    let mut next = first;
    raw_path(ctx, op)
        .into_iter()
        .map(|r| {
            if r == DYNAMIC && next < ctx.num_operands(op) {
                next += 1;
                PathIndex::Value(ctx.operand(op, next - 1))
            } else {
                PathIndex::Const(r)
            }
        })
        .collect()
}

fn pointee_type(ctx: &Context, base: Value) -> Type {
    let t = ctx.value_type(base);
    PtrType::from_type(ctx, t)
        .map(|p| p.pointee(ctx))
        .unwrap_or(t)
}

// ----- wrappers and builders ---------------------------------------------------------------

impl LoadElementOp {
    /// Creates the load; its result has the scalar type `path` reaches (the base's pointee type
    /// when the path does not fit it, which the verifier reports).
    pub fn build(b: &mut Builder, base: Value, path: &[PathIndex], loc: Location) -> Self {
        let agg = pointee_type(b.ctx, base);
        let ty = element_type(b.ctx, agg, path).unwrap_or(agg);
        let (raw, dynamic) = encode(path);
        LoadElementOp::create(b, base, &dynamic, ty, raw, loc)
    }
    pub fn path(self, ctx: &Context) -> Vec<PathIndex> {
        path_of(ctx, self.0, 1)
    }
}

impl StoreElementOp {
    pub fn build(
        b: &mut Builder,
        value: Value,
        base: Value,
        path: &[PathIndex],
        loc: Location,
    ) -> Self {
        let (raw, dynamic) = encode(path);
        StoreElementOp::create(b, value, base, &dynamic, raw, loc)
    }
    pub fn path(self, ctx: &Context) -> Vec<PathIndex> {
        path_of(ctx, self.0, 2)
    }
}

/// The base pointer and the path of an `ad.load_element` or `ad.store_element`.
pub fn element_access(ctx: &Context, op: OpId) -> Option<(Value, Vec<PathIndex>)> {
    if let Some(l) = LoadElementOp::from_op(ctx, op) {
        return (ctx.num_operands(op) >= 1).then(|| (l.base(ctx), l.path(ctx)));
    }
    let s = StoreElementOp::from_op(ctx, op)?;
    (ctx.num_operands(op) >= 2).then(|| (s.base(ctx), s.path(ctx)))
}

/// Creates `ad.load_element base[path]` and returns the loaded value.
pub fn build_load_element(
    b: &mut Builder,
    base: Value,
    path: &[PathIndex],
    loc: Location,
) -> Value {
    let op = LoadElementOp::build(b, base, path, loc);
    op.result(b.ctx)
}

/// Creates `ad.store_element value, base[path]`.
pub fn build_store_element(
    b: &mut Builder,
    value: Value,
    base: Value,
    path: &[PathIndex],
    loc: Location,
) -> OpId {
    StoreElementOp::build(b, value, base, path, loc).0
}

// ----- verifiers -----------------------------------------------------------------------------

/// Checks the base, the path and the index operands (from operand `first`); returns the scalar
/// type the path reaches.
fn check_access(ctx: &Context, op: OpId, base: Value, first: usize) -> DiagResult<Type> {
    let bty = ctx.value_type(base);
    let Some(ptr) = PtrType::from_type(ctx, bty) else {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the base to be a !qd.ptr to a local array or struct, got {}",
                type_str(ctx, bty)
            ),
        ));
    };
    if let Err(m) = qd_frontend::verify_type(ctx, bty) {
        return Err(err(ctx, op, format!("has an invalid base type: {m}")));
    }
    let mut ty = ptr.pointee(ctx);
    if ArrayType::from_type(ctx, ty).is_none() && StructType::from_type(ctx, ty).is_none() {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the base to point to a local array or struct, got a pointer to {}",
                type_str(ctx, ty)
            ),
        ));
    }
    // The structure has checked that the path is present and well-formed.
    let raw = ctx
        .prop(op, PATH)
        .and_then(|a| Path::get(ctx, a))
        .unwrap_or_default();
    if raw.is_empty() {
        return Err(err(ctx, op, "expects a non-empty path"));
    }
    let dynamic = raw.iter().filter(|&&r| r == DYNAMIC).count();
    let got = ctx.num_operands(op) - first;
    if got != dynamic {
        return Err(err(
            ctx,
            op,
            format!("expects one index operand per dynamic path entry ({dynamic}), got {got}"),
        ));
    }
    let mut next = first;
    for (level, &r) in raw.iter().enumerate() {
        if let Some(a) = ArrayType::from_type(ctx, ty) {
            let len = a.len(ctx);
            let lit = if r == DYNAMIC {
                let v = ctx.operand(op, next);
                next += 1;
                let vt = ctx.value_type(v);
                if !is_i32(ctx, vt) {
                    return Err(err(
                        ctx,
                        op,
                        format!(
                            "expects the index of path entry {level} to be i32, got {}",
                            type_str(ctx, vt)
                        ),
                    ));
                }
                // A value index out of bounds is an error at run time, even a constant one:
                // folding may make a constant of it after the op verified (as qd's indices).
                None
            } else {
                Some(r)
            };
            if let Some(c) = lit.filter(|&c| c < 0 || c >= len) {
                return Err(err(
                    ctx,
                    op,
                    format!(
                        "path entry {level} is out of bounds: {c} is not in [0, {len}) for {}",
                        type_str(ctx, ty)
                    ),
                ));
            }
            ty = a.elem(ctx);
        } else if let Some(s) = StructType::from_type(ctx, ty) {
            let n = s.members(ctx).len();
            if r == DYNAMIC {
                return Err(err(
                    ctx,
                    op,
                    format!("path entry {level} addresses a struct member: it must be a literal, not a value"),
                ));
            }
            let Some(m) = usize::try_from(r).ok().and_then(|i| s.member(ctx, i)) else {
                return Err(err(
                    ctx,
                    op,
                    format!(
                        "path entry {level} is out of bounds: member {r} of a struct of {n} members"
                    ),
                ));
            };
            ty = m;
        } else {
            return Err(err(
                ctx,
                op,
                format!(
                    "has a path of {} entries, but {} has only {level} levels",
                    raw.len(),
                    type_str(ctx, ptr.pointee(ctx))
                ),
            ));
        }
    }
    if !is_scalar(ctx, ty) {
        return Err(err(
            ctx,
            op,
            format!(
                "expects the path to reach a scalar, but it stops at {}",
                type_str(ctx, ty)
            ),
        ));
    }
    Ok(ty)
}

fn verify_load(ctx: &Context, op: OpId) -> DiagResult<()> {
    let elem = check_access(ctx, op, ctx.operand(op, 0), 1)?;
    check_elem(
        ctx,
        op,
        elem,
        ctx.value_type(ctx.result(op, 0)),
        "result",
        "addressed",
    )
}

fn verify_store(ctx: &Context, op: OpId) -> DiagResult<()> {
    let elem = check_access(ctx, op, ctx.operand(op, 1), 2)?;
    check_elem(
        ctx,
        op,
        elem,
        ctx.value_type(ctx.operand(op, 0)),
        "value",
        "addressed",
    )
}

// ----- syntax ------------------------------------------------------------------------------

/// A parsed path entry: a value or a literal.
enum RawEntry {
    Value(UnresolvedOperand),
    Const(i64),
}

/// `[entry, ...]` where an entry is `%v` or an integer literal.
fn parse_path(p: &mut dyn OpAsmParser) -> DiagResult<Vec<RawEntry>> {
    p.parse_punct("[")?;
    let mut out = Vec::new();
    if p.parse_optional_punct("]") {
        return Ok(out);
    }
    loop {
        if let Some(v) = p.parse_optional_operand()? {
            out.push(RawEntry::Value(v));
        } else if let Some(c) = p.parse_optional_integer()? {
            out.push(RawEntry::Const(c));
        } else {
            return Err(p.error("expected an SSA value or an integer literal in the path"));
        }
        if p.parse_optional_punct("]") {
            return Ok(out);
        }
        p.parse_punct(",")?;
    }
}

/// `: !qd.ptr<aggregate>` and the scalar type the path reaches (a parse error otherwise, since
/// the value's type comes from it).
fn parse_base_type(p: &mut dyn OpAsmParser, path: &[RawEntry]) -> DiagResult<(Type, Type)> {
    p.parse_punct(":")?;
    let loc = p.current_loc();
    let t = p.parse_type()?;
    let ctx = p.ctx_ref();
    let Some(ptr) = PtrType::from_type(ctx, t) else {
        return Err(Diagnostic::error(
            loc,
            "expected a !qd.ptr to a local array or struct",
        ));
    };
    let mut ty = ptr.pointee(ctx);
    for e in path {
        let lit = match e {
            RawEntry::Const(c) => Some(*c),
            RawEntry::Value(_) => None,
        };
        match step(ctx, ty, lit) {
            Some(n) => ty = n,
            None => {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "the path does not fit {}: one entry per level, values for array elements, literals for struct members",
                        type_str(ctx, ptr.pointee(ctx))
                    ),
                ))
            }
        }
    }
    if !is_scalar(ctx, ty) {
        return Err(Diagnostic::error(
            loc,
            format!("the path stops at {}, not at a scalar", type_str(ctx, ty)),
        ));
    }
    Ok((t, ty))
}

/// Resolves the path's values as i32 and sets the `path` property.
fn finish_path(
    p: &mut dyn OpAsmParser,
    st: &mut OperationState,
    path: Vec<RawEntry>,
) -> DiagResult<()> {
    let mut raw = Vec::with_capacity(path.len());
    let mut values = Vec::new();
    for e in path {
        match e {
            RawEntry::Const(c) => raw.push(c),
            RawEntry::Value(v) => {
                raw.push(DYNAMIC);
                values.push(v);
            }
        }
    }
    st.operands.extend(resolve_i32(p, &values)?);
    let attr = path_attr(p.ctx(), raw);
    st.add_prop(p.ctx(), PATH, attr);
    Ok(())
}

fn parse_load(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let base = p.parse_operand()?;
    let path = parse_path(p)?;
    parse_attrs(p, st)?;
    let (t, elem) = parse_base_type(p, &path)?;
    st.operands = vec![p.resolve_operand(&base, t)?];
    st.result_types.push(elem);
    finish_path(p, st, path)
}

fn parse_store(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let value = p.parse_operand()?;
    p.parse_punct(",")?;
    let base = p.parse_operand()?;
    let path = parse_path(p)?;
    parse_attrs(p, st)?;
    let (t, elem) = parse_base_type(p, &path)?;
    st.operands = p.resolve_operands(&[value, base], &[elem, t])?;
    finish_path(p, st, path)
}

/// `%base[entries]` as the op holds them (defensively: a malformed op still prints).
fn print_access(p: &mut dyn OpAsmPrinter, op: OpId, base_index: usize) {
    let base = operand(p, op, base_index);
    print_opt_value(p, base);
    p.write("[");
    let raw = raw_path(p.ctx(), op);
    let mut next = base_index + 1;
    for (k, r) in raw.into_iter().enumerate() {
        if k > 0 {
            p.write(", ");
        }
        if r == DYNAMIC {
            match operand(p, op, next) {
                Some(v) => p.print_operand(v),
                None => p.write("<<missing index>>"),
            }
            next += 1;
        } else {
            p.write(&r.to_string());
        }
    }
    p.write("]");
    print_attrs(p, op);
    let ty = base.map(|b| p.ctx().value_type(b));
    print_colon_type(p, ty);
}

fn print_load(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    print_access(p, op, 0);
}

fn print_store(op: OpId, p: &mut dyn OpAsmPrinter) {
    p.write(" ");
    let v = operand(p, op, 0);
    print_opt_value(p, v);
    p.write(", ");
    print_access(p, op, 1);
}
