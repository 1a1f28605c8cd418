//! Edge cases: index-typed loop bounds whose trip count goes on a stack, an empty kernel,
//! the gradient kernel leaving primal data alone, loops inside ifs (their counts in locals),
//! and errors reported without building anything.

use super::common::*;
use super::gradcheck::{check, ArgSpec, GradCase, Wrt};
use qd_runtime::{Program, ProgramConfig};

/// A breaking loop with `index` bounds inside another serial loop: its trip count is an index,
/// kept on an i64 stack through index_cast.
const INDEX_BOUNDS: &str = r#"
qd.field @x : !qd.field<2xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k(%n32: i32) {
  qd.struct_for (%i) in @x {
    %n = arith.index_cast %n32 : i32 to index
    %v = qd.alloca : !qd.ptr<f32>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    qd.range_for %r = %c0 to %c3 : index {
      qd.range_for %t = %c0 to %n : index {
        %o = qd.local_load %v : !qd.ptr<f32>
        %s = math.sin %o : f32
        %g = arith.constant 1.25 : f32
        %m = arith.mulf %s, %g : f32
        %a = arith.addf %m, %o : f32
        qd.local_store %a, %v : !qd.ptr<f32>
        %lim = arith.constant 2.5 : f32
        %big = arith.cmpf ogt, %a, %lim : f32
        qd.if %big {
          qd.break
        }
      }
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}
"#;

#[test]
fn index_trip_counts_go_through_i64_stacks() {
    let (ctx, m, _) = differentiate(INDEX_BOUNDS);
    let text = print(&ctx, m);
    assert!(text.contains("adstack.alloca : i64"), "{text}");
    assert!(text.contains("arith.index_cast"), "{text}");
    let case = GradCase::new(INDEX_BOUNDS, "k")
        .field("x", vec![0.3, 1.9])
        .arg(ArgSpec::Scalar(4.0))
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"))
        .step(1e-6);
    // The bound is a scalar argument, outside the sizing grammar: force a capacity.
    let case = GradCase {
        ad_stack_size: Some(64),
        ..case
    };
    check(&case);
}

/// A loop inside an if (no serial loop around): its trip count and taped values are kept in
/// plain locals, not stacks.
const LOOP_IN_IF: &str = r#"
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<3xf32> {needs_grad}
qd.kernel @k(%limit: f32) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %a = qd.load @x[%i] : f32
    qd.local_store %a, %v : !qd.ptr<f32>
    %z = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %a, %z : f32
    qd.if %pos {
      %e = math.exp %a : f32
      qd.while {
        %o = qd.local_load %v : !qd.ptr<f32>
        %c = arith.cmpf olt, %o, %limit : f32
        qd.condition %c
      } do {
        %o = qd.local_load %v : !qd.ptr<f32>
        %m = arith.mulf %o, %e : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      }
    }
    %r = qd.local_load %v : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
}
"#;

#[test]
fn loops_inside_ifs_keep_their_counts_in_locals() {
    let (ctx, m, r) = differentiate(LOOP_IN_IF);
    // v is a stacked recurrence of the while; the count and %e need no stack.
    assert_eq!(r.gradients[0].2, 1, "{}", print(&ctx, m));
    let case = GradCase::new(LOOP_IN_IF, "k")
        .field("x", vec![0.4, -0.3, 1.7])
        .arg(ArgSpec::Scalar(3.0))
        .seed("y", vec![1.0, 2.0, 0.5])
        .wrt(Wrt::Field("x"))
        .step(1e-7);
    // The while has no provable trip count bound: force a capacity.
    let case = GradCase {
        ad_stack_size: Some(64),
        ..case
    };
    check(&case);
}

#[test]
fn an_empty_kernel_gets_an_empty_gradient() {
    let src = "qd.kernel @k() {\n}\nad.reverse @k\n";
    let (ctx, m, r) = differentiate(src);
    assert_eq!(r.gradients, [("k".into(), "k_grad".into(), 0)]);
    let text = print(&ctx, m);
    assert!(text.contains("qd.kernel @k_grad()"), "{text}");
    assert!(text.contains("ad.reverse @k -> @k_grad"), "{text}");
}

#[test]
fn the_gradient_kernel_writes_no_primal_data() {
    let (ctx, m, _) = differentiate(&example("ndarray_bound.mlir"));
    let mut p = Program::new(
        ctx,
        m,
        Box::new(qd_interp::Interpreter::new()),
        ProgramConfig::default(),
    )
    .unwrap();
    p.write_f64("x", &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
        .unwrap();
    let a = p.add_ndarray(
        qd_runtime::Ndarray::from_f64(
            qd_runtime::DType::I32,
            &[8],
            &[0.0, 3.0, 7.0, 1.0, 12.0, 5.0, 0.0, 9.0],
        )
        .unwrap(),
    );
    let args = [qd_runtime::Arg::Ndarray(a)];
    let k = p.kernel("compute").unwrap();
    p.launch(k, &args).unwrap();
    p.sync().unwrap();
    let (x, y) = (p.read_f64("x").unwrap(), p.read_f64("y").unwrap());
    let before = p.ndarray(a).unwrap().to_f64_vec();
    p.write_f64("y.grad", &[1.0]).unwrap();
    let kg = p.kernel("compute_grad").unwrap();
    p.launch(kg, &args).unwrap();
    p.sync().unwrap();
    assert_eq!(p.read_f64("x").unwrap(), x);
    assert_eq!(p.read_f64("y").unwrap(), y);
    assert_eq!(p.ndarray(a).unwrap().to_f64_vec(), before);
    assert!(p.read_f64("x.grad").unwrap().iter().all(|g| *g != 0.0));
}

#[test]
fn errors_leave_the_module_unchanged() {
    let src = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %b = arith.mulf %a, %a : f32
    qd.store %b, @x[%i] : f32
  }
}
"#;
    let errs = errors(src);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with(
            "7: global data access rule violated: this qd.store may overwrite an element of @x that the qd.load at 5:10 read"
        ),
        "{errs:?}"
    );
    let (mut ctx, m) = parse(src);
    let before = print(&ctx, m);
    let _ = qd_autodiff::reverse_mode_ad(&mut ctx, m, &qd_autodiff::Options::default());
    assert_eq!(print(&ctx, m), before);
}

