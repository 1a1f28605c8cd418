//! ndarrays as outputs: `qd.ndarray_atomic_add/sub` and `qd.ndarray_store` into an active
//! ndarray argument, whose adjoint ndarray the test seeds directly (as the corpus harness does),
//! checked against central finite differences in f64; atomic min/max into a differentiable
//! ndarray and a used old value are refused. (Reads of an ndarray that the kernel also writes
//! are the access rule's, see `access_rule`.)

use super::common::{differentiate, errors, print};
use super::gradcheck::{check, ArgSpec, GradCase, Wrt};

fn nd(data: Vec<f64>) -> ArgSpec {
    ArgSpec::Ndarray {
        shape: vec![data.len()],
        data,
    }
}

/// out[q[i]] += a[i] * x[i], with q data-dependent (several threads share a bin, one bin gets
/// none): adj(a[i]) = out_adj[q[i]] x[i], adj(x[i]) = out_adj[q[i]] a[i], and out's own
/// adjoint keeps its seed (an atomic add keeps the earlier contributions).
const SCATTER: &str = r#"
qd.kernel @k(%a: !qd.ndarray<?xf32>, %x: !qd.ndarray<?xf32>, %q: !qd.ndarray<?xi32>, %out: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %c0 to %n : i32 {
    %ai = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
    %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
    %b = qd.ndarray_load %q[%i] : !qd.ndarray<?xi32>
    %p = arith.mulf %ai, %xi : f32
    qd.ndarray_atomic_add %p, %out[%b] : !qd.ndarray<?xf32>
  }
}
"#;

#[test]
fn atomic_add_scatter_into_an_output_ndarray() {
    let case = GradCase::new(SCATTER, "k")
        .arg(nd(vec![0.3, -1.2, 0.8, 2.0, -0.5, 1.1]))
        .arg(nd(vec![1.5, 0.4, -0.7, 0.9, 2.2, -1.3]))
        .arg(nd(vec![2.0, 0.0, 2.0, 1.0, 0.0, 2.0]))
        .arg(nd(vec![0.25, -0.5, 1.0, 4.0]))
        .seed_arg(3, vec![1.0, -2.0, 0.5, 3.0])
        .wrt(Wrt::Arg(0))
        .wrt(Wrt::Arg(1))
        .wrt(Wrt::Arg(3));
    let r = check(&case);
    assert_eq!(r.stacks, 0);
    // adj(a[0]) = out_adj[2] * x[0] = 0.5 * 1.5; the output keeps its seed.
    assert!((r.ad64[0][0] - 0.75).abs() < 1e-12, "{:?}", r.ad64[0]);
    assert_eq!(r.ad64[2], vec![1.0, -2.0, 0.5, 3.0]);
}

/// A rank-2 output, atomic sub of a nonlinear value: out[i % 2, q[i]] -= sin(x[i]) * x[i].
const SUB_RANK2: &str = r#"
qd.kernel @k(%x: !qd.ndarray<?xf32>, %q: !qd.ndarray<?xi32>, %out: !qd.ndarray<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %n = qd.ndarray_shape %x, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %c0 to %n : i32 {
    %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
    %b = qd.ndarray_load %q[%i] : !qd.ndarray<?xi32>
    %r = arith.remsi %i, %c2 : i32
    %s = math.sin %xi : f32
    %v = arith.mulf %s, %xi : f32
    qd.ndarray_atomic_sub %v, %out[%r, %b] : !qd.ndarray<?x?xf32>
  }
}
"#;

#[test]
fn atomic_sub_into_a_rank2_output_ndarray() {
    let case = GradCase::new(SUB_RANK2, "k")
        .arg(nd(vec![0.3, -1.2, 0.8, 2.0, -0.5]))
        .arg(nd(vec![1.0, 0.0, 2.0, 1.0, 1.0]))
        .arg(ArgSpec::Ndarray {
            shape: vec![2, 3],
            data: vec![0.5; 6],
        })
        .seed_arg(2, vec![1.0, 2.0, -1.0, 0.5, -3.0, 0.25])
        .wrt(Wrt::Arg(0))
        .wrt(Wrt::Arg(2));
    let r = check(&case);
    // x[0] goes to out[0, 1] (seed 2.0) with a minus sign: -(sin x + x cos x) * 2.
    let x0 = 0.3f32 as f64;
    let want = -2.0 * (x0.sin() + x0 * x0.cos());
    assert!((r.ad64[0][0] - want).abs() < 1e-9, "{:?}", r.ad64[0]);
}

