//! Adstack bounds against the peaks stacks really reach (issue #15, item 4): every kernel of the
//! gradient corpus (`examples/grad`, `examples/grad/peer`, and the shared `examples/*.mlir`
//! through their `.grad` sidecars, or [`SHARED_WITHOUT_SIDECAR`]'s inputs) runs through
//! `qd-run --grad --device interp --report-adstack --json` with the corpus's own inputs and seeds
//! (`corpus::command`); the interpreter measures each stack's peak, and every stack of every
//! launch must have `depth >= measured_peak` (never under).
//!
//! Where the kernel is a nest of counted loops with no branches, the bound must be exact:
//! `depth == measured_peak`. The rule, decided from the kernel's IR before differentiation
//! ([`counted_nest`]):
//! - the only ops with regions are `qd.range_for` and `qd.struct_for` (no `qd.if`, no
//!   `qd.while`), and there is no `qd.break` nor `qd.continue`;
//! - no trip count (a `qd.range_for`'s bounds) depends, through the ops that compute it, on an
//!   `arith.select` (a branch on a value) or on a `qd.local_load` (a value carried in a mutable
//!   local, e.g. across iterations). Fields, ndarray reads and shapes, scalar arguments, loop
//!   indices and integer arithmetic on them (min and max included) are counted trip counts.
//!
//! Files whose stacks are forced (`GRAD-AD-STACK-SIZE`) are skipped, with a count. The test
//! prints a table (file:kernel, launch, stack, bound, peak, bound/peak, whether it is exact by
//! the rule) sorted by kernel, and writes it to `adstack_exactness.txt` in the test's target
//! temporary directory.

use super::common::*;
use super::corpus::{command, corpus_files};
use qd_ir::{Context, OpId, ValueDef};
use std::collections::HashSet;
use std::fmt::Write;

/// The shared examples (`examples/*.mlir`) that no `.grad` sidecar of the corpus names, with the
/// inputs they run with here: the benchmark kernel of element-addressed differentiation, at the
/// benchmark's n = 4096 (benches/benches/element_ad.rs). Every other shared example must have a
/// sidecar (checked), so a new one is not silently left out.
const SHARED_WITHOUT_SIDECAR: &[(&str, &[&str])] = &[(
    "local_array_bench.mlir",
    &[
        "--kernel",
        "compute",
        "--set",
        "n=4096",
        "--set",
        "x=linspace(0,1)",
        "--grad",
        "y=1",
    ],
)];

/// One stack of one launch, as reported.
struct Row {
    /// `file:kernel` (the file name without its directory).
    kernel: String,
    launch: Option<u64>,
    stack: u64,
    depth: u64,
    peak: u64,
    /// Whether the kernel is a counted nest without branches ([`counted_nest`]), else why not.
    exact: Result<(), String>,
}

/// Why `kernel` is not a nest of counted loops without branches (see the module doc); Ok when it
/// is.
fn counted_nest(ctx: &Context, kernel: OpId) -> Result<(), String> {
    for op in ctx.walk_pre_order(kernel) {
        let name = ctx.name(op);
        match name {
            "qd.break" | "qd.continue" => return Err(name.to_string()),
            "qd.range_for" => {
                for v in ctx.operands(op) {
                    if let Some(bad) = trip_count_source(ctx, v) {
                        return Err(format!("trip count from {bad}"));
                    }
                }
            }
            _ if op == kernel || name == "qd.struct_for" => {}
            _ if !ctx.regions(op).is_empty() => return Err(name.to_string()),
            _ => {}
        }
    }
    Ok(())
}

/// The first op among those computing `v` that makes it no counted trip count (`arith.select`,
/// `qd.local_load`), if any.
fn trip_count_source(ctx: &Context, v: qd_ir::Value) -> Option<String> {
    let (mut todo, mut seen) = (vec![v], HashSet::new());
    while let Some(v) = todo.pop() {
        let ValueDef::OpResult { op, .. } = ctx.value_def(v) else {
            continue; // a block argument: a loop index or a kernel argument
        };
        if !seen.insert(op) {
            continue;
        }
        let name = ctx.name(op);
        if matches!(name, "arith.select" | "qd.local_load") {
            return Some(name.to_string());
        }
        todo.extend(ctx.operands(op));
    }
    None
}

