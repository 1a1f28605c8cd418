//! The host TargetMachine (native CPU name and features), the optimisation pipeline
//! ([`PIPELINE`]), emission of a module as LLVM IR text, assembly or an object file, and the MCJIT
//! engine that runs it.

use inkwell::attributes::{Attribute, AttributeLoc};
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
    /// Run [`PIPELINE`] (else no optimisation, for inspection).
    pub optimize: bool,
    /// Compile task bodies for the native SIMD width, one parallel iteration per lane, where
    /// the task allows it (else every task runs one iteration per call).
    pub vectorize: bool,
    /// Poll the launch's cancel flag at every `lowered.while` back edge (see
    /// `qd_runtime::cancel`), so that a launch past its deadline stops. On by default; off only
    /// to measure what the poll costs (benches/benches/timeout_cost.rs): a device compiling
    /// without it cannot honour a deadline.
    pub cancel_checks: bool,
}

impl Default for Options {
    fn default() -> Self {
        init();
        Options {
            cpu: TargetMachine::get_host_cpu_name().to_string(),
            features: TargetMachine::get_host_cpu_features().to_string(),
            optimize: true,
            vectorize: true,
            cancel_checks: true,
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

/// The IR pipeline run on every kernel module, in place of `default<O3>`, which took 40-60% of a
/// kernel's compile time. A kernel module is a few task functions that call nothing but
/// intrinsics, so the module-level and call-graph passes (inliner, IPSCCP, globalopt, function
/// attributes, ...) find nothing to do; what the task bodies need is, in order: locals to
/// registers (sroa), cleanup (early-cse, simplifycfg, instcombine), loop invariants hoisted out of
/// the thread and trip loops (licm around loop-rotate), induction variables and dead loops
/// (indvars, loop-deletion), redundant loads and stores (gvn, dse), and the loop vectorizer for
/// tasks compiled one iteration per call (`--vectorize off`: an elementwise thread loop still
/// vectorizes); lower-expect first turns the codegen's `llvm.expect` hints into branch weights.
/// Unrolling and the SLP vectorizer are left out: on the vectorised benchmark kernels
/// (benches/quadrants_cpu) they grew the code that instruction selection then spends its time
/// on, for no measurable run-time gain. instcombine runs with one iteration, as in O3.
/// Measured there (kernel + gradient, ms, O3 -> this): (a) 26 -> 16, (b) 66 -> 48,
/// (c) 43 -> 31, (d) 67 -> 50.
pub const PIPELINE: &str = concat!(
    "function(",
    "lower-expect,sroa<modify-cfg>,early-cse,simplifycfg,instcombine<max-iterations=1;no-verify-fixpoint>,",
    "loop-mssa(licm,loop-rotate,licm<allowspeculation>),",
    "simplifycfg,instcombine<max-iterations=1;no-verify-fixpoint>,",
    "loop(indvars,loop-deletion),",
    "gvn,instcombine<max-iterations=1;no-verify-fixpoint>,dse,",
    "loop-mssa(licm<allowspeculation>),simplifycfg,",
    "loop-vectorize,instcombine<max-iterations=1;no-verify-fixpoint>,simplifycfg)"
);

/// [`PIPELINE`] then O3's loop unroller, for modules compiled with `vectorize: false`. A scalar
/// task runs one thread after another: unrolling its loops lets the core overlap consecutive
/// threads' dependency chains, as SIMD lanes do for a vectorised task (the linear body's scalar
/// forward, benches/quadrants_cpu (a): 69 ms without it, 48 ms with it, 46 ms at O3).
pub const PIPELINE_SCALAR: &str = concat!(
    "function(",
    "lower-expect,sroa<modify-cfg>,early-cse,simplifycfg,instcombine<max-iterations=1;no-verify-fixpoint>,",
    "loop-mssa(licm,loop-rotate,licm<allowspeculation>),",
    "simplifycfg,instcombine<max-iterations=1;no-verify-fixpoint>,",
    "loop(indvars,loop-deletion),",
    "gvn,instcombine<max-iterations=1;no-verify-fixpoint>,dse,",
    "loop-mssa(licm<allowspeculation>),simplifycfg,",
    "loop-vectorize,instcombine<max-iterations=1;no-verify-fixpoint>,simplifycfg,",
    "loop-unroll<O3>,instcombine<max-iterations=1;no-verify-fixpoint>)"
);

/// The code generator's level, for the JIT and for emitted assembly and objects alike. `Less`
/// (llc -O1) keeps the selection-DAG instruction selector and the greedy register allocator, and
/// skips some late machine passes: ~7% less code generation time than `Aggressive`, with the same
/// run times on the benchmark kernels.
pub const CODEGEN_LEVEL: OptimizationLevel = OptimizationLevel::Less;

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
            CODEGEN_LEVEL,
            RelocMode::Default,
            CodeModel::JITDefault,
        )
        .ok_or_else(|| format!("LLVM cannot make a target machine for CPU '{}'", opts.cpu))
}

/// The pipeline for `opts`: [`PIPELINE`], or [`PIPELINE_SCALAR`] when tasks are not vectorised.
pub fn pipeline(opts: &Options) -> &'static str {
    if opts.vectorize {
        PIPELINE
    } else {
        PIPELINE_SCALAR
    }
}

