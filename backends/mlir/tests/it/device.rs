//! The mlir-cpu device against the interpreter: values bit for bit (threads run in the
//! interpreter's order, so float atomics add in its order), gradients with adstacks, overflow at
//! sync, and runtime errors with the interpreter's message.

use super::common::*;
use qd_runtime::{Arg, DType, Device, Ndarray, Program, ProgramConfig, Scalar};

/// A kernel with a bit of everything the export handles: fields and their adjoints, an ndarray,
/// a loop-carried local (an adstack in the gradient), a local array and struct, a while, an if,
/// integer division, a shift, a cast, an atomic add.
const SRC: &str = r#"module {
  qd.field @x : !qd.field<8xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.field @n : !qd.field<8xi32>
  qd.kernel @k(%a: !qd.ndarray<?xf32>, %m: i32) {
    qd.struct_for (%i) in @x {
      %xi = qd.load @x[%i] : f32
      %ai = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %s = qd.alloca : !qd.ptr<f32>
      qd.local_store %xi, %s : !qd.ptr<f32>
      %arr = qd.alloca : !qd.ptr<!qd.array<4xf32>>
      %st = qd.alloca : !qd.ptr<!qd.struct<i32, f32>>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %trip = arith.remsi %i, %c3 : i32
      %t1 = arith.addi %trip, %c1 : i32
      qd.range_for %j = %c0 to %t1 : i32 {
        %o = qd.local_load %s : !qd.ptr<f32>
        %sn = math.sin %o : f32
        %p = arith.mulf %sn, %ai : f32
        %r = arith.addf %o, %p : f32
        qd.local_store %r, %s : !qd.ptr<f32>
        %e = qd.elem_ptr %arr[%j] : !qd.ptr<!qd.array<4xf32>>
        qd.local_store %r, %e : !qd.ptr<f32>
      }
      %q = arith.divsi %i, %m : i32
      %sh = arith.shli %q, %c1 : i32
      %mp = qd.member_ptr %st[0] : !qd.ptr<!qd.struct<i32, f32>>
      qd.local_store %sh, %mp : !qd.ptr<i32>
      %back = qd.local_load %mp : !qd.ptr<i32>
      qd.store %back, @n[%i] : i32
      %e0 = qd.elem_ptr %arr[%c0] : !qd.ptr<!qd.array<4xf32>>
      %first = qd.local_load %e0 : !qd.ptr<f32>
      %f = qd.local_load %s : !qd.ptr<f32>
      %pos = arith.cmpf ogt, %f, %first : f32
      qd.if %pos {
        %sq = arith.mulf %f, %f : f32
        qd.atomic_add %sq, @y[] : f32
      } else {
        qd.atomic_add %f, @y[] : f32
      }
    }
  }
}"#;

fn args(p: &mut Program, m: i32) -> Vec<Arg> {
    let values: Vec<f64> = (0..8).map(|i| 0.3 + 0.1 * f64::from(i)).collect();
    let a = Ndarray::from_f64(DType::F32, &[8], &values).unwrap();
    vec![Arg::Ndarray(p.add_ndarray(a)), Arg::Scalar(Scalar::I32(m))]
}

fn setup(p: &mut Program) {
    let x: Vec<f64> = (0..8).map(|i| -1.0 + 0.25 * f64::from(i)).collect();
    p.write_f64("x", &x).unwrap();
}

/// Runs @k forward, then its gradient seeded at y; the printed fields.
fn forward_and_gradient(p: &mut Program) -> Vec<(String, Vec<u64>)> {
    setup(p);
    let a = args(p, 2);
    run(p, "k", &a).unwrap_or_else(|e| panic!("{e:?}"));
    let mut out = vec![("y".to_string(), bits(p, "y")), ("n".into(), bits(p, "n"))];
    p.write_f64("y.grad", &[1.0]).unwrap();
    let g = p.gradient("k").unwrap();
    p.launch_grad(&g, &a).unwrap();
    p.sync().unwrap_or_else(|e| panic!("{e:?}"));
    out.push(("x.grad".into(), bits(p, "x.grad")));
    out
}

#[test]
fn a_kernel_and_its_gradient_match_the_interpreter_bit_for_bit() {
    let mut want = interp(SRC, ProgramConfig::default());
    let mut got = mlir(SRC, ProgramConfig::default());
    let (w, g) = (
        forward_and_gradient(&mut want),
        forward_and_gradient(&mut got),
    );
    assert_eq!(g, w);
    // The gradient is not trivially zero.
    assert!(w[2].1.iter().any(|&b| f64::from_bits(b) != 0.0));
}

#[test]
fn an_overflow_is_reported_at_sync_and_a_later_sync_is_clean() {
    let config = || ProgramConfig {
        ad_stack_size: Some(1),
        ..Default::default()
    };
    let mut errors = Vec::new();
    for mut p in [interp(SRC, config()), mlir(SRC, config())] {
        setup(&mut p);
        let a = args(&mut p, 2);
        run(&mut p, "k", &a).unwrap();
        p.write_f64("y.grad", &[1.0]).unwrap();
        let g = p.gradient("k").unwrap();
        p.launch_grad(&g, &a).unwrap();
        let e = p.sync().expect_err("the stacks of 1 entry overflow");
        assert!(p.sync().is_ok(), "a later sync is clean");
        errors.push(format!("{e:?}"));
    }
    assert!(
        errors[0].contains("exceeded its capacity of 1"),
        "{}",
        errors[0]
    );
    assert_eq!(errors[1], errors[0]);
}

/// What errors say: kind, kernel, source position and message (not how a device coded them).
fn said(errors: &[qd_runtime::RuntimeError]) -> String {
    errors
        .iter()
        .map(|e| format!("{:?} {} {:?} {}", e.kind, e.kernel, e.position, e.message))
        .collect()
}

#[test]
fn runtime_errors_are_the_interpreters() {
    // A division by zero (m = 0), then an index out of bounds (a is shorter than @x).
    let mut want = interp(SRC, ProgramConfig::default());
    let mut got = mlir(SRC, ProgramConfig::default());
    let mut msgs = Vec::new();
    for p in [&mut want, &mut got] {
        setup(p);
        let a = args(p, 0);
        let e = run(p, "k", &a).expect_err("divides by zero");
        msgs.push(said(&e));
        let short = Ndarray::from_f64(DType::F32, &[5], &[1.0; 5]).unwrap();
        let short = vec![
            Arg::Ndarray(p.add_ndarray(short)),
            Arg::Scalar(Scalar::I32(1)),
        ];
        let e = run(p, "k", &short).expect_err("out of bounds");
        msgs.push(said(&e));
    }
    assert!(msgs[0].contains("integer division by zero"), "{}", msgs[0]);
    assert!(msgs[1].contains("out of bounds"), "{}", msgs[1]);
    assert_eq!(msgs[2], msgs[0]);
    assert_eq!(msgs[3], msgs[1]);
}

#[test]
fn the_device_is_named_and_lowers_as_cpu() {
    let d = qd_mlir::MlirCpuDevice::new();
    assert_eq!(d.name(), "mlir-cpu");
    assert_eq!(
        d.lowering_pipeline(),
        "builtin.module(convert-qd-to-lowered{check-bounds=false})"
    );
    let d = d.with_check_bounds(true);
    assert_eq!(
        d.lowering_pipeline(),
        "builtin.module(convert-qd-to-lowered)"
    );
}
