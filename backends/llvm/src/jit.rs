//! The host TargetMachine (native CPU name and features), the O3 pipeline, emission of a module
//! as LLVM IR text, assembly or an object file, and the MCJIT engine that runs it.

use inkwell::execution_engine::ExecutionEngine;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine,
};
use inkwell::OptimizationLevel;
use std::sync::Once;

/// How a kernel is compiled; part of the compile cache's key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// The CPU to tune for (`znver3`, ...; the host's by default).
    pub cpu: String,
    /// Its features (`+avx2,+fma,...`).
    pub features: String,
    /// Run `default<O3>` (else no optimisation, for inspection).
    pub optimize: bool,
    /// Compile task bodies for the native SIMD width, one parallel iteration per lane, where
    /// the task allows it (else every task runs one iteration per call).
    pub vectorize: bool,
}

impl Default for Options {
    fn default() -> Self {
        init();
        Options {
            cpu: TargetMachine::get_host_cpu_name().to_string(),
            features: TargetMachine::get_host_cpu_features().to_string(),
            optimize: true,
            vectorize: true,
        }
    }
}

/// What [`emit`] writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EmitKind {
    /// LLVM IR text (`.ll`).
    Llvm,
    /// Assembly.
    Asm,
    /// An object file.
    Obj,
}

static INIT: Once = Once::new();

/// Initialises the native target once per process.
pub fn init() {
    INIT.call_once(|| {
        // Failing here means LLVM was built without the host's target: nothing can compile
        // (the engine links MCJIT in itself).
        Target::initialize_native(&InitializationConfig::default())
            .expect("LLVM has no native target");
    });
}

/// The TargetMachine of `opts` for the host triple.
pub fn target_machine(opts: &Options) -> Result<TargetMachine, String> {
    init();
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| e.to_string())?;
    target
        .create_target_machine(
            &triple,
            &opts.cpu,
            &opts.features,
            OptimizationLevel::Aggressive,
            RelocMode::Default,
            CodeModel::JITDefault,
        )
        .ok_or_else(|| format!("LLVM cannot make a target machine for CPU '{}'", opts.cpu))
}

/// Sets `module`'s triple and data layout for `tm`, verifies it and, when `opts.optimize`, runs
/// `default<O3>` on it.
pub fn optimize(module: &Module<'_>, tm: &TargetMachine, opts: &Options) -> Result<(), String> {
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    module
        .verify()
        .map_err(|e| format!("invalid LLVM IR: {}", e.to_string()))?;
    if opts.optimize {
        module
            .run_passes("default<O3>", tm, PassBuilderOptions::create())
            .map_err(|e| format!("LLVM O3 failed: {}", e.to_string()))?;
    }
    Ok(())
}

/// `module` (already optimised) as `kind`'s bytes.
pub fn emit(module: &Module<'_>, tm: &TargetMachine, kind: EmitKind) -> Result<Vec<u8>, String> {
    let file = match kind {
        EmitKind::Llvm => return Ok(module.print_to_string().to_bytes().to_vec()),
        EmitKind::Asm => FileType::Assembly,
        EmitKind::Obj => FileType::Object,
    };
    let buf = tm
        .write_to_memory_buffer(module, file)
        .map_err(|e| format!("LLVM code generation failed: {}", e.to_string()))?;
    Ok(buf.as_slice().to_vec())
}

/// An MCJIT engine owning `module`. Functions keep the `target-cpu` / `target-features`
/// attributes the code generator put on them, so the engine's code is the host's.
pub fn engine<'ctx>(module: &Module<'ctx>) -> Result<ExecutionEngine<'ctx>, String> {
    init();
    module
        .create_jit_execution_engine(OptimizationLevel::Aggressive)
        .map_err(|e| format!("cannot start the LLVM JIT: {}", e.to_string()))
}
