//! A reusable gradient checker: a kernel's reverse-mode gradient, run on the interpreter, against
//! central finite differences in f64.
//!
//! For a [`GradCase`] (module text, kernel, field values, kernel arguments, output seeds, the
//! inputs to differentiate with respect to), [`check`]:
//! 1. builds the gradient kernel of the module as written (f32, say) and of its f64 twin (every
//!    `f32` in the text replaced by `f64`), and runs each on the interpreter: the kernel, then the
//!    seeds written into the outputs' adjoints, then `@kernel_grad`; it reads the inputs'
//!    adjoints (`x.grad`, the adjoint ndarrays);
//! 2. differentiates the f64 twin numerically: for each input element, the loss
//!    `L = sum(seed * output)` at the input +- h, from fresh field values each time;
//! 3. requires `|ad64 - fd| <= fd_rtol |fd| + fd_atol` (both computed in f64, so this checks
//!    the transformation itself) and `|ad32 - ad64| <= f32_rtol |ad64| + f32_atol` (the f32
//!    gradient kernel is the f64 one up to f32 rounding).
//!
//! A case may be a sequence of launches (`GradCase::launches`): it is differentiated as a whole
//! through the runtime's `Tape` (forward in order, gradients last to first, each on the memory
//! its forward launch left), and the finite differences are those of the whole sequence.
//!
//! The inputs of the f32 module are rounded to f32 first, and the f64 runs use those rounded
//! values, so both precisions differentiate the same function at the same point.
//!
//! Only the interpreter runs here: this crate does not link LLVM (the `cpu` device would make
//! every autodiff test binary large and slow to build). The gradients of the corpus on `cpu` are
//! checked through qd-run instead: tools/qd-run/tests/qd_run/devices.rs runs every corpus kernel
//! and its gradient (as sized, shuffled, and with stacks too small) on `cpu` against the
//! interpreter, which the corpus test here checks against finite differences; the corpus covers
//! the constructs reverse mode handles (its `GRAD-COVERS` tags, `corpus::REQUIRED`).

use super::common::{context, rendered};
use qd_autodiff::{reverse_mode_ad, Aggregates, Options};
use qd_interp::Interpreter;
use qd_ir::text::parse_source;
use qd_ir::Context;
use qd_runtime::{Arg, DType, KernelId, Ndarray, ParamType, Program, ProgramConfig, Scalar, Tape};

/// A kernel argument.
#[derive(Clone, Debug)]
pub enum ArgSpec {
    /// A scalar, converted to the parameter's type.
    Scalar(f64),
    /// An ndarray of the parameter's element type.
    Ndarray { shape: Vec<usize>, data: Vec<f64> },
}

