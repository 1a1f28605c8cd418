//! Python exceptions: the classes live in `qd/errors.py` (each also derives from the builtin
//! that fits, e.g. `DTypeError(QdError, TypeError)`); this module raises them, and renders qd's
//! located diagnostics into a `DiagnosticError` that carries file, line and column.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use qd_ir::text::SourceMgr;
use qd_ir::{Context, Diagnostic};

/// Which class of `qd.errors` to raise.
#[derive(Copy, Clone, Debug)]
pub enum ErrorKind {
    /// Parse, verification, pass and compile diagnostics (located).
    Diagnostic,
    /// A malformed pass pipeline or unknown pass.
    Pipeline,
    /// A field, kernel, argument or device name that does not exist.
    UnknownName,
    /// An element type or argument kind that does not match.
    DType,
    /// A shape, element count or value that does not fit.
    Shape,
    /// An error while a kernel ran, reported by `sync`.
    Kernel,
    /// An adstack overflow, reported by `sync`.
    AdstackOverflow,
    /// A call on a program whose last sync failed.
    ProgramFailed,
    /// Misuse of the builder (no open kernel, closing what is not open).
    Builder,
    /// A missing, extra or repeated kernel argument.
    Argument,
    /// A device that cannot start or failed outside a launch.
    Device,
    /// Any other refusal of the runtime.
    Other,
}

impl ErrorKind {
    fn class(self) -> &'static str {
        match self {
            ErrorKind::Diagnostic => "DiagnosticError",
            ErrorKind::Pipeline => "PipelineError",
            ErrorKind::UnknownName => "UnknownNameError",
            ErrorKind::DType => "DTypeError",
            ErrorKind::Shape => "ShapeError",
            ErrorKind::Kernel => "KernelError",
            ErrorKind::AdstackOverflow => "AdstackOverflowError",
            ErrorKind::ProgramFailed => "ProgramFailedError",
            ErrorKind::Builder => "BuilderError",
            ErrorKind::Argument => "ArgumentError",
            ErrorKind::Device => "DeviceError",
            ErrorKind::Other => "QdError",
        }
    }
}

/// An exception of `qd.errors` with `message`.
pub fn qd_err(py: Python<'_>, kind: ErrorKind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    let make = || -> PyResult<PyErr> {
        let cls = py.import("qd.errors")?.getattr(kind.class())?;
        Ok(PyErr::from_value(cls.call1((message.clone(),))?))
    };
    make().unwrap_or_else(|e| e)
}

/// Where a diagnostic points: (file, line, column), when its location has one.
fn position(ctx: &Context, d: &Diagnostic) -> Option<(String, u32, u32)> {
    ctx.file_line_col(d.loc)
        .map(|(f, l, c)| (f.to_string(), l, c))
}

/// A `DiagnosticError` for `diags` (errors first): its message is every diagnostic rendered as
/// qd-opt prints it (`file:line:col: error: ...` with the source line and a caret, when
/// `sources` has the file), and it carries `file`, `line`, `column` of the first error and
/// `diagnostics`, a list of dicts (severity, message, file, line, column, notes).
pub fn diagnostics_err(
    py: Python<'_>,
    ctx: &Context,
    sources: &[(String, String)],
    diags: &[Diagnostic],
    context: &str,
) -> PyErr {
    let mut mgr = SourceMgr::new();
    for (name, text) in sources {
        mgr.add_buffer(name, text);
    }
    let rendered: Vec<String> = diags
        .iter()
        .map(|d| mgr.render(ctx, d).trim_end().to_string())
        .collect();
    let mut message = if rendered.is_empty() {
        format!("{context}: failed without a diagnostic")
    } else {
        rendered.join("\n")
    };
    if !context.is_empty() && !rendered.is_empty() {
        message = format!("{context}:\n{message}");
    }
    let err = qd_err(py, ErrorKind::Diagnostic, message);
    let fill = || -> PyResult<()> {
        let value = err.value(py);
        let first = diags
            .iter()
            .find(|d| d.severity == qd_ir::diagnostics::Severity::Error)
            .or(diags.first());
        let (file, line, col) = match first.and_then(|d| position(ctx, d)) {
            Some((f, l, c)) => (Some(f), Some(l), Some(c)),
            None => (None, None, None),
        };
        value.setattr("file", file)?;
        value.setattr("line", line)?;
        value.setattr("column", col)?;
        let list = PyList::empty(py);
        for d in diags {
            list.append(diagnostic_dict(py, ctx, d)?)?;
        }
        value.setattr("diagnostics", list)?;
        Ok(())
    };
    match fill() {
        Ok(()) => err,
        Err(e) => e,
    }
}

fn diagnostic_dict<'py>(
    py: Python<'py>,
    ctx: &Context,
    d: &Diagnostic,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("severity", d.severity.as_str())?;
    dict.set_item("message", &d.message)?;
    let pos = position(ctx, d);
    dict.set_item("file", pos.as_ref().map(|p| p.0.clone()))?;
    dict.set_item("line", pos.as_ref().map(|p| p.1))?;
    dict.set_item("column", pos.as_ref().map(|p| p.2))?;
    let notes = PyList::empty(py);
    for n in &d.notes {
        notes.append(diagnostic_dict(py, ctx, n)?)?;
    }
    dict.set_item("notes", notes)?;
    Ok(dict)
}
