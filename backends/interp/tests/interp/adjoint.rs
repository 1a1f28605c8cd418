//! The ad ops on the interpreter (adjoint fields and adjoint ndarrays), and a hand-written
//! gradient kernel (lit-tests/e2e/handwritten_grad.mlir: the reverse of examples/dynamic_loop.mlir
//! with an adstack holding v per iteration) run end to end: gradient values, overflow with a
//! forced ad_stack_size, reset.

use super::common::*;
use qd_interp::InterpOptions;
use qd_runtime::{Arg, DType, Ndarray, ProgramConfig, RuntimeErrorKind};

const FIELDS: &str = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f64> {needs_grad}
qd.field @r : !qd.field<2xf32>
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %g = ad.load_field_adjoint @x[%i] : f32
    %two = arith.constant 2.0 : f32
    %h = arith.mulf %g, %two : f32
    ad.acc_field_adjoint %h, @x[%i] : f32
    %dy = ad.load_field_adjoint @y[] : f64
    %one = arith.constant 1.0 : f64
    ad.acc_field_adjoint %one, @y[] : f64
  }
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %seven = arith.constant 7.0 : f32
  %v = ad.load_field_adjoint @x[%c1] : f32
  qd.store %v, @r[%c0] : f32
  ad.store_field_adjoint %seven, @x[%c1] : f32
}
"#;

#[test]
fn field_adjoints_load_accumulate_and_store() {
    let mut p = program(FIELDS);
    p.write_f64("x.grad", &[1.0, 2.0, 3.0, 4.0]).unwrap();
    p.write_f64("y.grad", &[0.5]).unwrap();
    run_ok(&mut p, "k", &[]);
    // x.grad[i] += 2 x.grad[i], then x.grad[1] := 7; y.grad += 1 per thread; primal fields
    // untouched.
    assert_eq!(p.read_f64("x.grad").unwrap(), vec![3.0, 7.0, 9.0, 12.0]);
    assert_eq!(p.read_f64("y.grad").unwrap(), vec![4.5]);
    assert_eq!(p.read_f64("r").unwrap(), vec![6.0, 0.0]);
    assert_eq!(p.read_f64("x").unwrap(), vec![0.0; 4]);
}

#[test]
fn adjoint_field_indices_are_checked() {
    let src = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.kernel @k(%i: i32) {
  %one = arith.constant 1.0 : f32
  ad.acc_field_adjoint %one, @x[%i] : f32
}
"#;
    let mut p = program(src);
    let e = run_err(&mut p, "k", &[Arg::Scalar(qd_runtime::Scalar::I32(4))]);
    assert_eq!(e.kind, RuntimeErrorKind::OutOfBounds);
    assert_eq!(
        e.message,
        "index [4] is out of bounds for field @x.grad of shape [4]"
    );
    assert_eq!(line_of(&e), 5);
}

const NDARRAY: &str = r#"
qd.kernel @k(%a: !qd.ndarray<?x?xf32>, %da: !qd.ndarray<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?x?xf32>
  qd.range_for %i = %c0 to %n : i32 {
    %v = qd.ndarray_load %a[%i, %c1] : !qd.ndarray<?x?xf32>
    ad.acc_ndarray_adjoint %v, %da[%i, %c1] : !qd.ndarray<?x?xf32>
    ad.acc_ndarray_adjoint %v, %da[%i, %c1] : !qd.ndarray<?x?xf32>
  }
  %c9 = arith.constant 9 : i32
  %one = arith.constant 1.0 : f32
  ad.acc_ndarray_adjoint %one, %da[%c9, %c0] : !qd.ndarray<?x?xf32>
}
"#;

#[test]
fn ndarray_adjoints_accumulate_and_check_indices() {
    let mut p = program(NDARRAY);
    let a = p.add_ndarray(Ndarray::from_f64(DType::F32, &[2, 2], &[1.0, 2.0, 3.0, 4.0]).unwrap());
    let da = p.add_ndarray(Ndarray::from_f64(DType::F32, &[2, 2], &[0.0, 0.5, 0.0, 0.25]).unwrap());
    let e = run_err(&mut p, "k", &[Arg::Ndarray(a), Arg::Ndarray(da)]);
    assert_eq!(
        e.message,
        "index [9, 0] is out of bounds for adjoint ndarray argument 1 of shape [2, 2]"
    );
    assert_eq!(line_of(&e), 13);
    assert_eq!(
        p.ndarray(da).unwrap().to_f64_vec(),
        vec![0.0, 4.5, 0.0, 8.25]
    );
}

fn grad_source() -> String {
    let path = format!(
        "{}/../../lit-tests/e2e/handwritten_grad.mlir",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs `compute` then `compute_grad` with y.grad = 1, n and x = linspace(0, 1.5, 16).
fn forward_and_back(
    p: &mut qd_runtime::Program,
    n: f64,
) -> Result<(), Vec<qd_runtime::RuntimeError>> {
    p.write_f64("n", &[n]).unwrap();
    let xs: Vec<f64> = linspace_f32(0.0, 1.5, 16)
        .iter()
        .map(|&x| x as f64)
        .collect();
    p.write_f64("x", &xs).unwrap();
    p.write_f64("y", &[0.0]).unwrap();
    p.clear_grads();
    run(p, "compute", &[])?;
    p.write_f64("y.grad", &[1.0]).unwrap();
    run(p, "compute_grad", &[])
}

#[test]
fn the_handwritten_gradient_of_dynamic_loop_is_095_to_the_n() {
    let mut p = program_with(&grad_source(), InterpOptions::default());
    forward_and_back(&mut p, 512.0).unwrap();
    let want = 0.95f64.powi(512);
    for g in p.read_f64("x.grad").unwrap() {
        assert!(((g - want) / want).abs() < 1e-4, "{g} vs {want}");
    }
    // The gradient kernel never writes primal fields.
    assert!((p.read_f64("y").unwrap()[0] - 3.2).abs() < 1e-4);
}

#[test]
fn a_forced_stack_size_too_small_overflows_then_a_fitting_launch_is_clean() {
    let src = grad_source();
    let line = src
        .lines()
        .position(|l| l.contains("adstack.alloca"))
        .unwrap() as u32
        + 1;
    let config = ProgramConfig {
        ad_stack_size: Some(32),
        ..ProgramConfig::default()
    };
    let mut p = program_config(&src, InterpOptions::default(), config);
    let errs = forward_and_back(&mut p, 512.0).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    let e = &errs[0];
    assert_eq!(e.kind, RuntimeErrorKind::AdstackOverflow);
    assert_eq!(e.kernel, "compute_grad");
    assert_eq!(line_of(e), line);
    let col = e.position.as_ref().unwrap().2;
    assert_eq!(
        e.message,
        format!(
            "adstack overflow in kernel 'compute_grad': stack at test.mlir:{line}:{col} \
             exceeded its capacity of 32"
        )
    );
    // The flag was reset: 32 iterations fit in 32 entries.
    forward_and_back(&mut p, 32.0).unwrap();
    let want = 0.95f64.powi(32);
    for g in p.read_f64("x.grad").unwrap() {
        assert!(((g - want) / want).abs() < 1e-5, "{g} vs {want}");
    }
}
