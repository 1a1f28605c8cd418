//! The five examples of `examples/`: gradients against finite differences (and closed forms where
//! the header gives one), and the number of adstacks each gradient kernel keeps.

use super::common::*;
use super::gradcheck::{check, ArgSpec, GradCase, Wrt};

/// numpy's linspace.
fn linspace(a: f64, b: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            if n == 1 {
                a
            } else {
                a + (b - a) * i as f64 / (n - 1) as f64
            }
        })
        .collect()
}

fn dynamic_loop_case() -> GradCase {
    let mut c = GradCase::new(example("dynamic_loop.mlir"), "compute")
        .field("n", vec![512.0])
        .field("x", linspace(0.0, 1.5, 16))
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"));
    // y is affine in x: a large step has no truncation error, and the rounding error of the
    // difference (1e-16 |y| / h ~ 1.4e-15) is below 1e-3 of the tiny gradient 3.9e-12.
    c.h = 0.25;
    c.fd_rtol = 1e-3;
    c.fd_atol = 0.0;
    c.f32_atol = 0.0;
    c
}

#[test]
fn dynamic_loop_gradient_is_095_to_the_512() {
    let r = check(&dynamic_loop_case());
    let want = 0.95f64.powi(512);
    assert!((want - 3.9308e-12).abs() < 1e-15);
    for &g in &r.ad32[0] {
        // f32: 512 roundings of ~6e-8 each, and 0.95 itself rounded to f32 (6.5e-6 over 512).
        assert!(
            (g - want).abs() <= 1e-4 * want,
            "x.grad = {g:e}, want {want:e}"
        );
    }
    for &g in &r.ad64[0] {
        assert!(
            (g - want).abs() <= 1e-12 * want,
            "f64 x.grad = {g:e}, want {want:e}"
        );
    }
    // The finite differences agree with the closed form too.
    for &g in &r.fd[0] {
        assert!(
            super::gradcheck::close(g, want, 1e-3, 0.0),
            "finite difference {g:e}"
        );
    }
    assert_eq!(r.stacks, 1);
}

#[test]
fn dynamic_loop_overflows_a_32_entry_stack() {
    // One entry per iteration (n = 512 of them, plus v's zero and x_i) cannot fit in 32.
    let (ctx, m, _) = differentiate(&example("dynamic_loop.mlir"));
    let config = qd_runtime::ProgramConfig {
        ad_stack_size: Some(32),
        ..Default::default()
    };
    let mut p =
        qd_runtime::Program::new(ctx, m, Box::new(qd_interp::Interpreter::new()), config).unwrap();
    p.write_f64("n", &[512.0]).unwrap();
    p.write_f64("x", &linspace(0.0, 1.5, 16)).unwrap();
    let k = p.kernel("compute").unwrap();
    p.launch(k, &[]).unwrap();
    p.sync().unwrap();
    p.write_f64("y.grad", &[1.0]).unwrap();
    let kg = p.kernel("compute_grad").unwrap();
    p.launch(kg, &[]).unwrap();
    let errs = p
        .sync()
        .expect_err("the gradient kernel must overflow its stack");
    let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter().any(|t| t.contains("overflow")),
        "expected an adstack overflow, got {text:?}"
    );
}

#[test]
fn ndarray_bound_gradient() {
    let a = [0.0, 3.0, 7.0, 1.0, 12.0, 5.0, 0.0, 9.0];
    let case = GradCase::new(example("ndarray_bound.mlir"), "compute")
        .field("x", linspace(0.1, 0.8, 8))
        .arg(ArgSpec::Ndarray {
            shape: vec![8],
            data: a.to_vec(),
        })
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"));
    let r = check(&case);
    // The header's closed form: prod over the a[i] steps of 0.9 cos(v_k).
    for (i, &n) in a.iter().enumerate() {
        let mut v = linspace(0.1, 0.8, 8)[i] as f32 as f64;
        let mut g = 1.0;
        for _ in 0..n as usize {
            g *= 0.9 * v.cos();
            v = 0.9 * v.sin() + 0.1;
        }
        assert!(
            (r.ad64[0][i] - g).abs() < 1e-12,
            "x.grad[{i}] = {}, want {g}",
            r.ad64[0][i]
        );
    }
    assert_eq!(r.stacks, 1);
}

