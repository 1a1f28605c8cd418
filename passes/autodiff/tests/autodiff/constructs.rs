//! One kernel per construct reverse mode handles, each differentiated and checked on the
//! interpreter against central finite differences (see `gradcheck`), with the number of
//! adstacks its gradient kernel keeps.

use super::gradcheck::{check, ArgSpec, GradCase, Wrt};

/// Straight-line arithmetic of every differentiable arith/math op, stored to a field.
pub const STRAIGHT_LINE: &str = r#"
qd.field @x : !qd.field<5xf32> {needs_grad}
qd.field @z : !qd.field<5xf32> {needs_grad}
qd.field @y : !qd.field<5xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %b = qd.load @z[%i] : f32
    %c3 = arith.constant 3.0 : f32
    %s = math.sin %a : f32
    %co = math.cos %b : f32
    %e = math.exp %s : f32
    %m = arith.mulf %e, %a : f32
    %d = arith.divf %m, %c3 : f32
    %t = math.tanh %d : f32
    %sq = math.sqrt %e : f32
    %r1 = arith.addf %t, %sq : f32
    %n = arith.negf %co : f32
    %r2 = arith.subf %r1, %n : f32
    %lg = math.log %e : f32
    %l2 = math.log2 %sq : f32
    %e2 = math.exp2 %b : f32
    %rs = math.rsqrt %e2 : f32
    %tn = math.tan %b : f32
    %pw = math.powf %e, %b : f32
    %at = math.atan2 %a, %b : f32
    %ab = math.absf %n : f32
    %fl = math.floor %a : f32
    %fm = math.fma %a, %b, %fl : f32
    %mn = arith.minimumf %a, %b : f32
    %mx = arith.maximumf %s, %co : f32
    %rm = arith.remf %e2, %c3 : f32
    %q1 = arith.addf %r2, %lg : f32
    %q2 = arith.addf %q1, %l2 : f32
    %q3 = arith.addf %q2, %rs : f32
    %q4 = arith.addf %q3, %tn : f32
    %q5 = arith.addf %q4, %pw : f32
    %q6 = arith.addf %q5, %at : f32
    %q7 = arith.addf %q6, %ab : f32
    %q8 = arith.addf %q7, %fm : f32
    %q9 = arith.addf %q8, %mn : f32
    %qa = arith.addf %q9, %mx : f32
    %qb = arith.addf %qa, %rm : f32
    qd.store %qb, @y[%i] : f32
  }
}
"#;

#[test]
fn straight_line() {
    let case = GradCase::new(STRAIGHT_LINE, "k")
        .field("x", vec![0.3, 0.45, 0.8, 1.1, 0.6])
        .field("z", vec![0.5, 0.2, 0.9, 0.35, 0.75])
        .seed("y", vec![1.0, -0.5, 2.0, 0.25, 1.5])
        .wrt(Wrt::Field("x"))
        .wrt(Wrt::Field("z"));
    let r = check(&case);
    assert_eq!(r.stacks, 0);
}

/// Float casts pass the gradient; integer casts stop it (`fptosi` then `sitofp` is a constant).
pub const CASTS: &str = r#"
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<3xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %w = arith.extf %a : f32 to f64
    %two = arith.constant 2.0 : f64
    %p = math.powf %w, %two : f64
    %n = arith.truncf %p : f64 to f32
    %q = arith.fptosi %a : f32 to i32
    %f = arith.sitofp %q : i32 to f32
    %m = arith.mulf %f, %a : f32
    %r = arith.addf %n, %m : f32
    qd.store %r, @y[%i] : f32
  }
}
"#;

#[test]
fn casts() {
    let mut case = GradCase::new(CASTS, "k")
        .field("x", vec![0.3, 1.6, 2.7])
        .seed("y", vec![1.0, 1.0, 1.0])
        .wrt(Wrt::Field("x"));
    // The f64 twin: extf/truncf become no-ops (same type), written out by hand.
    case.src64 = Some(
        CASTS
            .replace(
                "%w = arith.extf %a : f32 to f64",
                "%w = arith.addf %a, %a : f32",
            )
            .replace(
                "%n = arith.truncf %p : f64 to f32",
                "%n = arith.mulf %p, %quarter : f32",
            )
            .replace(
                "%two = arith.constant 2.0 : f64",
                "%two = arith.constant 2.0 : f32\n    %quarter = arith.constant 0.25 : f32",
            )
            .replace(": f64", ": f32")
            .replace("f32", "f64"),
    );
    let r = check(&case);
    // d/dx (x^2 + floor(x) x) = 2x + floor(x): the integer cast contributes no derivative.
    for (i, &x) in [0.3f32, 1.6, 2.7].iter().enumerate() {
        let want = 2.0 * x as f64 + (x as f64).floor();
        assert!(
            (r.ad64[0][i] - want).abs() < 1e-9,
            "{i}: {} vs {want}",
            r.ad64[0][i]
        );
    }
}

