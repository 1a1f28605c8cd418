//! Element-addressed vs whole-aggregate reverse mode ([element-ad], Slang issue #4197): the
//! gradient of examples/local_array_bench.mlir (a 64-element local array, one element updated
//! per step, n = 4096 steps per thread) on the interpreter, in both modes of
//! `reverse-mode-ad{aggregates=...}`. Prints the adstack memory per thread and the forward +
//! reverse time of each mode, and their ratios. Run with
//! `cargo bench -p qd-benches --bench element_ad`.

use qd_autodiff::Aggregates;
use qd_benches::element_ad::{measure, Measurement, BENCH_KERNEL};

fn main() {
    let n = 4096;
    let runs = 3;
    let get = |mode| measure(BENCH_KERNEL, mode, n, runs).unwrap_or_else(|e| panic!("{e}"));
    let e = get(Aggregates::Element);
    let s = get(Aggregates::Ssa);
    let worst = e
        .grad
        .iter()
        .zip(&s.grad)
        .map(|(a, b)| (a - b).abs() / (b.abs() + 1e-30))
        .fold(0.0, f64::max);
    println!("element_ad: len = 64, n = {n}, 4 threads, interpreter (best of {runs})");
    let row = |m: &Measurement| {
        println!(
            "  {:<8} {:>3} adstacks  {:>8} saved values/thread  {:>9} bytes/thread  {:>9.1} ms forward+reverse",
            m.mode.name(),
            m.stacks,
            m.saved_values,
            m.bytes_per_thread,
            m.time.as_secs_f64() * 1e3
        )
    };
    row(&e);
    row(&s);
    println!(
        "  memory ratio (ssa / element, bytes per thread): {:.1}",
        s.bytes_per_thread as f64 / e.bytes_per_thread as f64
    );
    println!(
        "  time ratio (ssa / element, forward+reverse):    {:.1}",
        s.time.as_secs_f64() / e.time.as_secs_f64()
    );
    println!("  largest relative difference of x.grad between the modes: {worst:.1e}");
}
