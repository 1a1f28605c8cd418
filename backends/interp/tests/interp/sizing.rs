//! Per-launch adstack sizing on the interpreter: each stack gets exactly the depth its
//! `size_expr` evaluates to for the launch's data (fields, ndarray arguments), so a push past it
//! overflows; the forced size and `max_size`; launches whose stacks cannot be sized; the peak
//! statistic.

use super::common::*;
use qd_interp::InterpOptions;
use qd_runtime::{
    Arg, DType, DepthSource, Error, Ndarray, Program, ProgramConfig, RuntimeErrorKind, Scalar,
};

/// Pushes `@n + @extra` values on a stack sized `@n[]:i32`, then stores the top in @r.
const SIZED: &str = r#"
qd.field @n : !qd.field<i32>
qd.field @extra : !qd.field<i32>
qd.field @r : !qd.field<f32>
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %n = qd.load @n[] : i32
  %e = qd.load @extra[] : i32
  %s = adstack.alloca : f32 {size_expr = #adstack.size<@n[]:i32>}
  qd.range_for %j = %c0 to %n : i32 {
    %v = arith.sitofp %j : i32 to f32
    adstack.push %s, %v : f32
  }
  qd.range_for %j = %c0 to %e : i32 {
    %big = arith.constant 1000.0 : f32
    adstack.push %s, %big : f32
  }
  %t = adstack.load_top %s : f32
  qd.store %t, @r[] : f32
}
"#;

fn sized(n: i32, extra: i32) -> Program {
    let mut p = program(SIZED);
    p.write_f64("n", &[n as f64]).unwrap();
    p.write_f64("extra", &[extra as f64]).unwrap();
    p
}

#[test]
fn each_stack_gets_exactly_its_evaluated_depth() {
    let mut p = sized(37, 0);
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.read_f64("r").unwrap(), vec![36.0]);
    let k = p.kernel("k").unwrap();
    let plan = p.last_adstack_plan(k).unwrap().clone();
    assert_eq!(plan.kernel, "k");
    let s = &plan.stacks[0];
    assert_eq!((s.id, s.depth, s.source), (0, 37, DepthSource::SizeExpr));
    assert!(!s.inferred);
    assert_eq!(s.size_expr.as_ref().unwrap().to_string(), "@n[]:i32");
    // f32: primal and adjoint per entry, plus the 8-byte count.
    assert_eq!(s.bytes_per_thread, 8 + 37 * 8);
    assert_eq!(plan.bytes_per_thread(), 8 + 37 * 8);
    // The exact need: the peak is the depth.
    assert_eq!(p.adstack_peaks(k), Some(vec![37]));
}

#[test]
fn one_push_past_the_evaluated_depth_overflows() {
    let mut p = sized(37, 1);
    let e = run_err(&mut p, "k", &[]);
    assert_eq!(e.kind, RuntimeErrorKind::AdstackOverflow);
    assert_eq!(line_of(&e), 9);
    assert!(
        e.message.ends_with("exceeded its capacity of 37"),
        "{}",
        e.message
    );
    // The extra push wrote nothing, yet the peak counts it: the stack needed 38.
    assert_eq!(p.read_f64("r").unwrap(), vec![36.0]);
    let k = p.kernel("k").unwrap();
    assert_eq!(p.adstack_peaks(k), Some(vec![38]));
    let plan = p.last_adstack_plan(k).unwrap();
    assert_eq!(
        (plan.stacks[0].depth, plan.stacks[0].measured_peak),
        (37, Some(38))
    );
}

#[test]
fn the_depth_is_evaluated_again_at_every_launch() {
    let mut p = sized(3, 0);
    let k = p.kernel("k").unwrap();
    for n in [3, 700, 0, 5] {
        p.write_f64("n", &[n as f64]).unwrap();
        run_ok(&mut p, "k", &[]);
        assert_eq!(p.last_adstack_plan(k).unwrap().depth(0), Some(n));
        assert_eq!(p.adstack_peaks(k), Some(vec![n]));
    }
    // A negative value asks for nothing.
    p.write_f64("n", &[-4.0]).unwrap();
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.last_adstack_plan(k).unwrap().depth(0), Some(0));
    // The plan can be asked for without launching.
    p.write_f64("n", &[9.0]).unwrap();
    assert_eq!(p.adstack_plan(k, &[]).unwrap().depth(0), Some(9));
    assert_eq!(p.last_adstack_plan(k).unwrap().depth(0), Some(0));
}

