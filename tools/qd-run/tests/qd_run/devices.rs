//! Every device computes exactly what the reference interpreter computes. Each case (every kernel
//! of the gradient corpus `examples/grad`, with its directives, and the shared examples through
//! their `.grad` sidecars) runs through qd-run on every device of [`DEVICES`]: forward alone,
//! then forward and gradient, then forward and gradient with shuffled threads, then with every
//! adstack forced too small; every field and every adjoint is printed. Each device's exit status,
//! stdout and stderr must be those of the first device (`interp`, the qd level): errors (an
//! overflow, an out-of-bounds index) alike, with the same message and location, and every value
//! bit for bit.
//!
//! qd-run prints floats in their shortest round-trip form for their own type (f32 as f32), which
//! is one-to-one on non-NaN values: two f32 (or f64) values have the same bits exactly when they
//! print the same, and so when the printed numbers, parsed as f64, have the same bits.
//! [`same_values`] compares those bits (and words such as `NaN`, `true` as text).

use super::common::*;
use super::corpus::{command, corpus_files};
use std::path::Path;

/// The devices compared, the reference first. `vulkan` runs on lavapipe (CPU Vulkan, which
/// tools/setup.sh installs); on a machine without any Vulkan driver it is left out with a note
/// ([`runs_here`]).
#[cfg(not(feature = "mlir"))]
const DEVICES: &[&str] = &["interp", "interp-lowered", "cpu", "vulkan"];
/// With feature `mlir`: `mlir-cpu` too (MLIR's own pipeline), compared with the interpreter as
/// every device and, element by element, with `cpu` ([`compare`]).
#[cfg(feature = "mlir")]
const DEVICES: &[&str] = &["interp", "interp-lowered", "cpu", "vulkan", "mlir-cpu"];

/// Whether `device` can start on this machine: `vulkan` needs a Vulkan driver manifest (or
/// one named by `VK_DRIVER_FILES`); every other device always can.
pub(super) fn runs_here(device: &str) -> bool {
    if device != "vulkan" {
        return true;
    }
    let named = ["VK_DRIVER_FILES", "VK_ICD_FILENAMES"]
        .iter()
        .any(|v| std::env::var_os(v).is_some());
    let installed = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .any(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "json")));
    if !(named || installed) {
        eprintln!("note: no Vulkan driver installed: the vulkan device is not compared");
    }
    named || installed
}

/// The relative tolerance of floats on `device`, against the largest magnitude of the field
/// (None: bit for bit). The compiled `cpu` device runs threads in parallel, so float atomics
/// (`atomic_add` into one element, every gradient accumulation) add in the order the workers
/// reach them: a sum of n f32 terms reassociated moves by up to about n ulps of its largest
/// partial sum; the corpus adds at most a few hundred terms into one element, and the largest
/// difference seen is 1.4e-7 of the value (atomic_scalar's y): 1e-5 of the field's largest
/// magnitude bounds that with margin. Everything else is computed as the interpreter does (no
/// fast-math flags, so no FMA contraction; f32 sin and cos are libm's polynomials, bit-identical
/// to it; f32 tanh is qd's own, within 0.51 ulp where glibc's is within 2.2; other math calls
/// libm), and integers must be identical.
///
/// `vulkan` (lavapipe) has the same float atomics in the order its lanes reach them, and its f32
/// sin, cos and exp are GLSL.std.450's, a few ulps from libm's: the largest difference seen is
/// 1.7e-6 of the value (field_gather's y, a sum of sines), so 1e-5 bounds it too.
///
/// `mlir-cpu` runs threads one after another in ascending order, so its float atomics add in the
/// interpreter's unshuffled order; against a shuffled reference they reassociate as `cpu`'s do,
/// and its math is LLVM's intrinsics and libm as MLIR lowers them (tanh, sin and cos are libm's,
/// not qd's own): 1e-5 bounds it as for `cpu`.
fn tolerance(device: &str) -> Option<f64> {
    matches!(device, "cpu" | "vulkan" | "mlir-cpu").then_some(1e-5)
}

/// A capacity too small for any stack of the corpus that holds more than one entry.
const TOO_SMALL: &str = "1";

/// The fields of a kernel file, with whether each has an adjoint (`qd.field @x : ... {needs_grad}`).
fn fields(file: &str) -> Vec<(String, bool)> {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    text.lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix("qd.field @")?;
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'))
                .collect();
            Some((name, l.contains("needs_grad")))
        })
        .collect()
}

