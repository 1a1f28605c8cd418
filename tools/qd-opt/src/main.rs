//! qd-opt: the mlir-opt of qd. Parses MLIR text, verifies it, runs a pass pipeline and prints the
//! result. Exit status: 0 on success, 1 when any error diagnostic was emitted, 2 on bad usage.

mod cli;
mod diag_regex;
mod irdl;
mod pipeline;
mod roundtrip;
mod split;
mod verify_diagnostics;

use qd_ir::text::{parse_source, print_op, PrintOptions, SourceMgr};
use qd_ir::{Context, Diagnostic, Severity};
use qd_pass::PassManager;
use std::borrow::Cow;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let opts = match cli::parse_args(std::env::args_os()) {
        Ok(o) => o,
        Err(e) => {
            // Usage errors go to stderr with exit 2; --help and --version to stdout with 0.
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    if let Some(shell) = opts.completions {
        let _ = std::io::stdout().lock().write_all(&cli::completions(shell));
        return ExitCode::SUCCESS;
    }
    if opts.list_passes {
        print!("{}", pipeline::list_passes());
        return ExitCode::SUCCESS;
    }
    if opts.print_irdl {
        return match irdl::print_irdl() {
            Ok(text) => match write_output(opts.output.as_deref(), &text) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::from(1)
                }
            },
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        };
    }
    // A bad pipeline is a usage error, reported before any input is read.
    let mut pm = match pipeline::build(&opts) {
        Ok(pm) => pm,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let (name, source) = match read_input(opts.input.as_deref(), opts.max_input_bytes) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    // Without splitting, the one chunk is the input itself (not a copy of it).
    let chunks: Vec<Cow<str>> = if opts.split_input_file {
        let (chunks, near_misses) = split::split_input(&source);
        for (line, col) in near_misses {
            let text = source.lines().nth(line - 1).unwrap_or("");
            eprintln!(
                "{name}:{line}:{col}: warning: near miss with file split marker\n{text}\n{}^",
                " ".repeat(col - 1)
            );
        }
        chunks.into_iter().map(Cow::Owned).collect()
    } else {
        vec![Cow::Borrowed(source.as_str())]
    };
    let mut out = String::new();
    let mut ok = true;
    let mut timing = pipeline::Timing::new(opts.pass_timing);
    for (i, chunk) in chunks.iter().enumerate() {
        if i > 0 {
            out.push_str("// -----\n");
        }
        ok &= process_chunk(
            &opts,
            &mut pm,
            &mut timing,
            (&name, &source),
            chunk,
            &mut out,
        );
    }
    if let Some(report) = timing.report(&pm) {
        eprint!("{report}");
    }
    if opts.pass_statistics {
        eprint!("{}", pm.statistics_report());
    }
    if let Err(e) = write_output(opts.output.as_deref(), &out) {
        eprintln!("{e}");
        return ExitCode::from(1);
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The input (stdin for none or `-`), at most `cap` bytes (`--max-input-bytes`).
fn read_input(path: Option<&str>, cap: u64) -> Result<(String, String), String> {
    match path {
        None | Some("-") => {
            let bytes =
                qd_ir::text::read_capped(std::io::stdin().lock(), cap).map_err(|e| match e {
                    qd_ir::text::InputError::Io(e) => format!("<stdin>: error: cannot read: {e}"),
                    e => format!("<stdin>: error: {e}"),
                })?;
            let s = String::from_utf8(bytes)
                .map_err(|e| format!("<stdin>: error: input is not valid UTF-8: {e}"))?;
            Ok(("<stdin>".to_string(), s))
        }
        Some(p) => {
            let bytes = qd_ir::text::read_path_capped(p, cap).map_err(|e| match e {
                qd_ir::text::InputError::Io(e) => {
                    format!("{p}: error: cannot open input file: {e}")
                }
                e => format!("{p}: error: {e}"),
            })?;
            let s = String::from_utf8(bytes).map_err(|e| {
                // Point at the first bad byte, as a parse error would.
                let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
                let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                let col = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
                format!("{p}:{line}:{col}: error: input is not valid UTF-8")
            })?;
            Ok((p.to_string(), s))
        }
    }
}

fn write_output(path: Option<&str>, text: &str) -> Result<(), String> {
    match path {
        None | Some("-") => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (e.g. `| head`) is not an error worth reporting.
            let _ = stdout.write_all(text.as_bytes());
            let _ = stdout.flush();
            Ok(())
        }
        Some(p) => std::fs::write(p, text)
            .map_err(|e| format!("{p}: error: cannot write output file: {e}")),
    }
}

/// Parses, verifies, transforms and prints one chunk; appends the printed IR to `out`. Returns
/// false when an error was reported (or, with --verify-diagnostics, when expectations failed).
/// `file` is the input's name and whole text: diagnostics show its lines (a chunk's first line
/// is padded where the split marker was).
fn process_chunk(
    opts: &cli::Options,
    pm: &mut PassManager,
    timing: &mut pipeline::Timing,
    (name, source): (&str, &str),
    chunk: &str,
    out: &mut String,
) -> bool {
    let mut ctx = Context::new();
    qd_dialects::register_all_dialects(&mut ctx);
    ctx.allow_unregistered = opts.allow_unregistered;
    let mut smgr = SourceMgr::new();
    smgr.add_buffer(name, source);

    let printed = run_chunk(opts, pm, timing, &mut ctx, name, chunk);
    let diags = ctx.take_diagnostics();
    if opts.verify_diagnostics {
        return check_expectations(&ctx, &smgr, (name, source), chunk, &diags, printed, out);
    }
    for d in &diags {
        eprint!("{}", smgr.render(&ctx, d));
    }
    let has_error = diags.iter().any(|d| d.severity == Severity::Error);
    if let (Some(text), false) = (printed, has_error) {
        push_output(out, &text);
    }
    !has_error
}

/// A chunk's printed IR, followed by the empty line mlir-opt writes after each (its output ends
/// `}\n\n`; with --split-input-file, `}\n\n// -----\nmodule {`).
fn push_output(out: &mut String, text: &str) {
    out.push_str(text);
    out.push('\n');
}

/// Parse, verify, run the passes, print. Diagnostics stay in `ctx`; returns the printed IR.
fn run_chunk(
    opts: &cli::Options,
    pm: &mut PassManager,
    timing: &mut pipeline::Timing,
    ctx: &mut Context,
    name: &str,
    chunk: &str,
) -> Option<String> {
    let module = timing.time("Parser", || parse_source(ctx, chunk, name))?;
    if opts.verify_each {
        let verified = timing.time("Verifier", || qd_ir::verifier::verify(ctx, module));
        if let Err(diags) = verified {
            diags.into_iter().for_each(|d| ctx.emit(d));
            return None;
        }
    }
    if opts.verify_roundtrip {
        if let Err(diags) = roundtrip::verify(ctx, module, name) {
            diags.into_iter().for_each(|d| ctx.emit(d));
            return None;
        }
    }
    if !pm.is_empty() && pm.run(ctx, module).is_err() {
        return None;
    }
    if opts.print_irdl_form {
        let dialects = qd_ir::irdl::irdl_dialects(ctx);
        qd_ir::irdl::to_irdl_form(ctx, module, &dialects);
    }
    let print_opts = PrintOptions {
        generic: opts.print_generic || opts.print_irdl_form,
        debug_info: opts.debug_info,
    };
    Some(timing.time("Output", || print_op(ctx, module, &print_opts)))
}

fn check_expectations(
    ctx: &Context,
    smgr: &SourceMgr,
    (name, source): (&str, &str),
    chunk: &str,
    diags: &[Diagnostic],
    printed: Option<String>,
    out: &mut String,
) -> bool {
    let mut expected = match verify_diagnostics::parse_expectations(chunk) {
        Ok(e) => e,
        Err((line, col, msg)) => {
            eprintln!("{name}:{line}:{col}: error: {msg}");
            return false;
        }
    };
    let loc_of = |d: &Diagnostic| {
        ctx.file_line_col(d.loc)
            .filter(|(f, _, _)| *f == name)
            .map(|(_, l, c)| (l as usize, c as usize))
    };
    let mismatches = verify_diagnostics::check(&mut expected, diags, &loc_of);
    for m in &mismatches {
        eprintln!("{name}:{}:{}: error: {}", m.line, m.col, m.message);
        if let Some(src) = source.lines().nth(m.line.wrapping_sub(1)) {
            eprintln!("{src}\n{}^", " ".repeat(m.col.saturating_sub(1)));
        }
    }
    // Unexpected diagnostics were printed as mismatches; also show their full rendering.
    if !mismatches.is_empty() {
        for d in diags {
            eprint!("{}", smgr.render(ctx, d));
        }
    }
    if let Some(text) = printed {
        push_output(out, &text);
    }
    mismatches.is_empty()
}