#[test]
fn the_forced_size_overrides_the_size_expr() {
    let config = ProgramConfig {
        ad_stack_size: Some(40),
        ..ProgramConfig::default()
    };
    let mut p = program_config(SIZED, InterpOptions::default(), config);
    p.write_f64("n", &[37.0]).unwrap();
    p.write_f64("extra", &[3.0]).unwrap();
    run_ok(&mut p, "k", &[]);
    let k = p.kernel("k").unwrap();
    let s = &p.last_adstack_plan(k).unwrap().stacks[0];
    assert_eq!((s.depth, s.source), (40, DepthSource::Forced));
    assert_eq!(p.adstack_peaks(k), Some(vec![40]));
}

#[test]
fn the_size_expr_wins_over_max_size() {
    let src = SIZED.replace("{size_expr", "{max_size = 2, size_expr");
    let mut p = program(&src);
    p.write_f64("n", &[5.0]).unwrap();
    run_ok(&mut p, "k", &[]);
    let k = p.kernel("k").unwrap();
    assert_eq!(p.last_adstack_plan(k).unwrap().depth(0), Some(5));
    // max_size alone: its value.
    let src = SIZED.replace("{size_expr = #adstack.size<@n[]:i32>}", "{max_size = 2}");
    let mut p = program(&src);
    p.write_f64("n", &[5.0]).unwrap();
    run_err(&mut p, "k", &[]);
    let s = &p.last_adstack_plan(k).unwrap().stacks[0];
    assert_eq!((s.depth, s.source), (2, DepthSource::MaxSize));
}

/// Thread i pushes a[i] values: the stack's depth is the largest a[i], read at launch.
const PER_THREAD: &str = r#"
qd.field @r : !qd.field<4xi32>
qd.kernel @k(%a: !qd.ndarray<?xi32>, %flags: !qd.ndarray<?xi1>) {
  qd.struct_for (%i) in @r {
    %s = adstack.alloca : i32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0]))>}
    %b = adstack.alloca : i1 {size_expr = #adstack.size<arg1.shape[0]>}
    %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      adstack.push %s, %j : i32
    }
    %t = adstack.load_top %s : i32
    qd.store %t, @r[%i] : i32
  }
}
"#;

#[test]
fn ndarray_arguments_size_per_thread_stacks() {
    let mut p = program(PER_THREAD);
    let a = p.add_ndarray(Ndarray::from_f64(DType::I32, &[4], &[1.0, 5.0, 2.0, 0.0]).unwrap());
    let b = p.add_ndarray(Ndarray::zeros(DType::I1, &[3]).unwrap());
    let args = [Arg::Ndarray(a), Arg::Ndarray(b)];
    run_ok(&mut p, "k", &args);
    assert_eq!(p.field("r").unwrap().as_i32().unwrap(), &[0, 4, 1, 0]);
    let k = p.kernel("k").unwrap();
    let plan = p.last_adstack_plan(k).unwrap();
    assert_eq!(plan.depth(0), Some(5));
    assert_eq!(plan.depth(1), Some(3));
    // i32: the primal only; i1: one byte in the host layout.
    assert_eq!(plan.stacks[0].bytes_per_thread, 8 + 5 * 4);
    assert_eq!(plan.stacks[1].bytes_per_thread, 8 + 3);
    assert_eq!(plan.bytes_per_thread(), 28 + 11);
    assert_eq!(p.adstack_peaks(k), Some(vec![5, 0]));
}