/// What to differentiate with respect to.
#[derive(Clone, Debug)]
pub enum Wrt {
    /// A needs_grad field (its adjoint is `NAME.grad`).
    Field(&'static str),
    /// An active ndarray argument, by position (its adjoint is the matching gradient argument).
    Arg(usize),
}

#[derive(Clone, Debug)]
pub struct GradCase {
    pub src: String,
    pub kernel: &'static str,
    /// A sequence of launches differentiated as a whole (the runtime's `Tape`: forward in order,
    /// gradients last to first): each launch's kernel and its arguments, as indices into
    /// `args` (an ndarray used by several launches is one ndarray). Empty: `kernel` launched
    /// once on `args`. `Wrt::Arg` and `arg_seeds` then index `args`, and the loss is that of
    /// the whole sequence.
    pub launches: Vec<(&'static str, Vec<usize>)>,
    /// Initial field values (fields not listed start at zero).
    pub fields: Vec<(&'static str, Vec<f64>)>,
    pub args: Vec<ArgSpec>,
    /// Output fields and their adjoint seeds.
    pub seeds: Vec<(&'static str, Vec<f64>)>,
    /// Output ndarray arguments (by position) and their adjoint seeds.
    pub arg_seeds: Vec<(usize, Vec<f64>)>,
    /// The f64 twin of `src`, when replacing `f32` by `f64` does not give it (kernels that mix
    /// precisions).
    pub src64: Option<String>,
    pub wrt: Vec<Wrt>,
    /// The finite-difference step.
    pub h: f64,
    pub fd_rtol: f64,
    pub fd_atol: f64,
    pub f32_rtol: f64,
    pub f32_atol: f64,
    /// A forced adstack capacity (`ad_stack_size`), if any.
    pub ad_stack_size: Option<usize>,
    /// Run `minimize-tape` and `determine-ad-stack-size` on the gradient kernel after
    /// reverse-mode-ad (as qd-run does), sizing forced to `ad_stack_size` when that is set; otherwise the runtime sizes the stacks
    /// with the same analysis when it compiles the kernel.
    pub size_stacks: bool,
    /// How reverse-mode-ad differentiates local arrays and structs (`aggregates=`).
    pub aggregates: Aggregates,
}

impl GradCase {
    /// A case with the default step and tolerances:
    /// - h = 1e-5: the central difference's truncation error is h^2 |f'''| / 6 ~ 1e-11 for the
    ///   smooth O(1) functions of the corpus, its rounding error ~ 1e-16 |L| / h ~ 1e-11 |L|;
    /// - fd: rtol 1e-6, atol 1e-9: well above both errors, far below any real mistake;
    /// - f32: rtol 2e-3, atol 1e-6: f32 carries ~6e-8 relative error per op; a gradient through
    ///   a few hundred ops (loops of up to ~512 steps) accumulates up to ~1e-4 relative, with
    ///   cancellation in sums of terms of either sign costing up to another order of magnitude.
    pub fn new(src: impl Into<String>, kernel: &'static str) -> Self {
        GradCase {
            src: src.into(),
            kernel,
            launches: Vec::new(),
            fields: Vec::new(),
            args: Vec::new(),
            seeds: Vec::new(),
            arg_seeds: Vec::new(),
            src64: None,
            wrt: Vec::new(),
            h: 1e-5,
            fd_rtol: 1e-6,
            fd_atol: 1e-9,
            f32_rtol: 2e-3,
            f32_atol: 1e-6,
            ad_stack_size: None,
            size_stacks: false,
            aggregates: Aggregates::Element,
        }
    }
    pub fn field(mut self, name: &'static str, values: Vec<f64>) -> Self {
        self.fields.push((name, values));
        self
    }
    pub fn arg(mut self, a: ArgSpec) -> Self {
        self.args.push(a);
        self
    }
    pub fn seed(mut self, name: &'static str, values: Vec<f64>) -> Self {
        self.seeds.push((name, values));
        self
    }
    pub fn seed_arg(mut self, arg: usize, values: Vec<f64>) -> Self {
        self.arg_seeds.push((arg, values));
        self
    }
    /// Adds a launch of `kernel` on `args` (indices into the case's arguments) to the sequence.
    pub fn launch(mut self, kernel: &'static str, args: Vec<usize>) -> Self {
        self.launches.push((kernel, args));
        self
    }
    pub fn wrt(mut self, w: Wrt) -> Self {
        self.wrt.push(w);
        self
    }
    pub fn step(mut self, h: f64) -> Self {
        self.h = h;
        self
    }
    /// Minimizes and sizes the gradient kernel's stacks (see `size_stacks`).
    pub fn sized(mut self) -> Self {
        self.size_stacks = true;
        self
    }
}

/// The gradients found, one vector per `wrt` entry.
#[derive(Clone, Debug)]
pub struct GradResult {
    pub ad32: Vec<Vec<f64>>,
    pub ad64: Vec<Vec<f64>>,
    pub fd: Vec<Vec<f64>>,
    /// Adstacks in the f32 gradient kernel.
    pub stacks: usize,
}

impl GradResult {
    /// The largest `|ad64 - fd| / (fd_rtol |fd| + fd_atol)` over every element: at most 1 when
    /// the check passes.
    pub fn fd_error_ratio(&self, case: &GradCase) -> f64 {
        worst_ratio(&self.ad64, &self.fd, case.fd_rtol, case.fd_atol)
    }
    /// The largest `|ad32 - ad64| / (f32_rtol |ad64| + f32_atol)`.
    pub fn f32_error_ratio(&self, case: &GradCase) -> f64 {
        worst_ratio(&self.ad32, &self.ad64, case.f32_rtol, case.f32_atol)
    }
}

fn worst_ratio(got: &[Vec<f64>], want: &[Vec<f64>], rtol: f64, atol: f64) -> f64 {
    got.iter()
        .flatten()
        .zip(want.iter().flatten())
        .map(|(g, w)| {
            let tol = rtol * w.abs() + atol;
            let err = (g - w).abs();
            if err == 0.0 {
                0.0
            } else {
                err / tol
            }
        })
        .fold(0.0, f64::max)
}

/// The module text with every `f32` made `f64`.
pub fn to_f64(src: &str) -> String {
    src.replace("f32", "f64")
}

/// Parses `src`, runs reverse-mode-ad (on the case's kernels), and returns the program (on the
/// interpreter), the number of adstacks it made and which arguments of `kernel` carry gradients.
fn program_with_gradient(src: &str, case: &GradCase) -> (Program, usize, Vec<bool>) {
    let kernel = case.kernel;
    let mut ctx = context();
    let Some(m) = parse_source(&mut ctx, src, "case.mlir") else {
        panic!("parse failed:\n{}", rendered(&ctx, src, "case.mlir"));
    };
    if let Err(d) = qd_ir::verifier::verify(&ctx, m) {
        let msgs: Vec<String> = d.iter().map(|d| d.message.clone()).collect();
        panic!("the case's module does not verify: {msgs:?}");
    }
    // A sequence differentiates each of its kernels (one that touches no differentiable
    // data too: its gradient is then empty); a single kernel, the pass's default choice.
    let mut kernels: Vec<String> = Vec::new();
    for (k, _) in &case.launches {
        if !kernels.iter().any(|x| x == k) {
            kernels.push(k.to_string());
        }
    }
    let options = Options {
        aggregates: case.aggregates,
        kernels: kernels.clone(),
    };
    let report = match reverse_mode_ad(&mut ctx, m, &options) {
        Ok(r) => r,
        Err(_) => panic!(
            "reverse-mode-ad failed:\n{}",
            rendered(&ctx, src, "case.mlir")
        ),
    };
    if let Err(d) = qd_ir::verifier::verify(&ctx, m) {
        let msgs: Vec<String> = d.iter().map(|d| d.message.clone()).collect();
        panic!("the gradient module does not verify: {msgs:?}");
    }
    let stacks = report.gradients.iter().map(|g| g.2).sum();
    let decl = qd_ad::find_reverse(&ctx, m, kernel).expect("the pass declares the gradient");
    let active = decl.active(&ctx).expect("the pass records the activity");
    if kernels.is_empty() {
        kernels.push(kernel.to_string());
    }
    if case.size_stacks {
        for k in &kernels {
            let grad = qd_ad::find_reverse(&ctx, m, k)
                .and_then(|d| d.gradient(&ctx))
                .expect("the pass makes the gradient kernel");
            size_stacks(&mut ctx, grad.0, case.ad_stack_size, src);
        }
    }
    (program(ctx, m, case.ad_stack_size), stacks, active)
}

/// Runs `minimize-tape`, then `determine-ad-stack-size` on `kernel` (forced to `forced` entries
/// when given), as the runtime's compile pipeline does.
fn size_stacks(ctx: &mut Context, kernel: qd_ir::OpId, forced: Option<usize>, src: &str) {
    use qd_pass::Pass;
    if qd_adstack_passes::MinimizeTapePass::default()
        .run(ctx, kernel)
        .is_err()
    {
        panic!("minimize-tape failed:\n{}", rendered(ctx, src, "case.mlir"));
    }
    let forced = forced.map(|n| i64::try_from(n).expect("a forced size fits in i64"));
    let mut pass = qd_adstack_passes::DetermineAdStackSize::new(forced);
    if pass.run(ctx, kernel).is_err() {
        panic!(
            "determine-ad-stack-size failed:\n{}",
            rendered(ctx, src, "case.mlir")
        );
    }
}

fn program(ctx: Context, m: qd_ir::OpId, ad_stack_size: Option<usize>) -> Program {
    let config = ProgramConfig {
        ad_stack_size,
        ..ProgramConfig::default()
    };
    Program::new(ctx, m, Box::new(Interpreter::new()), config)
        .unwrap_or_else(|e| panic!("program creation failed: {e}"))
}

/// The value a parameter of type `dtype` holds for `v` (f32 inputs are rounded here).
fn round(dtype: DType, v: f64) -> f64 {
    Scalar::from_f64(dtype, v).map(|s| s.to_f64()).unwrap_or(v)
}

/// Writes the case's initial field values (zero elsewhere, adjoints cleared).
fn reset_fields(p: &mut Program, case: &GradCase) {
    let names: Vec<String> = p.field_names().iter().map(|s| s.to_string()).collect();
    for name in names {
        let n = p.field(&name).unwrap().len();
        let values = case
            .fields
            .iter()
            .find(|(f, _)| *f == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| vec![0.0; n]);
        p.write_f64(&name, &values)
            .unwrap_or_else(|e| panic!("field {name}: {e}"));
    }
    p.clear_grads();
}

/// The kernel arguments (fresh ndarrays), with `perturb` = (argument, element, delta) applied.
fn make_args(
    p: &mut Program,
    params: &[ParamType],
    case: &GradCase,
    perturb: Option<(usize, usize, f64)>,
) -> Vec<Arg> {
    let mut args = Vec::new();
    for (i, (spec, param)) in case.args.iter().zip(params).enumerate() {
        match (spec, param) {
            (ArgSpec::Scalar(v), ParamType::Scalar(dt)) => args.push(Arg::Scalar(
                Scalar::from_f64(*dt, *v).expect("scalar argument"),
            )),
            (ArgSpec::Ndarray { shape, data }, ParamType::Ndarray { dtype, .. }) => {
                let mut data: Vec<f64> = data.iter().map(|&v| round(*dtype, v)).collect();
                if let Some((a, e, d)) = perturb {
                    if a == i {
                        data[e] += d;
                    }
                }
                let nd = Ndarray::from_f64(*dtype, shape, &data).expect("ndarray argument");
                args.push(Arg::Ndarray(p.add_ndarray(nd)));
            }
            _ => panic!("argument {i} does not match the kernel's parameter {param}"),
        }
    }
    args
}

/// The launches of the case: (kernel, argument indices), compiled; and the parameter type of
/// each argument (from the first launch that takes it).
fn launches(p: &mut Program, case: &GradCase) -> (Vec<(KernelId, Vec<usize>)>, Vec<ParamType>) {
    let plan: Vec<(&str, Vec<usize>)> = if case.launches.is_empty() {
        vec![(case.kernel, (0..case.args.len()).collect())]
    } else {
        case.launches.iter().map(|(k, a)| (*k, a.clone())).collect()
    };
    let mut types: Vec<Option<ParamType>> = vec![None; case.args.len()];
    let mut out = Vec::new();
    for (name, args) in plan {
        let k = p
            .kernel(name)
            .unwrap_or_else(|e| panic!("kernel {name}: {e}"));
        let params = p.kernel_params(k).unwrap().to_vec();
        assert_eq!(
            params.len(),
            args.len(),
            "{name}: one argument per parameter"
        );
        for (&a, t) in args.iter().zip(params) {
            types[a].get_or_insert(t);
        }
        out.push((k, args));
    }
    let types = types
        .into_iter()
        .enumerate()
        .map(|(i, t)| t.unwrap_or_else(|| panic!("argument {i} is passed to no launch")))
        .collect();
    (out, types)
}

/// Runs a sequence on a tape, then its gradients; returns the adjoints of the `wrt` inputs.
fn run_ad_sequence(src: &str, case: &GradCase) -> (Vec<Vec<f64>>, usize) {
    let (mut p, stacks, _) = program_with_gradient(src, case);
    let (_, types) = launches(&mut p, case);
    reset_fields(&mut p, case);
    let pool = make_args(&mut p, &types, case, None);
    let mut tape = Tape::new();
    for (k, idx) in &case.launches {
        let args: Vec<Arg> = idx.iter().map(|&i| pool[i]).collect();
        tape.launch(&mut p, k, &args)
            .unwrap_or_else(|e| panic!("{k}: {e}"));
    }
    sync(&mut p, "the sequence");
    for (name, seed) in &case.seeds {
        p.write_f64(&format!("{name}.grad"), seed).unwrap();
    }
    for (i, seed) in &case.arg_seeds {
        let Arg::Ndarray(id) = pool[*i] else {
            panic!("argument {i} is not an ndarray");
        };
        tape.seed(&mut p, id, seed)
            .unwrap_or_else(|e| panic!("the seed of argument {i}: {e}"));
    }
    tape.backward(&mut p)
        .unwrap_or_else(|e| panic!("the gradient of the sequence: {e}"));
    let grads = case
        .wrt
        .iter()
        .map(|w| match w {
            Wrt::Field(f) => p.read_f64(&format!("{f}.grad")).unwrap(),
            Wrt::Arg(i) => {
                let Arg::Ndarray(id) = pool[*i] else {
                    panic!("argument {i} is not an ndarray");
                };
                let adj = tape
                    .existing_adjoint(id)
                    .unwrap_or_else(|| panic!("argument {i} has no adjoint"));
                p.ndarray(adj).unwrap().to_f64_vec()
            }
        })
        .collect();
    (grads, stacks)
}

/// Runs the kernel and its gradient (a sequence: [`run_ad_sequence`]); returns the adjoints of
/// the `wrt` inputs.
fn run_ad(src: &str, case: &GradCase) -> (Vec<Vec<f64>>, usize) {
    if !case.launches.is_empty() {
        return run_ad_sequence(src, case);
    }
    let (mut p, stacks, active) = program_with_gradient(src, case);
    let k = p.kernel(case.kernel).expect("kernel");
    let kg = p
        .kernel(&format!("{}_grad", case.kernel))
        .expect("gradient kernel");
    let params = p.kernel_params(k).unwrap().to_vec();
    reset_fields(&mut p, case);
    let args = make_args(&mut p, &params, case, None);
    p.launch(k, &args).unwrap();
    sync(&mut p, case.kernel);
    for (name, seed) in &case.seeds {
        p.write_f64(&format!("{name}.grad"), seed).unwrap();
    }
    // The adjoint ndarrays: zeros like their primals, in argument order.
    let mut gargs = args.clone();
    let mut adj_of = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if let (Arg::Ndarray(id), true) = (a, active.get(i).copied().unwrap_or(false)) {
            let nd = p.ndarray(*id).unwrap();
            let (dtype, shape) = (nd.dtype(), nd.shape().to_vec());
            let z = match case.arg_seeds.iter().find(|(a, _)| *a == i) {
                Some((_, seed)) => Ndarray::from_f64(dtype, &shape, seed).unwrap(),
                None => Ndarray::zeros(dtype, &shape).unwrap(),
            };
            let z = p.add_ndarray(z);
            gargs.push(Arg::Ndarray(z));
            adj_of.push((i, z));
        }
    }
    p.launch(kg, &gargs).unwrap();
    sync(&mut p, &format!("{}_grad", case.kernel));
    let grads = case
        .wrt
        .iter()
        .map(|w| match w {
            Wrt::Field(f) => p.read_f64(&format!("{f}.grad")).unwrap(),
            Wrt::Arg(i) => {
                let id = adj_of
                    .iter()
                    .find(|(a, _)| a == i)
                    .unwrap_or_else(|| panic!("argument {i} has no adjoint"))
                    .1;
                p.ndarray(id).unwrap().to_f64_vec()
            }
        })
        .collect();
    (grads, stacks)
}

fn sync(p: &mut Program, kernel: &str) {
    if let Err(errs) = p.sync() {
        let m: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        panic!("{kernel} failed: {}", m.join("; "));
    }
}

/// Central differences of the loss in f64.
fn finite_differences(src64: &str, case: &GradCase, rounded: &GradCase) -> Vec<Vec<f64>> {
    let mut ctx = context();
    let m = parse_source(&mut ctx, src64, "case64.mlir").expect("f64 twin parses");
    let mut p = program(ctx, m, None);
    let (runs, params) = launches(&mut p, case);
    let loss = |p: &mut Program, c: &GradCase, perturb: Option<(usize, usize, f64)>| {
        reset_fields(p, c);
        let args = make_args(p, &params, c, perturb);
        for (k, idx) in &runs {
            let a: Vec<Arg> = idx.iter().map(|&i| args[i]).collect();
            p.launch(*k, &a).unwrap();
        }
        sync(p, c.kernel);
        let fields: f64 = c
            .seeds
            .iter()
            .map(|(name, seed)| {
                let y = p.read_f64(name).unwrap();
                y.iter().zip(seed).map(|(a, b)| a * b).sum::<f64>()
            })
            .sum();
        let arrays: f64 = c
            .arg_seeds
            .iter()
            .map(|(i, seed)| {
                let Arg::Ndarray(id) = args[*i] else {
                    panic!("argument {i} is not an ndarray");
                };
                let y = p.ndarray(id).unwrap().to_f64_vec();
                y.iter().zip(seed).map(|(a, b)| a * b).sum::<f64>()
            })
            .sum();
        fields + arrays
    };
    let h = case.h;
    rounded
        .wrt
        .iter()
        .map(|w| match w {
            Wrt::Field(f) => {
                let base = rounded
                    .fields
                    .iter()
                    .find(|(n, _)| n == f)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default();
                (0..base.len())
                    .map(|e| {
                        let mut c = rounded.clone();
                        set_field(&mut c, f, e, base[e] + h);
                        let hi = loss(&mut p, &c, None);
                        set_field(&mut c, f, e, base[e] - h);
                        let lo = loss(&mut p, &c, None);
                        (hi - lo) / (2.0 * h)
                    })
                    .collect()
            }
            Wrt::Arg(i) => {
                let n = match &rounded.args[*i] {
                    ArgSpec::Ndarray { data, .. } => data.len(),
                    ArgSpec::Scalar(_) => panic!("differentiate with respect to ndarrays only"),
                };
                (0..n)
                    .map(|e| {
                        let hi = loss(&mut p, rounded, Some((*i, e, h)));
                        let lo = loss(&mut p, rounded, Some((*i, e, -h)));
                        (hi - lo) / (2.0 * h)
                    })
                    .collect()
            }
        })
        .collect()
}

fn set_field(c: &mut GradCase, name: &str, e: usize, v: f64) {
    for (n, vals) in c.fields.iter_mut() {
        if *n == name {
            vals[e] = v;
        }
    }
}

/// The case with its float inputs rounded to what the f32 module holds.
fn rounded_inputs(case: &GradCase) -> GradCase {
    let mut c = case.clone();
    let is_f32 = case.src.contains("f32");
    let r = |v: f64| if is_f32 { v as f32 as f64 } else { v };
    for (_, vals) in c.fields.iter_mut() {
        for v in vals.iter_mut() {
            *v = r(*v);
        }
    }
    for a in c.args.iter_mut() {
        match a {
            ArgSpec::Scalar(v) => *v = r(*v),
            ArgSpec::Ndarray { data, .. } => {
                for v in data.iter_mut() {
                    *v = r(*v);
                }
            }
        }
    }
    c
}

/// `|got - want| <= rtol |want| + atol`; false for a NaN anywhere.
pub fn close(got: f64, want: f64, rtol: f64, atol: f64) -> bool {
    (got - want).abs() <= rtol * want.abs() + atol
}

/// Checks the case (see the module docs); panics with the mismatching elements.
pub fn check(case: &GradCase) -> GradResult {
    try_check(case).unwrap_or_else(|e| panic!("{e}"))
}

/// [`check`], with a gradient mismatch returned as its message (other failures still panic).
pub fn try_check(case: &GradCase) -> Result<GradResult, String> {
    let rounded = rounded_inputs(case);
    let (ad32, stacks) = run_ad(&case.src, &rounded);
    let src64 = case.src64.clone().unwrap_or_else(|| to_f64(&case.src));
    let (ad64, _) = run_ad(&src64, &rounded);
    let fd = finite_differences(&src64, case, &rounded);
    let mut bad = Vec::new();
    for (w, ((a32, a64), f)) in case.wrt.iter().zip(ad32.iter().zip(&ad64).zip(&fd)) {
        for (e, ((&g32, &g64), &gf)) in a32.iter().zip(a64).zip(f).enumerate() {
            if !close(g64, gf, case.fd_rtol, case.fd_atol) {
                bad.push(format!(
                    "{w:?}[{e}]: f64 gradient {g64:e}, finite difference {gf:e}"
                ));
            }
            if !close(g32, g64, case.f32_rtol, case.f32_atol) {
                bad.push(format!(
                    "{w:?}[{e}]: f32 gradient {g32:e}, f64 gradient {g64:e}"
                ));
            }
        }
    }
    if !bad.is_empty() {
        return Err(format!(
            "{}: gradient mismatch:\n{}",
            case.kernel,
            bad.join("\n")
        ));
    }
    Ok(GradResult {
        ad32,
        ad64,
        fd,
        stacks,
    })
}
