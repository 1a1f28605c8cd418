//! Errors: [`Error`] for what the API refuses at once (unknown names, bad arguments, IR that does
//! not compile) and [`RuntimeError`] for what goes wrong while a kernel runs (an out-of-bounds
//! access, a division by zero), which is deferred to [`crate::Program::sync`].

use qd_ir::{Context, Diagnostic, Location};
use std::fmt;

/// A problem the runtime reports immediately.
#[derive(Clone, PartialEq, Debug)]
pub enum Error {
    /// Located problems in the IR (unsupported field types, kernels the device cannot compile).
    /// Render them with the program's context (`qd_ir::text::SourceMgr::render`).
    Diagnostics(Vec<Diagnostic>),
    UnknownField {
        name: String,
        known: Vec<String>,
    },
    /// `x.grad` of a field that is not `needs_grad`.
    NoAdjoint(String),
    UnknownKernel {
        name: String,
        known: Vec<String>,
    },
    ArgCount {
        kernel: String,
        expected: usize,
        got: usize,
    },
    ArgType {
        kernel: String,
        index: usize,
        expected: String,
        got: String,
    },
    /// A stale or unknown ndarray handle.
    UnknownNdarray(u32),
    /// A kernel without a gradient kernel (no `ad.reverse @k -> @k_grad` declaration).
    NoGradient(String),
    /// Wrong element count, shape or value for a field or an ndarray.
    Value(String),
    /// A device name the registry does not know.
    UnknownDevice {
        name: String,
        known: Vec<String>,
    },
    /// A device that could not be created or that failed outside a launch (an upload).
    Device(String),
}

impl Error {
    /// The located diagnostics, when this error has any.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Diagnostics(d) => d,
            _ => &[],
        }
    }
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Diagnostics(d) => {
                let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
                write!(f, "{}", msgs.join("; "))
            }
            Error::UnknownField { name, known } => {
                write!(f, "unknown field '{name}' (fields: {})", list(known))
            }
            Error::NoAdjoint(name) => write!(
                f,
                "field '{name}' has no adjoint: '{name}.grad' needs a field declared with {{needs_grad}}"
            ),
            Error::UnknownKernel { name, known } => {
                write!(f, "unknown kernel '{name}' (kernels: {})", list(known))
            }
            Error::ArgCount {
                kernel,
                expected,
                got,
            } => write!(
                f,
                "kernel @{kernel} takes {expected} argument{}, got {got}",
                if *expected == 1 { "" } else { "s" }
            ),
            Error::ArgType {
                kernel,
                index,
                expected,
                got,
            } => write!(
                f,
                "argument {index} of kernel @{kernel} must be {expected}, got {got}"
            ),
            Error::UnknownNdarray(id) => write!(f, "ndarray handle {id} is not registered"),
            Error::NoGradient(k) => write!(
                f,
                "kernel @{k} has no gradient kernel: declare 'ad.reverse @{k}' and run reverse-mode-ad"
            ),
            Error::Value(msg) => f.write_str(msg),
            Error::UnknownDevice { name, known } => {
                write!(f, "unknown device '{name}' (devices: {})", list(known))
            }
            Error::Device(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {}

/// What kind of runtime failure happened.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RuntimeErrorKind {
    /// A field, ndarray or local-array index outside the shape.
    OutOfBounds,
    /// An integer division or remainder by zero.
    DivisionByZero,
    /// An operation the program made with invalid operands (e.g. a shift by the width or more).
    InvalidOperation,
    /// A failure of the device itself (out of memory, lost device).
    Device,
    /// A push past an adstack's capacity (reported at sync; the launch itself went on).
    AdstackOverflow,
    /// A launch stopped because its deadline passed (located at the `while` loop that was
    /// running; see [`crate::cancel`]).
    Cancelled,
}

/// A failure while a kernel ran: where (the op's location), in which kernel, and what.
#[derive(Clone, PartialEq, Debug)]
pub struct RuntimeError {
    pub kind: RuntimeErrorKind,
    pub kernel: String,
    pub loc: Option<Location>,
    /// The location as `file:line:col`, resolved when the error was made.
    pub position: Option<(String, u32, u32)>,
    /// The device's error code, for an error reported without a location: the program maps it
    /// back to one through `Device::error_location` (see [`crate::SourceMap`]).
    pub code: Option<u32>,
    pub message: String,
}

impl RuntimeError {
    /// An error at `loc` in kernel `kernel` (the position is resolved through `ctx`).
    pub fn at(
        ctx: &Context,
        loc: Location,
        kind: RuntimeErrorKind,
        kernel: &str,
        message: impl Into<String>,
    ) -> Self {
        RuntimeError {
            kind,
            kernel: kernel.to_string(),
            loc: Some(loc),
            position: ctx
                .file_line_col(loc)
                .map(|(f, l, c)| (f.to_string(), l, c)),
            code: None,
            message: message.into(),
        }
    }

    /// An error a compiled kernel reported by its error code `code`; the program locates it.
    pub fn coded(
        kind: RuntimeErrorKind,
        kernel: &str,
        code: u32,
        message: impl Into<String>,
    ) -> Self {
        RuntimeError {
            kind,
            kernel: kernel.to_string(),
            loc: None,
            position: None,
            code: Some(code),
            message: message.into(),
        }
    }

    /// Sets the location (and its position, through `ctx`) of an error that had none.
    pub fn locate(&mut self, ctx: &Context, loc: Location) {
        self.loc = Some(loc);
        self.position = ctx
            .file_line_col(loc)
            .map(|(f, l, c)| (f.to_string(), l, c));
    }

    /// An error without a source location (a device failure).
    pub fn device(kernel: &str, message: impl Into<String>) -> Self {
        RuntimeError {
            kind: RuntimeErrorKind::Device,
            kernel: kernel.to_string(),
            loc: None,
            position: None,
            code: None,
            message: message.into(),
        }
    }

    /// The message with the kernel named: `... (in kernel @k)`, unless the message names it.
    pub fn full_message(&self) -> String {
        if self.message.contains(&format!("kernel '{}'", self.kernel)) {
            return self.message.clone();
        }
        format!("{} (in kernel @{})", self.message, self.kernel)
    }

    /// A diagnostic for `SourceMgr::render` (with the source line and a caret), when located.
    pub fn to_diagnostic(&self) -> Option<Diagnostic> {
        self.loc
            .map(|loc| Diagnostic::error(loc, self.full_message()))
    }
}

/// `file:line:col: error: message (in kernel @k)`, or `error: ...` when not located.
impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((file, line, col)) = &self.position {
            write!(f, "{file}:{line}:{col}: ")?;
        }
        write!(f, "error: {}", self.full_message())
    }
}

impl std::error::Error for RuntimeError {}
