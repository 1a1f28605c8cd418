//! `qd.passes`: the registered passes, and running a pipeline on a module.

use crate::errors::{diagnostics_err, qd_err, ErrorKind};
use crate::ir::Module;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qd_pass::PassManager;

/// The pass manager for `pipeline`: MLIR's textual grammar, anchored
/// (`builtin.module(cse,qd.kernel(canonicalize))`) or a bare comma list of passes with options
/// (`reverse-mode-ad,canonicalize{max-iterations=4}`), which runs on the module.
pub fn build(py: Python<'_>, pipeline: &str) -> PyResult<PassManager> {
    let reg = qd_passes::all_passes();
    let text = pipeline.trim();
    let anchored = text.starts_with(qd_ir::builtin::MODULE) && text.ends_with(')');
    let full = if anchored {
        text.to_string()
    } else {
        format!("{}({text})", qd_ir::builtin::MODULE)
    };
    PassManager::parse(&reg, &full)
        .map_err(|e| qd_err(py, ErrorKind::Pipeline, format!("pipeline '{text}': {e}")))
}

/// Runs `pipeline` on `module` in place, verifying after each pass (unless
/// `verify_each=False`). Returns whether any pass changed the IR. A pass failure is a
/// `qd.DiagnosticError`; a malformed pipeline or unknown pass a `qd.PipelineError`.
#[pyfunction]
#[pyo3(signature = (module, pipeline, verify_each = true))]
pub fn run(
    py: Python<'_>,
    module: &mut Module,
    pipeline: &str,
    verify_each: bool,
) -> PyResult<bool> {
    let mut pm = build(py, pipeline)?;
    pm.verify_each = verify_each;
    let op = module.op;
    let _ = module.ctx.take_diagnostics();
    match pm.run(&mut module.ctx, op) {
        Ok(changed) => Ok(changed),
        Err(_) => {
            let diags = module.ctx.take_diagnostics();
            let what = format!("pipeline '{}' failed", pipeline.trim());
            Err(diagnostics_err(
                py,
                &module.ctx,
                &module.sources,
                &diags,
                &what,
            ))
        }
    }
}

/// Every registered pass: a list of dicts with `name`, `description` and `options` (each a dict
/// of `name`, `description`), sorted by name.
#[pyfunction]
pub fn list(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let reg = qd_passes::all_passes();
    let mut out = Vec::new();
    for info in reg.iter() {
        let d = PyDict::new(py);
        d.set_item("name", info.name)?;
        d.set_item("description", info.description)?;
        let mut opts = Vec::new();
        for o in &info.options {
            let od = PyDict::new(py);
            od.set_item("name", o.name)?;
            od.set_item("description", o.description)?;
            opts.push(od);
        }
        d.set_item("options", opts)?;
        out.push(d);
    }
    Ok(out)
}

/// The pass list as `qd-opt --list-passes` prints it.
#[pyfunction]
pub fn describe() -> String {
    qd_passes::all_passes().list_passes()
}