/// The runs of one case: (what, qd-run arguments without `--device`).
fn runs(path: &Path) -> Vec<(String, Vec<String>)> {
    let c = command(path);
    let file = c.args[0].clone();
    let (mut common, mut grads, mut grad_prints) = (vec![file.clone()], Vec::new(), Vec::new());
    for pair in c.args[1..].chunks(2) {
        let (flag, value) = (pair[0].as_str(), pair[1].clone());
        match flag {
            "--grad" => grads.extend([pair[0].clone(), value]),
            "--print" => grad_prints.push(value),
            _ => common.extend([pair[0].clone(), value]),
        }
    }
    let mut prints = Vec::new();
    let mut all_grads = Vec::new();
    for (name, needs_grad) in fields(&file) {
        prints.extend(["--print".to_string(), name.clone()]);
        if needs_grad {
            all_grads.push(format!("{name}.grad"));
        }
    }
    // The adjoints of active ndarray arguments, which only the corpus's WRT lines name.
    for p in grad_prints {
        if p.ends_with(".grad") && !all_grads.contains(&p) {
            all_grads.push(p);
        }
    }
    let with = |extra: &[&[String]]| -> Vec<String> {
        let mut v = common.clone();
        for e in extra {
            v.extend(e.iter().cloned());
        }
        v
    };
    let grad_print_args: Vec<String> = all_grads
        .iter()
        .flat_map(|g| ["--print".to_string(), g.clone()])
        .collect();
    let shuffle = ["--shuffle".to_string(), "7".to_string()];
    let mut forced = with(&[&grads, &prints, &grad_print_args]);
    if let Some(i) = forced.iter().position(|a| a == "--ad-stack-size") {
        forced.drain(i..i + 2);
    }
    forced.extend(["--ad-stack-size".to_string(), TOO_SMALL.to_string()]);
    vec![
        ("forward".into(), with(&[&prints])),
        (
            "gradient".into(),
            with(&[&grads, &prints, &grad_print_args]),
        ),
        (
            "shuffled gradient".into(),
            with(&[&grads, &prints, &grad_print_args, &shuffle]),
        ),
        (format!("gradient, stacks forced to {TOO_SMALL}"), forced),
    ]
}

/// One printed value: a number, or a word (`true`, `NaN`, `inf`).
#[derive(Debug)]
enum Printed {
    Number(f64),
    Word(String),
}

/// Every field printed in `stdout` (`NAME = ...`, over one or several lines) with its values.
fn values(stdout: &str) -> Vec<(String, Vec<Printed>)> {
    let mut out: Vec<(String, Vec<Printed>)> = Vec::new();
    for line in stdout.lines() {
        let body = match line.split_once(" = ") {
            Some((name, rest)) if !name.starts_with(' ') => {
                out.push((name.to_string(), Vec::new()));
                rest
            }
            // `x: shape [4, 10]` announces a field; continuation rows start with blanks.
            _ if !line.starts_with(' ') => continue,
            _ => line,
        };
        let Some((_, vals)) = out.last_mut() else {
            continue;
        };
        for tok in body
            .split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            vals.push(match tok.parse::<f64>() {
                Ok(v) if !v.is_nan() => Printed::Number(v),
                _ => Printed::Word(tok.to_string()),
            });
        }
    }
    out
}

/// Whether two outputs print the same values, bit for bit (every NaN prints as `NaN`), or floats
/// within `tol` of the field's largest magnitude when given; describes the first difference.
fn same_values(want: &str, got: &str, tol: Option<f64>) -> Result<(), String> {
    let (w, g) = (values(want), values(got));
    if w.len() != g.len() {
        return Err(format!("{} printed fields, want {}", g.len(), w.len()));
    }
    for ((wn, wv), (gn, gv)) in w.iter().zip(&g) {
        if wn != gn || wv.len() != gv.len() {
            return Err(format!(
                "printed {gn} ({} values), want {wn} ({})",
                gv.len(),
                wv.len()
            ));
        }
        let scale = wv.iter().fold(0.0f64, |m, v| match v {
            Printed::Number(x) if x.is_finite() => m.max(x.abs()),
            _ => m,
        });
        for (i, (a, b)) in wv.iter().zip(gv).enumerate() {
            let same = match (a, b) {
                (Printed::Number(a), Printed::Number(b)) => match tol {
                    // An integer field prints no point nor exponent: it stays exact.
                    Some(t) if a.fract() != 0.0 || b.fract() != 0.0 || scale > 1e15 => {
                        (a - b).abs() <= t * scale || a.to_bits() == b.to_bits()
                    }
                    _ => a.to_bits() == b.to_bits(),
                },
                (Printed::Word(a), Printed::Word(b)) => a == b,
                _ => false,
            };
            if !same {
                return Err(format!("{wn}[{i}] = {b:?}, want {a:?}"));
            }
        }
    }
    Ok(())
}