/// A parallel range_for over an ndarray's shape: ndarray reads and writes, an atomic
/// accumulation, a loose statement before the loop.
pub const NDARRAY: &str = r#"
qd.field @s : !qd.field<f32> {needs_grad}
qd.kernel @k(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>, %scale: f32) {
  %c0 = arith.constant 0 : i32
  %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %c0 to %n : i32 {
    %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
    %w = arith.mulf %v, %v : f32
    %u = arith.mulf %w, %scale : f32
    qd.ndarray_store %u, %b[%i] : !qd.ndarray<?xf32>
    %e = math.exp %v : f32
    qd.atomic_add %e, @s[] : f32
  }
}
"#;

#[test]
fn ndarray_reads_writes_and_atomics() {
    let case = GradCase::new(NDARRAY, "k")
        .arg(ArgSpec::Ndarray {
            shape: vec![4],
            data: vec![0.1, -0.4, 0.7, 1.2],
        })
        .arg(ArgSpec::Ndarray {
            shape: vec![4],
            data: vec![0.0; 4],
        })
        .arg(ArgSpec::Scalar(1.5))
        .seed("s", vec![0.5])
        .seed_arg(1, vec![1.0, 2.0, -1.0, 0.5])
        .wrt(Wrt::Arg(0));
    let r = check(&case);
    assert_eq!(r.stacks, 0);
}

/// A scalar local written in both branches of an if (no loop): the if's condition and the
/// branch values come back without any stack.
pub const IF_ELSE_LOCAL: &str = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %p = qd.alloca : !qd.ptr<f32>
    %a = qd.load @x[%i] : f32
    %h = arith.constant 0.5 : f32
    %c = arith.cmpf ogt, %a, %h : f32
    qd.if %c {
      %s = math.sin %a : f32
      %q = arith.mulf %s, %s : f32
      qd.local_store %q, %p : !qd.ptr<f32>
    } else {
      %q = arith.mulf %a, %a : f32
      %e = math.exp %q : f32
      qd.local_store %e, %p : !qd.ptr<f32>
    }
    %r = qd.local_load %p : !qd.ptr<f32>
    %r2 = arith.mulf %r, %a : f32
    qd.store %r2, @y[%i] : f32
  }
}
"#;

#[test]
fn if_else_and_a_local() {
    let case = GradCase::new(IF_ELSE_LOCAL, "k")
        .field("x", vec![0.2, 0.7, 0.45, 1.3])
        .seed("y", vec![1.0, 1.0, 2.0, -1.0])
        .wrt(Wrt::Field("x"));
    let r = check(&case);
    assert_eq!(r.stacks, 0);
}

