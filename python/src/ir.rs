//! `qd.ir.Module`: a module in its own context, parsed from MLIR text or built with
//! `qd.ir.Builder`; printed in custom or generic form; verified with located diagnostics.

use crate::errors::diagnostics_err;
use pyo3::prelude::*;
use qd_frontend::{FieldOp, KernelOp};
use qd_ir::text::{print_op, PrintOptions};
use qd_ir::{Context, OpId};

#[pyclass(module = "qd.ir", unsendable)]
pub struct Module {
    pub ctx: Context,
    pub op: OpId,
    /// The texts its locations point into, by file name (for rendering diagnostics and reading
    /// kernel parameter names).
    pub sources: Vec<(String, String)>,
    /// Distinguishes modules, so a builder refuses values of another module.
    pub uid: u64,
}

static NEXT_UID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn next_uid() -> u64 {
    NEXT_UID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Module {
    /// The module's top-level ops.
    pub fn top_ops(&self) -> Vec<OpId> {
        self.ctx
            .regions(self.op)
            .iter()
            .flat_map(|&r| self.ctx.region_ops(r))
            .collect()
    }

    pub fn kernel_ops(&self) -> Vec<KernelOp> {
        self.top_ops()
            .into_iter()
            .filter_map(|op| KernelOp::from_op(&self.ctx, op))
            .collect()
    }

    pub fn print_text(&self, generic: bool, debug_info: bool) -> String {
        print_op(
            &self.ctx,
            self.op,
            &PrintOptions {
                generic,
                debug_info,
            },
        )
    }

    /// Parses `text` into a fresh context; a parse or verification error is a
    /// `DiagnosticError`.
    pub fn from_text(
        py: Python<'_>,
        text: &str,
        filename: &str,
        verify: bool,
        sources: Vec<(String, String)>,
    ) -> PyResult<Module> {
        let mut ctx = qd_dialects::context();
        let parsed = qd_ir::text::parse_source(&mut ctx, text, filename);
        let Some(op) = parsed else {
            let diags = ctx.take_diagnostics();
            return Err(diagnostics_err(py, &ctx, &sources, &diags, ""));
        };
        let m = Module {
            ctx,
            op,
            sources,
            uid: next_uid(),
        };
        if verify {
            m.check(py)?;
        }
        Ok(m)
    }

    pub fn check(&self, py: Python<'_>) -> PyResult<()> {
        qd_ir::verifier::verify(&self.ctx, self.op)
            .map_err(|d| diagnostics_err(py, &self.ctx, &self.sources, &d, ""))
    }

    /// A copy in a fresh context (printed with locations and parsed again), for a program,
    /// which takes its context.
    pub fn copy(&self, py: Python<'_>) -> PyResult<Module> {
        let text = self.print_text(true, true);
        Module::from_text(py, &text, "<copy>", false, self.sources.clone())
    }
}

#[pymethods]
impl Module {
    /// An empty module, to fill with `qd.ir.Builder`.
    #[new]
    fn new() -> Module {
        let mut ctx = qd_dialects::context();
        let loc = ctx.unknown_loc();
        let (op, _) = qd_ir::builtin::create_module(&mut ctx, loc);
        Module {
            ctx,
            op,
            sources: Vec::new(),
            uid: next_uid(),
        }
    }

    /// Parses MLIR text (custom or generic form) and verifies it (unless `verify=False`).
    /// Locations point into `filename`. Raises `qd.DiagnosticError` (with `file`, `line`,
    /// `column`) on a parse or verification error.
    #[staticmethod]
    #[pyo3(signature = (text, filename = "<string>", verify = true))]
    fn parse(py: Python<'_>, text: &str, filename: &str, verify: bool) -> PyResult<Module> {
        let sources = vec![(filename.to_string(), text.to_string())];
        Module::from_text(py, text, filename, verify, sources)
    }

    /// Reads and parses a file.
    #[staticmethod]
    #[pyo3(signature = (path, verify = true))]
    fn load(py: Python<'_>, path: &str, verify: bool) -> PyResult<Module> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("cannot read {path}: {e}"))
        })?;
        Module::parse(py, &text, path, verify)
    }

    /// The module as MLIR text: custom syntax where ops have one (`generic=True`: every op in
    /// the generic form, which mlir-opt reads); `debug_info=True` prints locations.
    #[pyo3(signature = (generic = false, debug_info = false))]
    fn print(&self, generic: bool, debug_info: bool) -> String {
        self.print_text(generic, debug_info)
    }

    fn __str__(&self) -> String {
        self.print_text(false, false)
    }

    /// Verifies the module; raises `qd.DiagnosticError` with every error.
    fn verify(&self, py: Python<'_>) -> PyResult<()> {
        self.check(py)
    }

    /// An independent copy.
    fn clone(&self, py: Python<'_>) -> PyResult<Module> {
        self.copy(py)
    }

    /// The names of the module's kernels, in order.
    #[getter]
    fn kernels(&self) -> Vec<String> {
        self.kernel_ops()
            .iter()
            .map(|k| k.name(&self.ctx).to_string())
            .collect()
    }

    /// The names of the module's fields, in order.
    #[getter]
    fn fields(&self) -> Vec<String> {
        self.top_ops()
            .into_iter()
            .filter_map(|op| FieldOp::from_op(&self.ctx, op))
            .map(|f| f.name(&self.ctx).to_string())
            .collect()
    }

    /// How many ops the module holds (itself included).
    fn num_ops(&self) -> usize {
        self.ctx.walk_pre_order(self.op).len()
    }
}
