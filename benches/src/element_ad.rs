//! The element-addressed vs whole-aggregate reverse mode benchmark (`benches/element_ad.rs`):
//! builds the gradient kernel of a kernel with a local array in each mode of reverse-mode-ad's
//! `aggregates=` option, sizes its adstacks as `qd-run --grad` does, and runs the kernel and its
//! gradient on the interpreter (criterion times [`ElementAd::run`]). [`ElementAd::memory`]
//! reports the adstack memory per thread, as the runtime sized it for the last launch.

use qd_autodiff::{reverse_mode_ad, Aggregates, Options};
use qd_interp::Interpreter;
use qd_ir::text::parse_source;
use qd_pass::Pass;
use qd_runtime::{KernelId, Program, ProgramConfig};

/// The benchmark kernel: examples/local_array_bench.mlir (len = 64).
pub const BENCH_KERNEL: &str = include_str!("../../examples/local_array_bench.mlir");

/// A compiled kernel and its gradient in one mode, ready to run.
pub struct ElementAd {
    pub mode: Aggregates,
    /// Adstacks in the gradient kernel.
    pub stacks: usize,
    program: Program,
    kernel: KernelId,
    gradient: KernelId,
    n: usize,
    x: Vec<f64>,
}

/// What one mode costs in memory.
#[derive(Clone, Debug)]
pub struct Memory {
    /// Saved values per thread: the sum of the stacks' depths for the launch.
    pub saved_values: u64,
    /// Adstack bytes per thread for the launch.
    pub bytes_per_thread: u64,
}

impl ElementAd {
    /// Compiles `src` (a module with kernel `@compute`, fields `n`, `x`, `y` as in the benchmark
    /// kernel) in `mode`, to run with `n` steps.
    pub fn new(src: &str, mode: Aggregates, n: usize) -> Result<ElementAd, String> {
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
        let mut program = Program::new(
            ctx,
            m,
            Box::new(Interpreter::new()),
            ProgramConfig::default(),
        )
        .map_err(|e| e.to_string())?;
        let len = program.field("x").map_err(|e| e.to_string())?.len();
        let kernel = program.kernel("compute").map_err(|e| e.to_string())?;
        let gradient = program.kernel("compute_grad").map_err(|e| e.to_string())?;
        Ok(ElementAd {
            mode,
            stacks,
            program,
            kernel,
            gradient,
            n,
            x: (0..len).map(|i| i as f64 / len as f64).collect(),
        })
    }

    /// One forward + reverse run from fresh inputs: the kernel, then its gradient (y.grad = 1).
    pub fn run(&mut self) -> Result<(), String> {
        let p = &mut self.program;
        p.write_f64("n", &[self.n as f64])
            .map_err(|e| e.to_string())?;
        p.write_f64("x", &self.x).map_err(|e| e.to_string())?;
        p.clear_grads();
        p.launch(self.kernel, &[]).map_err(|e| e.to_string())?;
        p.write_f64("y.grad", &[1.0]).map_err(|e| e.to_string())?;
        p.launch(self.gradient, &[]).map_err(|e| e.to_string())?;
        p.sync().map_err(|e| format!("{e:?}"))
    }

    /// The adstack memory of the last gradient launch.
    pub fn memory(&self) -> Result<Memory, String> {
        let plan = self
            .program
            .last_adstack_plan(self.gradient)
            .ok_or("the gradient kernel did not run")?;
        Ok(Memory {
            saved_values: plan.stacks.iter().map(|s| s.depth).sum(),
            bytes_per_thread: plan.bytes_per_thread(),
        })
    }

    /// x.grad after the last run.
    pub fn grad(&self) -> Result<Vec<f64>, String> {
        self.program.read_f64("x.grad").map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_modes_agree_and_the_naive_one_saves_the_whole_array() {
        let n = 100;
        let mut e = ElementAd::new(BENCH_KERNEL, Aggregates::Element, n).unwrap();
        let mut s = ElementAd::new(BENCH_KERNEL, Aggregates::Ssa, n).unwrap();
        e.run().unwrap();
        s.run().unwrap();
        let (em, sm) = (e.memory().unwrap(), s.memory().unwrap());
        // One f32 stack of n overwritten elements; 64 stacks of 1 + 64 + n whole-array entries.
        assert_eq!((e.stacks, em.saved_values), (1, n as u64));
        assert_eq!((s.stacks, sm.saved_values), (64, 64 * (1 + 64 + n as u64)));
        assert_eq!(em.bytes_per_thread, 8 + 8 * n as u64);
        let (eg, sg) = (e.grad().unwrap(), s.grad().unwrap());
        for (a, b) in eg.iter().zip(&sg) {
            assert!((a - b).abs() <= 1e-5 * b.abs() + 1e-7, "{a} vs {b}");
        }
        assert!(eg.iter().any(|&g| g != 0.0));
        // A second run starts from fresh inputs: the same gradient.
        e.run().unwrap();
        assert_eq!(e.grad().unwrap(), eg);
    }
}
