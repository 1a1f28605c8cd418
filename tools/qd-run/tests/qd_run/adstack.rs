//! `--report-adstack` and the sizing of gradient kernels' adstacks: the report's text and JSON,
//! forced sizes, every example's gradient sized without `--ad-stack-size`, and, through the
//! library crates qd-run is made of, the evaluated depth against the most entries each stack
//! really held (never under; exact for examples/local_array.mlir, and 0 for the stack of
//! examples/dynamic_loop.mlir, which minimize-tape elides). The report runs on each device of
//! `EACH_DEVICE`; peaks only on the interpreter, the one device that keeps them: its report
//! shows each stack's peak and the ratio depth/peak, other devices `-` (null in the JSON).

use super::common::*;
use qd_interp::Interpreter;
use qd_ir::text::parse_source;
use qd_runtime::{Arg, DType, Ndarray, Program, ProgramConfig, Scalar};

fn main_job(extra: &[&str]) -> Out {
    let mut args = vec![
        "examples/dynamic_loop.mlir",
        "--kernel",
        "compute",
        "--set",
        "n=512",
        "--set",
        "x=linspace(0,1.5)",
        "--grad",
        "y=1",
        "--print",
        "y",
    ];
    args.extend_from_slice(extra);
    qd_run(&args)
}

/// examples/local_array.mlir with n = 40: one kept stack of n entries.
fn local_array(n: &str, extra: &[&str]) -> Out {
    let mut args = vec![
        "examples/local_array.mlir",
        "--kernel",
        "compute",
        "--set",
        n,
        "--grad",
        "y=1",
    ];
    args.extend_from_slice(extra);
    qd_run(&args)
}

