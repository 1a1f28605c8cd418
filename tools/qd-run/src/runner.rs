//! Running one kernel: read, parse, verify, set up the program, set fields, build arguments,
//! compile, launch, sync, collect the printed fields. Every failure is a message for stderr with
//! exit status 1: located diagnostics (`file:line:col: error: ...` with the source line) for the
//! IR and for runtime errors, `qd-run: error: ...` for everything else.

use crate::cli::Options;
use crate::output::{self, FieldOut};
use crate::{params, values};
use qd_frontend::KernelOp;
use qd_interp::{InterpOptions, Interpreter};
use qd_ir::text::{parse_source, SourceMgr};
use qd_ir::{Context, Diagnostic};
use qd_runtime::{Arg, Error, ParamType, Program, ProgramConfig};
use std::time::Instant;

/// Why a run failed: the text for stderr (exit status 1).
#[derive(Debug)]
pub struct Failure(pub String);

fn fail(msg: impl std::fmt::Display) -> Failure {
    Failure(format!("qd-run: error: {msg}\n"))
}

fn render(sm: &SourceMgr, ctx: &Context, diags: &[Diagnostic]) -> Failure {
    Failure(diags.iter().map(|d| sm.render(ctx, d)).collect())
}

/// An API error: located diagnostics rendered, anything else as a plain message.
fn api_error(sm: &SourceMgr, ctx: &Context, context: &str, e: Error) -> Failure {
    match e {
        Error::Diagnostics(d) => render(sm, ctx, &d),
        e => fail(format!("{context}{e}")),
    }
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Runs `o`; returns what to print on stdout.
pub fn run(o: &Options) -> Result<String, Failure> {
    let start = Instant::now();
    let source = std::fs::read_to_string(&o.file)
        .map_err(|e| fail(format!("cannot read '{}': {e}", o.file)))?;
    let mut sm = SourceMgr::new();
    sm.add_buffer(&o.file, &source);

    let t = Instant::now();
    let mut ctx = qd_dialects::context();
    let Some(module) = parse_source(&mut ctx, &source, &o.file) else {
        return Err(render(&sm, &ctx, ctx.diagnostics()));
    };
    let parse_ms = ms(t);
    let t = Instant::now();
    qd_ir::verifier::verify(&ctx, module).map_err(|d| render(&sm, &ctx, &d))?;
    let verify_ms = ms(t);

    let kernels: Vec<KernelOp> = ctx
        .regions(module)
        .iter()
        .flat_map(|&r| ctx.region_ops(r))
        .filter_map(|op| KernelOp::from_op(&ctx, op))
        .collect();
    let Some(&kernel) = kernels.iter().find(|k| k.name(&ctx) == o.kernel) else {
        let names: Vec<String> = kernels
            .iter()
            .map(|k| format!("@{}", k.name(&ctx)))
            .collect();
        return Err(fail(format!(
            "no kernel @{} in '{}' (kernels: {})",
            o.kernel,
            o.file,
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        )));
    };
    let param_names = params::names(&ctx, kernel, &source, &o.file);

    // Unsupported field types are located errors; check them while the context is ours.
    qd_runtime::Memory::layout(&ctx, module).map_err(|d| render(&sm, &ctx, &d))?;
    let device = Box::new(Interpreter::with_options(InterpOptions {
        shuffle_seed: o.shuffle,
    }));
    // Verified above.
    let config = ProgramConfig { verify: false };
    let mut p = match Program::new(ctx, module, device, config) {
        Ok(p) => p,
        // Only allocation failures are left: their messages name the field.
        Err(e) => return Err(fail(e)),
    };

    // Check every name before running anything.
    let mut prints: Vec<String> = Vec::new();
    for name in &o.prints {
        p.field_info(name)
            .map_err(|e| fail(format!("--print {name}: {e}")))?;
        if !prints.contains(name) {
            prints.push(name.clone());
        }
    }
    for (name, text) in &o.sets {
        let ctx_msg = format!("--set {name}: ");
        let info = p
            .field_info(name)
            .map_err(|e| fail(format!("{ctx_msg}{e}")))?;
        let (dtype, shape) = (info.dtype, info.shape.clone());
        let data = values::ValueSpec::parse(text)
            .and_then(|spec| values::for_field(&spec, dtype, &shape))
            .map_err(|e| fail(format!("{ctx_msg}{e}")))?;
        p.write(name, data)
            .map_err(|e| fail(format!("{ctx_msg}{e}")))?;
    }

    let t = Instant::now();
    let k = p
        .kernel(&o.kernel)
        .map_err(|e| api_error(&sm, p.context(), "", e))?;
    let compile_ms = ms(t);
    let args = build_args(&mut p, k, &param_names, o)?;

    let t = Instant::now();
    p.launch(k, &args)
        .map_err(|e| api_error(&sm, p.context(), "", e))?;
    if let Err(errors) = p.sync() {
        let mut text = String::new();
        for e in errors {
            match e.to_diagnostic() {
                Some(d) => text.push_str(&sm.render(p.context(), &d)),
                None => text.push_str(&format!("qd-run: error: {}\n", e.full_message())),
            }
        }
        return Err(Failure(text));
    }
    let launch_ms = ms(t);

    let fields: Vec<FieldOut> = prints
        .iter()
        .map(|name| {
            let info = p
                .field_info(name)
                .map(|i| i.shape.clone())
                .unwrap_or_default();
            let data = p.field(name).map(|s| s.to_scalars()).unwrap_or_default();
            FieldOut {
                name: name.clone(),
                shape: info,
                data,
            }
        })
        .collect();
    Ok(if o.json {
        let timings = [
            ("parse", parse_ms),
            ("verify", verify_ms),
            ("compile", compile_ms),
            ("launch", launch_ms),
            ("total", ms(start)),
        ];
        output::json(&fields, &timings)
    } else {
        output::text(&fields)
    })
}

/// The launch arguments from `--arg NAME=VALUES` (the last one of a name wins); every parameter
/// needs one and every name must be a parameter.
fn build_args(
    p: &mut Program,
    k: qd_runtime::KernelId,
    names: &[String],
    o: &Options,
) -> Result<Vec<Arg>, Failure> {
    let types: Vec<ParamType> = p.kernel_params(k).unwrap_or_default().to_vec();
    let describe = || {
        let list: Vec<String> = names
            .iter()
            .zip(&types)
            .map(|(n, t)| format!("%{n}: {t}"))
            .collect();
        if list.is_empty() {
            "it takes none".to_string()
        } else {
            format!("parameters: {}", list.join(", "))
        }
    };
    for (name, _) in &o.args {
        if !names.contains(name) {
            return Err(fail(format!(
                "--arg {name}: kernel @{} has no parameter '{name}' ({})",
                o.kernel,
                describe()
            )));
        }
    }
    let mut args = Vec::new();
    for (name, ty) in names.iter().zip(&types) {
        let Some((_, text)) = o.args.iter().rev().find(|(n, _)| n == name) else {
            return Err(fail(format!(
                "missing --arg {name}=VALUES for parameter %{name} ({ty}) of kernel @{}",
                o.kernel
            )));
        };
        let ctx_msg = format!("--arg {name}: ");
        let spec = values::ValueSpec::parse(text).map_err(|e| fail(format!("{ctx_msg}{e}")))?;
        let arg = match *ty {
            ParamType::Scalar(dtype) => values::for_scalar(&spec, dtype).map(Arg::Scalar),
            ParamType::Ndarray { dtype, rank } => {
                values::for_ndarray(&spec, dtype, rank).map(|nd| Arg::Ndarray(p.add_ndarray(nd)))
            }
        }
        .map_err(|e| fail(format!("{ctx_msg}{e}")))?;
        args.push(arg);
    }
    Ok(args)
}