#[test]
fn triangular_gradient() {
    let case = GradCase::new(example("triangular.mlir"), "compute")
        .field("m", vec![12.0])
        .field("x", linspace(0.5, 1.0, 4))
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"));
    let r = check(&case);
    assert_eq!(r.stacks, 1);
}

#[test]
fn local_array_gradient() {
    let case = GradCase::new(example("local_array.mlir"), "compute")
        .field("n", vec![40.0])
        .field("x", linspace(0.0, 1.0, 40))
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"));
    let r = check(&case);
    // The header's closed form: element k of row r is updated 4 times by a <- 0.9 sin(a) + 0.1.
    let x = linspace(0.0, 1.0, 40);
    for (e, &x0) in x.iter().enumerate() {
        let mut a = x0 as f32 as f64;
        let mut g = 1.0;
        for _ in 0..4 {
            g *= 0.9 * a.cos();
            a = 0.9 * a.sin() + 0.1;
        }
        assert!((r.ad64[0][e] - g).abs() < 1e-12, "x.grad[{e}]");
    }
    assert_eq!(r.stacks, 1);
}

fn control_flow_case(x: Vec<f64>, w: Vec<f64>, limit: f64) -> GradCase {
    let n = w.len();
    let mut c = GradCase::new(example("control_flow.mlir"), "compute")
        .field("x", x)
        .arg(ArgSpec::Ndarray {
            shape: vec![n],
            data: w,
        })
        .arg(ArgSpec::Scalar(limit))
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"))
        .wrt(Wrt::Arg(0));
    // No value comes within 1e-3 of a branch threshold (see qd-interp's example tests), so a
    // step of 1e-6 (moved at most ~1.3^14 times through the while loop) flips no branch; the
    // rounding error of the difference is ~1e-16 * |y| (~60) / 1e-6 = 6e-9.
    c.h = 1e-6;
    c.fd_atol = 1e-7;
    c.fd_rtol = 1e-6;
    c
}

#[test]
fn control_flow_gradient_through_while_branches_and_break() {
    // limit = 2: x = 12 and 2.5 skip the while, 12 then breaks at t = 0 (v > 10); -0.1 runs the
    // while 14 times; both if branches run.
    let case = control_flow_case(
        vec![0.0, 0.5, 1.0, 2.5, 12.0, -0.1],
        vec![0.5, -1.0, 2.0, 0.3, -0.2, 1.5],
        2.0,
    );
    let r = check(&case);
    assert_eq!(r.stacks, 1);
    // w is active: its gradient is not zero.
    assert!(r.ad64[1].iter().any(|&g| g != 0.0));
}

#[test]
fn control_flow_gradient_fifty_step_exit() {
    let case = control_flow_case(vec![0.0, 0.1, 0.2, -0.5, 1.0, 3.0], vec![-1.0, -0.5], 1e9);
    check(&case);
}

#[test]
fn stack_counts_of_the_examples() {
    for (name, want) in [
        ("dynamic_loop.mlir", 1),
        ("ndarray_bound.mlir", 1),
        ("triangular.mlir", 1),
        ("local_array.mlir", 1),
        ("control_flow.mlir", 1),
    ] {
        let (ctx, m, r) = differentiate(&example(name));
        assert_eq!(stacks_in(&ctx, m, "compute_grad"), want, "{name}");
        assert_eq!(
            r.gradients,
            [("compute".into(), "compute_grad".into(), want)],
            "{name}"
        );
    }
}
