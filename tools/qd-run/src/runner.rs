//! Running kernels: read, parse, verify, make the device (by name, from the registry) and the
//! program, make the gradient kernels (with `--grad`: the runtime's `Program::build_gradient`,
//! which differentiates each kernel and sizes its adstacks, `--ad-stack-size` forcing them), set
//! fields, compile, build arguments (`launches`), launch the kernels in order and sync; with
//! `--grad` the launches are recorded on a `qd_runtime::Tape`, the outputs' adjoints seeded
//! (fields' `y.grad`, ndarray arguments' adjoint ndarrays), and the gradient kernels run last
//! to first, each on the memory its forward launch left (the tape's snapshots). Then the `--save`
//! files are written and the printed fields and ndarrays collected, with (`--report-adstack`)
//! the adstack plan of each kernel's last launch. Every failure is a message for stderr with
//! exit status 1: located diagnostics (`file:line:col: error: ...` with the source line) for the
//! IR and for runtime errors, `qd-run: error: ...` for everything else.
//!
//! `--repeat N`: what is printed and saved is the first run's; then the run (the launches, and
//! with `--grad` seeding and the gradient launches) is repeated N times, each from the first run's
//! inputs (every field, adjoint and ndarray argument as they were before its launch, restored
//! untimed), and the medians of those launches' times are reported apart from the first run's
//! and from the compile times (which only the first call pays).

use crate::cli::Options;
use crate::launches::Launches;
use crate::output::{self, FieldOut, StackOut, TaskOut, Timings};
use crate::{npy, params, values};
use qd_frontend::KernelOp;
use qd_ir::text::{parse_source, SourceMgr};
use qd_ir::{Context, Diagnostic};
use qd_runtime::{
    AdstackPlan, DepthSource, DeviceOptions, DeviceRegistry, Error, GradientKernel, KernelId,
    Ndarray, NdarrayId, Program, ProgramConfig, RuntimeError, Storage, Tape, TapeError,
};
use std::borrow::Cow;
use std::io::Write;
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