/// The cells of the report's row that starts with `kernel` and `stack` (split on runs of two
/// spaces or more; a size expression has single spaces only).
fn row(stdout: &str, kernel: &str, stack: &str) -> Vec<String> {
    let line = stdout
        .lines()
        .find(|l| {
            let mut w = l.split_whitespace();
            w.next() == Some(kernel) && w.next() == Some(stack)
        })
        .unwrap_or_else(|| panic!("no row {kernel} {stack} in:\n{stdout}"));
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_report_gives_each_stack_its_exact_depth_and_memory() {
    // The report is the launch's plan: the same on every device.
    for device in EACH_DEVICE {
        let o = local_array("n=40", &["--report-adstack", "--device", device]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let lines: Vec<&str> = o.stdout.lines().collect();
        assert_eq!(
            lines[0],
            "adstack report (per thread, as sized for this launch):"
        );
        let header: Vec<&str> = lines[1].split_whitespace().collect();
        assert_eq!(
            header,
            [
                "kernel",
                "stack",
                "location",
                "type",
                "primal",
                "size_expr",
                "depth",
                "peak",
                "depth/peak",
                "bytes/thread"
            ]
        );
        // Every column starts where its header does.
        let at = |line: &str, cell: &str| line.find(cell).unwrap();
        let r = row(&o.stdout, "compute_grad", "#0");
        assert_eq!(r[2], "examples/local_array.mlir:18:14");
        assert_eq!(r[3], "f32");
        assert_eq!(r[4], "kept");
        // One entry per overwritten element: n.
        assert_eq!(r[6], "40");
        // Only the interpreter measures the peak: exactly the depth here.
        let measured = if *device == "interp" {
            ["40", "1.000"]
        } else {
            ["-", "-"]
        };
        assert_eq!(r[7..9], measured);
        // f32: primal and adjoint (8 bytes) per entry, and the 8-byte count.
        assert_eq!(r[9], "328");
        assert_eq!(at(lines[2], &r[2]), at(lines[1], "location"));
        assert_eq!(at(lines[2], &r[4]), at(lines[1], "primal"));
        assert_eq!(at(lines[2], &r[5]), at(lines[1], "size_expr"));
        assert_eq!(
            at(lines[2], " 40 ") + 3,
            at(lines[1], "depth") + "depth".len()
        );
        assert_eq!(
            row(&o.stdout, "compute_grad", "total"),
            ["compute_grad", "total", "328"]
        );
        assert_eq!(lines.len(), 4, "{}", o.stdout);
        // The size expression reads n at launch: another n, another depth.
        let o = local_array("n=7", &["--report-adstack", "--device", device]);
        assert_eq!(row(&o.stdout, "compute_grad", "#0")[6], "7");
    }
}

#[test]
fn the_main_job_reports_its_stack_as_elided() {
    // v = v*0.95 + 0.01 never needs v in reverse: minimize-tape keeps v in a local and its
    // adjoint in a register, and the stack takes nothing, on every device.
    for device in EACH_DEVICE {
        let o = main_job(&["--report-adstack", "--device", device]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(o.stdout.starts_with("y = 3.2"), "{}", o.stdout);
        let r = row(&o.stdout, "compute_grad", "#0");
        assert_eq!(
            r,
            [
                "compute_grad",
                "#0",
                "examples/dynamic_loop.mlir:15:12",
                "f32",
                "elided, adjoint in a register",
                "-",
                "0",
                // The interpreter measures that it held nothing: no ratio.
                if *device == "interp" { "0" } else { "-" },
                "-",
                "0"
            ]
        );
        assert_eq!(
            row(&o.stdout, "compute_grad", "total"),
            ["compute_grad", "total", "0"]
        );
    }
}

#[test]
fn the_json_report_is_the_adstack_key() {
    let o = main_job(&["--report-adstack", "--json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let start = o.stdout.find("\"adstack\": [").expect("an adstack key");
    let end = o
        .stdout
        .find("], \"timings_ms\"")
        .expect("the list ends before the timings");
    assert_eq!(
        &o.stdout[start..end],
        "\"adstack\": [{\"kernel\": \"compute_grad\", \"stack\": 0, \"loc\": \
         \"examples/dynamic_loop.mlir:15:12\", \"type\": \"f32\", \"primal_kept\": false, \
         \"size_expr\": null, \"depth\": 0, \"measured_peak\": null, \"ratio\": null, \
         \"bytes_per_thread\": 0}"
    );
    assert!(
        o.stdout.starts_with("{\"fields\": {\"y\": "),
        "{}",
        o.stdout
    );
    let o = local_array("n=40", &["--report-adstack", "--json"]);
    assert!(
        o.stdout.contains(
            "\"type\": \"f32\", \"primal_kept\": true, \"size_expr\": \"@n[]:i32 - 0\", \
             \"depth\": 40, \"measured_peak\": null, \"ratio\": null, \"bytes_per_thread\": 328}"
        ),
        "{}",
        o.stdout
    );
    // Without --report-adstack there is no such key.
    let o = main_job(&["--json"]);
    assert!(!o.stdout.contains("adstack"), "{}", o.stdout);
}

#[test]
fn a_forced_size_is_marked_in_the_report() {
    let o = local_array("n=40", &["--report-adstack", "--ad-stack-size", "600"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let r = row(&o.stdout, "compute_grad", "#0");
    assert_eq!(r[6], "600 (forced)");
    assert_eq!(r[9], (8 + 600 * 8).to_string());
    let o = local_array(
        "n=40",
        &["--report-adstack", "--ad-stack-size", "600", "--json"],
    );
    assert!(
        o.stdout.contains(
            "\"depth\": 600, \"measured_peak\": null, \"ratio\": null, \"bytes_per_thread\": 4808}"
        ),
        "{}",
        o.stdout
    );
    // A forced size does not apply to an elided stack: it has no entries to size.
    let o = main_job(&["--report-adstack", "--ad-stack-size", "600"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let r = row(&o.stdout, "compute_grad", "#0");
    assert_eq!((r[6].as_str(), r[9].as_str()), ("0", "0"));
}

#[test]
fn a_kernel_without_stacks_reports_none() {
    let o = qd_run(&[
        "examples/dynamic_loop.mlir",
        "--kernel",
        "compute",
        "--report-adstack",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout, "adstack report: no adstacks in @compute\n");
    let o = qd_run(&[
        "examples/dynamic_loop.mlir",
        "--kernel",
        "compute",
        "--report-adstack",
        "--json",
    ]);
    assert!(o.stdout.contains("\"adstack\": [], "), "{}", o.stdout);
}

/// Each example with inputs that make its adstacks work: (file, --set/--arg options, what to
/// print).
const EXAMPLES: &[(&str, &[&str])] = &[
    (
        "examples/dynamic_loop.mlir",
        &["--set", "n=512", "--set", "x=linspace(0,1.5)"],
    ),
    (
        "examples/triangular.mlir",
        &["--set", "m=12", "--set", "x=linspace(0.5,1.0)"],
    ),
    (
        "examples/ndarray_bound.mlir",
        &[
            "--arg",
            "a=0,3,7,1,12,5,0,9",
            "--set",
            "x=linspace(0.1,0.8)",
        ],
    ),
    (
        "examples/control_flow.mlir",
        &[
            "--arg",
            "w=0.5,-1,0.25,0.1",
            "--arg",
            "limit=2.0",
            "--set",
            "x=linspace(0,1.5)",
        ],
    ),
    (
        "examples/local_array.mlir",
        &["--set", "n=40", "--set", "x=linspace(0,1)"],
    ),
];

#[test]
fn every_example_runs_its_gradient_without_a_forced_size() {
    for (file, inputs) in EXAMPLES {
        for device in EACH_DEVICE {
            let mut args = vec![
                *file,
                "--kernel",
                "compute",
                "--grad",
                "y=1",
                "--report-adstack",
                "--device",
                device,
            ];
            args.extend_from_slice(inputs);
            let out = ok(&args);
            let r = row(&out, "compute_grad", "#0");
            // A kept stack is sized by its expression; an elided one has none and depth 0.
            if r[4] == "kept" {
                assert!(!r[5].is_empty() && r[5] != "-", "{file} on {device}: {out}");
                assert!(r[6].parse::<u64>().is_ok(), "{file} on {device}: {out}");
            } else {
                assert_eq!(r[4], "elided, adjoint in a register", "{file}: {out}");
                assert_eq!((r[5].as_str(), r[6].as_str()), ("-", "0"), "{file}: {out}");
            }
        }
    }
}

// ----- measured peaks in the report (the interpreter measures; other devices say "-") -------

/// The JSON report's stacks.
fn json_stacks(stdout: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(stdout).unwrap();
    v["adstack"].as_array().expect("an adstack list").clone()
}

#[test]
fn the_interpreter_shows_each_peak_and_the_ratio_of_the_bound_to_it() {
    // examples/triangular.mlir: a triangular nest; whatever its bound, the ratio shown is the
    // depth over the peak, in the text (three decimals) and in the JSON (the float).
    let tri = [
        "examples/triangular.mlir",
        "--kernel",
        "compute",
        "--set",
        "m=12",
    ];
    let tri_x = [
        "--set",
        "x=linspace(0.5,1.0)",
        "--grad",
        "y=1",
        "--device",
        "interp",
    ];
    let mut args: Vec<&str> = tri.iter().chain(&tri_x).copied().collect();
    args.push("--report-adstack");
    let out = ok(&args);
    let r = row(&out, "compute_grad", "#0");
    let (depth, peak): (u64, u64) = (r[6].parse().unwrap(), r[7].parse().unwrap());
    assert!(peak > 0 && depth >= peak, "{out}");
    assert_eq!(r[8], format!("{:.3}", depth as f64 / peak as f64), "{out}");
    args.push("--json");
    let stacks = json_stacks(&ok(&args));
    assert_eq!(stacks[0]["depth"], depth);
    assert_eq!(stacks[0]["measured_peak"], peak);
    assert_eq!(
        stacks[0]["ratio"].as_f64(),
        Some(depth as f64 / peak as f64)
    );
}

#[test]
fn a_stack_sized_exactly_shows_ratio_one() {
    // local_array: n entries, exactly what the stack holds; a size forced to n too, and one
    // forced larger shows how loose it is.
    for (forced, depth, ratio) in [
        (None, "40", "1.000"),
        (Some("40"), "40 (forced)", "1.000"),
        (Some("100"), "100 (forced)", "2.500"),
    ] {
        let mut extra = vec!["--report-adstack", "--device", "interp"];
        if let Some(n) = forced {
            extra.extend(["--ad-stack-size", n]);
        }
        let o = local_array("n=40", &extra);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let r = row(&o.stdout, "compute_grad", "#0");
        assert_eq!(r[6..9], [depth, "40", ratio], "{}", o.stdout);
    }
}

#[test]
fn the_json_report_has_the_peak_and_the_ratio_or_null() {
    let o = local_array(
        "n=40",
        &["--report-adstack", "--json", "--device", "interp"],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains(
            "\"depth\": 40, \"measured_peak\": 40, \"ratio\": 1.0, \"bytes_per_thread\": 328}"
        ),
        "{}",
        o.stdout
    );
    // Devices that do not measure say so: null, never a made-up value.
    for device in ["interp-lowered", "cpu"] {
        let o = local_array("n=40", &["--report-adstack", "--json", "--device", device]);
        assert_eq!(o.code, 0, "{device}: {}", o.stderr);
        let s = &json_stacks(&o.stdout)[0];
        assert_eq!(s["depth"], 40, "{device}");
        assert!(s["measured_peak"].is_null(), "{device}: {s}");
        assert!(s["ratio"].is_null(), "{device}: {s}");
        let o = local_array("n=40", &["--report-adstack", "--device", device]);
        assert_eq!(
            row(&o.stdout, "compute_grad", "#0")[7..9],
            ["-", "-"],
            "{device}"
        );
    }
}

// ----- evaluated depths against real peaks, through the library crates ------------------------

/// The module of `file` with the gradient of @compute made and sized as `qd-run --grad` does.
fn gradient_program(file: &str) -> Program {
    let path = root().join(file);
    let src = std::fs::read_to_string(&path).unwrap();
    let mut ctx = qd_dialects::context();
    let m = parse_source(&mut ctx, &src, file).unwrap();
    let reg = qd_passes::all_passes();
    let mut sizing = "qd.kernel(minimize-tape,determine-ad-stack-size".to_string();
    if reg.lookup("simplify-size-expr").is_some() {
        sizing.push_str(",simplify-size-expr");
    }
    let pipeline = format!("builtin.module(reverse-mode-ad{{kernels=compute}},{sizing}))");
    let mut pm = qd_pass::PassManager::parse(&reg, &pipeline).unwrap();
    if pm.run(&mut ctx, m).is_err() {
        panic!("{file}: {:?}", ctx.diagnostics());
    }
    Program::new(
        ctx,
        m,
        Box::new(Interpreter::new()),
        ProgramConfig::default(),
    )
    .unwrap()
}

fn linspace(a: f64, b: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| a + (b - a) * i as f64 / (n - 1) as f64)
        .collect()
}

/// Runs @compute then @compute_grad (y.grad = 1) and returns, per stack of the gradient kernel,
/// (evaluated depth, most entries held).
fn depths_and_peaks(p: &mut Program, args: &[Arg]) -> Vec<(u64, u64)> {
    let k = p.kernel("compute").unwrap();
    p.launch(k, args).unwrap();
    p.sync().unwrap();
    p.write_f64("y.grad", &[1.0]).unwrap();
    let g = p.gradient("compute").unwrap();
    let adjoints = p.launch_grad(&g, args).unwrap();
    if let Err(e) = p.sync() {
        panic!("{e:?}");
    }
    for (_, id) in adjoints {
        p.remove_ndarray(id).unwrap();
    }
    let plan = p.last_adstack_plan(g.kernel).unwrap();
    assert!(plan.stacks.iter().all(|s| !s.inferred), "{plan:?}");
    let peaks = p.adstack_peaks(g.kernel).unwrap();
    plan.stacks.iter().map(|s| s.depth).zip(peaks).collect()
}

/// Checks that no stack held more than its depth; returns the pairs for the caller's checks.
fn never_under(what: &str, pairs: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    assert!(!pairs.is_empty(), "{what}: no stacks");
    for &(depth, peak) in &pairs {
        assert!(
            peak <= depth,
            "{what}: a stack held {peak} > its depth {depth}"
        );
    }
    eprintln!("{what}: (depth, peak) per stack = {pairs:?}");
    pairs
}

#[test]
fn kept_stacks_are_sized_exactly_and_elided_ones_hold_nothing() {
    // local_array: one entry per overwritten element, n of them: the bound is the peak.
    let mut p = gradient_program("examples/local_array.mlir");
    p.write_f64("x", &linspace(0.0, 1.0, 40)).unwrap();
    for n in [0, 1, 7, 40, 200] {
        p.write_f64("n", &[n as f64]).unwrap();
        let pairs = never_under(&format!("local_array n={n}"), depths_and_peaks(&mut p, &[]));
        assert_eq!(pairs, [(n, n)]);
    }
    // dynamic_loop: the stack is elided (depth 0) and never holds an entry.
    let mut p = gradient_program("examples/dynamic_loop.mlir");
    p.write_f64("x", &linspace(0.0, 1.5, 16)).unwrap();
    for n in [0, 7, 512] {
        p.write_f64("n", &[n as f64]).unwrap();
        let pairs = never_under(
            &format!("dynamic_loop n={n}"),
            depths_and_peaks(&mut p, &[]),
        );
        assert_eq!(pairs, [(0, 0)]);
    }
}

#[test]
fn every_example_is_sized_at_or_above_its_real_peak() {
    let mut p = gradient_program("examples/triangular.mlir");
    p.write_f64("x", &linspace(0.5, 1.0, 4)).unwrap();
    for m in [0, 1, 5, 12] {
        p.write_f64("m", &[m as f64]).unwrap();
        never_under(&format!("triangular m={m}"), depths_and_peaks(&mut p, &[]));
    }

    let mut p = gradient_program("examples/ndarray_bound.mlir");
    p.write_f64("x", &linspace(0.1, 0.8, 8)).unwrap();
    for a in [
        [0.0, 3.0, 7.0, 1.0, 12.0, 5.0, 0.0, 9.0],
        [0.0; 8],
        [40.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
    ] {
        let id = p.add_ndarray(Ndarray::from_f64(DType::I32, &[8], &a).unwrap());
        never_under(
            &format!("ndarray_bound a={a:?}"),
            depths_and_peaks(&mut p, &[Arg::Ndarray(id)]),
        );
    }

    let mut p = gradient_program("examples/control_flow.mlir");
    p.write_f64("x", &linspace(0.0, 1.5, 6)).unwrap();
    for w in [
        vec![0.5, -1.0, 0.25, 0.1],
        vec![],
        vec![2.0; 9],
        vec![-0.5; 3],
    ] {
        let id = p.add_ndarray(Ndarray::from_f64(DType::F32, &[w.len()], &w).unwrap());
        let limit = Arg::Scalar(Scalar::F32(2.0));
        never_under(
            &format!("control_flow w={w:?}"),
            depths_and_peaks(&mut p, &[Arg::Ndarray(id), limit]),
        );
    }

    let mut p = gradient_program("examples/local_array.mlir");
    p.write_f64("x", &linspace(0.0, 1.0, 40)).unwrap();
    for n in [0, 13, 40] {
        p.write_f64("n", &[n as f64]).unwrap();
        never_under(&format!("local_array n={n}"), depths_and_peaks(&mut p, &[]));
    }
}
