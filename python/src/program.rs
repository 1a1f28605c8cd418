//! `qd.Program`: a module's fields, kernels and ndarrays on a device from the registry. Fields
//! are NumPy arrays that the runtime computes in (no copy on host-memory devices); NumPy arrays
//! passed to kernels are bound in place (`arrays`). Runtime errors come back from `sync()` as
//! exceptions; after a failed sync the program refuses launches until `clear_error()`.

use crate::arrays::ArrayCache;
use crate::buffers::{zeros, Pinned};
use crate::device::SharedDevice;
use crate::errors::{diagnostics_err, qd_err, ErrorKind};
use crate::ir::Module;
use crate::kernel::{Kernel, KernelMeta};
use crate::storage::Export;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use qd_runtime::{
    DeviceOptions, Error, FieldRef, KernelId, Memory, ProgramConfig, RuntimeError, RuntimeErrorKind,
};
use std::collections::HashMap;
use std::sync::Arc;

/// A field's value or adjoint, as the NumPy array the runtime computes in.
struct FieldArray {
    name: String,
    /// The array's export, which the runtime's storage of the field also holds.
    export: Export,
    /// A second reference besides the export's: NumPy's `resize` (with its default refcheck)
    /// then always refuses, even on a temporary such as `prog["x"].resize(...)`.
    _held: Py<PyAny>,
}

#[pyclass(module = "qd", unsendable)]
pub struct Program {
    // The runtime's storages over NumPy memory hold their exports themselves, so the drop
    // order of these fields does not matter for soundness.
    pub p: qd_runtime::Program,
    pub sources: Vec<(String, String)>,
    fields: Vec<FieldArray>,
    pub arrays: ArrayCache,
    kernels: HashMap<String, Arc<KernelMeta>>,
    /// A launch ran since the last sync: a host write must then also reach the runtime, or
    /// the sync's download would replace it on a device with its own memory.
    pub launched: bool,
    /// The message of the sync that failed, until `clear_error()`.
    pub failed: Option<String>,
    pub tape: Option<crate::tape::TapeState>,
}

/// The Python exception for a runtime API error.
pub fn runtime_err(py: Python<'_>, p: &qd_runtime::Program, e: Error) -> PyErr {
    let kind = match &e {
        Error::Diagnostics(d) => {
            return diagnostics_err(py, p.context(), &[], d, "");
        }
        Error::UnknownField { .. }
        | Error::UnknownKernel { .. }
        | Error::UnknownDevice { .. }
        | Error::NoAdjoint(_)
        | Error::NoGradient(_) => ErrorKind::UnknownName,
        Error::ArgCount { .. } => ErrorKind::Argument,
        Error::ArgType { .. } => ErrorKind::DType,
        Error::Value(_) => ErrorKind::Shape,
        Error::Device(_) => ErrorKind::Device,
        Error::UnknownNdarray(_) => ErrorKind::Other,
    };
    qd_err(py, kind, e.to_string())
}

impl Program {
    pub fn check_usable(&self, py: Python<'_>) -> PyResult<()> {
        match &self.failed {
            None => Ok(()),
            Some(m) => Err(qd_err(
                py,
                ErrorKind::ProgramFailed,
                format!(
                    "the program's last sync failed ({m}); its fields hold a partial result. \
                     Call prog.clear_error() to continue with it"
                ),
            )),
        }
    }

    pub fn api_err(&self, py: Python<'_>, e: Error) -> PyErr {
        match e {
            Error::Diagnostics(d) => diagnostics_err(py, self.p.context(), &self.sources, &d, ""),
            e => runtime_err(py, &self.p, e),
        }
    }

    /// Syncs; errors become one exception (and the program's failed state).
    pub fn sync_inner(&mut self, py: Python<'_>) -> PyResult<()> {
        let r = self.p.sync();
        self.launched = false;
        self.arrays.readopt_all(&mut self.p);
        self.arrays.after_sync(py, &mut self.p);
        match r {
            Ok(()) => Ok(()),
            Err(errors) => Err(self.fail(py, errors)),
        }
    }

