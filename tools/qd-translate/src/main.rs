//! qd-translate: `qd-translate FILE.mlir --kernel NAME [--grad]
//! --emit=llvm|asm|obj|spirv|spirv-asm [-o OUT]`.
//! The kernel (or, with `--grad`, its gradient) goes through the runtime's one compile pipeline
//! (autodiff, adstack sizing, `convert-qd-to-lowered`, as `qd-run --device cpu` compiles it),
//! then the LLVM backend at O3 for the host CPU, and is written as LLVM IR text, assembly or an
//! object file, or the SPIR-V backend (every capability, as lavapipe), written as a SPIR-V
//! binary or its disassembly (to stdout, or `-o OUT`). Errors are located diagnostics and exit 1; bad usage
//! exits 2 with clap's message.
//! With feature `mlir`: `--emit=mlir` writes the kernel as upstream MLIR (qd-mlir's export), and
//! `qd-translate FILE.mlir --import=mlir` reads upstream MLIR and writes a qd module.

mod emit_device;

use emit_device::Target;

use clap::{Parser, ValueEnum};
use qd_ir::text::{parse_source, SourceMgr};
use qd_ir::Diagnostic;
use qd_llvm::EmitKind;
use qd_runtime::{Error, Program, ProgramConfig};
use std::io::Write;
use std::process::ExitCode;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Emit {
    /// LLVM IR text (.ll)
    Llvm,
    /// Assembly for the host CPU
    Asm,
    /// An object file for the host CPU
    Obj,
    /// A SPIR-V 1.5 module (binary), an entry point per task
    Spirv,
    /// The SPIR-V module, disassembled
    SpirvAsm,
    /// Upstream MLIR (func, scf, arith, math, memref), one func.func per task
    #[cfg(feature = "mlir")]
    Mlir,
}

/// What `--import` reads.
#[cfg(feature = "mlir")]
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Import {
    /// Upstream MLIR text
    Mlir,
}

/// Translate a qd kernel to LLVM IR, assembly or an object file (LLVM O3, host CPU), or SPIR-V
#[derive(Parser, Debug)]
#[command(name = "qd-translate", version)]
struct Cli {
    /// The kernel file (MLIR text)
    #[arg(value_name = "FILE.mlir")]
    file: String,
    /// The kernel to translate
    #[arg(long, value_name = "NAME")]
    #[cfg_attr(not(feature = "mlir"), arg(required = true))]
    #[cfg_attr(feature = "mlir", arg(required_unless_present = "import"))]
    kernel: Option<String>,
    /// Translate the kernel's gradient (made by reverse-mode-ad) instead
    #[arg(long)]
    grad: bool,
    /// What to write
    #[arg(long, value_enum, value_name = "KIND")]
    #[cfg_attr(not(feature = "mlir"), arg(required = true))]
    #[cfg_attr(feature = "mlir", arg(required_unless_present = "import"))]
    emit: Option<Emit>,
    /// Import FILE instead: upstream MLIR (func over memrefs, scf, arith, math) written as a qd
    /// module whose kernels qd can differentiate
    #[cfg(feature = "mlir")]
    #[arg(long, value_enum, value_name = "KIND", conflicts_with_all = ["kernel", "emit", "grad"])]
    import: Option<Import>,
    /// Write here instead of stdout
    #[arg(short = 'o', value_name = "OUT")]
    output: Option<String>,
    /// LLVM: compile task bodies for the SIMD width, one parallel iteration per lane (on, as the
    /// cpu device does), or one iteration per call (off)
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = ["on", "off"])]
    vectorize: String,
    /// The largest input read, in bytes (default 1 GiB): a larger one is an error
    #[arg(long, value_name = "N", default_value_t = qd_ir::text::DEFAULT_MAX_INPUT_BYTES)]
    max_input_bytes: u64,
}

fn translate(cli: &Cli) -> Result<Vec<u8>, String> {
    let cannot = |e: &dyn std::fmt::Display| format!("error: cannot read '{}': {e}\n", cli.file);
    let bytes =
        qd_ir::text::read_path_capped(&cli.file, cli.max_input_bytes).map_err(|e| cannot(&e))?;
    let source = String::from_utf8(bytes).map_err(|e| cannot(&e.utf8_error()))?;
    #[cfg(feature = "mlir")]
    if cli.import == Some(Import::Mlir) {
        return qd_mlir::import_text(&source, &cli.file)
            .map(String::into_bytes)
            .map_err(|e| e.0);
    }
    let (Some(kernel), Some(emit)) = (cli.kernel.as_deref(), cli.emit) else {
        return Err("error: --kernel and --emit are required\n".to_string());
    };
    let mut sm = SourceMgr::new();
    sm.add_buffer(&cli.file, &source);
    let mut ctx = qd_dialects::context();
    let render = |ctx: &qd_ir::Context, d: &[Diagnostic]| -> String {
        d.iter().map(|d| sm.render(ctx, d)).collect()
    };
    let Some(module) = parse_source(&mut ctx, &source, &cli.file) else {
        return Err(render(&ctx, ctx.diagnostics()));
    };
    let kind = match emit {
        Emit::Llvm => Target::Llvm(EmitKind::Llvm),
        Emit::Asm => Target::Llvm(EmitKind::Asm),
        Emit::Obj => Target::Llvm(EmitKind::Obj),
        Emit::Spirv => Target::Spirv { asm: false },
        Emit::SpirvAsm => Target::Spirv { asm: true },
        #[cfg(feature = "mlir")]
        Emit::Mlir => Target::Mlir,
    };
    let (device, out) = emit_device::EmitDevice::new(kind, cli.vectorize == "on");
    let mut p = match Program::new(ctx, module, Box::new(device), ProgramConfig::default()) {
        Ok(p) => p,
        Err(e) => return Err(api_error(&sm, None, e)),
    };
    let compiled = if cli.grad {
        p.gradient(kernel).map(|_| ())
    } else {
        p.kernel(kernel).map(|_| ())
    };
    if let Err(e) = compiled {
        return Err(api_error(&sm, Some(p.context()), e));
    }
    let bytes = out.lock().unwrap_or_else(|e| e.into_inner()).take();
    bytes.ok_or_else(|| "error: the kernel was not compiled\n".to_string())
}

/// An API error: located diagnostics rendered, anything else as a plain message.
fn api_error(sm: &SourceMgr, ctx: Option<&qd_ir::Context>, e: Error) -> String {
    match (e, ctx) {
        (Error::Diagnostics(d), Some(ctx)) => d.iter().map(|d| sm.render(ctx, d)).collect(),
        (e, _) => format!("error: {e}\n"),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match translate(&cli) {
        Ok(bytes) => {
            let written = match &cli.output {
                Some(path) => std::fs::write(path, &bytes)
                    .map_err(|e| format!("error: cannot write '{path}': {e}\n")),
                None => std::io::stdout()
                    .write_all(&bytes)
                    .map_err(|e| format!("error: cannot write to stdout: {e}\n")),
            };
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprint!("{e}");
                    ExitCode::from(1)
                }
            }
        }
        Err(e) => {
            eprint!("{e}");
            ExitCode::from(1)
        }
    }
}
