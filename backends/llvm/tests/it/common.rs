//! Shared helpers: programs from text on the cpu device and on the reference interpreter.

use qd_interp::Interpreter;
use qd_ir::text::parse_source;
use qd_runtime::{Arg, Device, Program, ProgramConfig, RuntimeError};

/// A program over `src` on `device`.
pub fn program_on(src: &str, device: Box<dyn Device>, config: ProgramConfig) -> Program {
    let mut ctx = qd_dialects::context();
    let Some(module) = parse_source(&mut ctx, src, "test.mlir") else {
        panic!("parse failed: {:?}", ctx.diagnostics());
    };
    Program::new(ctx, module, device, config).unwrap_or_else(|e| panic!("program: {e}"))
}

/// A program over `src` on the cpu device with `threads` workers, checking field and ndarray
/// bounds as the interpreter it is compared with does.
pub fn cpu(src: &str, threads: usize) -> Program {
    cpu_with(src, threads, true)
}

/// A program over `src` on the cpu device with `threads` workers, with or without field and
/// ndarray bounds checks.
pub fn cpu_with(src: &str, threads: usize, check_bounds: bool) -> Program {
    let dev = qd_llvm::CpuDevice::with_threads(threads)
        .unwrap()
        .with_check_bounds(check_bounds);
    program_on(src, Box::new(dev), ProgramConfig::default())
}

/// A program over `src` on the reference interpreter.
pub fn interp(src: &str) -> Program {
    program_on(src, Box::new(Interpreter::new()), ProgramConfig::default())
}

/// Compiles and launches `kernel` with `args`, then syncs.
pub fn run(p: &mut Program, kernel: &str, args: &[Arg]) -> Result<(), Vec<RuntimeError>> {
    let k = p
        .kernel(kernel)
        .unwrap_or_else(|e| panic!("compile {kernel}: {e}"));
    p.launch(k, args)
        .unwrap_or_else(|e| panic!("launch {kernel}: {e}"));
    p.sync()
}

/// Runs a kernel that must succeed.
pub fn run_ok(p: &mut Program, kernel: &str, args: &[Arg]) {
    if let Err(errs) = run(p, kernel, args) {
        let msgs: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        panic!("{kernel} failed:\n{}", msgs.join("\n"));
    }
}

/// The errors of a kernel that must fail, as text.
pub fn run_err(p: &mut Program, kernel: &str, args: &[Arg]) -> Vec<String> {
    match run(p, kernel, args) {
        Ok(()) => panic!("{kernel} was expected to fail"),
        Err(e) => e.iter().map(|e| e.to_string()).collect(),
    }
}

/// The text of `examples/NAME` at the workspace root.
pub fn example(name: &str) -> String {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