/// The ways each device runs: `cpu` with vectorised tasks and with scalar tasks.
fn variants(device: &str) -> &'static [&'static [&'static str]] {
    match device {
        "cpu" => &[&["--vectorize", "on"], &["--vectorize", "off"]],
        _ => &[&[]],
    }
}

/// Runs `args` on every device (in each of its [`variants`]); a message per device whose result
/// differs from the first's.
fn compare(case: &str, what: &str, args: &[String]) -> Vec<String> {
    let run = |device: &str, extra: &[&str]| {
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        a.extend(["--device", device]);
        a.extend(extra);
        qd_run(&a)
    };
    let reference = run(DEVICES[0], &[]);
    let mut failures = Vec::new();
    let (mut cpu_scalar, mut mlir) = (None, None);
    let runs = DEVICES[1..]
        .iter()
        .filter(|d| runs_here(d))
        .flat_map(|&d| variants(d).iter().map(move |&v| (d, v)));
    for (device, extra) in runs {
        let o = run(device, extra);
        let label = format!("{device} {}", extra.join(" "));
        let mut diff = Vec::new();
        if o.code != reference.code {
            diff.push(format!("exit {} (want {})", o.code, reference.code));
        }
        if o.stderr != reference.stderr {
            diff.push(format!(
                "stderr:\n{}\nwant:\n{}",
                o.stderr, reference.stderr
            ));
        }
        if let Err(e) = same_values(&reference.stdout, &o.stdout, tolerance(device)) {
            diff.push(e);
        } else if tolerance(device).is_none() && o.stdout != reference.stdout {
            diff.push(format!(
                "stdout:\n{}\nwant:\n{}",
                o.stdout, reference.stdout
            ));
        }
        if !diff.is_empty() {
            let on = label.trim_end();
            failures.push(format!("{case}, {what}, on {on}: {}", diff.join("; ")));
        }
        match (device, extra) {
            ("cpu", ["--vectorize", "off"]) => cpu_scalar = Some(o),
            ("mlir-cpu", _) => mlir = Some(o),
            _ => {}
        }
    }
    // The differential check of MLIR's pipeline against our own LLVM backend: the same exit,
    // errors and values (within cpu's tolerance) as `cpu` with scalar tasks.
    if let (Some(m), Some(c)) = (mlir, cpu_scalar) {
        let mut diff = Vec::new();
        if m.code != c.code || m.stderr != c.stderr {
            diff.push(format!(
                "exit {} (cpu {}), stderr:\n{}\ncpu:\n{}",
                m.code, c.code, m.stderr, c.stderr
            ));
        }
        if let Err(e) = same_values(&c.stdout, &m.stdout, tolerance("cpu")) {
            diff.push(e);
        }
        if !diff.is_empty() {
            failures.push(format!(
                "{case}, {what}, mlir-cpu against cpu: {}",
                diff.join("; ")
            ));
        }
    }
    failures
}

