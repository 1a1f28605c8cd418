//! `qd.Tape`: the runtime's tape from Python, as the peer's `ad.Tape`: kernels launched inside
//! `with prog.tape(loss="y") as t:` run and are recorded; leaving the block seeds `y.grad = 1`
//! (when `loss` is given) and runs every recorded launch's gradient, last to first, then syncs.
//! `t.grad(array)` is the adjoint of an ndarray argument as a NumPy array; `t.seed(array, v)`
//! seeds an ndarray output before `t.backward()` (with `loss=None`, call it yourself).

use crate::errors::{qd_err, ErrorKind};
use crate::program::Program;
use pyo3::prelude::*;
use qd_runtime::{Arg, NdarrayId, TapeError};

/// A program's tape (one per program at a time).
pub struct TapeState {
    pub tape: qd_runtime::Tape,
    pub recording: bool,
    /// Ndarrays the recorded launches use (kept bound while the tape lives).
    pinned: Vec<NdarrayId>,
    /// Adjoint ndarrays handed to Python, with the NumPy array each lives in.
    adjoints: Vec<(NdarrayId, Py<PyAny>)>,
    /// Their buffer exports, kept while the tape lives: the arrays stay unresizable even where
    /// the runtime later gives an adjoint memory of its own.
    exports: Vec<crate::storage::Export>,
}

impl TapeState {
    pub fn release(self, prog: &mut Program) {
        for id in &self.pinned {
            prog.arrays.unpin(*id);
        }
        let mut tape = self.tape;
        tape.release(&mut prog.p);
    }
}

fn tape_err(py: Python<'_>, prog: &mut Program, e: TapeError) -> PyErr {
    match e {
        TapeError::Api(e) => prog.api_err(py, e),
        TapeError::Runtime(errors) => prog.fail(py, errors),
    }
}

/// Launches `kernel` on the program's tape (called by `Kernel.__call__` while recording).
pub fn record(py: Python<'_>, prog: &mut Program, kernel: &str, args: &[Arg]) -> PyResult<()> {
    let mut st = prog.tape.take().expect("recording");
    prog.launched = true;
    let r = st.tape.launch(&mut prog.p, kernel, args);
    if r.is_ok() {
        for a in args {
            if let Arg::Ndarray(id) = a {
                prog.arrays.pin(*id);
                st.pinned.push(*id);
            }
        }
    }
    prog.tape = Some(st);
    r.map_err(|e| tape_err(py, prog, e))
}

#[pyclass(module = "qd", unsendable)]
pub struct Tape {
    prog: Py<Program>,
    loss: Option<String>,
}

impl Tape {
    pub fn new(prog: &Bound<'_, Program>, loss: Option<String>) -> PyResult<Tape> {
        let py = prog.py();
        let mut pr = prog.borrow_mut();
        pr.check_usable(py)?;
        if let Some(l) = &loss {
            // The loss must be a needs_grad field: check now, not at the end of the block.
            pr.p.field_info(&format!("{l}.grad"))
                .map_err(|e| crate::program::runtime_err(py, &pr.p, e))?;
        }
        if let Some(old) = pr.tape.take() {
            old.release(&mut pr);
        }
        pr.tape = Some(TapeState {
            tape: qd_runtime::Tape::new(),
            recording: false,
            pinned: Vec::new(),
            adjoints: Vec::new(),
            exports: Vec::new(),
        });
        Ok(Tape {
            prog: prog.clone().unbind(),
            loss,
        })
    }

    fn with_state<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Program, &mut TapeState) -> PyResult<T>,
    ) -> PyResult<T> {
        let mut prog = self.prog.borrow_mut(py);
        let Some(mut st) = prog.tape.take() else {
            return Err(qd_err(
                py,
                ErrorKind::Other,
                "this tape was replaced by a newer prog.tape()",
            ));
        };
        let r = f(&mut prog, &mut st);
        prog.tape = Some(st);
        r
    }

    /// The ndarray bound for `array` by a recorded launch.
    fn primal(
        prog: &Program,
        st: &TapeState,
        py: Python<'_>,
        array: &Bound<'_, PyAny>,
    ) -> PyResult<NdarrayId> {
        st.pinned
            .iter()
            .copied()
            .find(|&id| prog.arrays.array_of(py, id).is_some_and(|a| a.is(array)))
            .ok_or_else(|| {
                qd_err(
                    py,
                    ErrorKind::UnknownName,
                    "this array was not an argument of a launch this tape recorded",
                )
            })
    }
}

