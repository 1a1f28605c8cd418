//! Issue #14's math ops differentiated by reverse-mode-ad and run on the interpreter, against
//! central finite differences in f64 and the f32 gradient against the f64 one (see `gradcheck`),
//! over sweeps of inputs that include the edges of each op's domain: asin/acos/atanh at +-0.999,
//! acosh at 1.001, log1p at -0.999, cbrt near 0, erf/erfc at +-4, sinh/cosh at +-60.
//!
//! Each point is its own one-element case, so that the finite difference of one point is not
//! drowned by the rounding of another's large value. The step is 1e-7 max(1, |x|): far inside
//! every domain edge of the sweep (0.001 away), with a truncation error h^2 |f'''| / 6 below
//! 1e-7 |f'| even at the edges, and a rounding error 1e-16 |f| / h ~ 1e-9 |f|.

use super::gradcheck::{check, ArgSpec, GradCase, GradResult, Wrt};

/// `y[i] = OP(x[i])`.
fn unary_src(op: &str) -> String {
    format!(
        r#"
qd.field @x : !qd.field<1xf32> {{needs_grad}}
qd.field @y : !qd.field<1xf32> {{needs_grad}}
qd.kernel @k() {{
  qd.struct_for (%i) in @x {{
    %a = qd.load @x[%i] : f32
    %r = math.{op} %a : f32
    qd.store %r, @y[%i] : f32
  }}
}}
"#
    )
}

fn step(x: f64) -> f64 {
    1e-7 * x.abs().max(1.0)
}

/// The case of one point: d y / d x for the seed 1.
fn point(src: &str, x: f64) -> GradCase {
    let mut c = GradCase::new(src, "k")
        .field("x", vec![x])
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"))
        .step(step(x));
    // Tiny derivatives (erf at 4: 1.3e-7) are checked to 1e-8 absolute: the rounding error of
    // the difference, 1e-16 |f| / h, is ~2e-9 there.
    c.fd_atol = 1e-8;
    c
}

fn sweep(op: &str, points: &[f64]) -> Vec<GradResult> {
    let src = unary_src(op);
    points
        .iter()
        .map(|&x| {
            let r = check(&point(&src, x));
            // A finite, nonzero derivative everywhere in the sweep: the check compared numbers.
            assert!(
                r.ad64[0][0].is_finite() && r.ad64[0][0] != 0.0,
                "{op}({x}): {r:?}"
            );
            r
        })
        .collect()
}

#[test]
fn inverse_trigonometric() {
    let edges = [-0.999, -0.9, -0.5, 0.0, 0.3, 0.7, 0.999];
    sweep("asin", &edges);
    sweep("acos", &edges);
    sweep("atan", &[-50.0, -1.0, -0.2, 0.0, 0.4, 1.0, 3.0, 1e3]);
}

#[test]
fn hyperbolic() {
    let wide = [-60.0, -20.0, -2.0, -0.3, 0.0, 0.5, 3.0, 20.0, 60.0];
    sweep("sinh", &wide);
    // cosh' = sinh is 0 at 0: left out of the nonzero sweep, checked below.
    sweep("cosh", &[-60.0, -20.0, -2.0, -0.3, 0.5, 3.0, 20.0, 60.0]);
    let r = check(&point(&unary_src("cosh"), 0.0));
    assert_eq!((r.ad32[0][0], r.ad64[0][0]), (0.0, 0.0));
    sweep("asinh", &[-1e4, -30.0, -1.0, -0.1, 0.0, 0.6, 5.0, 1e3]);
    sweep("acosh", &[1.001, 1.01, 1.5, 3.0, 40.0, 1e4]);
    sweep("atanh", &[-0.999, -0.9, -0.4, 0.0, 0.25, 0.8, 0.999]);
}

#[test]
fn logarithms_and_exponentials() {
    sweep("log1p", &[-0.999, -0.9, -0.3, 0.0, 1e-4, 0.7, 5.0, 1e4]);
    sweep("expm1", &[-20.0, -1.0, -1e-4, 0.0, 1e-4, 0.5, 3.0, 30.0]);
    sweep("log10", &[1e-3, 0.05, 0.5, 1.0, 2.0, 100.0, 1e5]);
}

#[test]
fn special_functions() {
    let tails = [-4.0, -2.5, -1.0, -0.2, 0.0, 0.3, 1.2, 2.5, 4.0];
    sweep("erf", &tails);
    sweep("erfc", &tails);
    // Near 0 but not at it: the tangent is vertical there.
    sweep(
        "cbrt",
        &[-30.0, -1.0, -1e-3, -1e-4, 1e-4, 1e-3, 0.5, 8.0, 1e4],
    );
}

