//! Elementwise fusion (issue #18), side by side in one run on the `cpu` device:
//!
//! - a 6-op chain on 2^24 f32 (`sigmoid(relu(x * w + 0.5) - x * 0.25)`), fused (one kernel) vs
//!   unfused (one kernel per op), forward and forward+backward: median time, the bytes the
//!   kernels must move, and that as a percentage of the memcpy bandwidth measured in this run
//!   (copying 2^24 f32 with as many threads as the cpu device runs, the faster of glibc's memcpy
//!   and a copy with non-temporal stores): every round of a row times
//!   a memcpy and then the row's kernels, each as the second of two runs in a row (a run pays
//!   for the dirty lines of the one before it), and the row's percentage is the median over
//!   its rounds, so a host whose bandwidth drifts cannot move it; inputs and seeds are set
//!   once before the rounds (`bind`, `set_seeds`), as a training step's arrays would already
//!   be where the kernels read them;
//! - the same chain in NumPy (python3 as a subprocess), the baseline a user would write;
//! - the weighted BCE + weighted smooth-L1 detection loss on 2^22 elements, fused vs unfused;
//! - the cost of a cache hit (a call's shapes to its compiled executable);
//! - a copy kernel (x + 0) on the same device: the floor any kernel of the device has;
//! - the fused chain again with approximate functions allowed (`Jit::approx_functions`,
//!   fuse-elementwise's `approx-functions`: `fastmath<afn>` on the kernels' math ops, so f32 exp
//!   is computed in f32 arithmetic, within `qd_llvm::AFN_MAX_ULP` instead of 0.5 ulp); the
//!   header gives the bound and the fused chain's measured error either way.
//!
//! `cargo bench -p qd-benches --bench fusion` (QD_FUSION_LOG2=20 for a quick run; QD_FUSION_CASES=
//! chain,copy runs only those groups of rows, to profile them; chain has the afn rows too, exact
//! and afn have the fused chain's rows without or with afn alone). Prints a table.

use qd_benches::bandwidth::{second_of_two, Memcpy};
use qd_jit::{jit_compile, Executable, Graph, Jit, Operand, Sym};
use qd_runtime::{DType, Ndarray};
use std::time::{Duration, Instant};

const REPS: usize = 9;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// `reps` rounds of memcpy then `f`, each timed as the second of two: the median time of `f`,
/// and the median over rounds of `bytes` per second of `f` as a fraction of the same round's
/// memcpy bandwidth. Pairing each run with a memcpy timed beside it keeps a host whose
/// bandwidth drifts (a shared machine) from moving the ratio.
fn measure(reps: usize, mc: &mut Memcpy, bytes: f64, f: &mut dyn FnMut()) -> (Duration, f64) {
    let mut times = Vec::with_capacity(reps);
    let mut ratios = Vec::with_capacity(reps);
    for _ in 0..reps {
        let bw = mc.bandwidth();
        let t = second_of_two(f);
        times.push(t);
        ratios.push(bytes / t.as_secs_f64() / bw);
    }
    ratios.sort_by(f64::total_cmp);
    (median(times), ratios[reps / 2])
}

fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect()
}

fn arr(n: usize, seed: u64) -> Ndarray {
    Ndarray::from_f64(DType::F32, &[n], &values(n, seed)).unwrap()
}

/// sigmoid(relu(x * w + 0.5) - x * 0.25): mul, add, relu, mul, sub, sigmoid.
fn chain(n: usize) -> Graph {
    let mut g = Graph::new();
    let x = g.input(&[n], DType::F32);
    let w = g.input(&[n], DType::F32);
    let a = g.apply("mul", &[x.into(), w.into()]);
    let b = g.apply("add", &[a.into(), Operand::Scalar(0.5)]);
    let c = g.apply("relu", &[b.into()]);
    let d = g.apply("mul", &[x.into(), Operand::Scalar(0.25)]);
    let e = g.apply("sub", &[c.into(), d.into()]);
    let f = g.apply("sigmoid", &[e.into()]);
    g.output(f);
    g
}

/// The detection loss (qd_jit::losses, the form the fused pattern recognises).
fn detection_loss(n: usize) -> Graph {
    let mut g = Graph::new();
    let ins: Vec<Sym> = (0..4).map(|_| g.input(&[n], DType::F32)).collect();
    let l = qd_jit::losses::detection_loss(&mut g, ins[0], ins[1], ins[2], ins[3]);
    g.output(l);
    g
}

struct Row {
    what: String,
    time: Duration,
    bytes: f64,
    /// Bytes per second as a fraction of memcpy's: the median over rounds paired with a memcpy,
    /// or None for a row timed elsewhere (NumPy), which is set against the run's median memcpy.
    of_memcpy: Option<f64>,
}

