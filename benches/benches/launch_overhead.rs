//! The fixed cost of a launch (issue #19, point 7): a trivial kernel (one store, one thread)
//! launched through the runtime API ([`Program`]) on every registered device, so the time is
//! the launch path alone: argument checks, adstack plan, the device's dispatch, and `sync`.
//!
//! Three kernels, as python/benches/launch_overhead.py has them: `field` (no arguments, stores
//! into a scalar field), `scalar` (one f32 argument), `ndarray` (an f32 ndarray and a scalar).
//! Two modes each: `launch+sync` syncs after every launch; `launch` is 16 launches then one
//! sync, per launch. A device that cannot start here (vulkan without a driver) is skipped with
//! a note.
//!
//! `large/cpu` times a launch of 2^20 threads on the cpu device, to show that what makes small
//! launches cheap (they run on the calling thread) does not slow large ones; it checks that
//! every one of them went to the thread pool.
//!
//! Run with `cargo bench -p qd-benches --bench launch_overhead`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use qd_ir::text::parse_source;
use qd_llvm::CpuDevice;
use qd_runtime::{
    Arg, DType, Device, DeviceOptions, KernelId, Ndarray, Program, ProgramConfig, Scalar,
};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

const SRC: &str = r#"module {
  qd.field @y : !qd.field<f32>
  qd.field @big : !qd.field<1048576xf32>
  qd.kernel @field() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      %one = arith.constant 1.0 : f32
      qd.store %one, @y[] : f32
    }
  }
  qd.kernel @scalar(%s: f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      qd.store %s, @y[] : f32
    }
  }
  qd.kernel @ndarray(%a: !qd.ndarray<?xf32>, %s: f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      qd.ndarray_store %s, %a[%c0] : !qd.ndarray<?xf32>
    }
  }
  qd.kernel @large(%s: f32) {
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 1048576 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %f = arith.sitofp %i : i32 to f32
      %v = arith.mulf %f, %s : f32
      qd.store %v, @big[%i] : f32
    }
  }
}"#;

/// A program of [`SRC`] on device `name`, or None (with a note) when the device cannot start.
fn program(name: &str) -> Option<Program> {
    match qd_devices::all_devices().create(name, &DeviceOptions::default()) {
        Ok(d) => Some(program_on(d)),
        Err(e) => {
            eprintln!("note: device {name} skipped: {e}");
            None
        }
    }
}

fn program_on(device: Box<dyn Device>) -> Program {
    let mut ctx = qd_dialects::context();
    let module = parse_source(&mut ctx, SRC, "launch_overhead.mlir").expect("parses");
    Program::new(ctx, module, device, ProgramConfig::default()).expect("program")
}

/// The kernels and their arguments, compiled and launched once.
fn kernels(p: &mut Program) -> Vec<(&'static str, KernelId, Vec<Arg>)> {
    let a = p.add_ndarray(Ndarray::zeros(DType::F32, &[8]).expect("ndarray"));
    let two = Arg::Scalar(Scalar::F32(2.0));
    let ks = vec![
        ("field", p.kernel("field").expect("compiles"), vec![]),
        ("scalar", p.kernel("scalar").expect("compiles"), vec![two]),
        (
            "ndarray",
            p.kernel("ndarray").expect("compiles"),
            vec![Arg::Ndarray(a), two],
        ),
    ];
    for (name, k, args) in &ks {
        p.launch(*k, args).expect("launch");
        p.sync().unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
    ks
}

/// Launches per sync in the `launch` mode.
const BATCH: u64 = 16;

fn launch_overhead(c: &mut Criterion) {
    let mut g = c.benchmark_group("launch_overhead");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for entry in qd_devices::all_devices().iter() {
        let dev = entry.name.clone();
        let Some(mut p) = program(&dev) else {
            continue;
        };
        for (name, k, args) in kernels(&mut p) {
            g.bench_function(BenchmarkId::new(format!("{name}/launch+sync"), &dev), |b| {
                b.iter(|| {
                    p.launch(k, &args).expect("launch");
                    p.sync().expect("runs");
                })
            });
            g.bench_function(BenchmarkId::new(format!("{name}/launch"), &dev), |b| {
                b.iter_custom(|iters| {
                    let t = Instant::now();
                    for _ in 0..iters {
                        for _ in 0..BATCH {
                            p.launch(k, &args).expect("launch");
                        }
                        p.sync().expect("runs");
                    }
                    t.elapsed() / BATCH as u32
                })
            });
        }
    }
    g.finish();

    let mut g = c.benchmark_group("launch_overhead");
    g.sample_size(20).measurement_time(Duration::from_secs(3));
    let device = CpuDevice::new().expect("the cpu device starts");
    let pool_runs = device.pool_runs();
    let mut p = program_on(Box::new(device));
    let k = p.kernel("large").expect("compiles");
    let args = [Arg::Scalar(Scalar::F32(0.5))];
    let mut launches = 0u64;
    g.bench_function("large/launch+sync/cpu", |b| {
        b.iter(|| {
            p.launch(k, &args).expect("launch");
            p.sync().expect("runs");
            launches += 1;
        })
    });
    g.finish();
    // Every large launch went to the pool (none ran on the calling thread); none when a filter
    // left this benchmark out.
    let runs = pool_runs.load(Ordering::Relaxed);
    assert_eq!(runs, launches, "large launches handed to the pool");
    if launches > 0 {
        assert_eq!(p.read_f64("big").expect("big")[1000], 500.0);
    }
}

criterion_group!(benches, launch_overhead);
criterion_main!(benches);
