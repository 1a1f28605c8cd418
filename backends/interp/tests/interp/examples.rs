//! The five examples of `examples/` run forward on the interpreter, with the inputs of their
//! header comments, and match an independent f64 implementation of the same computation.
//!
//! Tolerance: the interpreter computes in f32 (24-bit significand, unit roundoff u = 2^-24 ≈
//! 6e-8), the references in f64 from the same f32 inputs. Every example is a contraction or a
//! short expansion: the loops contract (factors 0.95, 0.9 cos, 0.5 (1 - tanh^2) below 1) so
//! per-step roundings do not grow, and control_flow's while loop grows by 1.3 per step but its
//! relative error only grows linearly (about k u after k steps, k <= 50). The outputs are sums of
//! at most 48 terms (n u relative each). So every result is within about 100 u ≈ 6e-6 relative;
//! we allow REL_TOL = 2e-5, and the control-flow references check that no value comes within
//! MARGIN of a branch threshold, so that f32 and f64 take the same branches.

use super::common::*;
use qd_runtime::{Arg, DType, Ndarray, Scalar};

const REL_TOL: f64 = 2e-5;
const MARGIN: f64 = 1e-3;

fn assert_close(got: f64, want: f64, what: &str) {
    let err = (got - want).abs() / want.abs().max(1e-30);
    assert!(
        err <= REL_TOL,
        "{what}: interpreter {got}, f64 reference {want} (relative error {err:e} > {REL_TOL:e})"
    );
}

fn to_f64(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| x as f64).collect()
}

#[test]
fn dynamic_loop() {
    let mut p = program(&example("dynamic_loop.mlir"));
    let x = linspace_f32(0.0, 1.5, 16);
    p.write_scalars("n", &[Scalar::I32(512)]).unwrap();
    p.write("x", qd_runtime::Storage::F32(x.clone().into()))
        .unwrap();
    run_ok(&mut p, "compute", &[]);

    let want: f64 = to_f64(&x)
        .into_iter()
        .map(|mut v| {
            for _ in 0..512 {
                v = v * 0.95 + 0.01;
            }
            v
        })
        .sum();
    let y = p.read_f64("y").unwrap()[0];
    assert_close(y, want, "dynamic_loop y");
    // The README's main job prints this: 3.2 up to f32 rounding.
    assert!((y - 3.2).abs() < 1e-5, "y = {y}");
    // The forward pass leaves the adjoints alone.
    assert!(p.read_f64("x.grad").unwrap().iter().all(|&g| g == 0.0));
}

#[test]
fn ndarray_bound() {
    let mut p = program(&example("ndarray_bound.mlir"));
    let a = [0, 3, 7, 1, 12, 5, 0, 9];
    let x = linspace_f32(0.1, 0.8, 8);
    p.write("x", qd_runtime::Storage::F32(x.clone().into()))
        .unwrap();
    let counts: Vec<f64> = a.iter().map(|&v| v as f64).collect();
    let arr = p.add_ndarray(Ndarray::from_f64(DType::I32, &[8], &counts).unwrap());
    run_ok(&mut p, "compute", &[Arg::Ndarray(arr)]);

    let want: f64 = to_f64(&x)
        .iter()
        .zip(a)
        .map(|(&x, n)| {
            let mut v = x;
            for _ in 0..n {
                v = v.sin() * 0.9 + 0.1;
            }
            v
        })
        .sum();
    assert_close(p.read_f64("y").unwrap()[0], want, "ndarray_bound y");
}

#[test]
fn triangular() {
    let mut p = program(&example("triangular.mlir"));
    let x = linspace_f32(0.5, 1.0, 4);
    p.write_scalars("m", &[Scalar::I32(12)]).unwrap();
    p.write("x", qd_runtime::Storage::F32(x.clone().into()))
        .unwrap();
    run_ok(&mut p, "compute", &[]);

    let mut want = 0.0;
    for &xi in &to_f64(&x) {
        for j in 0..12 {
            let mut v = xi;
            for _ in 0..j {
                v = v.tanh() * 0.5;
            }
            want += v;
        }
    }
    assert_close(p.read_f64("y").unwrap()[0], want, "triangular y");
}