/// Sets `module`'s triple and data layout for `tm`, verifies it and, when `opts.optimize`, runs
/// [`PIPELINE`] on it.
pub fn optimize(module: &Module<'_>, tm: &TargetMachine, opts: &Options) -> Result<(), String> {
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    module
        .verify()
        .map_err(|e| format!("invalid LLVM IR: {}", e.to_string()))?;
    if opts.optimize {
        cold_at_o0(module);
        module
            .run_passes(pipeline(opts), tm, PassBuilderOptions::create())
            .map_err(|e| format!("LLVM optimisation failed: {}", e.to_string()))?;
    }
    Ok(())
}

/// Marks the module's out-of-line rare paths (`cold` and `noinline` functions: vmath's slow
/// range reductions) `optnone`, so that neither the pipeline nor instruction selection spends its
/// time on code that almost never runs: they were a third of the sin gradient's machine code.
/// Kernel + gradient compile on benches/quadrants_cpu (ms of CPU, qd-translate --emit asm):
/// (b) 75 -> 68, (d) 65 -> 58, (c) unchanged.
fn cold_at_o0(module: &Module<'_>) {
    let kind = |n: &str| Attribute::get_named_enum_kind_id(n);
    let (cold, noinline, optnone) = (kind("cold"), kind("noinline"), kind("optnone"));
    let llcx = module.get_context();
    for f in module.get_functions() {
        let has = |k| f.get_enum_attribute(AttributeLoc::Function, k).is_some();
        if f.count_basic_blocks() > 0 && has(cold) && has(noinline) && !has(optnone) {
            f.add_attribute(
                AttributeLoc::Function,
                llcx.create_enum_attribute(optnone, 0),
            );
        }
    }
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
        .create_jit_execution_engine(CODEGEN_LEVEL)
        .map_err(|e| format!("cannot start the LLVM JIT: {}", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;

    /// `optimize` marks a cold noinline function optnone and leaves the others (hot, or cold
    /// but inlinable) to the pipeline.
    #[test]
    fn cold_out_of_line_functions_are_not_optimised() {
        let llcx = Context::create();
        let m = llcx.create_module("m");
        let f32t = llcx.f32_type();
        let fty = f32t.fn_type(&[f32t.into()], false);
        let attr = |n: &str| llcx.create_enum_attribute(Attribute::get_named_enum_kind_id(n), 0);
        let mut fs = Vec::new();
        for (name, attrs) in [
            ("slow", &["cold", "noinline"][..]),
            ("hot", &[][..]),
            ("cold_inlinable", &["cold"][..]),
        ] {
            let f = m.add_function(name, fty, None);
            for a in attrs {
                f.add_attribute(AttributeLoc::Function, attr(a));
            }
            let b = llcx.create_builder();
            b.position_at_end(llcx.append_basic_block(f, "entry"));
            let x = f.get_nth_param(0).unwrap().into_float_value();
            let y = b.build_float_add(x, x, "y").unwrap();
            b.build_return(Some(&y)).unwrap();
            fs.push(f);
        }
        let opts = Options::default();
        let tm = target_machine(&opts).unwrap();
        optimize(&m, &tm, &opts).unwrap();
        let optnone = Attribute::get_named_enum_kind_id("optnone");
        let marked: Vec<bool> = fs
            .iter()
            .map(|f| {
                f.get_enum_attribute(AttributeLoc::Function, optnone)
                    .is_some()
            })
            .collect();
        assert_eq!(marked, [true, false, false]);
    }
}