#[test]
fn every_device_matches_the_reference_bit_for_bit() {
    // Every corpus file; the shared examples come through their `.grad` sidecars.
    let files = corpus_files();
    assert!(files.len() >= 30, "{} corpus files", files.len());
    let mut failures = Vec::new();
    let mut overflows = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (what, args) in runs(path) {
            if what.contains("forced") {
                let o = qd_run(&args.iter().map(String::as_str).collect::<Vec<_>>());
                overflows += usize::from(o.stderr.contains("adstack overflow"));
            }
            failures.extend(compare(&name, &what, &args));
        }
    }
    // The forced runs must exercise overflows, not only pass.
    assert!(
        overflows >= 20,
        "only {overflows} cases overflow at capacity {TOO_SMALL}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_main_job_and_its_overflow_match() {
    let base = [
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
        "--print",
        "x.grad",
    ];
    let args: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    let mut failures = compare("dynamic_loop", "main job", &args);
    // The main job's stack is elided (minimize-tape): a forced size does not touch it.
    let mut forced = args.clone();
    forced.extend(["--ad-stack-size".to_string(), "32".to_string()]);
    failures.extend(compare(
        "dynamic_loop",
        "elided stack, size forced to 32",
        &forced,
    ));
    // A kept stack of 40 entries (local_array, n = 40) overflows at 32, alike everywhere.
    let kept: Vec<String> = [
        "examples/local_array.mlir",
        "--kernel",
        "compute",
        "--set",
        "n=40",
        "--set",
        "x=linspace(0,1)",
        "--grad",
        "y=1",
        "--print",
        "x.grad",
        "--ad-stack-size",
        "32",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    failures.extend(compare("local_array", "stack forced to 32", &kept));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    for device in DEVICES.iter().filter(|d| runs_here(d)) {
        let mut a: Vec<&str> = forced.iter().map(String::as_str).collect();
        a.extend(["--device", device]);
        let o = qd_run(&a);
        assert_eq!(o.code, 0, "{device}: {}", o.stderr);
        let mut a: Vec<&str> = kept.iter().map(String::as_str).collect();
        a.extend(["--device", device]);
        let o = qd_run(&a);
        assert_eq!(o.code, 1, "{device}");
        assert!(
            o.stderr
                .contains("error: adstack overflow in kernel 'compute_grad': stack at ")
                && o.stderr.contains("exceeded its capacity of 32"),
            "{device}: {}",
            o.stderr
        );
    }
}

/// Kernels whose accesses go out of bounds: a 2-D field, a 2-D ndarray, a local array, a 1-D
/// field written by an atomic (and its gradient), a 2-D adjoint field and a 2-D adjoint ndarray
/// (ad ops written by hand, as a gradient kernel holds them). They run with `--check-bounds`,
/// without which an out-of-bounds field or ndarray access on `cpu` is undefined behaviour (the
/// interpreters check either way).
const OUT_OF_BOUNDS: &str = "module {
  qd.field @f : !qd.field<4x10xf32>
  qd.field @g : !qd.field<3xf32> {needs_grad}
  qd.field @h : !qd.field<3xf32> {needs_grad}
  qd.kernel @field2d(%i: i32, %j: i32) {
    %c = arith.constant 1.0 : f32
    qd.store %c, @f[%i, %j] : f32
  }
  qd.kernel @nd(%a: !qd.ndarray<?x?xf32>, %i: i32) {
    %c0 = arith.constant 0 : i32
    %v = qd.ndarray_load %a[%c0, %i] : !qd.ndarray<?x?xf32>
    qd.store %v, @f[%c0, %c0] : f32
  }
  qd.kernel @local(%k: i32) {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    qd.range_for %t = %c0 to %c4 : i32 {
      %arr = qd.alloca : !qd.ptr<!qd.array<10xf32>>
      %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<10xf32>>
      %v = qd.local_load %p : !qd.ptr<f32>
      qd.store %v, @f[%c0, %c0] : f32
    }
  }
  qd.kernel @scatter(%k: i32) {
    qd.struct_for (%i) in @g {
      %v = qd.load @g[%i] : f32
      %w = arith.mulf %v, %v : f32
      %j = arith.addi %i, %k : i32
      qd.atomic_add %w, @h[%j] : f32
    }
  }
  qd.field @q : !qd.field<3x2xf32> {needs_grad}
  qd.kernel @field_adj(%i: i32, %j: i32) {
    %v = ad.load_field_adjoint @q[%i, %j] : f32
    ad.acc_field_adjoint %v, @q[%i, %j] : f32
  }
  qd.kernel @nd_adj(%a: !qd.ndarray<?x?xf32>, %da: !qd.ndarray<?x?xf32>, %i: i32) {
    %c0 = arith.constant 0 : i32
    %c = arith.constant 1.0 : f32
    ad.acc_ndarray_adjoint %c, %da[%c0, %i] : !qd.ndarray<?x?xf32>
  }
}
";

