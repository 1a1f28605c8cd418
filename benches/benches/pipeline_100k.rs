//! 100k ops end to end, in-process: parse, verify, cse, canonicalize, print, each timed alone
//! (its input prepared outside the timing) and all together. Run with
//! `cargo bench -p qd-benches --bench pipeline_100k`. Target: under 1 s end to end on 2 cores.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode, Throughput};
use qd_benches::{arith_chain_module, context, parse, run_pipeline};
use qd_ir::text::{parse_source, print_op, PrintOptions};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 100_000;

fn pipeline_100k(c: &mut Criterion) {
    let text = arith_chain_module(N);
    let mut g = c.benchmark_group("pipeline_100k");
    // Each iteration takes tens of milliseconds: few samples of one iteration each.
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(N as u64));
    g.bench_function("parse", |b| {
        b.iter_batched(
            context,
            |mut ctx| {
                let m = parse_source(&mut ctx, &text, "bench.mlir").expect("parses");
                (ctx, m)
            },
            BatchSize::PerIteration,
        )
    });
    let (ctx, m) = parse(&text);
    g.bench_function("verify", |b| {
        b.iter(|| qd_ir::verifier::verify(&ctx, black_box(m)).expect("verifies"))
    });
    g.bench_function("cse", |b| {
        b.iter_batched(
            || parse(&text),
            |(mut ctx, m)| {
                run_pipeline(&mut ctx, m, "builtin.module(cse)");
                (ctx, m)
            },
            BatchSize::PerIteration,
        )
    });
    let after_cse = || {
        let (mut ctx, m) = parse(&text);
        run_pipeline(&mut ctx, m, "builtin.module(cse)");
        (ctx, m)
    };
    g.bench_function("canonicalize", |b| {
        b.iter_batched(
            after_cse,
            |(mut ctx, m)| {
                run_pipeline(&mut ctx, m, "builtin.module(canonicalize)");
                (ctx, m)
            },
            BatchSize::PerIteration,
        )
    });
    let (mut ctx, m) = after_cse();
    run_pipeline(&mut ctx, m, "builtin.module(canonicalize)");
    println!(
        "pipeline_100k: {N} ops in, {} ops out",
        ctx.walk_pre_order(m).len()
    );
    g.bench_function("print", |b| {
        b.iter(|| print_op(&ctx, black_box(m), &PrintOptions::default()))
    });
    g.bench_function("total", |b| {
        b.iter_batched(
            context,
            |mut ctx| {
                let m = parse_source(&mut ctx, &text, "bench.mlir").expect("parses");
                qd_ir::verifier::verify(&ctx, m).expect("verifies");
                run_pipeline(&mut ctx, m, "builtin.module(cse)");
                run_pipeline(&mut ctx, m, "builtin.module(canonicalize)");
                let out = print_op(&ctx, m, &PrintOptions::default());
                (ctx, out)
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, pipeline_100k);
criterion_main!(benches);
