//! Non-temporal ("streaming") stores on the `cpu` device (backends/llvm/src/simd/driver.rs),
//! against plain stores and memcpy, on 2^24 f32 fields: a copy (`y = x + 0`) and the fusion
//! bench's chain (`sigmoid(relu(x * w + 0.5) - x * 0.25)`, written out in qd). Two devices, one
//! streaming past its default threshold and one never, run interleaved with a 2-thread memcpy,
//! and each row is the best of its launches: on a shared machine load only ever slows a run
//! down, so the best of many is what the code can do, and interleaving (each device first every
//! other round) puts every row through the same moments. Each launch is timed right after one
//! of its own (`qd_benches::bandwidth::second_of_two`).
//!
//! `cargo bench -p qd-benches --bench streaming` (QD_STREAMING_REPS, default 60).

use qd_benches::bandwidth::{second_of_two, Memcpy};
use qd_runtime::{Program, ProgramConfig};
use std::time::Duration;

const N: usize = 1 << 24;

fn src() -> String {
    format!(
        "module {{
  qd.field @x : !qd.field<{N}xf32>
  qd.field @w : !qd.field<{N}xf32>
  qd.field @y : !qd.field<{N}xf32>
  qd.kernel @copy() {{
    qd.struct_for (%i) in @x {{
      %v = qd.load @x[%i] : f32
      %z = arith.constant 0.0 : f32
      %a = arith.addf %v, %z : f32
      qd.store %a, @y[%i] : f32
    }}
  }}
  qd.kernel @chain() {{
    qd.struct_for (%i) in @x {{
      %x = qd.load @x[%i] : f32
      %w = qd.load @w[%i] : f32
      %h = arith.constant 0.5 : f32
      %q = arith.constant 0.25 : f32
      %z = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %m = arith.mulf %x, %w : f32
      %a = arith.addf %m, %h : f32
      %r = arith.maximumf %a, %z : f32
      %d = arith.mulf %x, %q : f32
      %e = arith.subf %r, %d : f32
      %ne = arith.negf %e : f32
      %ex = math.exp %ne : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %one, %den : f32
      qd.store %s, @y[%i] : f32
    }}
  }}
}}"
    )
}

fn program(threshold: Option<u64>) -> Program {
    let mut ctx = qd_dialects::context();
    let module = qd_ir::text::parse_source(&mut ctx, &src(), "streaming.mlir")
        .unwrap_or_else(|| panic!("parse: {:?}", ctx.diagnostics()));
    let dev = qd_llvm::CpuDevice::new()
        .unwrap()
        .with_stream_threshold(threshold);
    let mut p = Program::new(ctx, module, Box::new(dev), ProgramConfig::default()).unwrap();
    let v: Vec<f64> = (0..N).map(|i| (i % 1000) as f64 / 500.0 - 1.0).collect();
    p.write_f64("x", &v).unwrap();
    p.write_f64("w", &v).unwrap();
    p
}

fn main() {
    let reps: usize = std::env::var("QD_STREAMING_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let threads = std::thread::available_parallelism().map_or(1, |p| p.get());
    let mut progs = [
        program(None),
        program(Some(qd_llvm::CpuDevice::STREAM_BYTES)),
    ];
    let ks: Vec<_> = progs
        .iter_mut()
        .map(|p| [p.kernel("copy").unwrap(), p.kernel("chain").unwrap()])
        .collect();
    let mut mc = Memcpy::new(N, threads);
    let mut memcpy = Duration::MAX;
    let mut best = [[Duration::MAX; 2]; 2];
    for r in 0..reps {
        // glibc's memcpy, timed with its threads' start, as a kernel's launch is.
        memcpy = memcpy.min(second_of_two(&mut || {
            mc.copy(false);
        }));
        // Each device first every other round: neither gains from going first.
        for j in [r % 2, 1 - r % 2] {
            let p = &mut progs[j];
            for (c, &k) in ks[j].iter().enumerate() {
                let t = second_of_two(&mut || {
                    p.launch(k, &[]).unwrap();
                    p.sync().unwrap();
                });
                best[j][c] = best[j][c].min(t);
            }
        }
    }
    let gbs = |bytes: usize, t: Duration| bytes as f64 / t.as_secs_f64() / 1e9;
    let bw = gbs(8 * N, memcpy);
    println!("\nstreaming bench: 2^24 f32, cpu device, {threads} threads, best of {reps}");
    println!(
        "memcpy: {:.3} ms, {bw:.1} GB/s\n",
        memcpy.as_secs_f64() * 1e3
    );
    println!("| kernel | stores | ms | GB/s | % memcpy |\n|---|---|---|---|---|");
    for (c, (k, bytes)) in [("copy", 8 * N), ("chain", 12 * N)].iter().enumerate() {
        for (j, what) in ["plain", "streaming"].iter().enumerate() {
            let t = best[j][c];
            println!(
                "| {k} | {what} | {:.3} | {:.1} | {:.1}% |",
                t.as_secs_f64() * 1e3,
                gbs(*bytes, t),
                100.0 * gbs(*bytes, t) / bw
            );
        }
    }
}
