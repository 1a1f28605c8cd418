//! Running one kernel: read, parse, verify, make the device (by name, from the registry) and the
//! program, make the gradient kernel (with `--grad`: the runtime's `Program::build_gradient`,
//! which differentiates the kernel and sizes its adstacks, `--ad-stack-size` forcing them), set
//! fields, build arguments, compile, launch, sync, then (with `--grad`) seed the outputs'
//! adjoints, launch the gradient kernel and sync, write the `--save` files, and collect the
//! printed fields and (with `--report-adstack`) the adstack plan of each launch. Every failure is a message for stderr
//! with exit status 1: located diagnostics (`file:line:col: error: ...` with the source line)
//! for the IR and for runtime errors, `qd-run: error: ...` for everything else.
//!
//! `--repeat N`: what is printed and saved is the first run's; then the run (launch, and with
//! `--grad` seeding and the gradient launch) is repeated N times, each from the first run's
//! inputs (every field, adjoint and ndarray argument as they were before its launch, restored
//! untimed), and the medians of those launches' times are reported apart from the first run's
//! and from the compile times (which only the first call pays).

use crate::cli::Options;
use crate::output::{self, FieldOut, StackOut, TaskOut, Timings};
use crate::{npy, params, values};
use qd_frontend::KernelOp;
use qd_ir::text::{parse_source, SourceMgr};
use qd_ir::{Context, Diagnostic};
use qd_runtime::{
    Arg, DepthSource, DeviceOptions, DeviceRegistry, Error, GradientKernel, KernelId, Ndarray,
    NdarrayId, ParamType, Program, ProgramConfig, RuntimeError, Storage,
};
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