#[test]
fn local_array() {
    let mut p = program(&example("local_array.mlir"));
    let x = linspace_f32(0.0, 1.0, 40);
    p.write_scalars("n", &[Scalar::I32(40)]).unwrap();
    p.write("x", qd_runtime::Storage::F32(x.clone().into()))
        .unwrap();
    run_ok(&mut p, "compute", &[]);

    let x = to_f64(&x);
    let mut want = 0.0;
    for r in 0..4 {
        let mut arr: Vec<f64> = x[r * 10..r * 10 + 10].to_vec();
        for t in 0..40 {
            let j = t % 10;
            arr[j] = arr[j].sin() * 0.9 + 0.1;
        }
        want += arr.iter().sum::<f64>();
    }
    assert_close(p.read_f64("y").unwrap()[0], want, "local_array y");
}

/// The f64 reference of control_flow.mlir: (y, steps per element, the smallest distance of a
/// compared value to its threshold).
fn control_flow_reference(x: &[f64], w: &[f64], limit: f64) -> (f64, Vec<i32>, f64) {
    let mut y = 0.0;
    let mut steps = Vec::new();
    let mut margin = f64::INFINITY;
    for &xi in x {
        let mut v = xi;
        let mut k = 0;
        loop {
            margin = margin.min((v - limit).abs() / limit.abs().max(1.0));
            if !(v < limit && k < 50) {
                break;
            }
            v = v * 1.3 + 0.05;
            k += 1;
        }
        steps.push(k);
        for &wt in w {
            if wt > 0.0 {
                v += wt * v.sin();
            } else {
                v *= 0.5;
            }
            margin = margin.min((v - 10.0).abs() / 10.0);
            if v > 10.0 {
                break;
            }
        }
        y += v;
    }
    (y, steps, margin)
}

fn run_control_flow(x: &[f32], w: &[f32], limit: f32) -> (f64, Vec<i32>) {
    let mut p = program(&example("control_flow.mlir"));
    p.write("x", qd_runtime::Storage::F32(x.to_vec().into()))
        .unwrap();
    let wa = p.add_ndarray(
        Ndarray::new(&[w.len()], qd_runtime::Storage::F32(w.to_vec().into())).unwrap(),
    );
    run_ok(
        &mut p,
        "compute",
        &[Arg::Ndarray(wa), Arg::Scalar(Scalar::F32(limit))],
    );
    let steps = p.field("steps").unwrap().as_i32().unwrap().to_vec();
    (p.read_f64("y").unwrap()[0], steps)
}

#[test]
fn control_flow_branches_and_break() {
    // limit = 2: x = 12 and 2.5 skip the while (0 steps), 12 then breaks at t = 0 (v > 10);
    // -0.1 climbs slowly from just above the fixed point -1/6 (14 steps); both if branches run.
    let x = [0.0f32, 0.5, 1.0, 2.5, 12.0, -0.1];
    let w = [0.5f32, -1.0, 2.0, 0.3, -0.2, 1.5];
    let (y, steps) = run_control_flow(&x, &w, 2.0);
    let (want, want_steps, margin) = control_flow_reference(&to_f64(&x), &to_f64(&w), 2.0);
    assert!(margin > MARGIN, "inputs too close to a threshold: {margin}");
    assert_eq!(steps, want_steps);
    assert_eq!(steps[3], 0);
    assert_eq!(steps[4], 0);
    assert!(steps.iter().all(|&s| s > 0 && s < 50 || s == 0));
    assert_close(y, want, "control_flow y");
}

#[test]
fn control_flow_fifty_step_exit() {
    // A limit never reached: every while loop exits at its 50th step; w <= 0 takes the else
    // branch only (v * 0.5, well conditioned at |v| ~ 1e5).
    let x = [0.0f32, 0.1, 0.2, -0.5, 1.0, 3.0];
    let w = [-1.0f32, -0.5];
    let limit = 1e9f32;
    let (y, steps) = run_control_flow(&x, &w, limit);
    let (want, want_steps, margin) = control_flow_reference(&to_f64(&x), &to_f64(&w), limit as f64);
    assert!(margin > MARGIN);
    assert_eq!(steps, vec![50; 6]);
    assert_eq!(want_steps, vec![50; 6]);
    assert_close(y, want, "control_flow y (50 steps)");
}

#[test]
fn every_example_compiles() {
    for name in [
        "control_flow.mlir",
        "dynamic_loop.mlir",
        "local_array.mlir",
        "ndarray_bound.mlir",
        "triangular.mlir",
    ] {
        let mut p = program(&example(name));
        p.kernel("compute")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
