//! How each pass scales with the kernel: generated differentiable kernels (long chains, wide
//! bodies, loop nests, many locals, many fields, many kernels, hoisted loads;
//! `qd_benches::pass_scaling`) of
//! each size, timed step by step (parse, verify, then the cleanup passes and the gradient
//! pipeline with its lowering). Prints the time, the time per op, and the log-log slope between
//! consecutive sizes (1.0 is linear).
//!
//! `cargo bench -p qd-benches --bench pass_scaling -- [--sizes 10k,100k,1m]
//! [--shapes chain,wide,loops,locals,fields,kernels,hoisted] [--limit SECONDS] [--repeat N]`
//!
//! Times are CPU seconds of the process (the machine is shared: wall time would count other
//! processes), the fastest of `--repeat` runs (default 3) for sizes below 1M ops.
//!
//! Each (shape, size, chain) runs in a child process (this binary with `--child`), which reports
//! each step as it ends; a step that runs past the limit (default 60 s) is killed and shown as
//! `> limit`, and the steps after it, which need its output, as `-`. So the benchmark always
//! finishes. `--emit SHAPE SIZE` prints a generated module instead (for qd-opt or a profiler).

use qd_benches::pass_scaling::{run_chain, Chain, Shape, SHAPES};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The outcome of one step.
#[derive(Clone, Copy, Debug)]
enum Step {
    Secs(f64),
    OverLimit,
    Failed,
    NotRun,
}

fn parse_size(s: &str) -> Option<usize> {
    let s = s.trim().to_ascii_lowercase();
    let (num, mul) = if let Some(n) = s.strip_suffix('k') {
        (n, 1_000)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 1_000_000)
    } else {
        (s.as_str(), 1)
    };
    num.parse::<usize>().ok().map(|n| n * mul)
}

fn usage(msg: &str) -> ! {
    eprintln!(
        "pass_scaling: {msg}\nusage: pass_scaling [--sizes 10k,100k,1m] \
         [--shapes chain,wide,loops,locals,fields,kernels,hoisted] [--limit SECONDS] [--repeat N]"
    );
    std::process::exit(2)
}

/// The child: runs one chain and prints `start STEP`, then `done STEP SECONDS`, per step.
fn child(shape: &str, size: &str, chain: &str, repeat: usize) -> ! {
    let shape = Shape::from_name(shape).unwrap_or_else(|| usage("bad --child shape"));
    let n = parse_size(size).unwrap_or_else(|| usage("bad --child size"));
    let chain = Chain::from_name(chain).unwrap_or_else(|| usage("bad --child chain"));
    let text = shape.module(n);
    let out = std::io::stdout();
    let start = |step: &str| {
        let mut o = out.lock();
        let _ = writeln!(o, "start {step}");
        let _ = o.flush();
    };
    let mut steps = vec!["parse", "verify"];
    steps.extend(chain.passes().iter().map(|p| p.0));
    let mut result = Ok(());
    for _ in 0..repeat.max(1) {
        start("parse");
        let mut next = 0;
        result = run_chain(&text, chain, |step, v| {
            let mut o = out.lock();
            let _ = writeln!(o, "done {step} {v}");
            if step != "ops" {
                next += 1;
                if let Some(s) = steps.get(next) {
                    let _ = writeln!(o, "start {s}");
                }
            }
            let _ = o.flush();
        });
        if result.is_err() {
            break;
        }
    }
    match result {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            println!("failed {e}");
            std::process::exit(1)
        }
    }
}