/// Integer ndarray atomics into an output beside a float one: the integer one carries no
/// gradient and does not stop the float one.
const INT_BESIDE_FLOAT: &str = r#"
qd.field @w : !qd.field<4xf32> {needs_grad}
qd.kernel @k(%count: !qd.ndarray<?xi32>, %out: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @w {
    %c1 = arith.constant 1 : i32
    %c0 = arith.constant 0 : i32
    qd.ndarray_atomic_add %c1, %count[%c0] : !qd.ndarray<?xi32>
    qd.ndarray_atomic_sub %c1, %count[%c1] : !qd.ndarray<?xi32>
    %v = qd.load @w[%i] : f32
    %e = math.exp %v : f32
    qd.ndarray_atomic_add %e, %out[%c0] : !qd.ndarray<?xf32>
  }
}
"#;

#[test]
fn field_input_to_an_output_ndarray_beside_integer_atomics() {
    let case = GradCase::new(INT_BESIDE_FLOAT, "k")
        .field("w", vec![0.1, -0.3, 0.6, 1.0])
        .arg(nd(vec![0.0, 0.0]))
        .arg(nd(vec![0.0, 0.0]))
        .seed_arg(1, vec![1.5, 0.0])
        .wrt(Wrt::Field("w"));
    let r = check(&case);
    let w0 = 0.1f32 as f64;
    assert!((r.ad64[0][0] - 1.5 * w0.exp()).abs() < 1e-9);
}

/// qd.ndarray_store as the only output: out[i] = x[i]^2 exp(x[i]); the store zeroes out's
/// adjoint (the element's previous value does not reach the output).
const STORE_OUTPUT: &str = r#"
qd.kernel @k(%x: !qd.ndarray<?xf32>, %out: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  %n = qd.ndarray_shape %x, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %c0 to %n : i32 {
    %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
    %sq = arith.mulf %xi, %xi : f32
    %e = math.exp %xi : f32
    %v = arith.mulf %sq, %e : f32
    qd.ndarray_store %v, %out[%i] : !qd.ndarray<?xf32>
  }
}
"#;

#[test]
fn ndarray_store_as_the_only_output() {
    let case = GradCase::new(STORE_OUTPUT, "k")
        .arg(nd(vec![0.3, -1.2, 0.8]))
        .arg(nd(vec![5.0, 5.0, 5.0]))
        .seed_arg(1, vec![1.0, -2.0, 0.5])
        .wrt(Wrt::Arg(0))
        .wrt(Wrt::Arg(1));
    let r = check(&case);
    assert_eq!(r.ad64[1], vec![0.0; 3]);
    assert!(r.ad64[0].iter().all(|&g| g != 0.0));
}

/// The gradient kernel reads the output's adjoint ndarray and writes no primal data.
#[test]
fn the_gradient_reads_the_output_adjoint() {
    let (ctx, m, _) = differentiate(SUB_RANK2);
    let text = print(&ctx, m);
    let grad = &text[text.find("qd.kernel @k_grad").unwrap()..];
    assert!(grad.contains("qd.kernel @k_grad(%arg0: !qd.ndarray<?xf32>, %arg1: !qd.ndarray<?xi32>, %arg2: !qd.ndarray<?x?xf32>, %arg3: !qd.ndarray<?xf32>, %arg4: !qd.ndarray<?x?xf32>)"), "{grad}");
    assert!(grad.contains("qd.ndarray_load %arg4["), "{grad}");
    assert!(grad.contains("arith.negf"), "{grad}");
    assert!(!grad.contains("ndarray_atomic"), "{grad}");
}

#[test]
fn atomic_min_max_into_a_differentiable_ndarray_are_refused() {
    for op in ["min", "max"] {
        let src = format!(
            r#"
qd.kernel @k(%x: !qd.ndarray<?xf32>, %out: !qd.ndarray<?xf32>) {{
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c4 : i32 {{
    %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
    qd.ndarray_atomic_{op} %xi, %out[%c0] : !qd.ndarray<?xf32>
  }}
}}
"#
        );
        assert_eq!(
            errors(&src),
            vec![format!("7: 'qd.ndarray_atomic_{op}' on a differentiable ndarray is not differentiable; reverse-mode-ad supports qd.ndarray_store, qd.ndarray_atomic_add and qd.ndarray_atomic_sub into differentiable ndarrays")]
        );
    }
}

#[test]
fn a_used_old_value_is_refused() {
    let src = r#"
qd.kernel @k(%x: !qd.ndarray<?xf32>, %out: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c4 : i32 {
    %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
    %old = qd.ndarray_atomic_add %xi, %out[%c0] : !qd.ndarray<?xf32>
    qd.ndarray_store %old, %x[%i] : !qd.ndarray<?xf32>
  }
}
"#;
    let errs = errors(src);
    assert!(
        errs.iter()
            .any(|e| e.starts_with("7: the value 'qd.ndarray_atomic_add' returns is used")),
        "{errs:?}"
    );
}