    pub fn fail(&mut self, py: Python<'_>, errors: Vec<RuntimeError>) -> PyErr {
        let msg = errors
            .iter()
            .map(|e| e.full_message())
            .collect::<Vec<_>>()
            .join("; ");
        self.failed = Some(msg.clone());
        let overflow = errors
            .iter()
            .any(|e| e.kind == RuntimeErrorKind::AdstackOverflow);
        let kind = if overflow {
            ErrorKind::AdstackOverflow
        } else {
            ErrorKind::Kernel
        };
        let err = qd_err(py, kind, msg);
        let fill = || -> PyResult<()> {
            let list = PyList::empty(py);
            for e in &errors {
                let d = PyDict::new(py);
                d.set_item("kernel", &e.kernel)?;
                d.set_item("kind", format!("{:?}", e.kind))?;
                d.set_item("message", &e.message)?;
                let pos = e.position.clone();
                d.set_item("file", pos.as_ref().map(|p| p.0.clone()))?;
                d.set_item("line", pos.as_ref().map(|p| p.1))?;
                d.set_item("column", pos.as_ref().map(|p| p.2))?;
                list.append(d)?;
            }
            err.value(py).setattr("errors", list)?;
            Ok(())
        };
        match fill() {
            Ok(()) => err,
            Err(e) => e,
        }
    }

    pub fn field_array<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        if let Some(f) = self.fields.iter().find(|f| f.name == name) {
            return Ok(f.export.pinned().object(py));
        }
        // The runtime's own error names the fields (or says the field has no adjoint).
        match self.p.field_info(name) {
            Err(e) => Err(runtime_err(py, &self.p, e)),
            Ok(_) => Err(qd_err(
                py,
                ErrorKind::UnknownName,
                format!("no field '{name}'"),
            )),
        }
    }

    /// After Python wrote field `name` in place: when a launch since the last sync may have
    /// written it on a device with its own memory, the runtime gets the values too (as a
    /// write, which the sync's download then does not overwrite; the next launch or sync puts
    /// the field back into its NumPy array). On host-memory devices after a sync, nothing.
    pub fn host_wrote(&mut self, py: Python<'_>, name: &str) -> PyResult<()> {
        if !self.launched {
            return Ok(());
        }
        let Some(f) = self.fields.iter().find(|f| f.name == name) else {
            return Ok(());
        };
        // A copy of the array's values (a clone of an external storage is the runtime's own).
        let copy = f
            .export
            .storage()
            .map_err(|e| qd_err(py, ErrorKind::Other, e))?
            .clone();
        self.p
            .write(name, copy)
            .map_err(|e| runtime_err(py, &self.p, e))
    }

    /// The compiled kernels' ids, in compile order.
    fn compiled(&self) -> Vec<KernelId> {
        (0..)
            .map(KernelId)
            .take_while(|&k| self.p.kernel_name(k).is_some())
            .collect()
    }
}