fn run(
    what: impl Into<String>,
    e: &mut Executable,
    inputs: Vec<Ndarray>,
    backward: bool,
    bytes: f64,
    mc: &mut Memcpy,
) -> Row {
    let seeds: Vec<Ndarray> = e
        .plan
        .outputs
        .iter()
        .map(|&s| {
            let (shape, _) = &e.plan.slots[s];
            let n = shape.iter().product();
            Ndarray::from_f64(DType::F32, shape, &vec![1.0; n]).unwrap()
        })
        .collect();
    let mut b = e.bind(inputs).unwrap();
    // The seeds are set once, as `bind` copies the inputs once: the timed loop is the kernels'
    // work, not copies of the caller's arrays (a one-kernel fused chain reads its seeds in place).
    e.set_seeds(&mut b, &seeds).unwrap();
    let (time, ratio) = measure(REPS, mc, bytes, &mut || {
        e.forward(&b).unwrap();
        if backward {
            e.backward_seeded(&mut b).unwrap();
        }
    });
    e.release(b);
    Row {
        what: what.into(),
        time,
        bytes,
        of_memcpy: Some(ratio),
    }
}

/// The largest error, in ulps of f32, of the chain's output (executable `e` on the bench's
/// inputs) against the chain computed in f64 from the same f32 inputs.
fn chain_max_ulp(e: &mut Executable, n: usize) -> f64 {
    let (x, w) = (arr(n, 1).to_f64_vec(), arr(n, 2).to_f64_vec());
    let out = e.run(vec![arr(n, 1), arr(n, 2)]).unwrap()[0].to_f64_vec();
    let mut worst = 0f64;
    for ((&x, &w), &y) in x.iter().zip(&w).zip(&out) {
        let f32r = |v: f64| f64::from(v as f32);
        // Each op of the chain rounds to f32 as the kernel does, but sigmoid, exact in f64.
        let a = f32r(f32r(f32r(x * w) + 0.5).max(0.0) - f32r(x * 0.25));
        let want = 1.0 / (1.0 + (-a).exp());
        let ulp = 2f64.powi(((want.to_bits() >> 52) as i32 - 1023).max(-126) - 23);
        worst = worst.max((y - want).abs() / ulp);
    }
    worst
}

