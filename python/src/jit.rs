//! The fusion JIT (qd-jit) for `qd.jit_compile` (qd/jit.py): `JitGraph`, a graph of ndarray ops
//! the Python tracer fills; `JitEngine`, a device and its compile cache (keyed by the graph's
//! text: chain, shapes, dtypes, constants) that runs a graph forward and backward on NumPy
//! arrays; and `register_primitive`, which adds an elementwise op from a recipe (a list of
//! scalar arith/math steps the Python tracer recorded), so no Python runs while kernels build.

use crate::buffers::{numpy_dtype, zeros, Pinned};
use crate::errors::{qd_err, ErrorKind};
use crate::storage::Export;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qd_jit::{Graph, Jit, Operand, Reduce, Sym};
use qd_runtime::{DType, Ndarray};
use std::sync::Arc;

#[pyclass(module = "qd.jit", unsendable)]
pub struct JitGraph {
    g: Graph,
}

fn dtype_of(py: Python<'_>, name: &str) -> PyResult<DType> {
    match name {
        "float32" | "f32" => Ok(DType::F32),
        "float64" | "f64" => Ok(DType::F64),
        _ => Err(qd_err(
            py,
            ErrorKind::DType,
            format!("jit inputs are float32 or float64, got {name}"),
        )),
    }
}

#[pymethods]
impl JitGraph {
    #[new]
    fn new() -> JitGraph {
        JitGraph { g: Graph::new() }
    }
    /// A new input; returns its node.
    fn input(&mut self, py: Python<'_>, shape: Vec<usize>, dtype: &str) -> PyResult<usize> {
        Ok(self.g.input(&shape, dtype_of(py, dtype)?).0)
    }
    /// Applies a primitive to nodes (ints) and scalar constants (floats).
    fn apply(&mut self, name: &str, operands: Vec<Bound<'_, PyAny>>) -> PyResult<usize> {
        let mut ops = Vec::with_capacity(operands.len());
        for o in operands {
            if let Ok(i) = o.cast::<pyo3::types::PyInt>() {
                ops.push(Operand::Sym(Sym(i.extract()?)));
            } else {
                ops.push(Operand::Scalar(o.extract::<f64>()?));
            }
        }
        Ok(self.g.apply(name, &ops).0)
    }
    /// `sum`, `mean` or `max` over every axis (axis None) or one.
    #[pyo3(signature = (kind, x, axis = None))]
    fn reduce(
        &mut self,
        py: Python<'_>,
        kind: &str,
        x: usize,
        axis: Option<usize>,
    ) -> PyResult<usize> {
        let k = match kind {
            "sum" => Reduce::Sum,
            "mean" => Reduce::Mean,
            "max" => Reduce::Max,
            _ => {
                return Err(qd_err(
                    py,
                    ErrorKind::UnknownName,
                    format!("no reduction '{kind}'"),
                ))
            }
        };
        Ok(self.g.reduce(k, Sym(x), axis).0)
    }
    fn output(&mut self, x: usize) {
        self.g.output(Sym(x));
    }
    fn shape(&self, x: usize) -> Vec<usize> {
        self.g.shape(Sym(x)).to_vec()
    }
    fn dtype(&self, x: usize) -> &'static str {
        numpy_dtype(self.g.dtype(Sym(x)))
    }
    /// The first error the graph recorded (an unknown primitive, shapes that do not broadcast).
    #[getter]
    fn error(&self) -> Option<String> {
        self.g.error.clone()
    }
    /// The graph as the ndarray dialect's text (the cache key).
    fn text(&self, py: Python<'_>) -> PyResult<String> {
        Jit::key(&self.g).map_err(|e| qd_err(py, ErrorKind::Shape, e))
    }
}

/// The outputs of a run, and the inputs' gradients when asked.
type RunResult<'py> = (Vec<Bound<'py, PyAny>>, Option<Vec<Bound<'py, PyAny>>>);

#[pyclass(module = "qd.jit", unsendable)]
pub struct JitEngine {
    jit: Jit,
}

/// A NumPy array as an ndarray (its memory, not a copy: the executable copies its inputs). The
/// ndarray's storage holds the array's buffer export until it is dropped.
fn to_ndarray(py: Python<'_>, a: &Bound<'_, PyAny>, i: usize) -> PyResult<Ndarray> {
    let p = Export::new(Pinned::new(a, &|| format!("input {i}"))?);
    let s = p.storage().map_err(|e| qd_err(py, ErrorKind::Other, e))?;
    Ndarray::new(&p.pinned().shape, s).map_err(|e| qd_err(py, ErrorKind::Shape, e))
}