#[pymethods]
impl Program {
    /// A program of `module` (copied: the module stays yours) on `device` (a name of the
    /// device registry: `cpu`, `interp`, `interp-lowered`, `vulkan`). `check_bounds`: the cpu
    /// device checks every index (an out-of-bounds access is then a `KernelError` at sync
    /// instead of undefined behaviour). `threads`: the cpu device's workers.
    /// `ad_stack_size`: force every adstack's capacity.
    #[new]
    #[pyo3(signature = (module, device = "cpu", *, check_bounds = true, threads = None, ad_stack_size = None))]
    fn new(
        py: Python<'_>,
        module: &Module,
        device: &str,
        check_bounds: bool,
        threads: Option<usize>,
        ad_stack_size: Option<usize>,
    ) -> PyResult<Program> {
        module.check(py)?;
        let copy = module.copy(py)?;
        let Module {
            ctx, op, sources, ..
        } = copy;
        let layout =
            Memory::layout(&ctx, op).map_err(|d| diagnostics_err(py, &ctx, &sources, &d, ""))?;
        // Every field value and adjoint lives in a NumPy array made here.
        let mut fields = Vec::new();
        let mut homes = Vec::new();
        for (index, info) in layout.iter().enumerate() {
            for grad in [false, true] {
                if grad && !info.needs_grad {
                    continue;
                }
                let name = if grad {
                    format!("{}.grad", info.name)
                } else {
                    info.name.clone()
                };
                let arr = zeros(py, info.dtype, &info.shape)?;
                let export = Export::new(Pinned::new(&arr, &|| format!("field '{name}'"))?);
                homes.push((FieldRef { index, grad }, export.clone()));
                fields.push(FieldArray {
                    name,
                    export,
                    _held: arr.unbind(),
                });
            }
        }
        let options = DeviceOptions {
            check_bounds,
            threads,
            ..Default::default()
        };
        let registry = qd_devices::all_devices();
        let dev = registry.create(device, &options).map_err(|e| match e {
            Error::UnknownDevice { .. } => qd_err(py, ErrorKind::UnknownName, e.to_string()),
            e => qd_err(py, ErrorKind::Device, e.to_string()),
        })?;
        let config = ProgramConfig {
            verify: false,
            ad_stack_size,
            ..Default::default()
        };
        let shared = SharedDevice::new(dev, homes);
        let mut p = qd_runtime::Program::new(ctx, op, Box::new(shared), config)
            .map_err(|e| qd_err(py, ErrorKind::Other, e.to_string()))?;
        for f in &fields {
            let s = f
                .export
                .storage()
                .map_err(|e| qd_err(py, ErrorKind::Other, e))?;
            p.write(&f.name, s).map_err(|e| runtime_err(py, &p, e))?;
        }
        Ok(Program {
            p,
            sources,
            fields,
            arrays: ArrayCache::default(),
            kernels: HashMap::new(),
            launched: false,
            failed: None,
            tape: None,
        })
    }

    /// The device's name.
    #[getter]
    fn device(&self) -> String {
        self.p.device_name().to_string()
    }

    /// The field names (adjoints as `x.grad`), in module order.
    #[getter]
    fn fields(&self) -> Vec<String> {
        self.fields.iter().map(|f| f.name.clone()).collect()
    }

    /// The module's kernel names.
    #[getter]
    fn kernels(&self) -> Vec<String> {
        self.p.kernel_names()
    }