/// Runs `o` on the device `o.device` of `devices`; returns what to print on stdout.
pub fn run(o: &Options, devices: &DeviceRegistry) -> Result<String, Failure> {
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
    let device = devices
        .create(
            &o.device,
            &DeviceOptions {
                shuffle_seed: o.shuffle,
                check_bounds: o.check_bounds,
                threads: o.threads.map(|n| n as usize),
                scalar_tasks: o.scalar_tasks,
            },
        )
        .map_err(fail)?;
    // Verified above (and after each pass).
    let config = ProgramConfig {
        verify: false,
        ad_stack_size: o.ad_stack_size,
    };
    let mut p = match Program::new(ctx, module, device, config) {
        Ok(p) => p,
        // Only allocation failures are left: their messages name the field.
        Err(e) => return Err(fail(e)),
    };

    // The gradient kernel: made (differentiated and sized), then compiled.
    let t = Instant::now();
    if !o.grads.is_empty() {
        p.build_gradient(&o.kernel)
            .map_err(|e| api_error(&sm, p.context(), "--grad: ", e))?;
    }
    let autodiff_ms = ms(t);
    // The gradient kernel's compile (its first call), apart from the forward kernel's below.
    let t = Instant::now();
    let gradient: Option<GradientKernel> = if o.grads.is_empty() {
        None
    } else {
        Some(
            p.gradient(&o.kernel)
                .map_err(|e| api_error(&sm, p.context(), "--grad: ", e))?,
        )
    };
    let compile_grad_ms = ms(t);

    // Check every name before running anything.
    let mut prints: Vec<String> = Vec::new();
    for name in &o.prints {
        if let Err(e) = p.field_info(name) {
            // `a.grad` of an active ndarray parameter `a` is printed from its adjoint ndarray.
            if adjoint_param(name, &param_names, gradient.as_ref()).is_none() {
                return Err(fail(format!("--print {name}: {e}")));
            }
        }
        if !prints.contains(name) {
            prints.push(name.clone());
        }
    }
    for (name, _) in &o.saves {
        if let Err(e) = p.field_info(name) {
            if adjoint_param(name, &param_names, gradient.as_ref()).is_none() {
                return Err(fail(format!("--save {name}: {e}")));
            }
        }
    }
    let mut seeds: Vec<(String, f64)> = Vec::new();
    for (name, seed) in &o.grads {
        let target = format!("{name}.grad");
        p.field_info(&target)
            .map_err(|e| fail(format!("--grad {name}: {e}")))?;
        seeds.push((target, *seed));
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
    let compile_kernel_ms = ms(t);
    let args = build_args(&mut p, k, &param_names, o)?;
    let inputs = (o.repeat > 0).then(|| Inputs::take(&p, &args));

    let first = run_once(&mut p, &sm, k, gradient.as_ref(), &seeds, &args)?;
    let adjoint_arrays = first.adjoints;

    // The kernels launched, in order, for the adstack report.
    let mut launched = vec![k];
    if let Some(g) = &gradient {
        launched.push(g.kernel);
    }

    let result = |name: &str| result_of(&p, name, &param_names, gradient.as_ref(), &adjoint_arrays);
    for (name, path) in &o.saves {
        let (shape, data) = result(name);
        npy::write(path, &shape, &data).map_err(|e| fail(format!("--save {name}: {e}")))?;
    }
    let fields: Vec<FieldOut> = prints
        .iter()
        .map(|name| {
            let (shape, data) = result(name);
            FieldOut {
                name: name.clone(),
                shape,
                data: data.to_scalars(),
            }
        })
        .collect();
    let stacks = o.report_adstack.then(|| adstack_report(&p, &launched));
    let tasks = o.report_tasks.then(|| task_report(&p, &launched));

    // The repetitions, each from the first run's inputs; only their launches are timed.
    let (mut launches, mut grads) = (Vec::new(), Vec::new());
    if let Some(inputs) = &inputs {
        let mut adjoints = Vec::new();
        for _ in 0..o.repeat {
            // The previous repetition's adjoint ndarrays are not printed: free them.
            for (_, id) in adjoints.drain(..) {
                let _ = p.remove_ndarray(id);
            }
            inputs.restore(&mut p)?;
            let r = run_once(&mut p, &sm, k, gradient.as_ref(), &seeds, &args)?;
            launches.push(r.launch_ms);
            grads.extend(r.grad_ms);
            adjoints = r.adjoints;
        }
    }

    Ok(if o.json {
        let with_grad = |ms| gradient.is_some().then_some(ms);
        let timings = Timings {
            parse: parse_ms,
            verify: verify_ms,
            compile: compile_kernel_ms + compile_grad_ms,
            compile_kernel: compile_kernel_ms,
            compile_grad: with_grad(compile_grad_ms),
            launch: first.launch_ms,
            autodiff: with_grad(autodiff_ms),
            grad: first.grad_ms,
            launch_median: median(launches),
            grad_median: median(grads),
            total: ms(start),
        };
        output::json(&fields, stacks.as_deref(), tasks.as_deref(), &timings)
            .map_err(|e| fail(format!("--json: {e}")))?
    } else {
        let mut out = output::text(&fields);
        let names: Vec<String> = launched
            .iter()
            .filter_map(|&k| p.kernel_name(k).map(str::to_string))
            .collect();
        if let Some(stacks) = &stacks {
            out.push_str(&output::adstack_text(stacks, &names));
        }
        if let Some(tasks) = &tasks {
            out.push_str(&output::tasks_text(tasks, &names));
        }
        out
    })
}

/// One run's launch and gradient times, and the adjoint ndarrays its gradient launch made.
struct RunOnce {
    launch_ms: f64,
    grad_ms: Option<f64>,
    adjoints: Vec<(usize, NdarrayId)>,
}

/// Launches `k` on `args` and syncs; with a gradient, seeds the outputs' adjoints (untimed),
/// then runs the gradient kernel on the primal arguments and zeroed adjoint ndarrays and syncs.
fn run_once(
    p: &mut Program,
    sm: &SourceMgr,
    k: KernelId,
    gradient: Option<&GradientKernel>,
    seeds: &[(String, f64)],
    args: &[Arg],
) -> Result<RunOnce, Failure> {
    let t = Instant::now();
    p.launch(k, args)
        .map_err(|e| api_error(sm, p.context(), "", e))?;
    p.sync().map_err(|e| runtime_errors(sm, p, e))?;
    let launch_ms = ms(t);
    let mut run = RunOnce {
        launch_ms,
        grad_ms: None,
        adjoints: Vec::new(),
    };
    if let Some(g) = gradient {
        for (target, seed) in seeds {
            let n = p.field(target).map(|s| s.len()).unwrap_or(0);
            p.write_f64(target, &vec![*seed; n])
                .map_err(|e| fail(format!("--grad {target}: {e}")))?;
        }
        let t = Instant::now();
        run.adjoints = p
            .launch_grad(g, args)
            .map_err(|e| api_error(sm, p.context(), "--grad: ", e))?;
        p.sync().map_err(|e| runtime_errors(sm, p, e))?;
        run.grad_ms = Some(ms(t));
    }
    Ok(run)
}

/// What a run starts from: every field and adjoint, and the ndarray arguments' contents.
struct Inputs {
    fields: Vec<(String, Storage)>,
    arrays: Vec<(NdarrayId, Ndarray)>,
}

impl Inputs {
    fn take(p: &Program, args: &[Arg]) -> Inputs {
        let mut fields = Vec::new();
        for name in p.field_names() {
            for name in [name.to_string(), format!("{name}.grad")] {
                // A field without an adjoint has no `.grad`.
                if let Ok(s) = p.field(&name) {
                    fields.push((name, s.clone()));
                }
            }
        }
        let arrays = args
            .iter()
            .filter_map(|a| match *a {
                Arg::Ndarray(id) => p.ndarray(id).ok().map(|nd| (id, nd.clone())),
                Arg::Scalar(_) => None,
            })
            .collect();
        Inputs { fields, arrays }
    }

    fn restore(&self, p: &mut Program) -> Result<(), Failure> {
        for (name, s) in &self.fields {
            p.write(name, s.clone())
                .map_err(|e| fail(format!("--repeat: {e}")))?;
        }
        for (id, nd) in &self.arrays {
            *p.ndarray_mut(*id)
                .map_err(|e| fail(format!("--repeat: {e}")))? = nd.clone();
        }
        Ok(())
    }
}

/// The median of `times` (the mean of the middle two for an even count); None when empty.
fn median(mut times: Vec<f64>) -> Option<f64> {
    if times.is_empty() {
        return None;
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    Some(if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    })
}

/// The shape and contents of field `name` (or its adjoint) after the run, or, for `NAME.grad`
/// of an active ndarray parameter `NAME`, of the adjoint ndarray the gradient kernel filled. A
/// field of that name wins, as when the names were checked.
fn result_of(
    p: &Program,
    name: &str,
    param_names: &[String],
    gradient: Option<&GradientKernel>,
    adjoint_arrays: &[(usize, NdarrayId)],
) -> (Vec<usize>, Storage) {
    if let Ok(info) = p.field_info(name) {
        let shape = info.shape.clone();
        if let Ok(data) = p.field(name) {
            return (shape, data.clone());
        }
    }
    let array = adjoint_param(name, param_names, gradient)
        .and_then(|i| adjoint_arrays.iter().find(|(j, _)| *j == i))
        .and_then(|&(_, id)| p.ndarray(id).ok());
    match array {
        Some(nd) => (nd.shape().to_vec(), nd.data().clone()),
        // Checked before the run: every name is one of the above.
        None => (Vec::new(), Storage::F32(Vec::new())),
    }
}

/// Every adstack of the last launch of each kernel of `launched`, as sized for it.
fn adstack_report(p: &Program, launched: &[KernelId]) -> Vec<StackOut> {
    let ctx = p.context();
    let mut out = Vec::new();
    for &k in launched {
        let Some(plan) = p.last_adstack_plan(k) else {
            continue;
        };
        for s in &plan.stacks {
            let loc = match ctx.file_line_col(s.loc) {
                Some((f, l, c)) => format!("{f}:{l}:{c}"),
                None => qd_ir::text::loc_to_string(ctx, s.loc),
            };
            out.push(StackOut {
                kernel: plan.kernel.clone(),
                stack: s.id as usize,
                loc,
                ty: s.elem.to_string(),
                primal_kept: s.primal_kept,
                size_expr: s.size_expr.as_ref().map(|e| e.to_string()),
                inferred: s.inferred,
                depth: s.depth,
                forced: s.source == DepthSource::Forced,
                bytes_per_thread: s.bytes_per_thread,
            });
        }
    }
    out
}

/// How the device compiled each task of each kernel of `launched` (SIMD lanes, or why scalar).
fn task_report(p: &Program, launched: &[KernelId]) -> Vec<TaskOut> {
    let ctx = p.context();
    let mut out = Vec::new();
    for &k in launched {
        let kernel = p.kernel_name(k).unwrap_or_default().to_string();
        for (i, t) in p.task_notes(k).into_iter().enumerate() {
            let loc = match ctx.file_line_col(t.loc) {
                Some((f, l, c)) => format!("{f}:{l}:{c}"),
                None => qd_ir::text::loc_to_string(ctx, t.loc),
            };
            out.push(TaskOut {
                kernel: kernel.clone(),
                task: i,
                loc,
                lanes: t.lanes,
                scalar_reason: t.scalar_reason,
            });
        }
    }
    out
}

/// Runtime errors as rendered diagnostics (exit status 1).
fn runtime_errors(sm: &SourceMgr, p: &Program, errors: Vec<RuntimeError>) -> Failure {
    let mut text = String::new();
    for e in errors {
        match e.to_diagnostic() {
            Some(d) => text.push_str(&sm.render(p.context(), &d)),
            None => text.push_str(&format!("qd-run: error: {}\n", e.full_message())),
        }
    }
    Failure(text)
}

/// The parameter index of `NAME` when `name` is `NAME.grad` for an active ndarray parameter of
/// the kernel (whose adjoint the gradient kernel accumulates).
fn adjoint_param(name: &str, params: &[String], g: Option<&GradientKernel>) -> Option<usize> {
    let base = name.strip_suffix(".grad")?;
    let i = params.iter().position(|p| p == base)?;
    g.filter(|g| g.activity.get(i) == Some(&true)).map(|_| i)
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

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn the_median_of_odd_and_even_counts() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![4.0]), Some(4.0));
        assert_eq!(median(vec![9.0, 1.0, 5.0]), Some(5.0));
        assert_eq!(median(vec![9.0, 1.0, 2.0, 5.0]), Some(3.5));
        // One slow outlier does not move it.
        assert_eq!(median(vec![1.0, 1000.0, 1.0, 2.0, 1.0]), Some(1.0));
    }
}