/// Serial range_for loops with every kind of dynamic bound: a field load, an ndarray read at an
/// enclosing index, an ndarray shape, an enclosing loop index, and arithmetic of these (a
/// non-zero lower bound, so the reversed induction variable is checked too).
pub const BOUNDS: &str = r#"
qd.field @n : !qd.field<i32>
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k(%a: !qd.ndarray<?xi32>, %w: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    %n = qd.load @n[] : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %ai = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
      %lo = arith.addi %j, %c1 : i32
      %len = qd.ndarray_shape %w, 0 : !qd.ndarray<?xf32>
      %hi0 = arith.addi %lo, %ai : i32
      %hi = arith.minsi %hi0, %len : i32
      qd.range_for %t = %lo to %hi : i32 {
        %wt = qd.ndarray_load %w[%t] : !qd.ndarray<?xf32>
        %o = qd.local_load %v : !qd.ptr<f32>
        %s = math.sin %o : f32
        %m = arith.mulf %s, %wt : f32
        %r = arith.addf %m, %o : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      qd.range_for %u = %c0 to %j : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %k = arith.constant 0.75 : f32
        %m = arith.mulf %o, %o : f32
        %r = arith.mulf %m, %k : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}
"#;

#[test]
fn serial_loops_with_dynamic_bounds() {
    let case = GradCase::new(BOUNDS, "k")
        .field("n", vec![4.0])
        .field("x", vec![0.3, 0.6, 0.9])
        .arg(ArgSpec::Ndarray {
            shape: vec![3],
            data: vec![2.0, 0.0, 3.0],
        })
        .arg(ArgSpec::Ndarray {
            shape: vec![5],
            data: vec![0.5, -0.3, 0.2, 0.8, -0.6],
        })
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"))
        .wrt(Wrt::Arg(1));
    let r = check(&case);
    assert_eq!(r.stacks, 1);
}

/// A while loop nested in a serial loop (its trip count goes on a stack), its condition
/// steered by a float and by an integer counter.
pub const NESTED_WHILE: &str = r#"
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k(%limit: f32) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %cnt = qd.alloca : !qd.ptr<i32>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    qd.range_for %j = %c0 to %c3 : i32 {
      qd.local_store %c0, %cnt : !qd.ptr<i32>
      qd.while {
        %o = qd.local_load %v : !qd.ptr<f32>
        %k = qd.local_load %cnt : !qd.ptr<i32>
        %small = arith.cmpf olt, %o, %limit : f32
        %c9 = arith.constant 9 : i32
        %few = arith.cmpi slt, %k, %c9 : i32
        %go = arith.andi %small, %few : i1
        qd.condition %go
      } do {
        %o = qd.local_load %v : !qd.ptr<f32>
        %s = math.sin %o : f32
        %g = arith.constant 1.5 : f32
        %m = arith.mulf %o, %g : f32
        %r = arith.addf %m, %s : f32
        qd.local_store %r, %v : !qd.ptr<f32>
        %k = qd.local_load %cnt : !qd.ptr<i32>
        %c1 = arith.constant 1 : i32
        %k1 = arith.addi %k, %c1 : i32
        qd.local_store %k1, %cnt : !qd.ptr<i32>
      }
      %o = qd.local_load %v : !qd.ptr<f32>
      %h = arith.constant 0.25 : f32
      %d = arith.mulf %o, %h : f32
      qd.local_store %d, %v : !qd.ptr<f32>
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}
"#;

#[test]
fn while_nested_in_a_serial_loop() {
    let case = GradCase::new(NESTED_WHILE, "k")
        .field("x", vec![0.11, 0.43, 1.37])
        .arg(ArgSpec::Scalar(2.0))
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"))
        .step(1e-6);
    let r = check(&case);
    // v (a stacked recurrence) and the while's trip count per j iteration.
    assert_eq!(r.stacks, 2);
}

/// break and continue with ops after them (the reverse pass guards those ops), in a loop
/// nested in another serial loop.
pub const JUMPS: &str = r#"
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k(%w: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %n = qd.ndarray_shape %w, 0 : !qd.ndarray<?xf32>
    qd.range_for %r = %c0 to %c2 : i32 {
      qd.range_for %t = %c0 to %n : i32 {
        %wt = qd.ndarray_load %w[%t] : !qd.ndarray<?xf32>
        %z = arith.constant 0.0 : f32
        %neg = arith.cmpf olt, %wt, %z : f32
        qd.if %neg {
          qd.continue
        }
        %o = qd.local_load %v : !qd.ptr<f32>
        %s = math.sin %o : f32
        %m = arith.mulf %s, %wt : f32
        %a = arith.addf %o, %m : f32
        qd.local_store %a, %v : !qd.ptr<f32>
        %lim = arith.constant 3.0 : f32
        %big = arith.cmpf ogt, %a, %lim : f32
        qd.if %big {
          qd.break
        }
        %h = arith.constant 0.9 : f32
        %b = arith.mulf %a, %h : f32
        qd.local_store %b, %v : !qd.ptr<f32>
      }
      qd.range_for %t = %c0 to %n : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %wt = qd.ndarray_load %w[%t] : !qd.ndarray<?xf32>
        %stop = arith.cmpf olt, %o, %wt : f32
        qd.if %stop {
          %q = arith.mulf %o, %o : f32
          qd.local_store %q, %v : !qd.ptr<f32>
          qd.break
        }
        %no = arith.negf %o : f32
        %e = math.exp %no : f32
        %k = arith.constant 1.5 : f32
        %d = arith.mulf %e, %k : f32
        qd.local_store %d, %v : !qd.ptr<f32>
      }
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}
"#;

#[test]
fn break_and_continue() {
    let case = GradCase::new(JUMPS, "k")
        .field("x", vec![0.2, 1.1, 2.9])
        .arg(ArgSpec::Ndarray {
            shape: vec![5],
            data: vec![0.8, -0.5, 1.4, 0.6, -0.1],
        })
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"))
        .wrt(Wrt::Arg(0))
        .step(1e-6);
    check(&case);
}

/// Sibling loops: two parallel loops with loose statements around them, and sibling serial
/// loops in one body.
pub const SIBLINGS: &str = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.field @s : !qd.field<f32> {needs_grad}
qd.field @t : !qd.field<f32> {needs_grad}
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %g = qd.load @s[] : f32
  %g2 = arith.mulf %g, %g : f32
  qd.store %g2, @t[] : f32
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %p = qd.alloca : !qd.ptr<f32>
    qd.local_store %a, %p : !qd.ptr<f32>
    qd.range_for %j = %c0 to %c4 : i32 {
      %o = qd.local_load %p : !qd.ptr<f32>
      %q = math.cos %o : f32
      qd.local_store %q, %p : !qd.ptr<f32>
    }
    qd.range_for %j = %c0 to %i : i32 {
      %o = qd.local_load %p : !qd.ptr<f32>
      %q = arith.mulf %o, %a : f32
      qd.local_store %q, %p : !qd.ptr<f32>
    }
    %r = qd.local_load %p : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
  %c2 = arith.constant 2 : i32
  qd.range_for %i = %c0 to %c2 : i32 {
    %a = qd.load @x[%i] : f32
    %e = math.exp %a : f32
    qd.atomic_add %e, @y[%c2] : f32
  }
}
"#;

