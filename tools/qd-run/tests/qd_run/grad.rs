//! `--grad OUTPUT=SEED` end to end: forward launch, seeding, the gradient kernel (found through
//! `ad.reverse @k -> @k_grad`, or made by reverse-mode-ad), printed adjoints of fields and of
//! active ndarray parameters, `--ad-stack-size` and adstack overflow (exit 1, no gradient).
//! What runs a kernel runs on each device of `EACH_DEVICE`; input errors, found before any
//! launch, on the default device.

use super::common::*;

const HANDWRITTEN: &str = "lit-tests/e2e/handwritten_grad.mlir";

fn dynamic_loop(device: &str, n: &str, extra: &[&str]) -> Out {
    let mut args = vec![
        HANDWRITTEN,
        "--device",
        device,
        "--kernel",
        "compute",
        "--grad",
        "y=1",
        "--set",
        n,
        "--set",
        "x=linspace(0,1.5)",
        "--print",
        "x.grad",
    ];
    args.extend_from_slice(extra);
    qd_run(&args)
}

/// The numbers of a `NAME = [a, b, ...]` line.
fn values(stdout: &str, name: &str) -> Vec<f64> {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name} = [")))
        .unwrap_or_else(|| panic!("no {name} in {stdout}"));
    line.trim_end_matches(']')
        .split(", ")
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn the_handwritten_gradient_of_dynamic_loop() {
    for device in EACH_DEVICE {
        let o = dynamic_loop(device, "n=512", &[]);
        assert_eq!(o.code, 0, "{device}: {}", o.stderr);
        let g = values(&o.stdout, "x.grad");
        assert_eq!(g.len(), 16);
        let want = 0.95f64.powi(512);
        for v in g {
            assert!(((v - want) / want).abs() < 1e-4, "{device}: {v} vs {want}");
        }
        // JSON: the adjoint's key is "x.grad"; the timings add the autodiff and gradient steps.
        let o = dynamic_loop(device, "n=512", &["--json"]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(
            o.stdout
                .starts_with("{\"fields\": {\"x.grad\": {\"shape\": [16], \"data\": [3.93"),
            "{device}: {}",
            o.stdout
        );
        assert!(o.stdout.contains("\"autodiff\": "), "{}", o.stdout);
        assert!(o.stdout.contains("\"grad\": "), "{}", o.stdout);
    }
}

#[test]
fn an_overflowing_adstack_exits_1_with_no_gradient() {
    for device in EACH_DEVICE {
        overflow_on(device);
    }
}

fn overflow_on(device: &str) {
    let o = dynamic_loop(device, "n=512", &["--ad-stack-size", "32"]);
    assert_eq!(o.code, 1);
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    assert!(
        o.stderr.contains(
            "handwritten_grad.mlir:46:13: error: adstack overflow in kernel 'compute_grad': \
             stack at lit-tests/e2e/handwritten_grad.mlir:46:13 exceeded its capacity of 32"
        ),
        "{}",
        o.stderr
    );
    // The rendered diagnostic shows the stack's alloca.
    assert!(
        o.stderr.contains("%st = adstack.alloca : f32"),
        "{}",
        o.stderr
    );
    // Enough entries: clean.
    let o = dynamic_loop(device, "n=32", &["--ad-stack-size", "32"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let want = 0.95f64.powi(32);
    for v in values(&o.stdout, "x.grad") {
        assert!(((v - want) / want).abs() < 1e-5, "{v} vs {want}");
    }
}

/// y[i] = a[i]^2 + s with its gradient written by hand: a.grad[i] += 2 a[i] y.grad[i]; the scalar
/// and the integer ndarray are inactive.
const SQUARE: &str = "module {
  qd.field @y : !qd.field<3xf32> {needs_grad}
  qd.field @c : !qd.field<3xf32>
  qd.kernel @sq(%a: !qd.ndarray<?xf32>, %s: f32, %n: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @y {
      %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %w = arith.mulf %v, %v : f32
      %r = arith.addf %w, %s : f32
      qd.store %r, @y[%i] : f32
    }
  }
  qd.kernel @sq_grad(%a: !qd.ndarray<?xf32>, %s: f32, %n: !qd.ndarray<?xi32>, %da: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @y {
      %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %dy = ad.load_field_adjoint @y[%i] : f32
      %two = arith.constant 2.0 : f32
      %t = arith.mulf %v, %two : f32
      %g = arith.mulf %t, %dy : f32
      ad.acc_ndarray_adjoint %g, %da[%i] : !qd.ndarray<?xf32>
    }
  }
  ad.reverse @sq -> @sq_grad
}
";

fn square(extra: &[&str]) -> Out {
    let dir = scratch("square");
    let f = write(&dir, "sq.mlir", SQUARE.as_bytes());
    let mut args = vec![
        f.as_str(),
        "--kernel",
        "sq",
        "--arg",
        "a=1,2,3",
        "--arg",
        "s=0.5",
        "--arg",
        "n=0,0,0",
    ];
    args.extend_from_slice(extra);
    qd_run(&args)
}

#[test]
fn adjoints_of_active_ndarray_parameters_print_as_name_grad() {
    for device in EACH_DEVICE {
        let o = square(&[
            "--grad", "y=0.5", "--print", "y", "--print", "a.grad", "--print", "y.grad",
            "--device", device,
        ]);
        assert_eq!(o.code, 0, "{device}: {}", o.stderr);
        assert_eq!(
            o.stdout, "y = [1.5, 4.5, 9.5]\na.grad = [1.0, 2.0, 3.0]\ny.grad = [0.5, 0.5, 0.5]\n",
            "{device}"
        );
        let o = square(&[
            "--grad", "y=1", "--print", "a.grad", "--json", "--device", device,
        ]);
        assert!(
            o.stdout.starts_with(
                "{\"fields\": {\"a.grad\": {\"shape\": [3], \"data\": [2.0, 4.0, 6.0]}}"
            ),
            "{device}: {}",
            o.stdout
        );
    }
}

#[test]
fn bad_gradient_requests_are_input_errors() {
    for (extra, want) in [
        (&["--grad", "c=1"][..], "--grad c: field 'c' has no adjoint"),
        (&["--grad", "z=1"][..], "--grad z: unknown field 'z.grad'"),
        // n is an integer ndarray: it has no adjoint; without --grad neither has a.
        (
            &["--grad", "y=1", "--print", "n.grad"][..],
            "--print n.grad: unknown field",
        ),
        (&["--print", "a.grad"][..], "--print a.grad: unknown field"),
    ] {
        let o = square(extra);
        assert_eq!(o.code, 1, "{extra:?}: {}", o.stderr);
        assert!(o.stdout.is_empty(), "{extra:?}: {}", o.stdout);
        assert!(o.stderr.contains(want), "{extra:?}: {}", o.stderr);
    }
}

/// The README's main job with its gradient: reverse-mode-ad makes `@compute_grad` (with one
/// adstack for v), and x.grad = 0.95^512.
#[test]
fn reverse_mode_ad_makes_the_gradient_kernel_when_the_file_has_none() {
    for device in EACH_DEVICE {
        generated_gradient_on(device);
    }
}

fn generated_gradient_on(device: &str) {
    let main_job = |extra: &[&str]| {
        let mut args = vec![
            "examples/dynamic_loop.mlir",
            "--kernel",
            "compute",
            "--grad",
            "y=1",
            "--set",
            "n=512",
            "--set",
            "x=linspace(0,1.5)",
            "--print",
            "x.grad",
            "--device",
            device,
        ];
        args.extend_from_slice(extra);
        qd_run(&args)
    };
    let o = main_job(&[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let want = 0.95f64.powi(512);
    for v in values(&o.stdout, "x.grad") {
        assert!(((v - want) / want).abs() < 1e-4, "{v} vs {want}");
    }
    // The stack of v is elided (the linear body never reads v in reverse): 32 entries, fewer
    // than the 512 iterations, change nothing.
    let o = main_job(&["--ad-stack-size", "32"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    for v in values(&o.stdout, "x.grad") {
        assert!(((v - want) / want).abs() < 1e-4, "{v} vs {want}");
    }
    // A kept stack of 40 entries does not fit in 32: exit 1, the overflow named, no gradient.
    let o = qd_run(&[
        "examples/local_array.mlir",
        "--kernel",
        "compute",
        "--grad",
        "y=1",
        "--set",
        "n=40",
        "--print",
        "x.grad",
        "--ad-stack-size",
        "32",
        "--device",
        device,
    ]);
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    assert!(
        o.stderr.contains(
            "error: adstack overflow in kernel 'compute_grad': stack at examples/local_array.mlir:"
        ) && o.stderr.contains("exceeded its capacity of 32"),
        "{}",
        o.stderr
    );
}

/// y as a function of w[0] by two forward runs, against the adjoint ndarray of `w` that the
/// generated gradient kernel accumulates (examples/control_flow.mlir: while, if, break).
#[test]
fn ndarray_adjoints_of_a_generated_gradient_match_finite_differences() {
    for device in EACH_DEVICE {
        ndarray_adjoints_on(device);
    }
}

fn ndarray_adjoints_on(device: &str) {
    let y_of = |w0: f64| {
        let w = format!("w={w0},-1,0.25,0.1");
        let out = ok(&[
            "examples/control_flow.mlir",
            "--kernel",
            "compute",
            "--arg",
            &w,
            "--arg",
            "limit=2.0",
            "--set",
            "x=linspace(0,1.5)",
            "--print",
            "y",
            "--device",
            device,
        ]);
        out.trim()
            .strip_prefix("y = ")
            .unwrap()
            .parse::<f64>()
            .unwrap()
    };
    let h = 1e-3;
    let fd = (y_of(0.5 + h) - y_of(0.5 - h)) / (2.0 * h);
    let out = ok(&[
        "examples/control_flow.mlir",
        "--kernel",
        "compute",
        "--arg",
        "w=0.5,-1,0.25,0.1",
        "--arg",
        "limit=2.0",
        "--set",
        "x=linspace(0,1.5)",
        "--grad",
        "y=1",
        "--print",
        "w.grad",
        "--device",
        device,
    ]);
    let g = values(&out, "w.grad");
    assert_eq!(g.len(), 4);
    assert!((g[0] - fd).abs() < 2e-2 * fd.abs(), "{} vs {fd}", g[0]);
    // w[1] < 0 takes the other branch, which does not read w.
    assert_eq!(g[1], 0.0);
}