/// trunc, round and roundeven: exactly zero away from their jumps (and at round's ties, by
/// convention, which finite differences cannot check).
#[test]
fn rounding_has_zero_derivative() {
    for op in ["trunc", "round", "roundeven"] {
        let src = unary_src(op);
        for x in [-3.7, -2.2, -0.7, -0.3, 0.2, 0.6, 1.3, 2.8, 40.1] {
            let r = check(&point(&src, x));
            assert_eq!(
                (r.ad32[0][0], r.ad64[0][0], r.fd[0][0]),
                (0.0, 0.0, 0.0),
                "{op}({x})"
            );
        }
    }
}

/// `y = copysign(x, z)`: d/dx = sign(x) sign(z), d/dz = 0 away from z = 0.
#[test]
fn copysign_in_both_operands() {
    let src = r#"
qd.field @x : !qd.field<1xf32> {needs_grad}
qd.field @z : !qd.field<1xf32> {needs_grad}
qd.field @y : !qd.field<1xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %b = qd.load @z[%i] : f32
    %r = math.copysign %a, %b : f32
    %s = arith.mulf %r, %a : f32
    qd.store %s, @y[%i] : f32
  }
}
"#;
    for (a, b) in [
        (1.5, 2.0),
        (1.5, -0.5),
        (-0.7, 3.0),
        (-2.5, -1.0),
        (1e-3, -4.0),
    ] {
        let c = point(src, a).field("z", vec![b]).wrt(Wrt::Field("z"));
        let r = check(&c);
        // y = |a| a sign(b): dy/da = 2 |a| sign(b).
        let want = 2.0 * f64::abs(a as f32 as f64) * f64::signum(b);
        assert!((r.ad64[0][0] - want).abs() <= 1e-9, "{a} {b}: {r:?}");
        assert_eq!((r.ad32[1][0], r.ad64[1][0]), (0.0, 0.0), "{a} {b}");
    }
}

/// `y = fpowi(x, n)` for exponents of either sign (n an i32 argument), and through an index
/// exponent (whose rule goes through index_cast and sitofp).
#[test]
fn fpowi_over_bases_and_exponents() {
    let src = r#"
qd.field @x : !qd.field<1xf32> {needs_grad}
qd.field @y : !qd.field<1xf32> {needs_grad}
qd.kernel @k(%n: i32) {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %r = math.fpowi %a, %n : f32, i32
    %k = arith.index_cast %n : i32 to index
    %q = math.fpowi %a, %k : f32, index
    %s = arith.addf %r, %q : f32
    qd.store %s, @y[%i] : f32
  }
}
"#;
    for n in [-3, -1, 0, 1, 2, 5] {
        for x in [-1.7, -0.4, 0.3, 1.2, 2.5] {
            let c = point(src, x).arg(ArgSpec::Scalar(n as f64));
            let r = check(&c);
            let xf = x as f32 as f64;
            let want = 2.0 * n as f64 * xf.powi(n - 1);
            assert!(
                (r.ad64[0][0] - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{x}^{n}: {r:?}"
            );
        }
    }
}

/// isnan, isinf, isfinite and absi have no derivative: in a select they only pick which arm's
/// gradient flows.
#[test]
fn classifications_and_absi_route_through_select() {
    let src = r#"
qd.field @x : !qd.field<1xf32> {needs_grad}
qd.field @y : !qd.field<1xf32> {needs_grad}
qd.kernel @k(%n: i32) {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %sq = arith.mulf %a, %a : f32
    %nan = math.isnan %a : f32
    %p = arith.select %nan, %zero, %sq : f32
    %sn = math.sin %a : f32
    %inf = math.isinf %a : f32
    %q = arith.select %inf, %zero, %sn : f32
    %fin = math.isfinite %a : f32
    %f = arith.select %fin, %a, %one : f32
    %qf = arith.mulf %q, %f : f32
    %m = math.absi %n : i32
    %two = arith.constant 2 : i32
    %big = arith.cmpi sgt, %m, %two : i32
    %e = math.exp %a : f32
    %t = arith.select %big, %e, %a : f32
    %s1 = arith.addf %p, %qf : f32
    %s2 = arith.addf %s1, %t : f32
    qd.store %s2, @y[%i] : f32
  }
}
"#;
    for n in [-5i32, -1, 0, 3] {
        for x in [-1.3, 0.4, 2.0] {
            let c = point(src, x).arg(ArgSpec::Scalar(n as f64));
            let r = check(&c);
            let a = x as f32 as f64;
            // x^2 + x sin x + (|n| > 2 ? e^x : x).
            let arm = if n.abs() > 2 { a.exp() } else { 1.0 };
            let want = 2.0 * a + a.sin() + a * a.cos() + arm;
            assert!(
                (r.ad64[0][0] - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{x} {n}"
            );
        }
    }
}