#[test]
fn sibling_loops_and_loose_statements() {
    let case = GradCase::new(SIBLINGS, "k")
        .field("x", vec![0.2, 0.5, 0.9, 1.3])
        .field("s", vec![0.7])
        .seed("y", vec![1.0, 0.5, -1.0, 2.0])
        .seed("t", vec![1.5])
        .wrt(Wrt::Field("x"))
        .wrt(Wrt::Field("s"));
    let r = check(&case);
    assert_eq!(r.stacks, 1);
}

/// Integer and bool values steering control flow inside a loop: an integer recurrence used as
/// an index, a bool local deciding a branch (their values come back from stacks without
/// adjoints).
pub const INT_CONTROL: &str = r#"
qd.field @x : !qd.field<2xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %idx = qd.alloca : !qd.ptr<i32>
    %flag = qd.alloca : !qd.ptr<i1>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    qd.local_store %i, %idx : !qd.ptr<i32>
    %c0 = arith.constant 0 : i32
    %c6 = arith.constant 6 : i32
    qd.range_for %j = %c0 to %c6 : i32 {
      %k = qd.local_load %idx : !qd.ptr<i32>
      %c3 = arith.constant 3 : i32
      %c1 = arith.constant 1 : i32
      %c5 = arith.constant 5 : i32
      %k3 = arith.muli %k, %c3 : i32
      %k4 = arith.addi %k3, %c1 : i32
      %kn = arith.remsi %k4, %c5 : i32
      qd.local_store %kn, %idx : !qd.ptr<i32>
      %ak = qd.ndarray_load %a[%kn] : !qd.ndarray<?xf32>
      %o = qd.local_load %v : !qd.ptr<f32>
      %fl = qd.local_load %flag : !qd.ptr<i1>
      qd.if %fl {
        %m = arith.mulf %o, %ak : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      } else {
        %s = math.sin %o : f32
        %m = arith.addf %s, %ak : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      }
      %o2 = qd.local_load %v : !qd.ptr<f32>
      %half = arith.constant 0.5 : f32
      %nf = arith.cmpf ogt, %o2, %half : f32
      qd.local_store %nf, %flag : !qd.ptr<i1>
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}
"#;

#[test]
fn integer_and_bool_control_values() {
    let case = GradCase::new(INT_CONTROL, "k")
        .field("x", vec![0.3, 0.8])
        .arg(ArgSpec::Ndarray {
            shape: vec![5],
            data: vec![0.9, 0.3, -0.2, 0.6, 0.45],
        })
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"))
        .wrt(Wrt::Arg(0))
        .step(1e-6);
    check(&case);
}

/// A serial struct_for over a rank-2 field inside a parallel loop (its induction variables are
/// recomputed from the reversed linear index), with select and min/max.
pub const NESTED_STRUCT_FOR: &str = r#"
qd.field @x : !qd.field<2xf32> {needs_grad}
qd.field @w : !qd.field<2x3xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    qd.struct_for (%r, %c) in @w {
      %wv = qd.load @w[%r, %c] : f32
      %o = qd.local_load %v : !qd.ptr<f32>
      %p = arith.mulf %o, %wv : f32
      %lo = arith.constant -0.8 : f32
      %hi = arith.constant 0.9 : f32
      %cl = arith.maximumf %p, %lo : f32
      %cl2 = arith.minimumf %cl, %hi : f32
      %z = arith.constant 0.0 : f32
      %pos = arith.cmpf ogt, %wv, %z : f32
      %t = math.tanh %cl2 : f32
      %sel = arith.select %pos, %t, %cl2 : f32
      %n = arith.addf %sel, %o : f32
      qd.local_store %n, %v : !qd.ptr<f32>
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}
"#;

