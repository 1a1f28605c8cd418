//! Shared helpers: programs from qd text on the mlir-cpu device and on the interpreter, and a
//! device that only exports.

use qd_interp::Interpreter;
use qd_ir::text::parse_source;
use qd_ir::{Context, Diagnostic};
use qd_runtime::device::KernelIr;
use qd_runtime::{
    AdstackPlan, Arg, CancelFlag, CompiledKernel, Device, KernelStacks, Memory, Program,
    ProgramConfig, RuntimeError,
};
use std::sync::{Arc, Mutex};

/// A program over `src` on `device`.
pub fn program_on(src: &str, device: Box<dyn Device>, config: ProgramConfig) -> Program {
    let mut ctx = qd_dialects::context();
    let Some(module) = parse_source(&mut ctx, src, "test.mlir") else {
        panic!("parse failed: {:?}", ctx.diagnostics());
    };
    Program::new(ctx, module, device, config).unwrap_or_else(|e| panic!("program: {e}"))
}

/// A program over `src` on mlir-cpu (bounds checked as the interpreter checks them).
pub fn mlir(src: &str, config: ProgramConfig) -> Program {
    let d = qd_mlir::MlirCpuDevice::new().with_check_bounds(true);
    program_on(src, Box::new(d), config)
}

/// A program over `src` on the reference interpreter.
pub fn interp(src: &str, config: ProgramConfig) -> Program {
    program_on(src, Box::new(Interpreter::new()), config)
}

/// Compiles and launches `kernel` with `args`, then syncs.
pub fn run(p: &mut Program, kernel: &str, args: &[Arg]) -> Result<(), Vec<RuntimeError>> {
    let k = p
        .kernel(kernel)
        .unwrap_or_else(|e| panic!("compile {kernel}: {e}"));
    p.launch(k, args).unwrap();
    p.sync()
}

/// The values of field `f` as f64 bits.
pub fn bits(p: &Program, f: &str) -> Vec<u64> {
    p.read_f64(f).unwrap().iter().map(|x| x.to_bits()).collect()
}

/// The text `export_text` gave for the last kernel compiled, or its diagnostics.
pub type Exported = Arc<Mutex<Option<Result<String, Vec<Diagnostic>>>>>;

/// A device that exports each kernel it compiles (lowered as for mlir-cpu, bounds checked) and
/// runs nothing.
pub struct ExportDevice(pub Exported);

impl Device for ExportDevice {
    fn name(&self) -> &str {
        "export"
    }
    fn lowering_pipeline(&self) -> &str {
        qd_mlir::device::PIPELINE
    }
    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        _stacks: &KernelStacks,
        memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        let r = qd_mlir::export_text(ctx, kernel.op, kernel.name, memory).map_err(|d| vec![d]);
        *self.0.lock().unwrap() = Some(r);
        Ok(CompiledKernel(0))
    }
    fn launch(
        &mut self,
        _: &Context,
        _: CompiledKernel,
        _: &[Arg],
        _: &AdstackPlan,
        _: &mut Memory,
        _cancel: &CancelFlag,
    ) -> Result<(), RuntimeError> {
        Err(RuntimeError::device("?", "the export device runs nothing"))
    }
    fn sync(&mut self, _: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        Ok(())
    }
    fn adstack_entry_bytes(&self, elem: qd_runtime::DType) -> u64 {
        qd_runtime::adstack::layout::lowered_entry_bytes(elem)
    }
}

/// The exported text of kernel `name` of `src` (its gradient with `grad`).
pub fn export(src: &str, name: &str, grad: bool) -> String {
    let out = Exported::default();
    let mut p = program_on(
        src,
        Box::new(ExportDevice(out.clone())),
        ProgramConfig::default(),
    );
    if grad {
        p.gradient(name).unwrap_or_else(|e| panic!("{e}"));
    } else {
        p.kernel(name).unwrap_or_else(|e| panic!("{e}"));
    }
    let r = out.lock().unwrap().take().expect("compiled");
    r.unwrap_or_else(|d| panic!("{d:?}"))
}
