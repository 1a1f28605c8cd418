//! The element-addressed vs whole-aggregate reverse mode benchmark (`benches/element_ad.rs`):
//! builds the gradient kernel of a kernel with a local array in each mode of reverse-mode-ad's
//! `aggregates=` option, sizes its adstacks as `qd-run --grad` does, runs the kernel and its
//! gradient on the interpreter, and reports the adstack memory per thread (as the runtime sizes
//! it for the launch) and the forward + reverse time.

use qd_autodiff::{reverse_mode_ad, Aggregates, Options};
use qd_interp::Interpreter;
use qd_ir::text::parse_source;
use qd_pass::Pass;
use qd_runtime::{Program, ProgramConfig};
use std::time::{Duration, Instant};

/// The benchmark kernel: examples/local_array_bench.mlir (len = 64).
pub const BENCH_KERNEL: &str = include_str!("../../examples/local_array_bench.mlir");

/// What one mode costs.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub mode: Aggregates,
    /// Adstacks in the gradient kernel.
    pub stacks: usize,
    /// Saved values per thread: the sum of the stacks' depths for the launch.
    pub saved_values: u64,
    /// Adstack bytes per thread for the launch.
    pub bytes_per_thread: u64,
    /// The best forward + reverse time (kernel, then gradient kernel) over the runs.
    pub time: Duration,
    /// x.grad, to check that both modes agree.
    pub grad: Vec<f64>,
}

/// Measures `src` (a module with kernel `@compute`, fields `n`, `x`, `y` as in the benchmark
/// kernel) in `mode`, with `n` steps, best of `runs` runs.
pub fn measure(src: &str, mode: Aggregates, n: usize, runs: usize) -> Result<Measurement, String> {
    let mut ctx = qd_ir::Context::new();
    qd_dialects::register_all_dialects(&mut ctx);
    let m = parse_source(&mut ctx, src, "bench.mlir").ok_or("the kernel does not parse")?;
    let options = Options {
        aggregates: mode,
        ..Default::default()
    };
    let report = reverse_mode_ad(&mut ctx, m, &options)
        .map_err(|_| format!("reverse-mode-ad failed: {:?}", ctx.diagnostics()))?;
    let stacks = report.gradients.iter().map(|g| g.2).sum();
    let grad = qd_ad::find_reverse(&ctx, m, "compute")
        .and_then(|d| d.gradient(&ctx))
        .ok_or("no gradient kernel")?;
    let mut sizing = qd_adstack_passes::DetermineAdStackSize::new(None);
    sizing
        .run(&mut ctx, grad.0)
        .map_err(|_| format!("determine-ad-stack-size failed: {:?}", ctx.diagnostics()))?;
    let mut p = Program::new(
        ctx,
        m,
        Box::new(Interpreter::new()),
        ProgramConfig::default(),
    )
    .map_err(|e| e.to_string())?;
    let len = p.field("x").map_err(|e| e.to_string())?.len();
    let x: Vec<f64> = (0..len).map(|i| i as f64 / len as f64).collect();
    let k = p.kernel("compute").map_err(|e| e.to_string())?;
    let kg = p.kernel("compute_grad").map_err(|e| e.to_string())?;
    let mut best = Duration::MAX;
    for _ in 0..runs.max(1) {
        p.write_f64("n", &[n as f64]).map_err(|e| e.to_string())?;
        p.write_f64("x", &x).map_err(|e| e.to_string())?;
        p.clear_grads();
        let t0 = Instant::now();
        p.launch(k, &[]).map_err(|e| e.to_string())?;
        p.write_f64("y.grad", &[1.0]).map_err(|e| e.to_string())?;
        p.launch(kg, &[]).map_err(|e| e.to_string())?;
        p.sync().map_err(|e| format!("{e:?}"))?;
        best = best.min(t0.elapsed());
    }
    let plan = p
        .last_adstack_plan(kg)
        .ok_or("the gradient kernel did not run")?;
    Ok(Measurement {
        mode,
        stacks,
        saved_values: plan.stacks.iter().map(|s| s.depth).sum(),
        bytes_per_thread: plan.bytes_per_thread(),
        time: best,
        grad: p.read_f64("x.grad").map_err(|e| e.to_string())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_modes_agree_and_the_naive_one_saves_the_whole_array() {
        let n = 100;
        let e = measure(BENCH_KERNEL, Aggregates::Element, n, 1).unwrap();
        let s = measure(BENCH_KERNEL, Aggregates::Ssa, n, 1).unwrap();
        // One f32 stack of n overwritten elements; 64 stacks of 1 + 64 + n whole-array entries.
        assert_eq!((e.stacks, e.saved_values), (1, n as u64));
        assert_eq!((s.stacks, s.saved_values), (64, 64 * (1 + 64 + n as u64)));
        assert_eq!(e.bytes_per_thread, 8 + 8 * n as u64);
        for (a, b) in e.grad.iter().zip(&s.grad) {
            assert!((a - b).abs() <= 1e-5 * b.abs() + 1e-7, "{a} vs {b}");
        }
        assert!(e.grad.iter().any(|&g| g != 0.0));
    }
}