/// An ndarray as a new NumPy array of `shape` (the runtime's ndarrays are flat).
fn to_numpy<'py>(py: Python<'py>, nd: &Ndarray, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let arr = zeros(py, nd.dtype(), shape)?;
    let p = Pinned::new(&arr, &|| "an output".to_string())?;
    let bytes = nd.len() * nd.dtype().size_bytes();
    if p.len() != nd.len() {
        return Err(qd_err(py, ErrorKind::Shape, "output size mismatch"));
    }
    // SAFETY: both buffers hold `bytes` bytes and are distinct.
    unsafe { std::ptr::copy_nonoverlapping(nd.data().as_ptr(), p.ptr(), bytes) };
    Ok(arr)
}

#[pymethods]
impl JitEngine {
    /// `approx_functions`: `Jit::approx_functions` (fastmath<afn> on the kernels' math ops; on
    /// the cpu device f32 exp within 1 ulp instead of 0.5).
    #[new]
    #[pyo3(signature = (device = "cpu", fuse = true, approx_functions = false))]
    fn new(
        py: Python<'_>,
        device: &str,
        fuse: bool,
        approx_functions: bool,
    ) -> PyResult<JitEngine> {
        let mut jit = Jit::new(device).map_err(|e| qd_err(py, ErrorKind::UnknownName, e))?;
        if !fuse {
            jit = jit.unfused();
        }
        if approx_functions {
            jit = jit.approx_functions();
        }
        Ok(JitEngine { jit })
    }

    /// Compiles `graph` unless it is cached; returns the key: the graph's text after a line
    /// naming the engine's options that are not the default (`Jit::key_of`), so a key compiled
    /// under approximate functions or without fusion never names another engine's executable.
    fn compile(&mut self, py: Python<'_>, graph: &JitGraph) -> PyResult<String> {
        if let Some(e) = &graph.g.error {
            return Err(qd_err(py, ErrorKind::Shape, e.clone()));
        }
        let key = self
            .jit
            .key_of(&graph.g)
            .map_err(|e| qd_err(py, ErrorKind::Shape, e))?;
        if self.jit.cached(&key).is_none() {
            self.jit
                .compile(&graph.g)
                .map_err(|e| qd_err(py, ErrorKind::Diagnostic, e))?;
        }
        Ok(key)
    }

    /// Runs the executable `key` on `inputs`; returns the outputs (arrays of `out_shapes`) and,
    /// when `seeds` is given (one per output), each input's gradient.
    #[pyo3(signature = (key, inputs, out_shapes, seeds = None))]
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        key: &str,
        inputs: Vec<Bound<'py, PyAny>>,
        out_shapes: Vec<Vec<usize>>,
        seeds: Option<Vec<Bound<'py, PyAny>>>,
    ) -> PyResult<RunResult<'py>> {
        let nds = inputs
            .iter()
            .enumerate()
            .map(|(i, a)| to_ndarray(py, a, i))
            .collect::<PyResult<Vec<_>>>()?;
        let in_shapes: Vec<Vec<usize>> = nds.iter().map(|n| n.shape().to_vec()).collect();
        let exe = self
            .jit
            .cached(key)
            .ok_or_else(|| qd_err(py, ErrorKind::UnknownName, "not compiled"))?;
        let (outs, grads) = match seeds {
            None => (
                exe.run(nds).map_err(|e| qd_err(py, ErrorKind::Kernel, e))?,
                None,
            ),
            Some(s) => {
                let seeds = s
                    .iter()
                    .enumerate()
                    .map(|(i, a)| to_ndarray(py, a, i))
                    .collect::<PyResult<Vec<_>>>()?;
                let (o, g) = exe
                    .run_with_grad(nds, &seeds)
                    .map_err(|e| qd_err(py, ErrorKind::Kernel, e))?;
                (o, Some(g))
            }
        };
        let outs = outs
            .iter()
            .zip(&out_shapes)
            .map(|(o, s)| to_numpy(py, o, s))
            .collect::<PyResult<Vec<_>>>()?;
        let grads = match grads {
            None => None,
            Some(g) => Some(
                g.iter()
                    .zip(&in_shapes)
                    .map(|(o, s)| to_numpy(py, o, s))
                    .collect::<PyResult<Vec<_>>>()?,
            ),
        };
        Ok((outs, grads))
    }

    /// The fused function of the executable `key` before its kernels were compiled (a lookup
    /// in the cache, so it counts as a hit).
    fn ir(&mut self, py: Python<'_>, key: &str) -> PyResult<String> {
        let exe = self
            .jit
            .cached(key)
            .ok_or_else(|| qd_err(py, ErrorKind::UnknownName, "not compiled"))?;
        Ok(exe.ir.clone())
    }

    /// Cache statistics: hits, misses, compile_seconds.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("hits", self.jit.stats.hits)?;
        d.set_item("misses", self.jit.stats.misses)?;
        d.set_item("compile_seconds", self.jit.stats.compile_time.as_secs_f64())?;
        Ok(d)
    }
}

