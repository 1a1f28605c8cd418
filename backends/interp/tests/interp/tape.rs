//! The runtime's `Tape` on the interpreter: sequences of launches differentiated as a whole
//! (forward in order, gradients last to first) against central finite differences in f64, with
//! the snapshots that give each gradient launch the memory its forward launch left.

use super::common::*;
use qd_runtime::{Arg, DType, Ndarray, NdarrayId, Program, Scalar, Tape, TapeError, WriteSet};

/// `set_n` changes the trip count of `step`'s serial loop; `step` maps a[i] to b[i] through
/// n steps of v <- v - 0.1 v^2 (a recurrence whose reverse needs every v: one adstack of depth
/// about n).
const TRIP: &str = "module {
  qd.field @n : !qd.field<i32>
  qd.kernel @set_n(%m: i32) {
    qd.store %m, @n[] : i32
  }
  qd.kernel @step(%a: !qd.ndarray<?xf64>, %b: !qd.ndarray<?xf64>) {
    %c0 = arith.constant 0 : i32
    %len = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf64>
    qd.range_for %i = %c0 to %len : i32 {
      %a_i = qd.ndarray_load %a[%i] : !qd.ndarray<?xf64>
      %v = qd.alloca : !qd.ptr<f64>
      qd.local_store %a_i, %v : !qd.ptr<f64>
      %n = qd.load @n[] : i32
      qd.range_for %j = %c0 to %n : i32 {
        %t = qd.local_load %v : !qd.ptr<f64>
        %sq = arith.mulf %t, %t : f64
        %k = arith.constant 0.1 : f64
        %d = arith.mulf %sq, %k : f64
        %s = arith.subf %t, %d : f64
        qd.local_store %s, %v : !qd.ptr<f64>
      }
      %r = qd.local_load %v : !qd.ptr<f64>
      qd.ndarray_store %r, %b[%i] : !qd.ndarray<?xf64>
    }
  }
}
";

const A: [f64; 4] = [0.3, 0.7, -0.4, 1.1];
const SEED: [f64; 4] = [1.0, -0.5, 2.0, 0.25];

fn nd(p: &mut Program, v: &[f64]) -> NdarrayId {
    p.add_ndarray(Ndarray::from_f64(DType::F64, &[v.len()], v).unwrap())
}

fn n(m: i32) -> Arg {
    Arg::Scalar(Scalar::I32(m))
}

/// set_n(3), step(a, b), set_n(5), step(b, c): c = f5(f3(a)).
fn record(p: &mut Program, tape: &mut Tape, a: &[f64]) -> (NdarrayId, NdarrayId, NdarrayId) {
    let (a, b, c) = (nd(p, a), nd(p, &[0.0; 4]), nd(p, &[0.0; 4]));
    tape.launch(p, "set_n", &[n(3)]).unwrap();
    tape.launch(p, "step", &[Arg::Ndarray(a), Arg::Ndarray(b)])
        .unwrap();
    tape.launch(p, "set_n", &[n(5)]).unwrap();
    tape.launch(p, "step", &[Arg::Ndarray(b), Arg::Ndarray(c)])
        .unwrap();
    (a, b, c)
}

fn f(v: f64, steps: usize) -> f64 {
    (0..steps).fold(v, |v, _| v - 0.1 * v * v)
}