/// The kernels' files and names of a corpus command (`FILE ... --kernel K ...`).
fn kernels_of(args: &[String]) -> (String, Vec<String>) {
    let kernels = args
        .windows(2)
        .filter(|w| w[0] == "--kernel")
        .map(|w| w[1].clone())
        .collect();
    (args[0].clone(), kernels)
}

/// For each kernel of `file`, whether it is a counted nest (by forward kernel name).
fn classify(file: &str, kernels: &[String]) -> Vec<(String, Result<(), String>)> {
    let src = std::fs::read_to_string(file).unwrap();
    let mut ctx = qd_dialects::context();
    let module = qd_ir::text::parse_source(&mut ctx, &src, file)
        .unwrap_or_else(|| panic!("{file}: {:?}", ctx.diagnostics()));
    kernels
        .iter()
        .map(|k| {
            let op = qd_runtime::pipeline::find_kernel(&ctx, module, k)
                .unwrap_or_else(|| panic!("{file}: no kernel @{k}"));
            (k.clone(), counted_nest(&ctx, op.0))
        })
        .collect()
}

/// Runs one corpus command on the interpreter with the adstack report; its rows.
fn rows_of(label: &str, args: &[String]) -> Vec<Row> {
    let (file, kernels) = kernels_of(args);
    let classes = classify(&file, &kernels);
    let mut argv: Vec<&str> = args.iter().map(String::as_str).collect();
    argv.extend(["--device", "interp", "--report-adstack", "--json"]);
    let o = qd_run(&argv);
    assert_eq!(o.code, 0, "{label}: qd-run {argv:?}:\n{}", o.stderr);
    let json: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let stacks = json["adstack"].as_array().expect("an adstack list");
    stacks
        .iter()
        .map(|s| {
            let kernel = s["kernel"].as_str().unwrap();
            let forward = kernel.strip_suffix("_grad").unwrap_or(kernel);
            let exact = classes
                .iter()
                .find(|(k, _)| k == forward)
                .map_or_else(|| Err(format!("no kernel @{forward}")), |(_, c)| c.clone());
            let peak = s["measured_peak"]
                .as_u64()
                .unwrap_or_else(|| panic!("{label}: no measured peak on interp: {s}"));
            Row {
                kernel: format!("{label}:{kernel}"),
                launch: s["launch"].as_u64(),
                stack: s["stack"].as_u64().unwrap(),
                depth: s["depth"].as_u64().unwrap(),
                peak,
                exact,
            }
        })
        .collect()
}

/// The table of `rows` (sorted by kernel, launch, stack).
fn table(rows: &[Row]) -> String {
    let mut out = format!(
        "{:<58} {:>6} {:>5} {:>7} {:>7} {:>10}  exact-by-rule\n",
        "kernel", "launch", "stack", "bound", "peak", "bound/peak"
    );
    for r in rows {
        let ratio = if r.peak == 0 {
            "-".to_string()
        } else {
            format!("{:.3}", r.depth as f64 / r.peak as f64)
        };
        let launch = r.launch.map_or("-".to_string(), |l| l.to_string());
        let exact = match &r.exact {
            Ok(()) => "yes".to_string(),
            Err(why) => format!("no ({why})"),
        };
        let _ = writeln!(
            out,
            "{:<58} {:>6} {:>5} {:>7} {:>7} {:>10}  {exact}",
            r.kernel, launch, r.stack, r.depth, r.peak, ratio
        );
    }
    out
}

