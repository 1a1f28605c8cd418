//! `qd.ir.Builder`: emits qd, arith and math ops into a `qd.ir.Module` without text, for front
//! ends. Types are `qd.ir.Type` values (context-free descriptions, made in the module's context
//! when used); SSA values are `qd.ir.Value`s. Ops with a body (`kernel`, `range_for`,
//! `struct_for`, `if_`) open a scope that `end()` closes; `qd/ir.py` wraps them in `with`
//! blocks. Misuse (a value of another module, no open kernel) raises `qd.BuilderError`; typing
//! mistakes are left to the verifier, which reports them located at the builder's current
//! location (`set_loc`).

use crate::errors::{qd_err, ErrorKind};
use crate::ir::Module;
use pyo3::prelude::*;
use qd_arith::{CmpFPredicate, CmpIPredicate};
use qd_frontend::{pointee_of, AllocaOp, FieldOp, IfOp, NdarrayType, RangeForOp, StructForOp};
use qd_ir::{
    BlockId, Builder as IrBuilder, Context, InsertPoint, LocData, Location, OpId, OperationState,
    Type,
};

/// An element or value type, independent of any context.
#[pyclass(module = "qd.ir", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TypeSpec {
    kind: Kind,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Kind {
    Int(u32),
    Index,
    F32,
    F64,
    Ndarray(Box<Kind>, usize),
    Ptr(Box<Kind>),
    Array(i64, Box<Kind>),
}

impl Kind {
    fn text(&self) -> String {
        match self {
            Kind::Int(w) => format!("i{w}"),
            Kind::Index => "index".into(),
            Kind::F32 => "f32".into(),
            Kind::F64 => "f64".into(),
            Kind::Ndarray(e, r) => format!("!qd.ndarray<{}{}>", "?x".repeat(*r), e.text()),
            Kind::Ptr(e) => format!("!qd.ptr<{}>", e.text()),
            Kind::Array(n, e) => format!("!qd.array<{n}x{}>", e.text()),
        }
    }

    fn make(&self, ctx: &mut Context) -> Type {
        match self {
            Kind::Int(w) => ctx.integer_type(*w),
            Kind::Index => ctx.index_type(),
            Kind::F32 => ctx.f32_type(),
            Kind::F64 => ctx.f64_type(),
            Kind::Ndarray(e, r) => {
                let e = e.make(ctx);
                qd_frontend::ndarray_type(ctx, *r, e)
            }
            Kind::Ptr(e) => {
                let e = e.make(ctx);
                qd_frontend::ptr_type(ctx, e)
            }
            Kind::Array(n, e) => {
                let e = e.make(ctx);
                qd_frontend::array_type(ctx, *n, e)
            }
        }
    }

    fn is_scalar(&self) -> bool {
        matches!(self, Kind::Int(_) | Kind::Index | Kind::F32 | Kind::F64)
    }
}

/// The scalar type named `name`: i1, i8, i16, i32, i64, index, f32, f64.
fn scalar_kind(name: &str) -> Option<Kind> {
    Some(match name {
        "i1" | "bool" => Kind::Int(1),
        "i8" => Kind::Int(8),
        "i16" => Kind::Int(16),
        "i32" => Kind::Int(32),
        "i64" => Kind::Int(64),
        "index" => Kind::Index,
        "f32" => Kind::F32,
        "f64" => Kind::F64,
        _ => return None,
    })
}

/// A `Type`, or the name of a scalar type.
fn kind_of(py: Python<'_>, t: &Bound<'_, PyAny>) -> PyResult<Kind> {
    if let Ok(s) = t.cast::<TypeSpec>() {
        return Ok(s.get().kind.clone());
    }
    if let Ok(name) = t.extract::<String>() {
        if let Some(k) = scalar_kind(&name) {
            return Ok(k);
        }
        return Err(qd_err(
            py,
            ErrorKind::DType,
            format!("unknown scalar type '{name}' (i1, i8, i16, i32, i64, index, f32, f64)"),
        ));
    }
    Err(qd_err(
        py,
        ErrorKind::DType,
        "expected a qd.ir.Type or a scalar type name such as 'f32'",
    ))
}