/// The launch error of a stack that cannot be sized: located at the alloca, naming the kernel.
fn sizing_error(p: &mut Program, args: &[Arg]) -> String {
    let k = p.kernel("k").unwrap();
    let e = p.launch(k, args).unwrap_err();
    let Error::Diagnostics(d) = &e else {
        panic!("{e:?}")
    };
    assert_eq!(d.len(), 1);
    assert_eq!(p.context().file_line_col(d[0].loc).map(|l| l.1), Some(5));
    // Nothing ran, and nothing waits for the sync.
    assert_eq!(p.pending_errors(), 0);
    assert!(p.sync().is_ok());
    d[0].message.clone()
}

#[test]
fn a_stack_that_cannot_be_sized_fails_the_launch_before_anything_runs() {
    let mut p = program(PER_THREAD);
    let b = p.add_ndarray(Ndarray::zeros(DType::I1, &[3]).unwrap());
    p.write_scalars("r", &[Scalar::I32(-1); 4]).unwrap();
    // A rank-2 ndarray for argument 0 is refused by the argument check, before sizing.
    let wrong = p.add_ndarray(Ndarray::zeros(DType::I32, &[2, 2]).unwrap());
    let k = p.kernel("k").unwrap();
    assert!(matches!(
        p.launch(k, &[Arg::Ndarray(wrong), Arg::Ndarray(b)]),
        Err(Error::ArgType { index: 0, .. })
    ));
    assert_eq!(p.field("r").unwrap().as_i32().unwrap(), &[-1; 4]);

    // A MaxOverRange over more values than the evaluator's cap.
    let src = PER_THREAD.replace(
        "max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0]))",
        "max(v0 for v0 in range(0, arg0.shape[0] * 1000000))",
    );
    let mut p = program(&src);
    let a2 = p.add_ndarray(Ndarray::zeros(DType::I32, &[17]).unwrap());
    let b2 = p.add_ndarray(Ndarray::zeros(DType::I1, &[3]).unwrap());
    let m = sizing_error(&mut p, &[Arg::Ndarray(a2), Arg::Ndarray(b2)]);
    assert_eq!(
        m,
        "cannot size adstack #0 of kernel @k for this launch: the range of v0, range(0, \
         17000000), needs 17000000 iterations, more than the cap of 16777216 (size_expr: \
         max(v0 for v0 in range(0, arg0.shape[0] * 1000000)))"
    );

    // A read past the end of the data.
    let src = PER_THREAD.replace("arg0.shape[0]))", "5))");
    let mut p = program(&src);
    let a3 = p.add_ndarray(Ndarray::from_f64(DType::I32, &[4], &[1.0, 2.0, 3.0, 4.0]).unwrap());
    let b3 = p.add_ndarray(Ndarray::zeros(DType::I1, &[3]).unwrap());
    let m = sizing_error(&mut p, &[Arg::Ndarray(a3), Arg::Ndarray(b3)]);
    assert!(
        m.starts_with(
            "cannot size adstack #0 of kernel @k for this launch: cannot read arg0[4]: index \
             [4] is out of bounds for shape [4]"
        ),
        "{m}"
    );
}

#[test]
fn size_exprs_that_no_launch_can_evaluate_are_compile_errors() {
    for (expr, want) in [
        ("@m[]:i32", "there is no field @m"),
        ("@r[]:i32", "it reads field @r of rank 1 with 0 indices"),
        (
            "arg2.shape[0]",
            "argument 2 does not exist (the kernel takes 2)",
        ),
        (
            "arg0[0]:i8",
            "it reads argument 0 as i8, but argument 0 holds i32",
        ),
    ] {
        let src = PER_THREAD.replace("arg1.shape[0]>", &format!("{expr}>"));
        let mut p = program(&src);
        let e = p.kernel("k").expect_err(&format!("{expr} must be refused"));
        let d = &e.diagnostics()[0];
        assert_eq!(
            d.message,
            format!("kernel @k: the adstack's size_expr {expr}: {want}")
        );
        assert_eq!(p.context().file_line_col(d.loc).map(|l| l.1), Some(6));
    }
    // i1 values fit any integer read.
    let src = PER_THREAD.replace("arg1.shape[0]>", "arg1[0]:i32>");
    let mut p = program(&src);
    assert!(p.kernel("k").is_ok());
}