/// Runs `o` on the device `o.device` of `devices` and writes what it prints to `out` once
/// everything that can fail has run. Errors writing `out` are ignored: a closed stdout
/// (`qd-run ... | head`) is not worth a failure.
pub fn run(o: &Options, devices: &DeviceRegistry, out: &mut dyn Write) -> Result<(), Failure> {
    let start = Instant::now();
    npy::set_max_bytes(o.max_input_bytes);
    let source = qd_ir::text::read_path_capped(&o.file, o.max_input_bytes)
        .map_err(|e| fail(format!("cannot read '{}': {e}", o.file)))
        .and_then(|bytes| {
            String::from_utf8(bytes)
                .map_err(|e| fail(format!("cannot read '{}': {}", o.file, e.utf8_error())))
        })?;
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
    // The kernels of the run, each once in order of first launch, and the launch order.
    let mut distinct: Vec<(String, Vec<String>)> = Vec::new();
    let mut order = Vec::new();
    for name in &o.kernels {
        if let Some(i) = distinct.iter().position(|(n, _)| n == name) {
            order.push(i);
            continue;
        }
        let Some(&kernel) = kernels.iter().find(|k| k.name(&ctx) == name) else {
            let names: Vec<String> = kernels
                .iter()
                .map(|k| format!("@{}", k.name(&ctx)))
                .collect();
            return Err(fail(format!(
                "no kernel @{name} in '{}' (kernels: {})",
                o.file,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )));
        };
        order.push(distinct.len());
        distinct.push((name.clone(), params::names(&ctx, kernel, &source, &o.file)));
    }

    // Unsupported field types and fields past the memory limit are located errors; check them
    // while the context is ours (Program::new takes it), before anything is allocated.
    qd_runtime::Memory::check_within(&ctx, module, o.memory_limit)
        .map_err(|d| render(&sm, &ctx, &d))?;
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
        memory_limit: o.memory_limit,
    };
    let mut p = match Program::new(ctx, module, device, config) {
        Ok(p) => p,
        // Only the allocator's refusals are left (under a limit above what it gives): their
        // messages name the field and the element count, but the context that locates them
        // went with the program.
        Err(e) => return Err(fail(e)),
    };

    // The gradient kernels: made (differentiated and sized), then compiled.
    let with_grad = !o.grads.is_empty();
    let t = Instant::now();
    if with_grad {
        for (name, _) in &distinct {
            p.build_gradient(name)
                .map_err(|e| api_error(&sm, p.context(), "--grad: ", e))?;
        }
    }
    let autodiff_ms = ms(t);
    // The gradient kernels' compile (their first call), apart from the forward kernels' below.
    let t = Instant::now();
    let mut gradients: Vec<GradientKernel> = Vec::new();
    if with_grad {
        for (name, _) in &distinct {
            gradients.push(
                p.gradient(name)
                    .map_err(|e| api_error(&sm, p.context(), "--grad: ", e))?,
            );
        }
    }
    let compile_grad_ms = ms(t);

    let t = Instant::now();
    let mut compiled = Vec::new();
    for (name, params) in distinct {
        let k = p
            .kernel(&name)
            .map_err(|e| api_error(&sm, p.context(), "", e))?;
        compiled.push((name, params, k));
    }
    let compile_kernel_ms = ms(t);
    let launches = Launches::build(&mut p, compiled, order, o).map_err(fail)?;
    let named = Named {
        launches: &launches,
        gradients: &gradients,
    };

    // Check every name before running anything.
    let mut prints: Vec<String> = Vec::new();
    for name in &o.prints {
        if let Err(e) = p.field_info(name) {
            named
                .check(name, e)
                .map_err(|e| fail(format!("--print {name}: {e}")))?;
        }
        if !prints.contains(name) {
            prints.push(name.clone());
        }
    }
    for (name, _) in &o.saves {
        if let Err(e) = p.field_info(name) {
            named
                .check(name, e)
                .map_err(|e| fail(format!("--save {name}: {e}")))?;
        }
    }
    let mut seeds: Vec<Seed> = Vec::new();
    for (name, text) in &o.grads {
        let target = format!("{name}.grad");
        let ctx_msg = format!("--grad {name}: ");
        let spec = values::ValueSpec::parse(text).map_err(|e| fail(format!("{ctx_msg}{e}")))?;
        let (to, dtype, shape) = match p.field_info(&target) {
            Ok(info) => (SeedTarget::Field(target), info.dtype, info.shape.clone()),
            Err(e) => {
                let id = named
                    .check(&target, e)
                    .map_err(|e| fail(format!("{ctx_msg}{e}")))?
                    .ok_or_else(|| {
                        fail(format!(
                            "{ctx_msg}'{target}' is an ndarray argument, not an adjoint"
                        ))
                    })?;
                let nd = p.ndarray(id).map_err(|e| fail(format!("{ctx_msg}{e}")))?;
                (SeedTarget::Ndarray(id), nd.dtype(), nd.shape().to_vec())
            }
        };
        let data =
            values::for_seed(&spec, dtype, &shape).map_err(|e| fail(format!("{ctx_msg}{e}")))?;
        seeds.push(Seed { to, data });
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

    if o.repeat > 0 {
        // The copy of every field, adjoint and ndarray the repetitions restart from.
        p.check_alloc("--repeat: a copy of the inputs", p.memory().held_bytes())
            .map_err(fail)?;
    }
    let inputs = (o.repeat > 0).then(|| Inputs::take(&p, &launches.ndarrays()));
    let mut first = run_once(&mut p, &sm, &launches, with_grad, &seeds)?;

    // The kernels launched, each once in launch order, for the reports.
    let mut launched: Vec<KernelId> = launches.kernels.iter().map(|k| k.id).collect();
    launched.extend(gradients.iter().map(|g| g.kernel));

    let result = |name: &str| result_of(&p, name, &named, first.tape.as_ref());
    for (name, path) in &o.saves {
        let (shape, data) = result(name);
        npy::write(path, &shape, &data).map_err(|e| fail(format!("--save {name}: {e}")))?;
    }
    // With --repeat the repetitions overwrite the first run's results: print copies of them.
    // Otherwise the printed data is borrowed from the program after the run.
    let snapshots: Option<Vec<FieldOut<'static>>> = (o.repeat > 0).then(|| {
        prints
            .iter()
            .map(|name| {
                let (shape, data) = result(name);
                FieldOut {
                    name: name.clone(),
                    shape,
                    data: Cow::Owned(data.into_owned()),
                }
            })
            .collect()
    });
    // A run of one kernel reports each kernel's last launch; a sequence, every launch.
    let stacks = o.report_adstack.then(|| {
        if launches.order.len() == 1 {
            let plans: Vec<_> = launched
                .iter()
                .filter_map(|&k| p.last_adstack_plan(k).cloned())
                .map(|plan| (None, plan))
                .collect();
            adstack_report(&p, &plans)
        } else {
            let plans: Vec<_> = first
                .plans
                .iter()
                .cloned()
                .enumerate()
                .map(|(i, plan)| (Some(i + 1), plan))
                .collect();
            adstack_report(&p, &plans)
        }
    });
    let tasks = o.report_tasks.then(|| task_report(&p, &launched));

    // The repetitions, each from the first run's inputs; only their launches are timed.
    let (mut times, mut grads) = (Vec::new(), Vec::new());
    if let Some(inputs) = &inputs {
        let mut last = first.tape.take();
        for _ in 0..o.repeat {
            // The previous run's adjoint ndarrays are not printed: free them.
            if let Some(mut tape) = last.take() {
                tape.release(&mut p);
            }
            inputs.restore(&mut p)?;
            let r = run_once(&mut p, &sm, &launches, with_grad, &seeds)?;
            times.push(r.launch_ms);
            grads.extend(r.grad_ms);
            last = r.tape;
        }
    }

    let fields: Vec<FieldOut> = match snapshots {
        Some(s) => s,
        None => prints
            .iter()
            .map(|name| {
                let (shape, data) = result_of(&p, name, &named, first.tape.as_ref());
                FieldOut {
                    name: name.clone(),
                    shape,
                    data,
                }
            })
            .collect(),
    };
    if o.json {
        let with_grad = |ms| with_grad.then_some(ms);
        let timings = Timings {
            parse: parse_ms,
            verify: verify_ms,
            compile: compile_kernel_ms + compile_grad_ms,
            compile_kernel: compile_kernel_ms,
            compile_grad: with_grad(compile_grad_ms),
            launch: first.launch_ms,
            autodiff: with_grad(autodiff_ms),
            grad: first.grad_ms,
            launch_median: median(times),
            grad_median: median(grads),
            total: ms(start),
        };
        let _ = output::json(out, &fields, stacks.as_deref(), tasks.as_deref(), &timings);
    } else {
        let names: Vec<String> = launched
            .iter()
            .filter_map(|&k| p.kernel_name(k).map(str::to_string))
            .collect();
        let _ = output::text(out, &fields);
        if let Some(stacks) = &stacks {
            let _ = out.write_all(output::adstack_text(stacks, &names).as_bytes());
        }
        if let Some(tasks) = &tasks {
            let _ = out.write_all(output::tasks_text(tasks, &names).as_bytes());
        }
    }
    Ok(())
}