#[pymethods]
impl TypeSpec {
    /// A scalar type by name: i1, i8, i16, i32, i64, index, f32, f64.
    #[staticmethod]
    fn scalar(py: Python<'_>, name: &str) -> PyResult<TypeSpec> {
        scalar_kind(name)
            .map(|kind| TypeSpec { kind })
            .ok_or_else(|| {
                qd_err(
                    py,
                    ErrorKind::DType,
                    format!("unknown scalar type '{name}'"),
                )
            })
    }
    /// `!qd.ndarray<?x...xelem>` of rank `rank`.
    #[staticmethod]
    fn ndarray(py: Python<'_>, elem: &Bound<'_, PyAny>, rank: usize) -> PyResult<TypeSpec> {
        let e = kind_of(py, elem)?;
        if !e.is_scalar() {
            return Err(qd_err(py, ErrorKind::DType, "an ndarray holds scalars"));
        }
        Ok(TypeSpec {
            kind: Kind::Ndarray(Box::new(e), rank),
        })
    }
    /// `!qd.ptr<pointee>`, the type of a local (`Builder.alloca`).
    #[staticmethod]
    fn ptr(py: Python<'_>, pointee: &Bound<'_, PyAny>) -> PyResult<TypeSpec> {
        Ok(TypeSpec {
            kind: Kind::Ptr(Box::new(kind_of(py, pointee)?)),
        })
    }
    /// `!qd.array<NxT>`, a local array (`Builder.alloca`).
    #[staticmethod]
    fn array(py: Python<'_>, n: i64, elem: &Bound<'_, PyAny>) -> PyResult<TypeSpec> {
        Ok(TypeSpec {
            kind: Kind::Array(n, Box::new(kind_of(py, elem)?)),
        })
    }
    fn __str__(&self) -> String {
        self.kind.text()
    }
    fn __repr__(&self) -> String {
        format!("qd.ir.Type('{}')", self.kind.text())
    }
}

/// An SSA value of a module being built.
#[pyclass(module = "qd.ir", frozen)]
#[derive(Clone)]
pub struct Value {
    v: qd_ir::Value,
    module: u64,
    ty: String,
}

#[pymethods]
impl Value {
    /// The value's type, as MLIR text.
    #[getter]
    fn r#type(&self) -> String {
        self.ty.clone()
    }
    fn __repr__(&self) -> String {
        format!("<qd.ir.Value : {}>", self.ty)
    }
}

/// One open op with a body.
struct Scope {
    op: OpId,
    kind: &'static str,
    block: BlockId,
}

#[pyclass(module = "qd.ir", unsendable, subclass)]
pub struct Builder {
    module: Py<Module>,
    scopes: Vec<Scope>,
    loc: Option<(String, u32, u32)>,
}

type Res<T> = PyResult<T>;

impl Builder {
    fn err(py: Python<'_>, msg: impl Into<String>) -> PyErr {
        qd_err(py, ErrorKind::Builder, msg)
    }

    /// Runs `f` with the module, a builder at the end of the innermost open block (the
    /// module's body outside any scope), and the current location.
    fn with<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut IrBuilder, Location, u64) -> Res<T>,
    ) -> Res<T> {
        let mut m = self.module.borrow_mut(py);
        let uid = m.uid;
        let block = match self.scopes.last() {
            Some(s) => s.block,
            None => qd_ir::builtin::module_body(&m.ctx, m.op),
        };
        let loc = match &self.loc {
            Some((f, l, c)) => m.ctx.file_loc(f, *l, *c),
            None => m.ctx.unknown_loc(),
        };
        let mut b = IrBuilder::new(&mut m.ctx, InsertPoint::AtEnd(block));
        f(&mut b, loc, uid)
    }

    fn in_kernel(&self, py: Python<'_>, what: &str) -> Res<()> {
        if self.scopes.is_empty() {
            return Err(Self::err(py, format!("{what} must be inside a kernel")));
        }
        Ok(())
    }

    fn value(ctx: &Context, v: qd_ir::Value, module: u64) -> Value {
        Value {
            v,
            module,
            ty: qd_ir::text::type_to_string(ctx, ctx.value_type(v)),
        }
    }
}

