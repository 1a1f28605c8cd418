//! qd-llvm: the LLVM backend. Lowered IR (`convert-qd-to-lowered`, see `qd_lowered`) becomes LLVM
//! IR through inkwell, is optimised at O3 for the host CPU and JIT-compiled (MCJIT); the CPU
//! device (`cpu`) runs it on a rayon thread pool, directly on the program's host memory.
//!
//! - [`frame`]: the launch context a task function reads (buffers, arguments, adstack metadata,
//!   the worker's heap row, the error and overflow records), as a flat array of 64-bit words.
//! - [`sites`]: the runtime error sites of a kernel (bounds checks, integer division, shifts, loop
//!   steps), numbered in walk order, with the messages the interpreter gives.
//! - `codegen`: lowered -> LLVM IR, one file per concern (`types`, `task`, `memory`, `control`,
//!   `arith`, `math`, `adstack`, `checks`).
//! - `simd`: a range task's threads in groups of SIMD lanes (SIMT on SIMD, as ISPC does), where
//!   [`Options::vectorize`] asks for it and the task allows it; the device's task notes say which.
//! - [`compile`]: a kernel built, optimised, emitted or JIT-compiled.
//! - [`jit`]: the host TargetMachine, the O3 pipeline, emission (.ll, asm, object) and MCJIT.
//! - [`cache`]: compiled kernels by a hash of their IR and the options, for the whole process.
//! - [`device`]: [`CpuDevice`], the `cpu` device.
//! - `launch`: where a task's threads run: the calling thread (small tasks) or the pool.
//! - [`guard`]: adstack heaps with red zones or one allocation per slice (a debug mode of the
//!   device that shows no write lands outside a stack's slice).
//!
//! A task becomes `i32 @task(ptr noalias %ctx, i64 %first, i64 %last)`: it runs the task's
//! threads `first .. last` one after another and returns 0, or 1 after recording an error in
//! `ctx` (the thread stops there).

pub mod cache;
mod codegen;
pub mod compile;
pub mod device;
pub mod frame;
pub mod guard;
pub mod jit;
mod launch;
mod simd;
pub use qd_runtime::sites;

pub use codegen::vmath::AFN_MAX_ULP;
pub use codegen::{build_module, task_infos, KernelModule, TaskInfo};
pub use compile::{emit_kernel, jit_kernel, KernelInput};
pub use device::{pipeline, CpuDevice, NAME, PIPELINE, PIPELINE_UNCHECKED};
pub use guard::{AdstackGuard, GUARD_ENV};
pub use jit::{emit, EmitKind, Options};
pub use simd::lanes_for;
