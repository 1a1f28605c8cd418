//! [`EmitDevice`]: a device that only compiles: it gets each kernel from the runtime's compile
//! pipeline (lowered by `convert-qd-to-lowered`, as the cpu and vulkan devices get it) and keeps
//! the LLVM or SPIR-V backend's output for the last kernel compiled. It runs nothing.

use qd_ir::{Context, Diagnostic};
use qd_llvm::{emit_kernel, EmitKind, KernelInput, Options};
use qd_runtime::device::KernelIr;
use qd_runtime::{
    AdstackPlan, Arg, CancelFlag, CompiledKernel, DType, Device, KernelStacks, Memory, RuntimeError,
};
use std::sync::{Arc, Mutex};

/// The output of the last kernel compiled.
pub type Output = Arc<Mutex<Option<Vec<u8>>>>;

/// What to emit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Llvm(EmitKind),
    /// A SPIR-V module (binary words, little-endian), or its disassembly (rspirv's).
    Spirv {
        asm: bool,
    },
    /// Upstream MLIR text (qd-mlir's export).
    #[cfg(feature = "mlir")]
    Mlir,
}

pub struct EmitDevice {
    kind: Target,
    /// LLVM: vectorised task bodies (`Options::vectorize`).
    vectorize: bool,
    out: Output,
    compiled: u32,
}

impl EmitDevice {
    /// A device emitting `kind` (LLVM: with vectorised task bodies or not), and where its
    /// output goes.
    pub fn new(kind: Target, vectorize: bool) -> (Self, Output) {
        let out = Output::default();
        let dev = EmitDevice {
            kind,
            vectorize,
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
        let bytes = match self.kind {
            Target::Llvm(kind) => {
                let opts = Options {
                    vectorize: self.vectorize,
                    ..Options::default()
                };
                emit_kernel(&input, kind, &opts).map_err(|d| vec![d])?
            }
            Target::Spirv { asm } => spirv(&input, asm).map_err(|d| vec![d])?,
            #[cfg(feature = "mlir")]
            Target::Mlir => qd_mlir::export_text(ctx, kernel.op, kernel.name, memory)
                .map_err(|d| vec![d])?
                .into_bytes(),
        };
        *self.out.lock().unwrap_or_else(|e| e.into_inner()) = Some(bytes);
        self.compiled += 1;
        Ok(CompiledKernel(self.compiled - 1))
    }

    fn launch(
        &mut self,
        _ctx: &Context,
        _kernel: CompiledKernel,
        _args: &[Arg],
        _adstacks: &AdstackPlan,
        _memory: &mut Memory,
        _cancel: &CancelFlag,
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

/// The SPIR-V module of a kernel for a device with every capability (as lavapipe), as binary
/// or disassembled.
fn spirv(input: &KernelInput<'_>, asm: bool) -> Result<Vec<u8>, Diagnostic> {
    let k = qd_spirv::compile_kernel(
        input.ctx,
        input.op,
        input.name,
        input.stacks,
        &qd_spirv::Options::default(),
    )?;
    if !asm {
        return Ok(k.words.iter().flat_map(|w| w.to_le_bytes()).collect());
    }
    let module = rspirv::dr::load_words(&k.words)
        .map_err(|e| Diagnostic::error(input.ctx.loc(input.op), format!("SPIR-V: {e}")))?;
    let mut text = rspirv::binary::Disassemble::disassemble(&module);
    text.push('\n');
    Ok(text.into_bytes())
}
