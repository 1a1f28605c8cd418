//! [`EmitDevice`]: a device that only compiles: it gets each kernel from the runtime's compile
//! pipeline (lowered by `convert-qd-to-lowered`, as the cpu device gets it) and keeps the LLVM
//! backend's output for the last kernel compiled. It runs nothing.

use qd_ir::{Context, Diagnostic};
use qd_llvm::{emit_kernel, EmitKind, KernelInput, Options};
use qd_runtime::device::{Buffer, KernelIr};
use qd_runtime::{
    AdstackPlan, Arg, CompiledKernel, DType, Device, KernelStacks, Memory, RuntimeError,
};
use std::sync::{Arc, Mutex};

/// The output of the last kernel compiled.
pub type Output = Arc<Mutex<Option<Vec<u8>>>>;

pub struct EmitDevice {
    kind: EmitKind,
    out: Output,
    compiled: u32,
}

impl EmitDevice {
    /// A device emitting `kind`, and where its output goes.
    pub fn new(kind: EmitKind) -> (Self, Output) {
        let out = Output::default();
        let dev = EmitDevice {
            kind,
            out: out.clone(),
            compiled: 0,
        };
        (dev, out)
    }
}

impl Device for EmitDevice {
    fn name(&self) -> &str {
        "emit"
    }

    fn lowering_pipeline(&self) -> &str {
        qd_llvm::PIPELINE
    }

    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        stacks: &KernelStacks,
        memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        let input = KernelInput {
            ctx,
            op: kernel.op,
            name: kernel.name,
            stacks,
            memory,
        };
        let bytes = emit_kernel(&input, self.kind, &Options::default()).map_err(|d| vec![d])?;
        *self.out.lock().unwrap_or_else(|e| e.into_inner()) = Some(bytes);
        self.compiled += 1;
        Ok(CompiledKernel(self.compiled - 1))
    }

    fn upload(&mut self, _memory: &Memory, _what: Buffer) -> Result<(), RuntimeError> {
        Ok(())
    }
    fn download(&mut self, _memory: &mut Memory, _what: Buffer) -> Result<(), RuntimeError> {
        Ok(())
    }

    fn launch(
        &mut self,
        _ctx: &Context,
        _kernel: CompiledKernel,
        _args: &[Arg],
        _adstacks: &AdstackPlan,
        _memory: &mut Memory,
    ) -> Result<(), RuntimeError> {
        Err(RuntimeError::device("?", "qd-translate runs no kernel"))
    }

    fn sync(&mut self, _memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        Ok(())
    }

    /// As the cpu device: i1 stacks hold i32 entries.
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        qd_runtime::adstack::layout::lowered_entry_bytes(elem)
    }
}
