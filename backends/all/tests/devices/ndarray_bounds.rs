//! Elementwise ndarray loops at linear indices `i * s + o` (the cpu device's vectorised tasks
//! test a group's lowest and highest index once, and the lanes only when that fails): in bounds
//! forward, reversed and strided, the results of the reference; out of bounds at the first, the
//! last and a middle thread (the group's tail included), and where the i32 index wraps within
//! a group, the reference's error (kind, message: the lowest failing thread and its index).

use super::common::*;
use qd_runtime::{Arg, DType, Ndarray, Program, Scalar};

const SRC: &str = r#"module {
  qd.kernel @k(%x: !qd.ndarray<?xf32>, %y: !qd.ndarray<?xf32>, %s: i32, %o: i32) {
    %c0 = arith.constant 0 : i32
    %n = qd.ndarray_shape %y, 0 : !qd.ndarray<?xf32>
    qd.range_for %i = %c0 to %n : i32 {
      %m = arith.muli %i, %s : i32
      %j = arith.addi %m, %o : i32
      %v = qd.ndarray_load %x[%j] : !qd.ndarray<?xf32>
      %c = arith.constant 1.5 : f32
      %w = arith.mulf %v, %c : f32
      qd.ndarray_store %w, %y[%i] : !qd.ndarray<?xf32>
    }
  }
}"#;

/// x has 50 elements, y 37 (two full groups of 16 and a tail, or four of 8 and a tail).
const NX: usize = 50;
const NY: usize = 37;

/// (s, o, in bounds).
const CASES: [(i32, i32, bool); 9] = [
    (1, 0, true),
    (1, 13, true),
    (-1, 36, true),
    (1, 14, false),           // thread 36 (the tail) reads x[50]
    (-1, 35, false),          // thread 36 reads x[-1]
    (2, 0, false),            // thread 25, in the middle of a group, reads x[50]
    (1, -1, false),           // thread 0 reads x[-1]
    (1, 2147483640, false),   // thread 0 reads x[2^31 - 8]; the index wraps at thread 8
    (-1, -2147483644, false), // thread 0 reads x[-2^31 + 4]; the index wraps at thread 5
];

/// Runs case (s, o) on `p`: y and the errors, as text.
fn launch(p: &mut Program, s: i32, o: i32) -> (Vec<f64>, Vec<String>) {
    let xs: Vec<f64> = (0..NX).map(|i| i as f64 * 0.25 - 3.0).collect();
    let x = p.add_ndarray(Ndarray::from_f64(DType::F32, &[NX], &xs).unwrap());
    let y = p.add_ndarray(Ndarray::zeros(DType::F32, &[NY]).unwrap());
    let args = [
        Arg::Ndarray(x),
        Arg::Ndarray(y),
        Arg::Scalar(Scalar::I32(s)),
        Arg::Scalar(Scalar::I32(o)),
    ];
    let errors = run(p, "k", &args);
    let ys = p.ndarray(y).unwrap().to_f64_vec();
    let errors = errors
        .iter()
        .map(|e| format!("{:?}: {}", e.kind, e.message))
        .collect();
    (ys, errors)
}

#[test]
fn linear_ndarray_indices_are_checked_and_read_as_the_reference_does_on_every_device() {
    let mut reference = program_on(SRC, interp());
    let want: Vec<_> = CASES
        .iter()
        .map(|&(s, o, _)| launch(&mut reference, s, o))
        .collect();
    for (&(s, o, ok), (ys, errors)) in CASES.iter().zip(&want) {
        assert_eq!(errors.is_empty(), ok, "reference, s {s}, o {o}: {errors:?}");
        if ok {
            assert_eq!(ys[1], ((s + o) as f64 * 0.25 - 3.0) * 1.5);
        }
    }
    for c in configs() {
        // Only devices that check every ndarray index report the out-of-bounds cases.
        let checks =
            c.name.starts_with("interp") || (c.name == "cpu" && !c.label.contains("no bounds"));
        let Some(dev) = c.device() else { continue };
        let mut p = program_on(SRC, dev);
        for (&(s, o, ok), (ys, errors)) in CASES.iter().zip(&want) {
            if !ok && !checks {
                continue;
            }
            let (got_ys, got_errors) = launch(&mut p, s, o);
            assert_eq!(&got_errors, errors, "{}: s {s}, o {o}", c.label);
            if ok {
                assert_eq!(&got_ys, ys, "{}: s {s}, o {o}", c.label);
            }
        }
    }
}
