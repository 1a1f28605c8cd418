//! `SharedDevice`: the registry's device, wrapped so the fields that Python sees as NumPy arrays
//! stay NumPy's memory. The wrapper forwards every call; around a launch and a sync (the only
//! calls that get the program's memory mutably) it puts NumPy's buffer back under any field the
//! runtime gave memory of its own (`storage::readopt`), and at the first launch after a sync it
//! uploads those fields, since Python may have written the arrays in place (a device computing
//! in host memory uploads nothing).

use crate::storage::{readopt, Export};
use qd_ir::{Context, Diagnostic, Location};
use qd_runtime::{
    AdstackPlan, Arg, Buffer, CancelFlag, CompiledKernel, DType, Device, FieldRef, KernelIr,
    KernelStacks, Memory, RuntimeError, TaskNote,
};

pub struct SharedDevice {
    inner: Box<dyn Device>,
    /// Every field value and adjoint, with the NumPy buffer it lives in.
    homes: Vec<(FieldRef, Export)>,
    /// A launch ran since the last sync: the device may hold newer data than the arrays.
    launched: bool,
}

impl SharedDevice {
    pub fn new(inner: Box<dyn Device>, homes: Vec<(FieldRef, Export)>) -> Self {
        SharedDevice {
            inner,
            homes,
            launched: false,
        }
    }

    fn readopt_all(&self, memory: &mut Memory) {
        for (r, home) in &self.homes {
            if r.index < memory.num_fields() {
                readopt(memory.storage_mut(*r), home);
            }
        }
    }

    fn before_launch(&mut self, memory: &mut Memory) -> Result<(), RuntimeError> {
        self.readopt_all(memory);
        if !self.launched {
            for &(r, _) in &self.homes {
                self.inner.upload(memory, Buffer::Field(r))?;
            }
            self.launched = true;
        }
        Ok(())
    }
}

impl Device for SharedDevice {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn lowering_pipeline(&self) -> &str {
        self.inner.lowering_pipeline()
    }
    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        stacks: &KernelStacks,
        memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        self.inner.compile(ctx, kernel, stacks, memory)
    }
    fn upload(&mut self, memory: &Memory, what: Buffer) -> Result<(), RuntimeError> {
        self.inner.upload(memory, what)
    }
    fn download(&mut self, memory: &mut Memory, what: Buffer) -> Result<(), RuntimeError> {
        self.inner.download(memory, what)
    }
    fn launch(
        &mut self,
        ctx: &Context,
        kernel: CompiledKernel,
        args: &[Arg],
        adstacks: &AdstackPlan,
        memory: &mut Memory,
        cancel: &CancelFlag,
    ) -> Result<(), RuntimeError> {
        self.before_launch(memory)?;
        self.inner
            .launch(ctx, kernel, args, adstacks, memory, cancel)
    }
    fn supports_cancel(&self) -> bool {
        self.inner.supports_cancel()
    }
    fn sync(&mut self, memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        self.readopt_all(memory);
        self.launched = false;
        self.inner.sync(memory)
    }
    fn error_location(&self, kernel: CompiledKernel, code: u32) -> Option<Location> {
        self.inner.error_location(kernel, code)
    }
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        self.inner.adstack_entry_bytes(elem)
    }
    fn adstack_peaks(&self, kernel: CompiledKernel) -> Option<Vec<u64>> {
        self.inner.adstack_peaks(kernel)
    }
    fn task_notes(&self, kernel: CompiledKernel) -> Vec<TaskNote> {
        self.inner.task_notes(kernel)
    }
}