#[test]
fn every_corpus_stack_is_sized_at_or_above_its_peak_and_counted_nests_exactly() {
    let (mut rows, mut forced, mut sources) = (Vec::new(), Vec::new(), HashSet::new());
    for path in corpus_files() {
        let c = command(&path);
        let label = path.file_name().unwrap().to_string_lossy().into_owned();
        sources.insert(std::fs::canonicalize(&c.args[0]).unwrap());
        if c.args.iter().any(|a| a == "--ad-stack-size") {
            forced.push(label);
            continue;
        }
        rows.extend(rows_of(&label, &c.args));
    }
    let examples = root().join("examples");
    for e in std::fs::read_dir(&examples).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".mlir") || sources.contains(&std::fs::canonicalize(&path).unwrap()) {
            continue;
        }
        let Some((_, inputs)) = SHARED_WITHOUT_SIDECAR.iter().find(|(n, _)| *n == name) else {
            panic!("examples/{name} has no .grad sidecar in examples/grad and no inputs here");
        };
        let mut args = vec![path.to_str().unwrap().to_string()];
        args.extend(inputs.iter().map(|a| a.to_string()));
        rows.extend(rows_of(&name, &args));
    }
    rows.sort_by(|a, b| (&a.kernel, a.launch, a.stack).cmp(&(&b.kernel, b.launch, b.stack)));
    let t = table(&rows);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("adstack_exactness.txt");
    std::fs::write(&path, &t).unwrap();
    eprintln!(
        "{t}{} stacks; {} files skipped for a forced size: {}\n(table: {})",
        rows.len(),
        forced.len(),
        if forced.is_empty() {
            "none".to_string()
        } else {
            forced.join(", ")
        },
        path.display()
    );
    assert!(rows.len() >= 50, "{} stacks measured", rows.len());
    assert!(
        rows.iter().any(|r| r.exact.is_ok()) && rows.iter().any(|r| r.exact.is_err()),
        "the rule separates nothing"
    );
    let under: Vec<String> = rows
        .iter()
        .filter(|r| r.depth < r.peak)
        .map(|r| {
            format!(
                "{} #{}: bound {} < peak {}",
                r.kernel, r.stack, r.depth, r.peak
            )
        })
        .collect();
    assert!(
        under.is_empty(),
        "sized under the peak:\n{}",
        under.join("\n")
    );
    let loose: Vec<String> = rows
        .iter()
        .filter(|r| r.exact.is_ok() && r.depth != r.peak)
        .map(|r| {
            format!(
                "{} #{}: bound {} != peak {}",
                r.kernel, r.stack, r.depth, r.peak
            )
        })
        .collect();
    assert!(
        loose.is_empty(),
        "counted nests without branches sized inexactly:\n{}",
        loose.join("\n")
    );
}

#[test]
fn the_rule_tells_counted_nests_from_branches_and_carried_trip_counts() {
    let src = r#"
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.kernel @nest() {
    %c0 = arith.constant 0 : i32
    %n = qd.load @n[] : i32
    qd.range_for %i = %c0 to %n : i32 {
      %m = arith.addi %i, %n : i32
      qd.range_for %j = %c0 to %m : i32 {
      }
    }
  }
  qd.kernel @selected() {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %n = qd.load @n[] : i32
    %lt = arith.cmpi slt, %n, %c4 : i32
    %m = arith.select %lt, %n, %c4 : i32
    qd.range_for %i = %c0 to %m : i32 {
    }
  }
  qd.kernel @branch() {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %n = qd.load @n[] : i32
    %lt = arith.cmpi slt, %n, %c4 : i32
    qd.range_for %i = %c0 to %c4 : i32 {
      qd.if %lt {
      }
    }
  }
}
"#;
    let mut ctx = qd_dialects::context();
    let module = qd_ir::text::parse_source(&mut ctx, src, "rule.mlir")
        .unwrap_or_else(|| panic!("{:?}", ctx.diagnostics()));
    let class = |k: &str| {
        let op = qd_runtime::pipeline::find_kernel(&ctx, module, k).unwrap();
        counted_nest(&ctx, op.0)
    };
    assert_eq!(class("nest"), Ok(()));
    assert_eq!(
        class("selected"),
        Err("trip count from arith.select".to_string())
    );
    assert_eq!(class("branch"), Err("qd.if".to_string()));
}
