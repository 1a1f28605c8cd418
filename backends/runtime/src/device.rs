//! The [`Device`] trait: what a backend (the reference interpreter, a CPU JIT, Vulkan) provides to
//! a [`crate::Program`]. It is deliberately small: compile a kernel once, launch it with checked
//! arguments and its adstack plan over the program's memory, and synchronize.

use crate::adstack::{default_entry_bytes, AdstackPlan};
use crate::error::RuntimeError;
use crate::memory::Memory;
use crate::ndarray::NdarrayId;
use crate::value::{DType, Scalar};
use qd_ir::{Context, Diagnostic, OpId};

/// A kernel compiled by a device: an index the device gives meaning to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct CompiledKernel(pub u32);

/// A kernel argument: a scalar, or a registered ndarray.
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Arg {
    Scalar(Scalar),
    Ndarray(NdarrayId),
}

/// A backend that compiles and runs kernels.
///
/// The program checks every launch's arguments against the kernel's signature before calling
/// [`Device::launch`], so a device may rely on their count, dtypes and ndarray ranks (and on each
/// ndarray's data matching its shape).
pub trait Device {
    /// A short name (`interp`).
    fn name(&self) -> &str;

    /// Compiles the `qd.kernel` op `kernel`. `memory` gives the fields' layout (names, dtypes,
    /// shapes); their contents may change before each launch. IR the device cannot run is a
    /// located diagnostic.
    fn compile(
        &mut self,
        ctx: &Context,
        kernel: OpId,
        memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>>;

    /// Runs a compiled kernel. `adstacks` sizes every adstack of the kernel for this launch
    /// (stack `#i` is the `i`-th `adstack.alloca` of the kernel in pre-order, see
    /// [`crate::adstack::kernel_allocas`]): the device gives each stack exactly
    /// `adstacks.depth(i)` entries per thread, and a push past them is an overflow. An error
    /// stops this launch; the program defers it to `sync`. An asynchronous device may instead
    /// return its errors from [`Device::sync`].
    fn launch(
        &mut self,
        ctx: &Context,
        kernel: CompiledKernel,
        args: &[Arg],
        adstacks: &AdstackPlan,
        memory: &mut Memory,
    ) -> Result<(), RuntimeError>;

    /// Waits for all launched work; returns the errors it reported since the last sync.
    fn sync(&mut self, memory: &mut Memory) -> Result<(), Vec<RuntimeError>>;

    /// The bytes one adstack entry of element type `elem` takes on this device (the plan's
    /// bytes per thread use it): by default the host layout, [`default_entry_bytes`]. A device
    /// that widens a type (SPIR-V keeps i1 as i32) overrides it.
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        default_entry_bytes(elem)
    }

    /// A debugging statistic, for devices that keep it (the interpreter does): the most entries
    /// each adstack of `kernel` held at once, over every thread of its last launch, by stack
    /// number. None when the device does not keep it or the kernel has not run.
    fn adstack_peaks(&self, kernel: CompiledKernel) -> Option<Vec<u64>> {
        let _ = kernel;
        None
    }
}