fn raw(py: Python<'_>, v: &Value, uid: u64) -> Res<qd_ir::Value> {
    if v.module != uid {
        return Err(Builder::err(py, "a value of another module"));
    }
    Ok(v.v)
}

fn raws(py: Python<'_>, vs: &[Value], uid: u64) -> Res<Vec<qd_ir::Value>> {
    vs.iter().map(|v| raw(py, v, uid)).collect()
}

fn insert_value(b: &mut IrBuilder, st: OperationState, uid: u64) -> Value {
    let v = b.insert_value(st);
    Builder::value(b.ctx, v, uid)
}

/// The element type of field `name` in the module being built.
fn field_elem(py: Python<'_>, ctx: &Context, module: OpId, name: &str) -> Res<Type> {
    let body = qd_ir::builtin::module_body(ctx, module);
    ctx.block_ops(body)
        .filter_map(|op| FieldOp::from_op(ctx, op))
        .find(|f| f.name(ctx) == name)
        .map(|f| f.elem(ctx))
        .ok_or_else(|| {
            qd_err(
                py,
                ErrorKind::UnknownName,
                format!(
                    "no field '{name}' declared in this module (declare it with Builder.field)"
                ),
            )
        })
}

#[pymethods]
impl Builder {
    #[new]
    fn new(module: Py<Module>) -> Builder {
        Builder {
            module,
            scopes: Vec::new(),
            loc: None,
        }
    }

    /// The location of the ops built from now on (diagnostics point there).
    fn set_loc(&mut self, file: String, line: u32, column: u32) {
        self.loc = Some((file, line, column));
    }

    /// How many scopes are open.
    #[getter]
    fn depth(&self) -> usize {
        self.scopes.len()
    }

    /// Declares `qd.field @name : !qd.field<shape x dtype>` (before any kernel that uses it).
    #[pyo3(signature = (name, shape, dtype, needs_grad = false))]
    fn field(
        &self,
        py: Python<'_>,
        name: &str,
        shape: Vec<i64>,
        dtype: &Bound<'_, PyAny>,
        needs_grad: bool,
    ) -> Res<()> {
        if !self.scopes.is_empty() {
            return Err(Self::err(py, "fields are declared outside kernels"));
        }
        let k = kind_of(py, dtype)?;
        if !k.is_scalar() {
            return Err(qd_err(py, ErrorKind::DType, "a field holds scalars"));
        }
        self.with(py, |b, loc, _| {
            let elem = k.make(b.ctx);
            let ty = qd_frontend::field_type(b.ctx, &shape, elem);
            FieldOp::build(b, name, ty, needs_grad, loc);
            Ok(())
        })
    }