    /// The NumPy array a field (or `x.grad`) lives in: kernels read and write it in place;
    /// results are there after `sync()`.
    fn field<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.field_array(py, name)
    }

    fn __getitem__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.field_array(py, name)
    }

    /// Copies `values` (an array of the field's shape, or a scalar) into field `name`, with
    /// NumPy's same-kind casting (float64 into a float32 field; not float into int).
    fn set(&mut self, py: Python<'_>, name: &str, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let dst = self.field_array(py, name)?;
        let np = py.import("numpy")?;
        let src = np.getattr("asarray")?.call1((values,))?;
        let dshape: Vec<usize> = dst.getattr("shape")?.extract()?;
        let sshape: Vec<usize> = src.getattr("shape")?.extract()?;
        if !sshape.is_empty() && sshape != dshape {
            return Err(qd_err(
                py,
                ErrorKind::Shape,
                format!("field '{name}' has shape {dshape:?}, got values of shape {sshape:?}"),
            ));
        }
        let kw = PyDict::new(py);
        kw.set_item("casting", "same_kind")?;
        np.getattr("copyto")?
            .call((&dst, &src), Some(&kw))
            .map_err(|e| {
                let dt: String = dst
                    .getattr("dtype")
                    .and_then(|d| d.str())
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                qd_err(
                    py,
                    ErrorKind::DType,
                    format!("field '{name}' holds {dt}: {}", e.value(py)),
                )
            })?;
        self.host_wrote(py, name)
    }

    fn __setitem__(
        &mut self,
        py: Python<'_>,
        name: &str,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.set(py, name, values)
    }

    /// Zeroes every adjoint field.
    fn clear_grads(&mut self, py: Python<'_>) -> PyResult<()> {
        let names: Vec<String> = self
            .fields
            .iter()
            .filter(|f| f.name.ends_with(".grad"))
            .map(|f| f.name.clone())
            .collect();
        for name in names {
            self.field_array(py, &name)?.call_method1("fill", (0,))?;
            self.host_wrote(py, &name)?;
        }
        Ok(())
    }

    /// The kernel `name` (compiled on first use; compile errors are `DiagnosticError`s).
    fn kernel(slf: &Bound<'_, Self>, name: &str) -> PyResult<Kernel> {
        let known = slf.borrow().kernels.get(name).cloned();
        let meta = match known {
            Some(m) => m,
            None => {
                let m = Arc::new(Kernel::compile(slf, name)?);
                slf.borrow_mut().kernels.insert(name.to_string(), m.clone());
                m
            }
        };
        Ok(Kernel::new(slf, meta))
    }

    /// Waits for the device; an error of a launch since the last sync (out of bounds, adstack
    /// overflow, ...) raises here (`KernelError`, `AdstackOverflowError`, each with `errors`:
    /// a list of dicts with kernel, kind, message, file, line, column).
    fn sync(&mut self, py: Python<'_>) -> PyResult<()> {
        self.check_usable(py)?;
        self.sync_inner(py)
    }

    /// Accepts the failure of the last sync: launches are allowed again (write the inputs
    /// again first: fields hold whatever the failed launches left).
    fn clear_error(&mut self) {
        self.failed = None;
    }

    /// Whether the last sync failed (and `clear_error()` was not called since).
    #[getter]
    fn failed(&self) -> Option<String> {
        self.failed.clone()
    }

    /// The adstack report of the last launch of each kernel launched (or of `kernel`): a list
    /// of dicts, one per stack: kernel, id, file, line, column, elem, depth (capacity in
    /// entries), bytes_per_thread, source (`size_expr`, `max_size` or `forced`), size_expr
    /// (its bound as text), elided (minimize-tape kept no primal), measured_peak (interp only).
    #[pyo3(signature = (kernel = None))]
    fn adstack_report<'py>(
        &self,
        py: Python<'py>,
        kernel: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for k in self.compiled() {
            let name = self.p.kernel_name(k).unwrap_or("?");
            if kernel.is_some_and(|want| want != name) {
                continue;
            }
            let Some(plan) = self.p.last_adstack_plan(k) else {
                continue;
            };
            let ctx = self.p.context();
            for s in &plan.stacks {
                let d = PyDict::new(py);
                d.set_item("kernel", &plan.kernel)?;
                d.set_item("id", s.id)?;
                let pos = ctx.file_line_col(s.loc);
                d.set_item("file", pos.map(|p| p.0.to_string()))?;
                d.set_item("line", pos.map(|p| p.1))?;
                d.set_item("column", pos.map(|p| p.2))?;
                d.set_item("elem", s.elem.to_string())?;
                d.set_item("depth", s.depth)?;
                d.set_item("bytes_per_thread", s.bytes_per_thread)?;
                let source = match s.source {
                    qd_runtime::DepthSource::Forced => "forced",
                    qd_runtime::DepthSource::SizeExpr => "size_expr",
                    qd_runtime::DepthSource::MaxSize => "max_size",
                };
                d.set_item("source", source)?;
                d.set_item("size_expr", s.size_expr.as_ref().map(|e| e.to_string()))?;
                d.set_item("elided", !s.primal_kept)?;
                d.set_item("measured_peak", s.measured_peak)?;
                out.append(d)?;
            }
        }
        Ok(out)
    }

    /// A tape over the launches in a `with` block (see `qd.Tape`).
    #[pyo3(signature = (loss = None))]
    fn tape(slf: &Bound<'_, Self>, loss: Option<String>) -> PyResult<crate::tape::Tape> {
        crate::tape::Tape::new(slf, loss)
    }

    /// How many NumPy arrays are bound as ndarrays (released at a sync once unreferenced).
    #[getter]
    fn bound_arrays(&self) -> usize {
        self.arrays.len()
    }

    /// The module the program runs, as text.
    fn module_text(&self) -> String {
        qd_ir::text::print_op(
            self.p.context(),
            self.p.module(),
            &qd_ir::text::PrintOptions::default(),
        )
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        if let Some(t) = self.tape.take() {
            t.release(self);
        }
        let p = &mut self.p;
        self.arrays.clear(p);
    }
}
