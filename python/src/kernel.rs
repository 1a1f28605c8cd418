//! `qd.Kernel`: a compiled kernel of a program, called with NumPy arrays and Python scalars by
//! position or parameter name; `.grad(...)` launches its gradient kernel.

use crate::errors::{qd_err, ErrorKind};
use crate::program::Program;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use qd_runtime::{Arg, DType, GradientKernel, KernelId, ParamType, Scalar};

pub struct Param {
    pub name: String,
    pub ty: ParamType,
}

/// What a program knows of a compiled kernel (shared by its `Kernel` objects).
pub struct KernelMeta {
    pub id: KernelId,
    pub name: String,
    pub params: Vec<Param>,
    gradient: std::sync::OnceLock<GradientKernel>,
}

/// A kernel of a program. It refers to its program; the program keeps only the metadata, so
/// there is no reference cycle and a dropped program is freed at once.
#[pyclass(module = "qd", unsendable)]
pub struct Kernel {
    prog: Py<Program>,
    meta: std::sync::Arc<KernelMeta>,
}

/// The parameter names of a kernel: a name location (`Builder.begin_kernel`), else the `%name`
/// at the argument's position in its source text, else `argN`.
fn param_names(prog: &Program, k: KernelId) -> Vec<String> {
    let ctx = prog.p.context();
    let Some(op) = prog
        .p
        .kernel_op(k)
        .and_then(|op| qd_frontend::KernelOp::from_op(ctx, op))
    else {
        return Vec::new();
    };
    op.args(ctx)
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            name_of(ctx, ctx.value_loc(a), &prog.sources).unwrap_or_else(|| format!("arg{i}"))
        })
        .collect()
}

fn name_of(
    ctx: &qd_ir::Context,
    loc: qd_ir::Location,
    sources: &[(String, String)],
) -> Option<String> {
    if let qd_ir::LocData::Name { name, .. } = ctx.loc_data(loc) {
        return Some(ctx.ident_str(*name).to_string());
    }
    let (file, line, col) = ctx.file_line_col(loc)?;
    let text = &sources.iter().find(|(f, _)| f == file)?.1;
    let line = text.split('\n').nth((line as usize).checked_sub(1)?)?;
    let rest = line
        .get((col as usize).checked_sub(1)?..)?
        .strip_prefix('%')?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || "_$.-".contains(*c))
        .collect();
    (!name.is_empty()).then_some(name)
}

/// A Python scalar as a `dtype` value (floats for float dtypes; ints for integer ones; bools
/// for i1), or a `DTypeError` naming the argument.
fn scalar(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    dtype: DType,
    what: &dyn Fn() -> String,
) -> PyResult<Scalar> {
    let wrong = |got: String| {
        qd_err(
            py,
            ErrorKind::DType,
            format!("{} is a {dtype} scalar, got {got}", what()),
        )
    };
    let type_name = || {
        obj.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    };
    if dtype.is_float() {
        let v: f64 = obj.extract().map_err(|_| wrong(type_name()))?;
        return Scalar::from_f64(dtype, v).map_err(&wrong);
    }
    if dtype == DType::I1 {
        let v: bool = obj.extract().map_err(|_| wrong(type_name()))?;
        return Ok(Scalar::I1(v));
    }
    if obj.is_instance_of::<pyo3::types::PyFloat>() {
        return Err(wrong(format!("the float {obj}")));
    }
    let v: i128 = obj
        .call_method0("__index__")
        .and_then(|i| i.extract())
        .map_err(|_| wrong(type_name()))?;
    Scalar::from_i128(dtype, v).map_err(&wrong)
}

impl Kernel {
    pub fn new(prog: &Bound<'_, Program>, meta: std::sync::Arc<KernelMeta>) -> Kernel {
        Kernel {
            prog: prog.clone().unbind(),
            meta,
        }
    }

    pub fn compile(prog: &Bound<'_, Program>, name: &str) -> PyResult<KernelMeta> {
        let py = prog.py();
        let mut pr = prog.borrow_mut();
        let id = pr.p.kernel(name).map_err(|e| pr.api_err(py, e))?;
        let types = pr.p.kernel_params(id).unwrap_or(&[]).to_vec();
        let names = param_names(&pr, id);
        let params = types
            .into_iter()
            .enumerate()
            .map(|(i, ty)| Param {
                name: names.get(i).cloned().unwrap_or_else(|| format!("arg{i}")),
                ty,
            })
            .collect();
        Ok(KernelMeta {
            id,
            name: name.to_string(),
            params,
            gradient: std::sync::OnceLock::new(),
        })
    }

