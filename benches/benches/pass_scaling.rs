//! How passes scale with the module: cse, canonicalize (on the arith chain of pipeline_100k)
//! and determine-ad-stack-size (on many fixed-size kernels) at 10k and 100k ops. Criterion
//! reports the throughput in ops/s for each size: near-linear scaling shows as the same
//! throughput at both sizes. determine-ad-stack-size on one kernel that grows (one stack through
//! ever more loops) runs at 1k and 10k ops. Run with
//! `cargo bench -p qd-benches --bench pass_scaling`.

use criterion::{
    criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use qd_benches::{
    adstack_kernels_module, adstack_one_kernel_module, arith_chain_module, parse, run_pipeline,
};
use std::time::Duration;

/// Times `pipeline` on the module of `text` (parsed and verified outside the timing).
fn bench_pass(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    pipeline: &str,
    n: usize,
    text: &str,
) {
    g.throughput(Throughput::Elements(n as u64));
    g.bench_with_input(BenchmarkId::new(name, n), text, |b, text| {
        b.iter_batched(
            || parse(text),
            |(mut ctx, m)| {
                run_pipeline(&mut ctx, m, pipeline);
                (ctx, m)
            },
            BatchSize::PerIteration,
        )
    });
}

fn pass_scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("pass_scaling");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    for n in [10_000, 100_000] {
        let chain = arith_chain_module(n);
        bench_pass(&mut g, "cse", "builtin.module(cse)", n, &chain);
        let canon = "builtin.module(canonicalize)";
        bench_pass(&mut g, "canonicalize", canon, n, &chain);
        let size = "builtin.module(determine-ad-stack-size)";
        let kernels = adstack_kernels_module(n);
        bench_pass(&mut g, "determine-ad-stack-size", size, n, &kernels);
    }
    for n in [1_000, 10_000] {
        let size = "builtin.module(determine-ad-stack-size)";
        let one = adstack_one_kernel_module(n);
        bench_pass(&mut g, "determine-ad-stack-size/one-kernel", size, n, &one);
    }
    g.finish();
}

criterion_group!(benches, pass_scaling);
criterion_main!(benches);