#[test]
fn a_trip_count_changed_between_launches_resizes_each_gradient_launchs_stacks() {
    let mut p = program(TRIP);
    let mut tape = Tape::new();
    let (a, b, c) = record(&mut p, &mut tape, &A);
    p.sync().unwrap();
    let got = p.ndarray(c).unwrap().to_f64_vec();
    for (g, x) in got.iter().zip(A) {
        assert!((g - f(f(x, 3), 5)).abs() < 1e-15, "{got:?}");
    }
    tape.seed(&mut p, c, &SEED).unwrap();
    tape.backward(&mut p).unwrap();
    let da = p
        .ndarray(tape.existing_adjoint(a).unwrap())
        .unwrap()
        .to_f64_vec();

    // Central differences of L = sum(seed * c) over the whole sequence, each from fresh data.
    let loss = |a: &[f64]| {
        let mut p = program(TRIP);
        let mut tape = Tape::new();
        let (_, _, c) = record(&mut p, &mut tape, a);
        p.sync().unwrap();
        let c = p.ndarray(c).unwrap().to_f64_vec();
        c.iter().zip(SEED).map(|(c, s)| c * s).sum::<f64>()
    };
    let h = 1e-5;
    for e in 0..4 {
        let (mut hi, mut lo) = (A, A);
        hi[e] += h;
        lo[e] -= h;
        let fd = (loss(&hi) - loss(&lo)) / (2.0 * h);
        assert!(
            (da[e] - fd).abs() <= 1e-6 * fd.abs() + 1e-9,
            "a.grad[{e}] = {}, finite difference {fd}",
            da[e]
        );
        assert!(fd.abs() > 0.01, "{fd}");
    }

    // Each gradient launch of @step was sized from the n its forward launch saw.
    let depth = |i: usize| {
        let plan = tape.gradient_plan(i).expect("a gradient launch");
        assert_eq!(plan.kernel, "step_grad");
        assert_eq!(plan.stacks.len(), 1, "{plan:?}");
        plan.stacks[0].depth
    };
    let (first, second) = (depth(1), depth(3));
    assert!(first < second, "n = 3: {first}, n = 5: {second}");
    assert_eq!(second - first, 2);
    // The primal data ends as the forward pass left it: n = 5, b and c computed.
    assert_eq!(p.read_f64("n").unwrap(), vec![5.0]);
    assert_eq!(p.ndarray(c).unwrap().to_f64_vec(), got);
    let bs = p.ndarray(b).unwrap().to_f64_vec();
    assert!((bs[0] - f(A[0], 3)).abs() < 1e-15);
    // Snapshots: none before the first launch; b (32 bytes) before step(a, b), n (4) before
    // set_n(5), c (32) before step(b, c).
    assert_eq!(tape.snapshot_bytes(), 32 + 4 + 32);
}

/// `sq` reads x; `clobber`, launched after it, overwrites x. Without the snapshot, sq's
/// gradient would replay on x = 7.
const CLOBBER: &str = "module {
  qd.field @x : !qd.field<3xf64> {needs_grad}
  qd.field @y : !qd.field<3xf64> {needs_grad}
  qd.kernel @sq() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f64
      %s = arith.mulf %v, %v : f64
      qd.store %s, @y[%i] : f64
    }
  }
  qd.kernel @clobber() {
    qd.struct_for (%i) in @x {
      %c = arith.constant 7.0 : f64
      qd.store %c, @x[%i] : f64
    }
  }
}
";

#[test]
fn a_later_launch_that_overwrites_an_input_is_undone_for_the_earlier_gradient() {
    let mut p = program(CLOBBER);
    p.write_f64("x", &[0.5, -1.5, 2.0]).unwrap();
    let mut tape = Tape::new();
    tape.launch(&mut p, "sq", &[]).unwrap();
    tape.launch(&mut p, "clobber", &[]).unwrap();
    let clobber = tape.kernel(1).unwrap();
    assert_eq!(
        tape.kernel_write_set(clobber),
        Some(&WriteSet {
            fields: vec![0],
            params: vec![]
        })
    );
    p.write_f64("y.grad", &[1.0, 2.0, 3.0]).unwrap();
    tape.backward(&mut p).unwrap();
    assert_eq!(p.read_f64("x.grad").unwrap(), vec![1.0, -6.0, 12.0]);
    // After the pass, x is as the forward pass left it.
    assert_eq!(p.read_f64("x").unwrap(), vec![7.0; 3]);
    assert_eq!(p.read_f64("y").unwrap(), vec![0.25, 2.25, 4.0]);
    // The gradient of the store zeroed y's adjoint.
    assert_eq!(p.read_f64("y.grad").unwrap(), vec![0.0; 3]);
    // A second pass replays the same memory: clobber's gradient zeroes x.grad (what x held
    // before the store is dead), then sq's adds the same gradient again.
    p.write_f64("y.grad", &[1.0, 2.0, 3.0]).unwrap();
    tape.backward(&mut p).unwrap();
    assert_eq!(p.read_f64("x.grad").unwrap(), vec![1.0, -6.0, 12.0]);
}