#[test]
fn nested_struct_for_select_min_max() {
    let case = GradCase::new(NESTED_STRUCT_FOR, "k")
        .field("x", vec![0.3, -0.45])
        .field("w", vec![0.5, -0.7, 1.2, 0.25, -0.4, 0.9])
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"))
        .wrt(Wrt::Field("w"))
        .step(1e-6);
    check(&case);
}

/// A pure accumulator needs no stack, even with a non-linear summand.
pub const ACCUMULATOR: &str = r#"
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<3xf32> {needs_grad}
qd.kernel @k(%n: i32) {
  qd.struct_for (%i) in @x {
    %s = qd.alloca : !qd.ptr<f32>
    %a = qd.load @x[%i] : f32
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %jf = arith.sitofp %j : i32 to f32
      %p = arith.mulf %a, %jf : f32
      %e = math.sin %p : f32
      %o = qd.local_load %s : !qd.ptr<f32>
      %q = arith.addf %o, %e : f32
      qd.local_store %q, %s : !qd.ptr<f32>
      %o2 = qd.local_load %s : !qd.ptr<f32>
      %q2 = arith.subf %o2, %p : f32
      qd.local_store %q2, %s : !qd.ptr<f32>
    }
    %r = qd.local_load %s : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
}
"#;

#[test]
fn pure_accumulators_need_no_stack() {
    let case = GradCase::new(ACCUMULATOR, "k")
        .field("x", vec![0.3, 0.7, 1.1])
        .arg(ArgSpec::Scalar(7.0))
        .seed("y", vec![1.0, -1.0, 0.5])
        .wrt(Wrt::Field("x"));
    let r = check(&case);
    assert_eq!(r.stacks, 0);
}

/// A local array indexed by a loop-carried integer, and a struct with a float member.
pub const AGGREGATES: &str = r#"
qd.field @x : !qd.field<2x4xf32> {needs_grad}
qd.field @y : !qd.field<2xf32> {needs_grad}
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  qd.range_for %r = %c0 to %c2 : i32 {
    %arr = qd.alloca : !qd.ptr<!qd.array<4xf32>>
    %st = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
    %acc = qd.member_ptr %st[0] : !qd.ptr<!qd.struct<f32, i32>>
    %c4 = arith.constant 4 : i32
    qd.range_for %k = %c0 to %c4 : i32 {
      %v = qd.load @x[%r, %k] : f32
      %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<4xf32>>
      qd.local_store %v, %p : !qd.ptr<f32>
    }
    %c9 = arith.constant 9 : i32
    qd.range_for %t = %c0 to %c9 : i32 {
      %c3 = arith.constant 3 : i32
      %k = arith.remsi %t, %c4 : i32
      %k2 = arith.addi %t, %c3 : i32
      %kk = arith.remsi %k2, %c4 : i32
      %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<4xf32>>
      %q = qd.elem_ptr %arr[%kk] : !qd.ptr<!qd.array<4xf32>>
      %a = qd.local_load %p : !qd.ptr<f32>
      %b = qd.local_load %q : !qd.ptr<f32>
      %m = arith.mulf %a, %b : f32
      %s = math.sin %m : f32
      qd.local_store %s, %p : !qd.ptr<f32>
      %o = qd.local_load %acc : !qd.ptr<f32>
      %n = arith.addf %o, %s : f32
      qd.local_store %n, %acc : !qd.ptr<f32>
    }
    %f = qd.local_load %acc : !qd.ptr<f32>
    qd.store %f, @y[%r] : f32
  }
}
"#;

#[test]
fn local_array_and_struct() {
    let case = GradCase::new(AGGREGATES, "k")
        .field("x", vec![0.3, 0.8, 1.1, 0.5, -0.4, 0.9, 0.2, 0.65])
        .seed("y", vec![1.0, 0.5])
        .wrt(Wrt::Field("x"));
    let r = check(&case);
    // a and b (both read by mulf) are re-read from the array, which the reverse pass restores
    // store by store: one stack holds the element each store overwrites.
    assert_eq!(r.stacks, 1);
}