    /// The arguments in parameter order: positional first, then by name.
    fn bind(
        &self,
        py: Python<'_>,
        prog: &mut Program,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<Arg>> {
        let n = self.meta.params.len();
        if args.len() > n {
            return Err(qd_err(
                py,
                ErrorKind::Argument,
                format!(
                    "kernel '{}' takes {n} argument{}, got {} positional",
                    self.meta.name,
                    plural(n),
                    args.len()
                ),
            ));
        }
        let mut slots: Vec<Option<Bound<'_, PyAny>>> = args.iter().map(Some).collect();
        slots.resize(n, None);
        if let Some(kw) = kwargs {
            for (k, v) in kw.iter() {
                let key: String = k.extract()?;
                let Some(i) = self.meta.params.iter().position(|p| p.name == key) else {
                    let known: Vec<&str> =
                        self.meta.params.iter().map(|p| p.name.as_str()).collect();
                    return Err(qd_err(
                        py,
                        ErrorKind::UnknownName,
                        format!(
                            "kernel '{}' has no parameter '{key}' (parameters: {})",
                            self.meta.name,
                            known.join(", ")
                        ),
                    ));
                };
                if slots[i].is_some() {
                    return Err(qd_err(
                        py,
                        ErrorKind::Argument,
                        format!(
                            "argument '{key}' of kernel '{}' given twice",
                            self.meta.name
                        ),
                    ));
                }
                slots[i] = Some(v);
            }
        }
        let mut out = Vec::with_capacity(n);
        for (p, slot) in self.meta.params.iter().zip(slots) {
            let what = || format!("argument '{}' of kernel '{}'", p.name, self.meta.name);
            let Some(obj) = slot else {
                return Err(qd_err(
                    py,
                    ErrorKind::Argument,
                    format!(
                        "kernel '{}' is missing argument '{}' ({})",
                        self.meta.name, p.name, p.ty
                    ),
                ));
            };
            out.push(match p.ty {
                ParamType::Scalar(d) => Arg::Scalar(scalar(py, &obj, d, &what)?),
                ParamType::Ndarray { dtype, rank } => {
                    let pr = &mut *prog;
                    Arg::Ndarray(pr.arrays.bind(&mut pr.p, &obj, dtype, rank, &what)?)
                }
            });
        }
        Ok(out)
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[pymethods]
impl Kernel {
    /// Launches the kernel. Arguments by position or by parameter name: NumPy arrays for
    /// ndarray parameters (C-contiguous, the parameter's dtype and rank; used in place), Python
    /// numbers for scalars. Argument errors raise now; errors while it runs raise at `sync()`.
    /// Inside `with prog.tape():` the launch is recorded.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let mut prog = self.prog.borrow_mut(py);
        prog.check_usable(py)?;
        let bound = self.bind(py, &mut prog, args, kwargs)?;
        if prog.tape.as_ref().is_some_and(|t| t.recording) {
            return crate::tape::record(py, &mut prog, &self.meta.name, &bound);
        }
        let prog = &mut *prog;
        prog.launched = true;
        prog.p
            .launch(self.meta.id, &bound)
            .map_err(|e| prog.api_err(py, e))
    }

    /// Launches the gradient kernel on the arguments of a launch (the outputs' adjoints, such
    /// as `prog["y.grad"]`, seeded before). Returns a dict: for each active ndarray parameter,
    /// a new zeroed NumPy array (its shape and dtype) that the gradient accumulates into,
    /// final after `sync()`. Pass `grads={"a": array}` to accumulate into arrays of your own.
    #[pyo3(signature = (*args, grads = None, **kwargs))]
    fn grad<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        grads: Option<&Bound<'py, PyDict>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut guard = self.prog.borrow_mut(py);
        let prog = &mut *guard;
        prog.check_usable(py)?;
        let g = match self.meta.gradient.get() {
            Some(g) => g.clone(),
            None => {
                let g = prog
                    .p
                    .gradient(&self.meta.name)
                    .map_err(|e| prog.api_err(py, e))?;
                let _ = self.meta.gradient.set(g.clone());
                g
            }
        };
        let bound = self.bind(py, prog, args, kwargs)?;
        let out = PyDict::new(py);
        let mut adjoints = Vec::new();
        for (i, (&active, arg)) in g.activity.iter().zip(&bound).enumerate() {
            let (true, Arg::Ndarray(id)) = (active, arg) else {
                continue;
            };
            let pname = &self.meta.params[i].name;
            let (dtype, shape) = {
                let nd = prog.p.ndarray(*id).map_err(|e| prog.api_err(py, e))?;
                (nd.dtype(), nd.shape().to_vec())
            };
            let given = match grads {
                Some(d) => d.get_item(pname)?,
                None => None,
            };
            let arr = match given {
                Some(a) => a,
                None => crate::buffers::zeros(py, dtype, &shape)?,
            };
            let what = || {
                format!(
                    "the adjoint of argument '{pname}' of kernel '{}'",
                    self.meta.name
                )
            };
            let rank = shape.len();
            let adj = prog.arrays.bind(&mut prog.p, &arr, dtype, rank, &what)?;
            let got = prog
                .p
                .ndarray(adj)
                .map_err(|e| prog.api_err(py, e))?
                .shape()
                .to_vec();
            if got != shape {
                return Err(qd_err(
                    py,
                    ErrorKind::Shape,
                    format!("{} must have shape {shape:?}, got {got:?}", what()),
                ));
            }
            adjoints.push(adj);
            out.set_item(pname, arr)?;
        }
        prog.launched = true;
        prog.p
            .launch_grad_with(&g, &bound, &adjoints)
            .map_err(|e| prog.api_err(py, e))?;
        Ok(out)
    }

    /// The kernel's name.
    #[getter]
    fn name(&self) -> String {
        self.meta.name.clone()
    }

    /// The parameters: a list of (name, type) with types as MLIR text.
    #[getter]
    fn params(&self) -> Vec<(String, String)> {
        self.meta
            .params
            .iter()
            .map(|p| (p.name.clone(), p.ty.to_string()))
            .collect()
    }

    fn __repr__(&self) -> String {
        let ps: Vec<String> = self
            .meta
            .params
            .iter()
            .map(|p| format!("{}: {}", p.name, p.ty))
            .collect();
        format!("<qd.Kernel {}({})>", self.meta.name, ps.join(", "))
    }
}
