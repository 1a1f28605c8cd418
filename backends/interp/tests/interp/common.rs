//! Shared helpers: contexts, programs from text, running kernels.

use qd_interp::{InterpOptions, Interpreter};
use qd_ir::text::{parse_source, SourceMgr};
use qd_ir::Context;
use qd_runtime::{Arg, Program, ProgramConfig, RuntimeError};

pub fn context() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_arith::dialect());
    ctx.register_dialect(qd_math::dialect());
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(qd_ad::dialect());
    ctx.register_dialect(qd_adstack::dialect());
    ctx
}

/// Parses and verifies `src`, panicking with the rendered diagnostics on failure.
pub fn parse(mut ctx: Context, src: &str, name: &str) -> (Context, qd_ir::OpId) {
    let module = parse_source(&mut ctx, src, name);
    let mut sm = SourceMgr::new();
    sm.add_buffer(name, src);
    let Some(module) = module else {
        let d: Vec<String> = ctx
            .diagnostics()
            .iter()
            .map(|d| sm.render(&ctx, d))
            .collect();
        panic!("parse failed:\n{}", d.join(""));
    };
    (ctx, module)
}

/// A program over `src` on an interpreter with `options`.
pub fn program_with(src: &str, options: InterpOptions) -> Program {
    program_config(src, options, ProgramConfig::default())
}

/// A program over `src` on an interpreter with `options`, created with `config`.
pub fn program_config(src: &str, options: InterpOptions, config: ProgramConfig) -> Program {
    let (ctx, module) = parse(context(), src, "test.mlir");
    let dev = Box::new(Interpreter::with_options(options));
    match Program::new(ctx, module, dev, config) {
        Ok(p) => p,
        Err(e) => panic!("program creation failed: {e}"),
    }
}

pub fn program(src: &str) -> Program {
    program_with(src, InterpOptions::default())
}

/// The text of `examples/NAME` at the workspace root.
pub fn example(name: &str) -> String {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
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

/// The single runtime error of a kernel that must fail.
pub fn run_err(p: &mut Program, kernel: &str, args: &[Arg]) -> RuntimeError {
    match run(p, kernel, args) {
        Ok(()) => panic!("{kernel} was expected to fail"),
        Err(mut errs) => {
            assert_eq!(errs.len(), 1, "{errs:?}");
            errs.remove(0)
        }
    }
}

/// numpy's linspace(a, b, n) in f64, rounded to f32 (what `--set x='linspace(a,b)'` stores).
pub fn linspace_f32(a: f64, b: f64, n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            if n == 1 {
                a as f32
            } else if i == n - 1 {
                b as f32
            } else {
                (a + (b - a) / (n - 1) as f64 * i as f64) as f32
            }
        })
        .collect()
}

/// The line of the runtime error's position.
pub fn line_of(e: &RuntimeError) -> u32 {
    e.position.as_ref().map(|p| p.1).expect("located error")
}
