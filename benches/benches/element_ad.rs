//! Element-addressed vs whole-aggregate reverse mode ([element-ad], Slang issue #4197): the
//! gradient of examples/local_array_bench.mlir (a 64-element local array, one element updated
//! per step, n = 4096 steps per thread) on the interpreter, in both modes of
//! `reverse-mode-ad{aggregates=...}`. Prints the adstack memory per thread of each mode, their
//! ratio and how far their gradients differ, then times forward + reverse of each mode. Run with
//! `cargo bench -p qd-benches --bench element_ad`.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use qd_autodiff::Aggregates;
use qd_benches::element_ad::{ElementAd, BENCH_KERNEL};
use std::time::Duration;

const N: usize = 4096;

fn compiled(mode: Aggregates) -> ElementAd {
    let mut b = ElementAd::new(BENCH_KERNEL, mode, N).unwrap_or_else(|e| panic!("{e}"));
    b.run().unwrap_or_else(|e| panic!("{e}"));
    b
}

/// The memory of each mode and the agreement of their gradients (not timings: criterion's).
fn report(e: &ElementAd, s: &ElementAd) {
    let (em, sm) = (e.memory().unwrap(), s.memory().unwrap());
    let (eg, sg) = (e.grad().unwrap(), s.grad().unwrap());
    let worst = eg
        .iter()
        .zip(&sg)
        .map(|(a, b)| (a - b).abs() / (b.abs() + 1e-30))
        .fold(0.0, f64::max);
    println!("element_ad: len = 64, n = {N}, 4 threads, interpreter");
    for (b, m) in [(e, &em), (s, &sm)] {
        println!(
            "  {:<8} {:>3} adstacks  {:>8} saved values/thread  {:>9} bytes/thread",
            b.mode.name(),
            b.stacks,
            m.saved_values,
            m.bytes_per_thread,
        );
    }
    println!(
        "  memory ratio (ssa / element, bytes per thread): {:.1}",
        sm.bytes_per_thread as f64 / em.bytes_per_thread as f64
    );
    println!("  largest relative difference of x.grad between the modes: {worst:.1e}");
}

fn element_ad(c: &mut Criterion) {
    let mut e = compiled(Aggregates::Element);
    let mut s = compiled(Aggregates::Ssa);
    report(&e, &s);
    let mut g = c.benchmark_group("element_ad");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    // Each sample: the kernel and its gradient, from fresh inputs.
    for b in [&mut e, &mut s] {
        g.bench_function(b.mode.name(), |bench| bench.iter(|| b.run().unwrap()));
    }
    g.finish();
}

criterion_group!(benches, element_ad);
criterion_main!(benches);