fn numpy_ms(n: usize) -> Option<f64> {
    let script = format!(
        r#"
import numpy as np, time
n = {n}
rng = np.random.default_rng(0)
x = rng.uniform(-1, 1, n).astype(np.float32)
w = rng.uniform(-1, 1, n).astype(np.float32)
def f(x, w):
    return 1.0 / (1.0 + np.exp(-(np.maximum(x * w + np.float32(0.5), np.float32(0)) - x * np.float32(0.25))))
f(x, w)
ts = []
for _ in range({REPS}):
    t = time.perf_counter(); f(x, w); ts.append(time.perf_counter() - t)
ts.sort()
print(ts[len(ts) // 2] * 1e3)
"#
    );
    let out = std::process::Command::new("python3")
        .args(["-c", &script])
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!("numpy: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

fn main() {
    let log2: u32 = std::env::var("QD_FUSION_LOG2")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let n = 1usize << log2;
    let nl = n >> 2; // the loss: 2^22 at the default size
    let threads = std::thread::available_parallelism().map_or(1, |p| p.get());
    // QD_FUSION_CASES=chain,copy,... runs those groups of rows only (chain, unfused, copy,
    // numpy, loss; the cache hit always), to profile one.
    let cases = std::env::var("QD_FUSION_CASES").ok();
    let want = |c: &str| {
        cases
            .as_deref()
            .is_none_or(|l| l.split(',').any(|x| x == c))
    };
    // Every timed kernel run is paired with a memcpy timed just before it (`measure`).
    let mut mc = Memcpy::new(n, threads);
    let f32b = 4.0 * n as f64;
    let mut rows = Vec::new();

    let g = chain(n);
    let mut approx = Jit::new("cpu").unwrap().approx_functions();
    // The fused chain's error against the chain in f64, in ulps of f32 (exact, then with afn).
    let mut ulps: Vec<f64> = Vec::new();
    let mut fused = Jit::new("cpu").unwrap();
    let mut unfused = Jit::new("cpu").unwrap().unfused();
    let ins = || vec![arr(n, 1), arr(n, 2)];
    if want("chain") || want("exact") {
        let e = fused.compile(&g).unwrap();
        rows.push(run(
            "chain fwd, fused",
            e,
            ins(),
            false,
            3.0 * f32b,
            &mut mc,
        ));
        // fwd (x, w read, y written) + bwd (x, w, dy read, dx, dw written).
        rows.push(run(
            "chain fwd+bwd, fused",
            e,
            ins(),
            true,
            8.0 * f32b,
            &mut mc,
        ));
    }
    if want("chain") {
        for jit in [&mut fused, &mut approx] {
            ulps.push(chain_max_ulp(jit.compile(&g).unwrap(), n));
        }
    }
    if want("chain") || want("afn") {
        let e = approx.compile(&g).unwrap();
        rows.push(run(
            "chain fwd, fused, afn",
            e,
            ins(),
            false,
            3.0 * f32b,
            &mut mc,
        ));
        rows.push(run(
            "chain fwd+bwd, fused, afn",
            e,
            ins(),
            true,
            8.0 * f32b,
            &mut mc,
        ));
    }
    if want("unfused") {
        let e = unfused.compile(&g).unwrap();
        // mul 3, add 2, relu 2, mul 2, sub 3, sigmoid 2 arrays.
        rows.push(run(
            "chain fwd, unfused (6 kernels)",
            e,
            ins(),
            false,
            14.0 * f32b,
            &mut mc,
        ));
        rows.push(run(
            "chain fwd+bwd, unfused",
            e,
            ins(),
            true,
            14.0 * f32b + 8.0 * f32b,
            &mut mc,
        ));
    }
    if want("copy") {
        // The device's own floor: a kernel that only copies (x + 0: one load, one store).
        let mut c = Graph::new();
        let x = c.input(&[n], DType::F32);
        let y = c.apply("add", &[x.into(), Operand::Scalar(0.0)]);
        c.output(y);
        let e = fused.compile(&c).unwrap();
        rows.push(run(
            "copy kernel (x + 0), the device floor",
            e,
            vec![arr(n, 3)],
            false,
            2.0 * f32b,
            &mut mc,
        ));
    }
    match want("numpy").then(|| numpy_ms(n)) {
        Some(Some(ms)) => rows.push(Row {
            what: "chain fwd, NumPy".into(),
            time: Duration::from_secs_f64(ms / 1e3),
            bytes: 3.0 * f32b,
            of_memcpy: None,
        }),
        Some(None) => println!("(NumPy not available: pip install numpy)"),
        None => {}
    }
    let lg = detection_loss(nl);
    let lins = || (0..4).map(|k| arr(nl, 10 + k)).collect::<Vec<_>>();
    let lb = 4.0 * nl as f64;
    let mut generic = Jit::new("cpu").unwrap().without_patterns();
    for (label, jit) in [
        ("fused, pattern", &mut fused),
        ("fused, generic", &mut generic),
        ("unfused", &mut unfused),
    ] {
        if !want("loss") {
            break;
        }
        let e = jit.compile(&lg).unwrap();
        let steps = e.plan.steps.len();
        // fwd: 4 inputs read; bwd: 4 inputs read, 4 gradients written (the least any kernel
        // must move).
        let what = format!("loss fwd, {label} ({steps} kernels)");
        rows.push(run(what, e, lins(), false, 4.0 * lb, &mut mc));
        rows.push(run(
            format!("loss fwd+bwd, {label}"),
            e,
            lins(),
            true,
            12.0 * lb,
            &mut mc,
        ));
    }
    // Cache hit: a call's shapes to its executable (trace and compile skipped).
    let mut f = jit_compile(Jit::new("cpu").unwrap(), |[x, w]| {
        ((x * w + 0.5).relu() - x * 0.25).sigmoid()
    });
    let sig = vec![(vec![1024usize], DType::F32), (vec![1024usize], DType::F32)];
    f.executable(&sig).unwrap();
    let k = 100_000;
    let t = Instant::now();
    for _ in 0..k {
        std::hint::black_box(f.executable(&sig).unwrap());
    }
    let hit = t.elapsed() / k as u32;

    let bw = mc.median_bandwidth();
    println!(
        "\nfusion bench: n = 2^{log2} f32 (loss: 2^{}), cpu device, {threads} threads",
        log2 - 2
    );
    println!(
        "memcpy bandwidth (this run, {} rounds, each the faster of glibc memcpy and a \
         non-temporal copy, timed as the second of two): median {:.2} GB/s; \
         % memcpy is the median over a row's rounds of its bandwidth against the memcpy timed \
         just before it in the same round\n",
        mc.samples.len(),
        bw / 1e9
    );
    println!(
        "afn (approximate functions, the rows marked afn): f32 exp within {} ulp of the exact \
         value (0.5 without){}\n",
        qd_llvm::AFN_MAX_ULP,
        match ulps[..] {
            [exact, afn] => format!(
                "; the fused chain's output measured: {exact:.2} ulp at most, {afn:.2} with afn"
            ),
            _ => String::new(),
        }
    );
    println!(
        "| {:<34} | {:>10} | {:>10} | {:>10} | {:>9} |",
        "case", "time (ms)", "MB moved", "GB/s", "% memcpy"
    );
    println!(
        "|{:-<36}|{:->12}|{:->12}|{:->12}|{:->11}|",
        "", "", "", "", ""
    );
    for r in &rows {
        let gbs = r.bytes / r.time.as_secs_f64() / 1e9;
        println!(
            "| {:<34} | {:>10.3} | {:>10.1} | {:>10.2} | {:>8.1}% |",
            r.what,
            r.time.as_secs_f64() * 1e3,
            r.bytes / 1e6,
            gbs,
            100.0 * r.of_memcpy.unwrap_or(gbs * 1e9 / bw)
        );
    }
    println!(
        "\ncache hit (shapes -> compiled executable): {:.3} us per call",
        hit.as_secs_f64() * 1e6
    );
    println!(
        "cache: {} misses, {} hits, compile {:.1} ms",
        f.stats().misses,
        f.stats().hits,
        f.stats().compile_time.as_secs_f64() * 1e3
    );
}
