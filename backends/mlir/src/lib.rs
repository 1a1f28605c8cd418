//! qd-mlir: qd and upstream MLIR, through melior (MLIR 22).
//!
//! - [`export`]: a `lowered.kernel` -> an upstream module (func, scf, arith, math, memref, and
//!   the LLVM dialect's atomic load of the cancel flag at `while` back edges), one `func.func`
//!   per task, built in a melior context (`qd-translate --emit=mlir`).
//! - [`pipeline`]: MLIR's own lowering of that module to the LLVM dialect, and its JIT.
//! - [`device`]: the `mlir-cpu` device: the kernels the runtime compiles, exported, lowered by
//!   MLIR's pipeline and run by MLIR's ExecutionEngine, as a second compiler next to `cpu`.
//! - [`import`]: an upstream module (func over memrefs, scf loops, arith, math) -> a qd kernel
//!   that qd can differentiate.

pub mod context;
pub mod device;
pub mod export;
pub mod import;
mod ir;
pub mod pipeline;

pub use context::MlirContext;
pub use device::{MlirCpuDevice, NAME};
pub use export::{
    export_kernel, export_text, print_module, verify_module, Exported, Param, TaskSig,
};
pub use import::{import_text, ImportError};