/// `first` writes b from a, `second` reads b and accumulates into a scalar field: a's gradient
/// comes through b's adjoint ndarray.
const CHAIN: &str = "module {
  qd.field @loss : !qd.field<f64> {needs_grad}
  qd.kernel @first(%a: !qd.ndarray<?xf64>, %b: !qd.ndarray<?xf64>) {
    %c0 = arith.constant 0 : i32
    %len = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf64>
    qd.range_for %i = %c0 to %len : i32 {
      %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf64>
      %s = math.sin %v : f64
      qd.ndarray_store %s, %b[%i] : !qd.ndarray<?xf64>
    }
  }
  qd.kernel @second(%b: !qd.ndarray<?xf64>) {
    %c0 = arith.constant 0 : i32
    %len = qd.ndarray_shape %b, 0 : !qd.ndarray<?xf64>
    qd.range_for %i = %c0 to %len : i32 {
      %v = qd.ndarray_load %b[%i] : !qd.ndarray<?xf64>
      %s = arith.mulf %v, %v : f64
      qd.atomic_add %s, @loss[] : f64
    }
  }
}
";

#[test]
fn adjoints_flow_through_ndarrays_from_one_gradient_launch_to_the_one_before() {
    let mut p = program(CHAIN);
    let a = nd(&mut p, &[0.1, 0.2, 0.3]);
    let b = nd(&mut p, &[0.0; 3]);
    let mut tape = Tape::new();
    tape.launch(&mut p, "first", &[Arg::Ndarray(a), Arg::Ndarray(b)])
        .unwrap();
    tape.launch(&mut p, "second", &[Arg::Ndarray(b)]).unwrap();
    assert_eq!(tape.len(), 2);
    assert_eq!(
        tape.kernel_write_set(tape.kernel(0).unwrap()),
        Some(&WriteSet {
            fields: vec![],
            params: vec![1]
        })
    );
    p.write_f64("loss.grad", &[1.0]).unwrap();
    tape.backward(&mut p).unwrap();
    let da = p
        .ndarray(tape.existing_adjoint(a).unwrap())
        .unwrap()
        .to_f64_vec();
    for (i, x) in [0.1f64, 0.2, 0.3].into_iter().enumerate() {
        let want = 2.0 * x.sin() * x.cos();
        assert!((da[i] - want).abs() < 1e-15, "{da:?}");
    }
    // b's adjoint was consumed by first's store.
    let db = tape.existing_adjoint(b).unwrap();
    assert_eq!(p.ndarray(db).unwrap().to_f64_vec(), vec![0.0; 3]);
    tape.release(&mut p);
    assert!(p.ndarray(db).is_err());
}

#[test]
fn bad_launches_and_seeds_are_errors_and_record_nothing() {
    let mut p = program(CHAIN);
    let a = nd(&mut p, &[0.1, 0.2, 0.3]);
    let mut tape = Tape::new();
    let e = tape.launch(&mut p, "nope", &[]).unwrap_err();
    assert!(e.to_string().contains("unknown kernel 'nope'"), "{e}");
    let e = tape.launch(&mut p, "second", &[]).unwrap_err();
    assert!(matches!(e, TapeError::Api(_)), "{e:?}");
    assert!(e.to_string().contains("takes 1 argument, got 0"), "{e}");
    assert!(tape.is_empty());
    let e = tape.seed(&mut p, a, &[1.0]).unwrap_err();
    assert!(
        e.to_string()
            .contains("has 1 value, the ndarray 3 elements"),
        "{e}"
    );
    // A runtime error of a recorded launch comes back at the next launch's sync.
    let short = nd(&mut p, &[0.0]);
    tape.launch(&mut p, "first", &[Arg::Ndarray(a), Arg::Ndarray(short)])
        .unwrap();
    let e = tape
        .launch(&mut p, "second", &[Arg::Ndarray(a)])
        .unwrap_err();
    assert!(matches!(e, TapeError::Runtime(_)), "{e:?}");
    assert!(e.to_string().contains("out of bounds"), "{e}");
}