#[test]
fn out_of_bounds_errors_match() {
    let dir = scratch("devices-oob");
    let f = write(&dir, "oob.mlir", OUT_OF_BOUNDS.as_bytes());
    let cases: &[&[&str]] = &[
        &["--kernel", "field2d", "--arg", "i=3", "--arg", "j=10"],
        &["--kernel", "field2d", "--arg", "i=-1", "--arg", "j=12"],
        &[
            "--kernel", "field2d", "--arg", "i=2", "--arg", "j=9", "--print", "f",
        ],
        &[
            "--kernel",
            "nd",
            "--arg",
            "a=1,2,3,4,5,6:2x3",
            "--arg",
            "i=3",
        ],
        &["--kernel", "local", "--arg", "k=10"],
        &["--kernel", "local", "--arg", "k=-2"],
        &["--kernel", "scatter", "--arg", "k=1", "--set", "g=1,2,3"],
        &[
            "--kernel", "scatter", "--arg", "k=0", "--set", "g=1,2,3", "--grad", "h=1", "--print",
            "g.grad",
        ],
        &["--kernel", "field_adj", "--arg", "i=1", "--arg", "j=2"],
        &[
            "--kernel",
            "nd_adj",
            "--arg",
            "a=1,2,3,4,5,6:2x3",
            "--arg",
            "da=1,2,3,4,5,6:2x3",
            "--arg",
            "i=3",
        ],
    ];
    let mut failures = Vec::new();
    let mut errors = 0;
    for (n, c) in cases.iter().enumerate() {
        let mut args = vec![f.clone(), "--check-bounds".to_string()];
        args.extend(c.iter().map(|s| s.to_string()));
        let o = qd_run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        errors += usize::from(o.stderr.contains("out of bounds"));
        failures.extend(compare(&format!("oob case {n}"), &c.join(" "), &args));
    }
    // A local array is checked without --check-bounds too.
    for k in ["k=10", "k=-2"] {
        let args: Vec<String> = [f.as_str(), "--kernel", "local", "--arg", k]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = qd_run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        errors += usize::from(o.stderr.contains("out of bounds"));
        failures.extend(compare("unchecked local", k, &args));
    }
    assert!(errors >= 10, "only {errors} cases went out of bounds");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Element types and atomics the corpus leaves out: an i1 field (kept as i8 in lowered memory),
/// atomic max on ui8 (unsigned order), atomic min on i16 and on f64 with a NaN (minNum), an i64
/// add that wraps, a 2-D i32 ndarray read and written.
const TYPES: &str = "module {
  qd.field @b : !qd.field<6xi1>
  qd.field @u : !qd.field<ui8>
  qd.field @uv : !qd.field<6xui8>
  qd.field @s : !qd.field<i16>
  qd.field @m : !qd.field<f64>
  qd.field @w : !qd.field<i64>
  qd.field @c : !qd.field<4xi32>
  qd.kernel @k(%a: !qd.ndarray<?x?xi32>, %x: f64) {
    qd.struct_for (%i) in @b {
      %v = qd.load @b[%i] : i1
      %t = arith.constant true
      %nv = arith.xori %v, %t : i1
      qd.store %nv, @b[%i] : i1
      %u0 = qd.load @uv[%i] : ui8
      %o = qd.atomic_max %u0, @u[] : ui8
      %i16 = arith.trunci %i : i32 to i16
      %n = arith.constant -7 : i16
      %p = arith.muli %i16, %n : i16
      qd.atomic_min %p, @s[] : i16
      %f = arith.sitofp %i : i32 to f64
      %y = arith.mulf %f, %x : f64
      %z = arith.divf %y, %y : f64
      qd.atomic_min %z, @m[] : f64
      %e = arith.extsi %i : i32 to i64
      %sh = arith.constant 60 : i64
      %q = arith.shli %e, %sh : i64
      qd.atomic_add %q, @w[] : i64
    }
    %c0 = arith.constant 0 : i32
    %d0 = qd.ndarray_shape %a, 0 : !qd.ndarray<?x?xi32>
    %d1 = qd.ndarray_shape %a, 1 : !qd.ndarray<?x?xi32>
    qd.range_for %r = %c0 to %d0 : i32 {
      qd.range_for %j = %c0 to %d1 : i32 {
        %v = qd.ndarray_load %a[%r, %j] : !qd.ndarray<?x?xi32>
        %c4 = arith.constant 4 : i32
        %jj = arith.remsi %j, %c4 : i32
        qd.atomic_add %v, @c[%jj] : i32
        %one = arith.constant 1 : i32
        %v1 = arith.addi %v, %one : i32
        qd.ndarray_store %v1, %a[%r, %j] : !qd.ndarray<?x?xi32>
      }
    }
  }
}
";

#[test]
fn element_types_and_atomics_match() {
    let dir = scratch("devices-types");
    let f = write(&dir, "types.mlir", TYPES.as_bytes());
    let mut args: Vec<String> = [
        f.as_str(),
        "--kernel",
        "k",
        "--arg",
        "a=arange():3x5",
        "--arg",
        "x=0.5",
        "--set",
        "b=1,0,1,0,0,1",
        "--set",
        "uv=3,200,127,128,255,1",
        "--set",
        "m=100",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for field in ["b", "u", "s", "m", "w", "c"] {
        args.extend(["--print".to_string(), field.to_string()]);
    }
    let out = ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        out.contains("u = 255\n") && out.contains("m = 1.0\n"),
        "{out}"
    );
    let mut failures = compare("types", "in order", &args);
    args.extend(["--shuffle".to_string(), "3".to_string()]);
    failures.extend(compare("types", "shuffled", &args));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
