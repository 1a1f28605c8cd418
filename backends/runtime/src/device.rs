//! The [`Device`] trait: what a backend (the reference interpreter, a CPU JIT, Vulkan) provides to
//! a [`crate::Program`]. It is deliberately small: declare the lowering it needs, compile a kernel
//! once from that lowered IR, move field and ndarray memory to and from the device, launch a
//! kernel with checked arguments and its adstack plan, synchronize, and say where a runtime error
//! code came from.
//!
//! The program drives a device in this order (see `crate::pipeline` for the compile side):
//! 1. `lowering_pipeline()` runs on the kernel, after the runtime's own passes (autodiff, adstack
//!    sizing and ids);
//! 2. `compile(kernel, stacks, memory)` gets the lowered kernel and its stack table;
//! 3. before a launch, `upload` each buffer the host changed since it last reached the device;
//!    then `launch`;
//! 4. `sync` waits for the device; then `download` each buffer that the launches since the last
//!    sync may have written, so that host reads after `sync` see the results; runtime errors that
//!    carry only an error code are located through `error_location`.

use crate::adstack::{default_entry_bytes, AdstackPlan, KernelStacks};
use crate::cancel::CancelFlag;
use crate::error::RuntimeError;
use crate::memory::{FieldRef, Memory};
use crate::ndarray::NdarrayId;
use crate::value::{DType, Scalar};
use qd_ir::{Context, Diagnostic, Location, OpId};

/// A kernel compiled by a device: an index the device gives meaning to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct CompiledKernel(pub u32);

impl CompiledKernel {
    /// The error of a launch given a handle that `device` never compiled (one from another
    /// device, or out of range).
    pub fn not_compiled_by(self, device: &str) -> RuntimeError {
        RuntimeError::device(
            "?",
            format!("kernel #{} was not compiled by {device}", self.0),
        )
    }
}

/// A kernel argument: a scalar, or a registered ndarray.
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Arg {
    Scalar(Scalar),
    Ndarray(NdarrayId),
}

/// One buffer of the program's [`Memory`] that a device may hold a copy of: a field's values, a
/// field's adjoint (`FieldRef::grad`), or a registered ndarray.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Buffer {
    Field(FieldRef),
    Ndarray(NdarrayId),
}

/// The IR a device compiles: a kernel after the device's [`Device::lowering_pipeline`] ran.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct KernelIr<'a> {
    /// The kernel's symbol name (`compute`, `compute_grad`).
    pub name: &'a str,
    /// The op the lowering pipeline ran on, holding the kernel: a module (with the fields it
    /// reads); for an empty pipeline, the program's module itself.
    pub module: OpId,
    /// The op of `module` whose symbol is `name`: the `qd.kernel` for an empty pipeline, else
    /// what the pipeline made of it.
    pub op: OpId,
}

/// A backend that compiles and runs kernels.
///
/// The program checks every launch's arguments against the kernel's signature before calling
/// [`Device::launch`], so a device may rely on their count, dtypes and ndarray ranks (and on each
/// ndarray's data matching its shape).
pub trait Device {
    /// A short name (`interp`), the one it is registered under.
    fn name(&self) -> &str;

    /// The textual pass pipeline (MLIR's grammar, e.g. `builtin.module(convert-qd-to-lowered)`)
    /// that lowers a kernel to what [`Device::compile`] takes; empty for none (the interpreter
    /// runs the qd level).
    fn lowering_pipeline(&self) -> &str;

    /// Compiles `kernel`, lowered by [`Device::lowering_pipeline`]. `stacks` is the kernel's
    /// stack table (every adstack by id, with its element type and bounds; the allocas may be gone
    /// after lowering). `memory` gives the fields' layout (names, dtypes, shapes); their contents
    /// may change before each launch. IR the device cannot run is a located diagnostic.
    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        stacks: &KernelStacks,
        memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>>;

