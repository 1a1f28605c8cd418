//! Every example, differentiated and sized, then run on the interpreter: the gradient kernel
//! never overflows a stack given its evaluated bound, and the true peak (the smallest capacity
//! that does not overflow) shows how tight the bound is.

use super::common::*;
use qd_runtime::{Arg, DType, Program};

/// One example: its file, its field values, the integer data its bounds read, and its
/// arguments (forward, then gradient).
pub struct Case {
    pub file: &'static str,
    pub fields: Vec<(&'static str, Vec<f64>)>,
    pub data: Data,
    pub args: fn(&mut Program) -> (Vec<Arg>, Vec<Arg>),
}

fn no_args(_: &mut Program) -> (Vec<Arg>, Vec<Arg>) {
    (Vec::new(), Vec::new())
}

fn scalar(name: &str, v: i64) -> (String, Vec<usize>, Vec<i64>) {
    (name.to_string(), Vec::new(), vec![v])
}

/// Whether the gradient kernel overflows with the given capacity (None: the evaluated bound).
/// Returns the bound too.
fn run(case: &Case, capacity: Option<u64>) -> (u64, bool) {
    let (mut ctx, m) = parse(&example(case.file));
    let mut ad = qd_autodiff::reverse_mode_ad_pass_info()
        .create_default()
        .expect("reverse-mode-ad");
    if ad.run(&mut ctx, m).is_err() {
        panic!(
            "{}: reverse-mode-ad failed: {:?}",
            case.file,
            ctx.diagnostics()
        );
    }
    size(&mut ctx, m);
    let stacks = bounds(&ctx, m, "compute_grad");
    assert_eq!(stacks.len(), 1, "{}: one stack", case.file);
    let bound = stacks[0]
        .1
        .eval_capacity(&case.data)
        .unwrap_or_else(|err| panic!("{}: {err}", case.file));
    let mut p = program_with_capacity(ctx, m, Some(capacity.unwrap_or(bound)));
    for (f, v) in &case.fields {
        p.write_f64(f, v).unwrap();
    }
    let (fwd, grad) = (case.args)(&mut p);
    launch(&mut p, "compute", &fwd).expect("the forward kernel runs");
    p.write_f64("y.grad", &[1.0]).unwrap();
    match launch(&mut p, "compute_grad", &grad) {
        Ok(()) => (bound, false),
        Err(msgs) => {
            assert!(
                msgs.iter().all(|m| m.contains("overflow")),
                "{}: {msgs:?}",
                case.file
            );
            (bound, true)
        }
    }
}

/// The bound and the true peak (by bisection on the capacity).
fn bound_and_peak(case: &Case) -> (u64, u64) {
    let (bound, overflow) = run(case, None);
    assert!(
        !overflow,
        "{}: the evaluated bound {bound} overflows",
        case.file
    );
    let (mut lo, mut hi) = (0u64, bound);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if run(case, Some(mid)).1 {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    (bound, lo)
}

/// The trip counts of grad/rank2_read_trip.mlir (2 x 5): their largest is far above the rest,
/// so a bound by rows * cols * max would be 4.6 times the need.
const RANK2_TRIPS: [i64; 10] = [49, 1, 0, 3, 7, 2, 9, 4, 6, 9];

pub fn cases() -> Vec<Case> {
    vec![
        Case {
            file: "dynamic_loop.mlir",
            fields: vec![("n", vec![512.0]), ("x", linspace(0.0, 1.5, 16))],
            data: Data {
                fields: vec![scalar("n", 512)],
                ..Default::default()
            },
            args: no_args,
        },
        Case {
            file: "ndarray_bound.mlir",
            fields: vec![("x", linspace(0.1, 0.8, 8))],
            data: Data {
                ndarrays: vec![(0, vec![8], vec![0, 3, 7, 1, 12, 5, 0, 9])],
                ..Default::default()
            },
            args: |p| {
                let a = ndarray(
                    p,
                    DType::I32,
                    &[8],
                    &[0.0, 3.0, 7.0, 1.0, 12.0, 5.0, 0.0, 9.0],
                );
                (vec![a], vec![a])
            },
        },
        Case {
            file: "triangular.mlir",
            fields: vec![("m", vec![12.0]), ("x", linspace(0.5, 1.0, 4))],
            data: Data {
                fields: vec![scalar("m", 12)],
                ..Default::default()
            },
            args: no_args,
        },
        Case {
            file: "grad/six_minus_j_restart.mlir",
            fields: vec![("x", linspace(-0.9, 1.1, 4))],
            data: Data::default(),
            args: no_args,
        },
        Case {
            file: "grad/rank2_read_trip.mlir",
            fields: vec![("x", linspace(-0.7, 0.9, 3))],
            data: Data {
                ndarrays: vec![(0, vec![2, 5], RANK2_TRIPS.to_vec())],
                ..Default::default()
            },
            args: |p| {
                let trips: Vec<f64> = RANK2_TRIPS.iter().map(|&t| t as f64).collect();
                let a = ndarray(p, DType::I32, &[2, 5], &trips);
                (vec![a], vec![a])
            },
        },
        Case {
            file: "local_array.mlir",
            fields: vec![("n", vec![40.0]), ("x", linspace(0.0, 1.0, 40))],
            data: Data {
                fields: vec![scalar("n", 40)],
                ..Default::default()
            },
            args: no_args,
        },
        Case {
            file: "control_flow.mlir",
            fields: vec![("x", vec![0.0, 0.5, 1.0, 2.5, 12.0, -0.1])],
            data: Data {
                ndarrays: vec![(0, vec![6], vec![0; 6])],
                ..Default::default()
            },
            args: |p| {
                let w = [0.5, -1.0, 2.0, 0.3, -0.2, 1.5];
                let a = ndarray(p, DType::F32, &[6], &w);
                let da = ndarray(p, DType::F32, &[6], &[0.0; 6]);
                (vec![a, f32_arg(2.0)], vec![a, f32_arg(2.0), da])
            },
        },
    ]
}

#[test]
fn every_example_fits_its_evaluated_bound() {
    let mut report = Vec::new();
    for case in cases() {
        let (bound, peak) = bound_and_peak(&case);
        assert!(bound >= peak, "{}: bound {bound} < peak {peak}", case.file);
        report.push(format!("{}: bound {bound}, peak {peak}", case.file));
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn example_bounds_are_exact() {
    // Counted nests, rectangular, triangular or ragged: the bound is the peak, so a capacity one
    // entry smaller overflows (the bisection finds the smallest capacity that does not).
    for case in cases() {
        let (bound, peak) = bound_and_peak(&case);
        assert_eq!(bound, peak, "{}", case.file);
    }
}
