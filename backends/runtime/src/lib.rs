//! The runtime API every device shares: a [`Program`] owns a module's fields (values, and adjoint
//! storage for `needs_grad` fields, named `x.grad`), user [`Ndarray`]s, compiled kernels and a
//! [`Device`]; it launches kernels with scalar and ndarray arguments ([`Arg`]) and defers runtime
//! errors (out-of-bounds accesses, ...) to [`Program::sync`].
//!
//! - `value`: element types ([`DType`]) and typed values ([`Scalar`]), with checked conversions
//!   and the canonical 64-bit encoding devices exchange.
//! - `memory`: typed host buffers ([`Storage`]) and the program's [`Memory`].
//! - `ndarray`: [`Ndarray`] (dtype, shape, data) and its handle [`NdarrayId`].
//! - `device`: the [`Device`] trait a backend implements.
//! - `registry`: [`DeviceRegistry`], devices by name (filled by `qd_devices::all_devices`).
//! - `pipeline`: the one compile pipeline (autodiff, adstack sizing and ids, the device's
//!   lowering) behind [`Program::kernel`] and [`Program::gradient`].
//! - `source_map`: [`SourceMap`], runtime error codes of a compiled kernel to locations.
//! - `sites`: the error sites of a lowered kernel, numbered and worded alike by every compiled
//!   device.
//! - `cancel`: [`CancelFlag`], how a launch past its deadline is stopped at a `while` back edge.
//! - `error`: immediate errors ([`Error`]) and deferred ones ([`RuntimeError`]).
//! - `program`: [`Program`], [`ProgramConfig`], [`KernelId`], [`ParamType`].
//! - `grad`: gradient kernels ([`Program::gradient`], [`Program::launch_grad`]).
//! - `tape`: [`Tape`], a recorded sequence of launches whose gradients run last to first, exact
//!   through snapshots of what each launch overwrites.
//! - `adstack`: per-launch adstack sizing shared by every device ([`AdstackPlan`]): each
//!   stack's SizeExpr evaluated against the launch's data, its depth and bytes per thread.
//!
//! Semantics every device keeps: launching checks the argument count and types against the
//! kernel's signature before anything runs; an error while a kernel runs stops that launch, is
//! recorded with the kernel's name and the op's location, and is returned once by the next
//! `sync` (a later sync is clean). Before every launch each adstack is sized exactly (its
//! evaluated `size_expr`, else its `max_size`, or [`ProgramConfig::ad_stack_size`] when forced;
//! see [`adstack`]); a push past that capacity writes nothing and sets the overflow flag in the
//! memory ([`Memory::record_adstack_overflow`]); the launch goes on, and the next `sync` reports
//! `adstack overflow` naming the kernel, the stack's location and its capacity, and resets it.

pub mod adstack;
pub mod cancel;
pub mod device;
pub mod error;
pub mod grad;
pub mod memory;
pub mod ndarray;
pub mod pipeline;
pub mod program;
pub mod registry;
pub mod sites;
pub mod source_map;
pub mod tape;
pub mod value;

pub use adstack::{AdstackPlan, DepthSource, KernelStacks, StackInfo, StackPlan};
pub use cancel::CancelFlag;
pub use device::{Arg, Buffer, CompiledKernel, Device, KernelIr, TaskNote};
pub use error::{Error, RuntimeError, RuntimeErrorKind};
pub use grad::{Adjoints, GradientKernel};
pub use memory::{
    AdstackOverflow, ExternalOwner, FieldInfo, FieldRef, FieldSlot, HostBuf, Memory, MemoryLimit,
    Storage, BLOCK_ALIGN,
};
pub use ndarray::{Ndarray, NdarrayId};
pub use program::{adstack_overflow_error, signature, KernelId, ParamType, Program, ProgramConfig};
pub use registry::{DeviceConstructor, DeviceEntry, DeviceOptions, DeviceRegistry};
pub use source_map::SourceMap;
pub use tape::{write_set, Tape, TapeError, WriteSet};
pub use value::{DType, Scalar};