/// Where a `--grad` seed goes: a field's adjoint, or an ndarray argument's adjoint ndarray.
enum SeedTarget {
    Field(String),
    Ndarray(NdarrayId),
}

struct Seed {
    to: SeedTarget,
    data: Storage,
}

/// Names of ndarray arguments (`a`, `k.a`) and of their adjoints (`a.grad`, with --grad).
struct Named<'a> {
    launches: &'a Launches,
    gradients: &'a [GradientKernel],
}

impl Named<'_> {
    /// What `name`, which is no field (`field_error` says why), names: an ndarray argument
    /// (None), or `NAME.grad` of an active one (its primal). Otherwise the field error, or why
    /// the ndarray cannot serve.
    fn check(&self, name: &str, field_error: Error) -> Result<Option<NdarrayId>, String> {
        if self.launches.ndarray(name)?.is_some() {
            return Ok(None);
        }
        let Some(base) = name.strip_suffix(".grad") else {
            return Err(field_error.to_string());
        };
        match self.launches.ndarray(base)? {
            Some((id, uses)) if self.active(&uses) => Ok(Some(id)),
            _ => Err(field_error.to_string()),
        }
    }

    /// Whether a gradient kernel takes an adjoint for one of `uses` (kernel, parameter).
    fn active(&self, uses: &[(usize, usize)]) -> bool {
        uses.iter().any(|&(k, p)| {
            self.gradients
                .get(k)
                .is_some_and(|g| g.activity.get(p) == Some(&true))
        })
    }
}

/// One run's launch and gradient times, and its tape (with --grad), which holds the adjoint
/// ndarrays.
struct RunOnce {
    launch_ms: f64,
    grad_ms: Option<f64>,
    tape: Option<Tape>,
    /// The adstack plan of every launch: the forward launches in order, then the gradient
    /// launches (last forward launch's first).
    plans: Vec<AdstackPlan>,
}

