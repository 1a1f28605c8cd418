//! qd-spirv: the SPIR-V backend. Lowered IR (`convert-qd-to-lowered`, see `qd_lowered`) becomes
//! one SPIR-V 1.5 module per kernel through rspirv, with one `GLCompute` entry point per
//! `lowered.task`; the Vulkan device (`vulkan`, module [`vulkan`] when present) runs it.
//!
//! - [`abi`]: the binding contract with the device (buffers, metadata, records, dispatch).
//! - [`sites`]: the runtime error sites of a kernel, numbered as the LLVM backend does.
//! - `codegen` ([`compile_kernel`]): lowered -> SPIR-V, one file per concern (`types`,
//!   `buffers`, `control`, `arith`, `math`, `adstack`, `checks`, `loop_limit`, `task`). Every
//!   module passes `spirv-val --target-env vulkan1.2` (the test `spirv_val` runs it over the
//!   corpus).
//! - Driver limits: lavapipe stops an invocation's loops after 65535 iterations in all; the
//!   device sets [`abi::LoopLimit`] for it and every loop is then counted and checked (a located
//!   runtime error at sync, never a cut-short result).

pub mod abi;
pub use qd_runtime::sites;
pub mod vulkan;

pub use abi::{Binding, BindingKind, Dispatch, LoopLimit, Options, SpirvKernel, SpirvTask};
mod codegen;

pub use codegen::compile_kernel;