    /// Copies `what` from host memory to the device. By default nothing: a device that computes
    /// in the program's host memory (the interpreters, the CPU devices) has nothing to copy.
    fn upload(&mut self, memory: &Memory, what: Buffer) -> Result<(), RuntimeError> {
        let _ = (memory, what);
        Ok(())
    }

    /// Copies `what` from the device back into host memory (after [`Device::sync`]). By
    /// default nothing, as for [`Device::upload`].
    fn download(&mut self, memory: &mut Memory, what: Buffer) -> Result<(), RuntimeError> {
        let _ = (memory, what);
        Ok(())
    }

    /// Runs a compiled kernel. `adstacks` sizes every adstack of the kernel for this launch, by
    /// stack id ([`AdstackPlan::stack`]): the device gives each stack exactly its depth in entries
    /// per thread, and a push past them is an overflow. An error stops this launch; the program
    /// defers it to `sync`. An asynchronous device may instead return its errors from
    /// [`Device::sync`].
    ///
    /// `cancel` is the launch's deadline ([`crate::cancel`]): a device that can stop a launch
    /// ([`Device::supports_cancel`]) polls it at every back edge of a `while` loop and, once it
    /// is set, ends the launch, every thread of it, with a
    /// [`crate::RuntimeErrorKind::Cancelled`] error located at that loop. A launch without a
    /// deadline, and every launch of a device that cannot stop one, gets
    /// [`CancelFlag::never`].
    fn launch(
        &mut self,
        ctx: &Context,
        kernel: CompiledKernel,
        args: &[Arg],
        adstacks: &AdstackPlan,
        memory: &mut Memory,
        cancel: &CancelFlag,
    ) -> Result<(), RuntimeError>;

    /// Whether [`Device::launch`] honours its cancel flag: a launch with a deadline
    /// ([`crate::Program::set_deadline`]) is refused on a device that cannot stop one.
    fn supports_cancel(&self) -> bool {
        false
    }

    /// Waits for all launched work; returns the errors it reported since the last sync.
    fn sync(&mut self, memory: &mut Memory) -> Result<(), Vec<RuntimeError>>;

    /// The source location of error code `code` of `kernel`, for a runtime error the device
    /// reported with a code instead of a location ([`RuntimeError::coded`]; a compiled kernel
    /// stores codes, see [`crate::SourceMap`]). None when the device does not know the code.
    fn error_location(&self, kernel: CompiledKernel, code: u32) -> Option<Location> {
        let _ = (kernel, code);
        None
    }

    /// The bytes one adstack entry of element type `elem` takes on this device (the plan's
    /// bytes per thread use it): by default the host layout, [`default_entry_bytes`]. A device
    /// that widens a type (SPIR-V keeps i1 as i32) overrides it.
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        default_entry_bytes(elem)
    }

    /// A debugging statistic, for devices that keep it (the interpreter does): the most entries
    /// each adstack of `kernel` held at once, over every thread of its last launch, counting
    /// pushes that overflowed (what the stack needed, even past its capacity), in the order of
    /// the launch's plan (ascending stack id). None when the device does not keep it or the
    /// kernel has not run. It must be known when [`Device::launch`] returns: the program then
    /// copies it into the launch's plan (`StackPlan::measured_peak`).
    fn adstack_peaks(&self, kernel: CompiledKernel) -> Option<Vec<u64>> {
        let _ = kernel;
        None
    }

    /// How the device compiled each task of `kernel`, in task order: how many parallel
    /// iterations one instance of its code runs at once (SIMD lanes), and when it runs them one
    /// at a time although it could vectorise, why. Empty for devices without such a choice.
    fn task_notes(&self, kernel: CompiledKernel) -> Vec<TaskNote> {
        let _ = kernel;
        Vec::new()
    }
}

/// How a device compiled one task ([`Device::task_notes`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TaskNote {
    /// The task's location (its parallel loop in the source).
    pub loc: Location,
    /// Parallel iterations one instance runs at once: 1 for scalar code.
    pub lanes: u32,
    /// Why the task runs scalar code when the device vectorises others; None otherwise.
    pub scalar_reason: Option<String>,
}
