//! What a deadline costs on the `cpu` device (issue #16, item 3: under 2%). A compiled kernel
//! polls its launch's cancel flag at every `while` back edge (one relaxed load and a branch;
//! see `qd_runtime::cancel`), so the cost is paid per loop iteration. This times while-loop-heavy
//! kernels, whose loop body is a few float ops (the worst case: the poll next to the least
//! work), in three configurations, interleaved, each launch timed:
//!
//! - `no poll`: compiled without the poll (`CpuDevice::with_cancel_checks(false)`), the baseline;
//! - `poll, no deadline`: the default code, launched without a deadline (no watchdog);
//! - `poll, deadline`: the default code with a deadline an hour away (a watchdog thread per
//!   launch, the flag never set).
//!
//! Three runs: `uniform` (every thread runs the same trip count), `divergent` (trip counts
//! differ between threads), both vectorised (the loop runs under lane masks), and `uniform,
//! scalar tasks` (one thread per call, `--vectorize off`: the scalar codegen's loop). Each launch is timed in CPU time of the process (and wall time, for reference):
//! on shared cores other processes' load moves wall times by tens of percent, CPU time far less.
//! It prints the median of each configuration and the overhead against `no poll`, in percent:
//! the ratio of the medians, and the median of each repetition's ratio to the `no poll` launch
//! just before it.
//! Run with `cargo bench -p qd-benches --bench timeout_cost` (`-- REPS THREADS`, default 21 and
//! 1 worker: one worker keeps other processes' load on the shared cores out of the figures).

use qd_ir::text::parse_source;
use qd_llvm::CpuDevice;
use qd_runtime::{Arg, Program, ProgramConfig, Scalar};
use std::time::{Duration, Instant};

const THREADS: usize = 1024;

/// Thread i runs `n + (i % 5) * spread` iterations of v <- v * 0.999 + 0.001 and stores v.
fn src() -> String {
    format!(
        r#"module {{
  qd.field @y : !qd.field<{THREADS}xf32>
  qd.kernel @spin(%n: i32, %spread: i32) {{
    %c0 = arith.constant 0 : i32
    %cn = arith.constant {THREADS} : i32
    qd.range_for %i = %c0 to %cn : i32 {{
      %k = qd.alloca : !qd.ptr<i32>
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %c0, %k : !qd.ptr<i32>
      %fi = arith.sitofp %i : i32 to f32
      qd.local_store %fi, %v : !qd.ptr<f32>
      %c5 = arith.constant 5 : i32
      %r = arith.remsi %i, %c5 : i32
      %e = arith.muli %r, %spread : i32
      %trip = arith.addi %n, %e : i32
      qd.while {{
        %kk = qd.local_load %k : !qd.ptr<i32>
        %go = arith.cmpi slt, %kk, %trip : i32
        qd.condition %go
      }} do {{
        %kk = qd.local_load %k : !qd.ptr<i32>
        %c1 = arith.constant 1 : i32
        %k1 = arith.addi %kk, %c1 : i32
        qd.local_store %k1, %k : !qd.ptr<i32>
        %o = qd.local_load %v : !qd.ptr<f32>
        %a = arith.constant 0.999 : f32
        %b = arith.constant 0.001 : f32
        %m = arith.mulf %o, %a : f32
        %w = arith.addf %m, %b : f32
        qd.local_store %w, %v : !qd.ptr<f32>
      }}
      %res = qd.local_load %v : !qd.ptr<f32>
      qd.store %res, @y[%i] : f32
    }}
  }}
}}"#
    )
}

struct Config {
    label: &'static str,
    program: Program,
    /// CPU ms of each repetition.
    cpu: Vec<f64>,
    /// Wall ms of each repetition.
    wall: Vec<f64>,
}

fn program(workers: usize, scalar: bool, poll: bool, deadline: bool) -> Program {
    let mut ctx = qd_dialects::context();
    let module = parse_source(&mut ctx, &src(), "timeout_cost.mlir").expect("parses");
    let device = CpuDevice::with_threads(workers)
        .expect("cpu device")
        .with_cancel_checks(poll)
        .with_scalar_tasks(scalar);
    let mut p =
        Program::new(ctx, module, Box::new(device), ProgramConfig::default()).expect("program");
    if deadline {
        p.set_launch_timeout(Some(Duration::from_secs(3600)))
            .expect("the cpu device takes a deadline");
    }
    p
}

/// CPU time of this process (every thread), in ms: unlike wall time, it does not count the
/// time other processes take the shared cores.
fn cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime");
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// One launch and its sync: (CPU ms, wall ms).
fn launch(p: &mut Program, n: i32, spread: i32) -> (f64, f64) {
    let k = p.kernel("spin").expect("compiles");
    let args = [
        Arg::Scalar(Scalar::I32(n)),
        Arg::Scalar(Scalar::I32(spread)),
    ];
    let (c, t) = (cpu_ms(), Instant::now());
    p.launch(k, &args).expect("launch");
    p.sync().expect("runs");
    (cpu_ms() - c, t.elapsed().as_secs_f64() * 1e3)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    // `cargo bench` passes `--bench`; numbers are ours.
    let nums: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let reps = nums.first().copied().unwrap_or(21).max(1);
    let workers = nums.get(1).copied().unwrap_or(1).max(1);
    println!(
        "timeout_cost: cpu device, {workers} worker(s), {THREADS} threads, {reps} repetitions, \
         CPU and wall time per launch"
    );
    // (name, n, spread, scalar tasks): 10-100M loop iterations per launch.
    for (kernel, n, spread, scalar) in [
        ("uniform", 100_000, 0, false),
        ("divergent", 80_000, 10_000, false),
        ("uniform, scalar tasks", 10_000, 0, true),
    ] {
        let config = |label, poll, deadline| Config {
            label,
            program: program(workers, scalar, poll, deadline),
            cpu: Vec::new(),
            wall: Vec::new(),
        };
        let mut configs = [
            config("no poll", false, false),
            config("poll, no deadline", true, false),
            config("poll, deadline", true, true),
        ];
        // Compile and warm up; every configuration computes the same values.
        let mut first: Option<Vec<f64>> = None;
        for c in &mut configs {
            launch(&mut c.program, n, spread);
            let y = c.program.read_f64("y").expect("y");
            match &first {
                None => first = Some(y),
                Some(f) => assert_eq!(f, &y, "{}: results differ", c.label),
            }
        }
        // Interleaved, so that drifting load on the machine falls on every configuration.
        for _ in 0..reps {
            for c in &mut configs {
                let (cpu, wall) = launch(&mut c.program, n, spread);
                c.cpu.push(cpu);
                c.wall.push(wall);
            }
        }
        let base = median(configs[0].cpu.clone());
        println!("  {kernel}:");
        for c in &configs {
            let m = median(c.cpu.clone());
            let wall = median(c.wall.clone());
            // Each repetition against the `no poll` launch just before it: pairs share the
            // machine's state of the moment.
            let ratios: Vec<f64> = c
                .cpu
                .iter()
                .zip(&configs[0].cpu)
                .map(|(t, b)| t / b)
                .collect();
            println!(
                "    {:<18} CPU median {m:>7.2} ms (wall {wall:>7.2} ms)  overhead: of medians \
                 {:>+6.2}%, paired {:>+6.2}%",
                c.label,
                (m / base - 1.0) * 100.0,
                (median(ratios) - 1.0) * 100.0,
            );
        }
    }
}