/// Runs one chain in a child; returns the ops of the kernel and each step's outcome.
fn run_child(
    shape: Shape,
    n: usize,
    chain: Chain,
    limit: Duration,
    repeat: usize,
) -> (usize, Vec<(String, Step)>) {
    let exe = std::env::current_exe().expect("the benchmark's own path");
    let mut proc = Command::new(exe)
        .args([
            "--child",
            shape.name(),
            &n.to_string(),
            chain.name(),
            &repeat.to_string(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the benchmark runs itself");
    let stdout = proc.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut ops = 0;
    let mut steps: Vec<(String, Step)> = Vec::new();
    let mut running: Option<String> = None;
    loop {
        match rx.recv_timeout(limit) {
            Ok(line) => {
                let mut words = line.splitn(3, ' ');
                match (words.next(), words.next(), words.next()) {
                    (Some("start"), Some(step), _) => running = Some(step.to_string()),
                    (Some("done"), Some("ops"), Some(v)) => {
                        ops = v.parse::<f64>().unwrap_or(0.0) as usize
                    }
                    (Some("done"), Some(step), Some(v)) => {
                        steps.push((step.to_string(), Step::Secs(v.parse().unwrap_or(f64::NAN))));
                        running = None;
                    }
                    _ => {
                        eprintln!("{} {n} {}: {line}", shape.name(), chain.name());
                        if let Some(step) = running.take() {
                            steps.push((step, Step::Failed));
                        }
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = proc.kill();
                if let Some(step) = running.take() {
                    steps.push((step, Step::OverLimit));
                }
                break;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let status = proc.wait();
    if let Some(step) = running {
        // The child died inside a step (a crash, or out of memory).
        eprintln!(
            "{} {n} {}: child ended in {step}: {status:?}",
            shape.name(),
            chain.name()
        );
        steps.push((step, Step::Failed));
    }
    (ops, steps)
}

fn fmt_secs(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.0} us", s * 1e6)
    }
}

fn main() {
    let mut sizes = vec![10_000, 100_000, 1_000_000];
    let mut shapes = SHAPES.to_vec();
    let mut limit = Duration::from_secs(60);
    let mut repeat = 3;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--child" => {
                let (s, n, c, r) = (args.next(), args.next(), args.next(), args.next());
                match (s, n, c, r.and_then(|r| r.parse().ok())) {
                    (Some(s), Some(n), Some(c), Some(r)) => child(&s, &n, &c, r),
                    _ => usage("--child SHAPE SIZE CHAIN REPEAT"),
                }
            }
            // The generated module, to run qd-opt (or a profiler) on.
            "--emit" => match (args.next(), args.next()) {
                (Some(s), Some(n)) => {
                    let shape = Shape::from_name(&s).unwrap_or_else(|| usage("bad --emit shape"));
                    let n = parse_size(&n).unwrap_or_else(|| usage("bad --emit size"));
                    print!("{}", shape.module(n));
                    return;
                }
                _ => usage("--emit SHAPE SIZE"),
            },
            "--sizes" => {
                let v = args.next().unwrap_or_else(|| usage("--sizes needs a list"));
                sizes = v
                    .split(',')
                    .map(|s| parse_size(s).unwrap_or_else(|| usage(&format!("bad size '{s}'"))))
                    .collect();
            }
            "--shapes" => {
                let v = args
                    .next()
                    .unwrap_or_else(|| usage("--shapes needs a list"));
                shapes = v
                    .split(',')
                    .map(|s| {
                        Shape::from_name(s).unwrap_or_else(|| usage(&format!("bad shape '{s}'")))
                    })
                    .collect();
            }
            "--repeat" => {
                let v = args
                    .next()
                    .unwrap_or_else(|| usage("--repeat needs a count"));
                repeat = v.parse().unwrap_or_else(|_| usage("bad --repeat"));
            }
            "--limit" => {
                let v = args
                    .next()
                    .unwrap_or_else(|| usage("--limit needs seconds"));
                let secs: f64 = v.parse().unwrap_or_else(|_| usage("bad --limit"));
                limit = Duration::from_secs_f64(secs);
            }
            // cargo bench passes --bench to every bench binary.
            "--bench" => {}
            other => usage(&format!("unknown argument '{other}'")),
        }
    }
    println!(
        "pass_scaling: sizes {sizes:?}, limit {} s per step; times are CPU seconds, the fastest \
         of {repeat} runs below 1M ops; slope = log(t2/t1)/log(n2/n1) between consecutive sizes",
        limit.as_secs_f64()
    );
    let mut worst: HashMap<String, f64> = HashMap::new();
    // The same between the two largest sizes only: at the smallest size a kernel's IR may fit in
    // the caches, so the first slope may show the memory hierarchy rather than the algorithm.
    let mut worst_last: HashMap<String, f64> = HashMap::new();
    for &shape in &shapes {
        // (step -> outcome) and ops per size.
        let mut by_size: Vec<(usize, HashMap<String, Step>)> = Vec::new();
        let mut order: Vec<String> = Vec::new();
        for &n in &sizes {
            let mut outcomes = HashMap::new();
            let mut ops = n;
            for chain in [Chain::Cleanup, Chain::Gradient] {
                // Sizes of 1M ops and more run once: each run takes seconds, noise is small.
                let reps = if n >= 1_000_000 { 1 } else { repeat };
                let (o, steps) = run_child(shape, n, chain, limit, reps);
                if o > 0 {
                    ops = o;
                }
                let mut names = vec!["parse".to_string(), "verify".to_string()];
                names.extend(chain.passes().iter().map(|p| p.0.to_string()));
                for name in names {
                    // The fastest run; a run past the limit or failed counts over any time.
                    let step = steps.iter().filter(|(s, _)| *s == name).fold(
                        Step::NotRun,
                        |acc, (_, s)| match (acc, *s) {
                            (Step::NotRun, s) => s,
                            (Step::Secs(a), Step::Secs(b)) => Step::Secs(a.min(b)),
                            (Step::Secs(_), s) => s,
                            (acc, _) => acc,
                        },
                    );
                    // parse and verify run in both chains: keep the faster (the same work).
                    let keep = match (outcomes.get(&name), step) {
                        (Some(Step::Secs(a)), Step::Secs(b)) => Step::Secs(f64::min(*a, b)),
                        (Some(&old), Step::NotRun) => old,
                        _ => step,
                    };
                    outcomes.insert(name.clone(), keep);
                    if !order.contains(&name) {
                        order.push(name);
                    }
                }
            }
            by_size.push((ops, outcomes));
        }
        println!(
            "\n{} ({} ops):",
            shape.name(),
            by_size
                .iter()
                .map(|(o, _)| o.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut header = format!("  {:<26}", "step");
        for (i, (ops, _)) in by_size.iter().enumerate() {
            header += &format!(" {:>10} {:>9}", format!("t@{ops}"), "us/op");
            if i + 1 < by_size.len() {
                header += &format!(" {:>6}", "slope");
            }
        }
        println!("{header}");
        for name in &order {
            let mut row = format!("  {name:<26}");
            for (i, (ops, outcomes)) in by_size.iter().enumerate() {
                let cell = match outcomes.get(name).copied().unwrap_or(Step::NotRun) {
                    Step::Secs(s) => format!(" {:>10} {:>9.3}", fmt_secs(s), s * 1e6 / *ops as f64),
                    Step::OverLimit => {
                        format!(" {:>10} {:>9}", format!("> {}s", limit.as_secs()), "-")
                    }
                    Step::Failed => format!(" {:>10} {:>9}", "FAILED", "-"),
                    Step::NotRun => format!(" {:>10} {:>9}", "-", "-"),
                };
                row += &cell;
                if let Some((ops2, next)) = by_size.get(i + 1) {
                    let slope = match (outcomes.get(name), next.get(name)) {
                        (Some(Step::Secs(a)), Some(Step::Secs(b))) if *a > 0.0 && *b > 0.0 => {
                            let s = (b / a).ln() / (*ops2 as f64 / *ops as f64).ln();
                            let w = worst.entry(name.clone()).or_insert(f64::MIN);
                            // Slopes between sub-millisecond times are noise.
                            if *b >= 0.01 {
                                *w = w.max(s);
                                if i + 2 == by_size.len() {
                                    let l = worst_last.entry(name.clone()).or_insert(f64::MIN);
                                    *l = l.max(s);
                                }
                            }
                            format!("{s:.2}")
                        }
                        (Some(Step::Secs(_)), Some(Step::OverLimit)) => "> 2".to_string(),
                        _ => "-".to_string(),
                    };
                    row += &format!(" {slope:>6}");
                }
            }
            println!("{row}");
        }
    }
    let mut w: Vec<_> = worst.into_iter().filter(|(_, s)| *s > f64::MIN).collect();
    w.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!(
        "\nworst slope per step (over shapes, where the larger time is >= 10 ms), and between the \
         two largest sizes only:"
    );
    for (name, s) in w {
        let last = worst_last
            .get(&name)
            .filter(|l| **l > f64::MIN)
            .map(|l| format!("{l:.2}"))
            .unwrap_or_else(|| "-".into());
        println!(
            "  {name:<26} {s:.2}{:<8} {last:>6}{}",
            if s > 1.15 { "  > 1.15" } else { "" },
            if last.parse::<f64>().is_ok_and(|l| l > 1.15) {
                "  > 1.15"
            } else {
                ""
            }
        );
    }
}