#[test]
fn kernels_option_names_the_kernels() {
    let src = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @a() {
  qd.struct_for (%i) in @x {
    %v = qd.load @x[%i] : f32
    qd.store %v, @y[%i] : f32
  }
}
qd.kernel @b() {
  qd.struct_for (%i) in @x {
    %v = qd.load @x[%i] : f32
    qd.store %v, @y[%i] : f32
  }
}
"#;
    let (mut ctx, m) = parse(src);
    let opts = qd_autodiff::Options {
        kernels: vec!["b".into()],
        ..Default::default()
    };
    let r = qd_autodiff::reverse_mode_ad(&mut ctx, m, &opts).unwrap();
    assert_eq!(r.gradients, [("b".into(), "b_grad".into(), 0)]);
    // A second run has nothing left to do.
    let r = qd_autodiff::reverse_mode_ad(&mut ctx, m, &opts).unwrap();
    assert!(r.gradients.is_empty());
    let r = qd_autodiff::reverse_mode_ad(&mut ctx, m, &Default::default()).unwrap();
    assert_eq!(r.gradients, [("a".into(), "a_grad".into(), 0)]);
}

/// A breaking loop with index bounds inside an if: its trip count (an index) is kept in an i64
/// local.
const INDEX_IN_IF: &str = r#"
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<3xf32> {needs_grad}
qd.kernel @k(%n32: i32) {
  qd.struct_for (%i) in @x {
    %n = arith.index_cast %n32 : i32 to index
    %v = qd.alloca : !qd.ptr<f32>
    %a = qd.load @x[%i] : f32
    qd.local_store %a, %v : !qd.ptr<f32>
    %z = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %a, %z : f32
    qd.if %pos {
      %c0 = arith.constant 0 : index
      qd.range_for %t = %c0 to %n : index {
        %o = qd.local_load %v : !qd.ptr<f32>
        %s = math.sin %o : f32
        %g = arith.constant 1.5 : f32
        %m = arith.mulf %s, %g : f32
        qd.local_store %m, %v : !qd.ptr<f32>
        %lim = arith.constant 1.2 : f32
        %big = arith.cmpf ogt, %m, %lim : f32
        qd.if %big {
          qd.break
        }
      }
    }
    %r = qd.local_load %v : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
}
"#;

#[test]
fn index_trip_counts_in_ifs_go_through_i64_locals() {
    let (ctx, m, _) = differentiate(INDEX_IN_IF);
    let text = print(&ctx, m);
    assert!(text.contains("qd.alloca : !qd.ptr<i64>"), "{text}");
    let case = GradCase::new(INDEX_IN_IF, "k")
        .field("x", vec![0.5, -0.4, 1.4])
        .arg(ArgSpec::Scalar(5.0))
        .seed("y", vec![1.0, 1.0, 1.0])
        .wrt(Wrt::Field("x"))
        .step(1e-7);
    let case = GradCase {
        ad_stack_size: Some(64),
        ..case
    };
    check(&case);
}
