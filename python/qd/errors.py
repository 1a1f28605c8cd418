"""qd's exceptions. Each derives from QdError and, where one fits, from the builtin a caller
would catch anyway (a dtype mismatch is a TypeError, an unknown name a KeyError)."""


class QdError(Exception):
    """Base class of every error qd raises."""


class DiagnosticError(QdError):
    """Located diagnostics from parsing, verification, a pass or compilation.

    Attributes: file, line, column (of the first error; None when unlocated) and diagnostics, a
    list of dicts (severity, message, file, line, column, notes)."""

    file = None
    line = None
    column = None
    diagnostics = ()


class PipelineError(QdError, ValueError):
    """A malformed pass pipeline, an unknown pass or a bad pass option."""


class UnknownNameError(QdError, KeyError):
    """A field, kernel, parameter, device or op name that does not exist."""

    __str__ = Exception.__str__


class DTypeError(QdError, TypeError):
    """An element type or argument kind that does not match."""


class ShapeError(QdError, ValueError):
    """A shape, rank, element count or value that does not fit."""


class ArgumentError(QdError, TypeError):
    """A missing, extra or repeated kernel argument."""


class KernelError(QdError, RuntimeError):
    """An error while a kernel ran, raised by sync(). Attribute errors: a list of dicts
    (kernel, kind, message, file, line, column)."""

    errors = ()


class AdstackOverflowError(KernelError):
    """A push past an adstack's capacity, raised by sync()."""


class ProgramFailedError(QdError, RuntimeError):
    """A launch or sync on a program whose last sync failed (see Program.clear_error)."""


class BuilderError(QdError):
    """Misuse of qd.ir.Builder (no open kernel, a value of another module)."""


class DeviceError(QdError, RuntimeError):
    """A device that cannot start, or failed outside a launch."""