    /// Opens `qd.kernel @name(params)`; `params` is a list of (name, type). Returns the
    /// parameters' values. Parameter names are kept as name locations, so
    /// `prog.kernel(name)(a=...)` finds them.
    fn begin_kernel(
        &mut self,
        py: Python<'_>,
        name: &str,
        params: Vec<(String, Bound<'_, PyAny>)>,
    ) -> Res<Vec<Value>> {
        if !self.scopes.is_empty() {
            return Err(Self::err(
                py,
                "kernels do not nest: end() the open one first",
            ));
        }
        let kinds: Vec<(String, Kind)> = params
            .iter()
            .map(|(n, t)| Ok((n.clone(), kind_of(py, t)?)))
            .collect::<Res<_>>()?;
        let (op, block, values) = self.with(py, |b, loc, uid| {
            let mut args = Vec::new();
            for (n, k) in &kinds {
                let ty = k.make(b.ctx);
                let ident = b.ctx.ident(n);
                let nl = b.ctx.intern_loc(LocData::Name {
                    name: ident,
                    child: Some(loc),
                });
                args.push((ty, nl));
            }
            let tys: Vec<Type> = args.iter().map(|a| a.0).collect();
            let (region, block) = b.ctx.create_region_with_block(&args);
            let sym = b.ctx.string_attr(name);
            let ft = b.ctx.function_type(tys, vec![]);
            let fta = b.ctx.type_attr(ft);
            let st = OperationState::new(qd_frontend::KernelOp::NAME, loc)
                .prop(b.ctx, "sym_name", sym)
                .prop(b.ctx, "function_type", fta)
                .region(region);
            let op = b.insert(st);
            let vals = b
                .ctx
                .block_args(block)
                .to_vec()
                .into_iter()
                .map(|v| Builder::value(b.ctx, v, uid))
                .collect();
            Ok((op, block, vals))
        })?;
        self.scopes.push(Scope {
            op,
            kind: "kernel",
            block,
        });
        Ok(values)
    }

    /// Opens `qd.range_for %i = lower to upper` (a parallel loop at the kernel's top level, a
    /// serial one inside another); returns the induction variable.
    fn begin_range_for(&mut self, py: Python<'_>, lower: Value, upper: Value) -> Res<Value> {
        self.in_kernel(py, "range_for")?;
        let (op, block, iv) = self.with(py, |b, loc, uid| {
            let (lo, hi) = (raw(py, &lower, uid)?, raw(py, &upper, uid)?);
            let r = RangeForOp::build(b, lo, hi, loc);
            let iv = r.induction_var(b.ctx);
            Ok((r.0, r.body(b.ctx), Builder::value(b.ctx, iv, uid)))
        })?;
        self.scopes.push(Scope {
            op,
            kind: "range_for",
            block,
        });
        Ok(iv)
    }

    /// Opens `qd.struct_for (...) in @field`, a parallel loop over every element of a field;
    /// returns one i32 index per dimension.
    fn begin_struct_for(&mut self, py: Python<'_>, field: &str) -> Res<Vec<Value>> {
        self.in_kernel(py, "struct_for")?;
        let module = self.module.borrow(py).op;
        let (op, block, ivs) = self.with(py, |b, loc, uid| {
            let body = qd_ir::builtin::module_body(b.ctx, module);
            let ctx = &*b.ctx;
            let rank = ctx
                .block_ops(body)
                .filter_map(|op| FieldOp::from_op(ctx, op))
                .find(|f| f.name(ctx) == field)
                .map(|f| f.shape(ctx).len())
                .ok_or_else(|| {
                    qd_err(
                        py,
                        ErrorKind::UnknownName,
                        format!("no field '{field}' declared in this module"),
                    )
                })?;
            let s = StructForOp::build(b, field, rank, loc);
            let body = s.ensure_body(b.ctx);
            let ivs = b
                .ctx
                .block_args(body)
                .to_vec()
                .into_iter()
                .map(|v| Builder::value(b.ctx, v, uid))
                .collect();
            Ok((s.0, body, ivs))
        })?;
        self.scopes.push(Scope {
            op,
            kind: "struct_for",
            block,
        });
        Ok(ivs)
    }

    /// Opens `qd.if %cond` (its then block); `begin_else()` moves to the else block.
    #[pyo3(signature = (cond, with_else = false))]
    fn begin_if(&mut self, py: Python<'_>, cond: Value, with_else: bool) -> Res<()> {
        self.in_kernel(py, "if")?;
        let (op, block) = self.with(py, |b, loc, uid| {
            let c = raw(py, &cond, uid)?;
            let op = IfOp::build(b, c, with_else, loc).0;
            let block = b
                .ctx
                .region_entry_block(op, 0)
                .expect("qd.if is built with a then block");
            Ok((op, block))
        })?;
        self.scopes.push(Scope {
            op,
            kind: "if",
            block,
        });
        Ok(())
    }

    /// Moves from the then block of the innermost open `qd.if` (built `with_else=True`) to its
    /// else block.
    fn begin_else(&mut self, py: Python<'_>) -> Res<()> {
        let m = self.module.borrow(py);
        let Some(top) = self.scopes.last() else {
            return Err(Self::err(py, "else without an open if"));
        };
        if top.kind != "if" {
            return Err(Self::err(
                py,
                format!("else inside an open {}, not an if", top.kind),
            ));
        }
        let Some(else_block) = m.ctx.region_entry_block(top.op, 1) else {
            return Err(Self::err(
                py,
                "this if was opened without an else block (with_else=True)",
            ));
        };
        if else_block == top.block {
            return Err(Self::err(py, "already in the else block"));
        }
        drop(m);
        let top = self.scopes.last_mut().expect("checked above");
        top.block = else_block;
        top.kind = "else";
        Ok(())
    }

    /// Closes the innermost open scope; returns its kind.
    fn end(&mut self, py: Python<'_>) -> Res<&'static str> {
        self.scopes
            .pop()
            .map(|s| s.kind)
            .ok_or_else(|| Self::err(py, "end() without an open kernel, loop or if"))
    }

    /// `arith.constant value : dtype` (a Python int, float or bool).
    fn constant(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
        dtype: &Bound<'_, PyAny>,
    ) -> Res<Value> {
        self.in_kernel(py, "constant")?;
        let k = kind_of(py, dtype)?;
        self.with(py, |b, loc, uid| {
            let ty = k.make(b.ctx);
            let attr = match k {
                Kind::F32 | Kind::F64 => b.ctx.float_attr(value.extract::<f64>()?, ty),
                Kind::Int(1) => {
                    let v: bool = value.extract()?;
                    b.ctx.bool_attr(v)
                }
                Kind::Int(_) | Kind::Index => {
                    let v: i64 = value.extract().map_err(|_| {
                        qd_err(
                            py,
                            ErrorKind::DType,
                            format!("an integer constant of type {} needs an int", k.text()),
                        )
                    })?;
                    qd_arith::consts::int_attr(b.ctx, v, ty)
                }
                _ => return Err(qd_err(py, ErrorKind::DType, "constants are scalars")),
            };
            let st = qd_arith::materialize_constant(b.ctx, attr, ty, loc).ok_or_else(|| {
                qd_err(
                    py,
                    ErrorKind::DType,
                    format!("not a constant of type {}", k.text()),
                )
            })?;
            Ok(insert_value(b, st, uid))
        })
    }

    /// An elementwise arith or math op by name, e.g. `op("arith.addf", x, y)` or
    /// `op("math.sin", x)`: the result has the first operand's type.
    #[pyo3(signature = (name, *operands))]
    fn op(&self, py: Python<'_>, name: &str, operands: Vec<Value>) -> Res<Value> {
        self.in_kernel(py, name)?;
        if !(name.starts_with("arith.") || name.starts_with("math.")) {
            return Err(Self::err(
                py,
                format!("'{name}': op() builds arith and math ops; qd ops have their own methods"),
            ));
        }
        if operands.is_empty() {
            return Err(Self::err(py, format!("'{name}' needs operands")));
        }
        self.with(py, |b, loc, uid| {
            if b.ctx.lookup_op_info(name).is_none() {
                return Err(qd_err(
                    py,
                    ErrorKind::UnknownName,
                    format!("no registered op '{name}'"),
                ));
            }
            let vs = raws(py, &operands, uid)?;
            let v = qd_arith::build_elementwise(b, name, &vs, loc);
            Ok(Builder::value(b.ctx, v, uid))
        })
    }

    /// A cast such as `cast("arith.sitofp", x, "f32")`.
    fn cast(&self, py: Python<'_>, name: &str, x: Value, to: &Bound<'_, PyAny>) -> Res<Value> {
        self.in_kernel(py, name)?;
        let k = kind_of(py, to)?;
        self.with(py, |b, loc, uid| {
            if b.ctx.lookup_op_info(name).is_none() {
                return Err(qd_err(
                    py,
                    ErrorKind::UnknownName,
                    format!("no registered op '{name}'"),
                ));
            }
            let xv = raw(py, &x, uid)?;
            let ty = k.make(b.ctx);
            let v = qd_arith::build_cast(b, name, xv, ty, loc);
            Ok(Builder::value(b.ctx, v, uid))
        })
    }

    /// `arith.cmpf` with a predicate name (`olt`, `oge`, ...).
    fn cmpf(&self, py: Python<'_>, predicate: &str, lhs: Value, rhs: Value) -> Res<Value> {
        self.in_kernel(py, "cmpf")?;
        let p = named_predicate(
            py,
            "cmpf",
            predicate,
            CmpFPredicate::from_name,
            &CmpFPredicate::names(),
        )?;
        self.with(py, |b, loc, uid| {
            let (l, r) = (raw(py, &lhs, uid)?, raw(py, &rhs, uid)?);
            let v = qd_arith::build_cmpf(b, p, l, r, loc);
            Ok(Builder::value(b.ctx, v, uid))
        })
    }

    /// `arith.cmpi` with a predicate name (`slt`, `eq`, ...).
    fn cmpi(&self, py: Python<'_>, predicate: &str, lhs: Value, rhs: Value) -> Res<Value> {
        self.in_kernel(py, "cmpi")?;
        let p = named_predicate(
            py,
            "cmpi",
            predicate,
            CmpIPredicate::from_name,
            &CmpIPredicate::names(),
        )?;
        self.with(py, |b, loc, uid| {
            let (l, r) = (raw(py, &lhs, uid)?, raw(py, &rhs, uid)?);
            let v = qd_arith::build_cmpi(b, p, l, r, loc);
            Ok(Builder::value(b.ctx, v, uid))
        })
    }

    /// `arith.select cond, t, f`.
    fn select(&self, py: Python<'_>, cond: Value, t: Value, f: Value) -> Res<Value> {
        self.in_kernel(py, "select")?;
        self.with(py, |b, loc, uid| {
            let (c, tv, fv) = (raw(py, &cond, uid)?, raw(py, &t, uid)?, raw(py, &f, uid)?);
            let v = qd_arith::build_select(b, c, tv, fv, loc);
            Ok(Builder::value(b.ctx, v, uid))
        })
    }

    /// `qd.load @field[indices]`.
    fn load(&self, py: Python<'_>, field: &str, indices: Vec<Value>) -> Res<Value> {
        self.in_kernel(py, "load")?;
        let module = self.module.borrow(py).op;
        self.with(py, |b, loc, uid| {
            let elem = field_elem(py, b.ctx, module, field)?;
            let idx = raws(py, &indices, uid)?;
            let sym = b.ctx.symbol_ref_attr(field);
            let st = OperationState::new("qd.load", loc)
                .operands(&idx)
                .results(&[elem])
                .prop(b.ctx, "field", sym);
            Ok(insert_value(b, st, uid))
        })
    }

    /// `qd.store value, @field[indices]`.
    fn store(&self, py: Python<'_>, value: Value, field: &str, indices: Vec<Value>) -> Res<()> {
        self.field_write(py, "qd.store", value, field, indices)
    }

    /// `qd.atomic_add value, @field[indices]`.
    fn atomic_add(
        &self,
        py: Python<'_>,
        value: Value,
        field: &str,
        indices: Vec<Value>,
    ) -> Res<()> {
        self.field_write(py, "qd.atomic_add", value, field, indices)
    }

    /// `qd.ndarray_load %a[indices]`.
    fn ndarray_load(&self, py: Python<'_>, array: Value, indices: Vec<Value>) -> Res<Value> {
        self.in_kernel(py, "ndarray_load")?;
        self.with(py, |b, loc, uid| {
            let a = raw(py, &array, uid)?;
            let aty = b.ctx.value_type(a);
            let elem = NdarrayType::from_type(b.ctx, aty)
                .map(|n| n.elem(b.ctx))
                .ok_or_else(|| {
                    qd_err(
                        py,
                        ErrorKind::DType,
                        format!(
                            "ndarray_load of a value of type {}, not an ndarray",
                            array.ty
                        ),
                    )
                })?;
            let mut ops = vec![a];
            ops.extend(raws(py, &indices, uid)?);
            let st = OperationState::new("qd.ndarray_load", loc)
                .operands(&ops)
                .results(&[elem]);
            Ok(insert_value(b, st, uid))
        })
    }

    /// `qd.ndarray_store value, %a[indices]`.
    fn ndarray_store(
        &self,
        py: Python<'_>,
        value: Value,
        array: Value,
        indices: Vec<Value>,
    ) -> Res<()> {
        self.ndarray_write(py, "qd.ndarray_store", value, array, indices)
    }

    /// `qd.ndarray_atomic_add value, %a[indices]`.
    fn ndarray_atomic_add(
        &self,
        py: Python<'_>,
        value: Value,
        array: Value,
        indices: Vec<Value>,
    ) -> Res<()> {
        self.ndarray_write(py, "qd.ndarray_atomic_add", value, array, indices)
    }

    /// `qd.alloca : !qd.ptr<type>`, a per-thread local.
    fn alloca(&self, py: Python<'_>, pointee: &Bound<'_, PyAny>) -> Res<Value> {
        self.in_kernel(py, "alloca")?;
        let k = kind_of(py, pointee)?;
        self.with(py, |b, loc, uid| {
            let ty = k.make(b.ctx);
            let op = AllocaOp::build(b, ty, loc);
            let v = b.ctx.result(op.0, 0);
            Ok(Builder::value(b.ctx, v, uid))
        })
    }

    /// `qd.local_load %ptr`.
    fn local_load(&self, py: Python<'_>, ptr: Value) -> Res<Value> {
        self.in_kernel(py, "local_load")?;
        self.with(py, |b, loc, uid| {
            let p = raw(py, &ptr, uid)?;
            let ty = pointee_of(b.ctx, p);
            let st = OperationState::new("qd.local_load", loc)
                .operands(&[p])
                .results(&[ty]);
            Ok(insert_value(b, st, uid))
        })
    }

    /// `qd.local_store value, %ptr`.
    fn local_store(&self, py: Python<'_>, value: Value, ptr: Value) -> Res<()> {
        self.in_kernel(py, "local_store")?;
        self.with(py, |b, loc, uid| {
            let (v, p) = (raw(py, &value, uid)?, raw(py, &ptr, uid)?);
            b.insert(OperationState::new("qd.local_store", loc).operands(&[v, p]));
            Ok(())
        })
    }
}

impl Builder {
    fn field_write(
        &self,
        py: Python<'_>,
        name: &str,
        value: Value,
        field: &str,
        indices: Vec<Value>,
    ) -> Res<()> {
        self.in_kernel(py, name)?;
        let module = self.module.borrow(py).op;
        self.with(py, |b, loc, uid| {
            field_elem(py, b.ctx, module, field)?;
            let mut ops = vec![raw(py, &value, uid)?];
            ops.extend(raws(py, &indices, uid)?);
            let sym = b.ctx.symbol_ref_attr(field);
            let st = OperationState::new(name, loc)
                .operands(&ops)
                .prop(b.ctx, "field", sym);
            b.insert(st);
            Ok(())
        })
    }

    fn ndarray_write(
        &self,
        py: Python<'_>,
        name: &str,
        value: Value,
        array: Value,
        indices: Vec<Value>,
    ) -> Res<()> {
        self.in_kernel(py, name)?;
        self.with(py, |b, loc, uid| {
            let mut ops = vec![raw(py, &value, uid)?, raw(py, &array, uid)?];
            ops.extend(raws(py, &indices, uid)?);
            b.insert(OperationState::new(name, loc).operands(&ops));
            Ok(())
        })
    }
}

/// The predicate `name` of a comparison op, or an UnknownName error that lists the valid ones.
fn named_predicate<P>(
    py: Python<'_>,
    op: &str,
    name: &str,
    parse: fn(&str) -> Option<P>,
    names: &[&str],
) -> Res<P> {
    parse(name).ok_or_else(|| {
        qd_err(
            py,
            ErrorKind::UnknownName,
            format!("unknown {op} predicate '{name}' ({})", names.join(", ")),
        )
    })
}