#[pymethods]
impl Tape {
    fn __enter__(slf: PyRef<'_, Self>) -> PyResult<PyRef<'_, Self>> {
        let py = slf.py();
        slf.with_state(py, |_, st| {
            st.recording = true;
            Ok(())
        })?;
        Ok(slf)
    }

    /// Stops recording; without an exception in the block and with a `loss`, seeds
    /// `loss.grad = 1` and runs `backward()`.
    fn __exit__(
        &self,
        py: Python<'_>,
        exc_type: Option<&Bound<'_, PyAny>>,
        _exc: Option<&Bound<'_, PyAny>>,
        _tb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        self.with_state(py, |_, st| {
            st.recording = false;
            Ok(())
        })?;
        if exc_type.is_none() {
            if let Some(loss) = &self.loss {
                let mut prog = self.prog.borrow_mut(py);
                let name = format!("{loss}.grad");
                prog.field_array(py, &name)?.call_method1("fill", (1,))?;
                prog.host_wrote(py, &name)?;
                drop(prog);
                self.backward(py)?;
            }
        }
        Ok(false)
    }

    /// How many launches are recorded.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.with_state(py, |_, st| Ok(st.tape.len()))
    }

    /// Runs the gradient of every recorded launch, last to first, then syncs (runtime errors
    /// raise here). Seed the outputs' adjoints first.
    fn backward(&self, py: Python<'_>) -> PyResult<()> {
        self.with_state(py, |prog, st| {
            prog.check_usable(py)?;
            let r = st.tape.backward(&mut prog.p);
            // The tape put primal data back through memory of the runtime's own.
            prog.arrays.readopt_all(&mut prog.p);
            r.map_err(|e| tape_err(py, prog, e))?;
            prog.sync_inner(py)
        })
    }

    /// The adjoint of ndarray argument `array` (a NumPy array, zero until `backward()`).
    fn grad<'py>(&self, py: Python<'py>, array: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        self.with_state(py, |prog, st| {
            let primal = Tape::primal(prog, st, py, array)?;
            let adj = st
                .tape
                .adjoint(&mut prog.p, primal)
                .map_err(|e| prog.api_err(py, e))?;
            if let Some((_, a)) = st.adjoints.iter().find(|(id, _)| *id == adj) {
                return Ok(a.bind(py).clone());
            }
            // Move the adjoint into a NumPy array the gradient launches then write in place.
            let (dtype, shape) = {
                let nd = prog.p.ndarray(adj).map_err(|e| prog.api_err(py, e))?;
                (nd.dtype(), nd.shape().to_vec())
            };
            let arr = crate::buffers::zeros(py, dtype, &shape)?;
            let export = crate::storage::Export::new(crate::buffers::Pinned::new(&arr, &|| {
                "an adjoint".to_string()
            })?);
            match prog.p.ndarray_mut(adj) {
                Ok(nd) => {
                    crate::storage::readopt(nd.data_mut(), &export);
                }
                Err(e) => return Err(prog.api_err(py, e)),
            }
            st.adjoints.push((adj, arr.clone().unbind()));
            st.exports.push(export);
            Ok(arr)
        })
    }

    /// Seeds the adjoint of ndarray argument `array` (an output) with `values`, one per element.
    fn seed(&self, py: Python<'_>, array: &Bound<'_, PyAny>, values: Vec<f64>) -> PyResult<()> {
        let g = self.grad(py, array)?;
        let np = py.import("numpy")?;
        let v = np.getattr("asarray")?.call1((values,))?;
        let shape = g.getattr("shape")?;
        let v = v.call_method1("reshape", (shape,)).map_err(|e| {
            qd_err(
                py,
                ErrorKind::Shape,
                format!("the seed does not fit the array: {}", e.value(py)),
            )
        })?;
        np.getattr("copyto")?.call1((&g, v))?;
        Ok(())
    }

    /// Zeroes the adjoints of the tape's ndarrays.
    fn clear_adjoints(&self, py: Python<'_>) -> PyResult<()> {
        self.with_state(py, |_, st| {
            for (_, a) in &st.adjoints {
                a.bind(py).call_method1("fill", (0,))?;
            }
            Ok(())
        })
    }
}