/// Launches the kernels in order and syncs; with a gradient, records them on a tape, seeds the
/// outputs' adjoints (untimed), then runs the gradient kernels last to first and syncs.
fn run_once(
    p: &mut Program,
    sm: &SourceMgr,
    launches: &Launches,
    with_grad: bool,
    seeds: &[Seed],
) -> Result<RunOnce, Failure> {
    let tape_error = |p: &Program, e: TapeError| match e {
        TapeError::Api(e) => api_error(sm, p.context(), "", e),
        TapeError::Runtime(e) => runtime_errors(sm, p, e),
    };
    let t = Instant::now();
    let mut tape = with_grad.then(Tape::new);
    let mut plans = Vec::new();
    for &i in &launches.order {
        let k = &launches.kernels[i];
        match &mut tape {
            Some(tape) => tape
                .launch(p, &k.name, &k.args)
                .map_err(|e| tape_error(p, e))?,
            None => p
                .launch(k.id, &k.args)
                .map_err(|e| api_error(sm, p.context(), "", e))?,
        }
        plans.extend(p.last_adstack_plan(k.id).cloned());
    }
    p.sync().map_err(|e| runtime_errors(sm, p, e))?;
    let launch_ms = ms(t);
    let mut run = RunOnce {
        launch_ms,
        grad_ms: None,
        tape: None,
        plans,
    };
    if let Some(mut tape) = tape {
        for s in seeds {
            match &s.to {
                SeedTarget::Field(target) => p
                    .write(target, s.data.clone())
                    .map_err(|e| fail(format!("--grad {target}: {e}")))?,
                SeedTarget::Ndarray(id) => {
                    let a = tape
                        .adjoint(p, *id)
                        .map_err(|e| fail(format!("--grad: {e}")))?;
                    *p.ndarray_mut(a)
                        .map_err(|e| fail(format!("--grad: {e}")))?
                        .data_mut() = s.data.clone();
                }
            }
        }
        let t = Instant::now();
        tape.backward(p).map_err(|e| tape_error(p, e))?;
        run.grad_ms = Some(ms(t));
        run.plans.extend(
            (0..tape.len())
                .rev()
                .filter_map(|i| tape.gradient_plan(i).cloned()),
        );
        run.tape = Some(tape);
    }
    Ok(run)
}

/// What a run starts from: every field and adjoint, and the ndarray arguments' contents.
struct Inputs {
    fields: Vec<(String, Storage)>,
    arrays: Vec<(NdarrayId, Ndarray)>,
}

impl Inputs {
    fn take(p: &Program, arrays: &[NdarrayId]) -> Inputs {
        let mut fields = Vec::new();
        for name in p.field_names() {
            for name in [name.to_string(), format!("{name}.grad")] {
                // A field without an adjoint has no `.grad`.
                if let Ok(s) = p.field(&name) {
                    fields.push((name, s.clone()));
                }
            }
        }
        let arrays = arrays
            .iter()
            .filter_map(|&id| p.ndarray(id).ok().map(|nd| (id, nd.clone())))
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

/// The shape and contents of field `name` (or its adjoint) after the run, of the ndarray
/// argument it names, or, for `NAME.grad` of an active ndarray argument, of its adjoint ndarray
/// (zeros when no gradient launch took it). A field of that name wins, as when the names were
/// checked.
fn result_of<'p>(
    p: &'p Program,
    name: &str,
    named: &Named,
    tape: Option<&Tape>,
) -> (Vec<usize>, Cow<'p, Storage>) {
    if let Ok(info) = p.field_info(name) {
        let shape = info.shape.clone();
        if let Ok(data) = p.field(name) {
            return (shape, Cow::Borrowed(data));
        }
    }
    let array = |id: NdarrayId| {
        p.ndarray(id)
            .ok()
            .map(|nd| (nd.shape().to_vec(), Cow::Borrowed(nd.data())))
    };
    if let Ok(Some((id, _))) = named.launches.ndarray(name) {
        if let Some(r) = array(id) {
            return r;
        }
    }
    let primal = name
        .strip_suffix(".grad")
        .and_then(|base| named.launches.ndarray(base).ok().flatten());
    if let Some((id, _)) = primal {
        if let Some(r) = tape.and_then(|t| t.existing_adjoint(id)).and_then(array) {
            return r;
        }
        if let Some((shape, data)) = array(id) {
            let zeros = Storage::zeros(data.dtype(), data.len()).map_or(data, Cow::Owned);
            return (shape, zeros);
        }
    }
    // Checked before the run: every name is one of the above.
    (Vec::new(), Cow::Owned(Storage::F32(Vec::new().into())))
}

/// Every adstack of each plan (with its launch number in a sequence), as sized for it, with the
/// peak the device measured in that launch where it measures.
fn adstack_report(p: &Program, plans: &[(Option<usize>, AdstackPlan)]) -> Vec<StackOut> {
    let ctx = p.context();
    let mut out = Vec::new();
    for (launch, plan) in plans {
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
                measured_peak: s.measured_peak,
                ratio: output::ratio(s.depth, s.measured_peak),
                bytes_per_thread: s.bytes_per_thread,
                launch: *launch,
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