/// One step of a scalar recipe: a constant, or an arith/math op over earlier values (the
/// operands first, then each step's result, by index).
#[derive(Clone, Debug)]
enum Step {
    Const(f64),
    Op(String, Vec<usize>),
}

fn parse_recipe(py: Python<'_>, steps: Vec<(String, Bound<'_, PyAny>)>) -> PyResult<Vec<Step>> {
    steps
        .into_iter()
        .map(|(kind, v)| {
            if kind == "const" {
                Ok(Step::Const(v.extract()?))
            } else if kind.starts_with("arith.") || kind.starts_with("math.") {
                Ok(Step::Op(kind, v.extract()?))
            } else {
                Err(qd_err(
                    py,
                    ErrorKind::UnknownName,
                    format!("recipe step '{kind}'"),
                ))
            }
        })
        .collect()
}

/// Builds a recipe at the builder's point over `inputs`; returns every value (inputs first).
fn replay(
    b: &mut qd_ir::Builder,
    steps: &[Step],
    inputs: &[qd_ir::Value],
    loc: qd_ir::Location,
) -> Vec<qd_ir::Value> {
    let mut vals = inputs.to_vec();
    let ty = b.ctx.value_type(inputs[0]);
    for s in steps {
        let v = match s {
            Step::Const(c) => qd_arith::build_constant_float(b, *c, ty, loc),
            Step::Op(name, ops) => {
                let operands: Vec<qd_ir::Value> = ops.iter().map(|&i| vals[i]).collect();
                qd_arith::build_elementwise(b, name, &operands, loc)
            }
        };
        vals.push(v);
    }
    vals
}

/// Registers an elementwise primitive from recipes (see `qd.register_primitive`): `forward`
/// over the `arity` operands, its result the value at `forward_out`; `backward`, when given,
/// over (operands, result, result adjoint), with one output index per operand (None: no
/// contribution).
#[pyfunction]
#[pyo3(signature = (name, arity, forward, forward_out, backward = None, backward_outs = None, fusible = true))]
#[allow(clippy::too_many_arguments)]
pub fn register_primitive(
    py: Python<'_>,
    name: &str,
    arity: usize,
    forward: Vec<(String, Bound<'_, PyAny>)>,
    forward_out: usize,
    backward: Option<Vec<(String, Bound<'_, PyAny>)>>,
    backward_outs: Option<Vec<Option<usize>>>,
    fusible: bool,
) -> PyResult<()> {
    let fwd = Arc::new(parse_recipe(py, forward)?);
    let check = |steps: &[Step], inputs: usize, out: usize| -> PyResult<()> {
        let mut n = inputs;
        for s in steps {
            if let Step::Op(_, ops) = s {
                if ops.iter().any(|&i| i >= n) {
                    return Err(qd_err(
                        py,
                        ErrorKind::Shape,
                        "a recipe step uses a later value",
                    ));
                }
            }
            n += 1;
        }
        if out >= n {
            return Err(qd_err(
                py,
                ErrorKind::Shape,
                "a recipe output is out of range",
            ));
        }
        Ok(())
    };
    check(&fwd, arity, forward_out)?;
    let f2 = fwd.clone();
    let forward_fn: qd_jit::ForwardFn =
        Arc::new(move |b, operands, loc| replay(b, &f2, operands, loc)[forward_out]);
    let backward_fn: Option<qd_jit::BackwardFn> = match (backward, backward_outs) {
        (Some(steps), Some(outs)) => {
            let bwd = Arc::new(parse_recipe(py, steps)?);
            if outs.len() != arity {
                return Err(qd_err(
                    py,
                    ErrorKind::Shape,
                    format!(
                        "the backward gives {} adjoints for {arity} operands",
                        outs.len()
                    ),
                ));
            }
            for o in outs.iter().flatten() {
                check(&bwd, arity + 2, *o)?;
            }
            Some(Arc::new(
                move |b: &mut qd_ir::Builder, a: &qd_jit::BackwardArgs, loc| {
                    let mut inputs = a.operands.to_vec();
                    inputs.push(a.result);
                    inputs.push(a.result_adjoint);
                    let vals = replay(b, &bwd, &inputs, loc);
                    outs.iter().map(|o| o.map(|i| vals[i])).collect()
                },
            ))
        }
        (None, None) => None,
        _ => {
            return Err(qd_err(
                py,
                ErrorKind::Argument,
                "backward and backward_outs go together",
            ))
        }
    };
    qd_jit::register_primitive(name, arity, forward_fn, backward_fn, fusible)
        .map_err(|e| qd_err(py, ErrorKind::Argument, e))
}

/// The names of every primitive (built-in and registered).
#[pyfunction]
pub fn primitive_names() -> Vec<String> {
    qd_ndarray::primitive_names()
}
