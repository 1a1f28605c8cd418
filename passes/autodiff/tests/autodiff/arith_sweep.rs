//! Issue #14's arith ops differentiated by reverse-mode-ad and run on the interpreter: maxnumf
//! and minnumf against central finite differences in f64 and the f32 gradient against the f64
//! one (see `gradcheck`), over a sweep of operand pairs of either sign and order, far apart and
//! close (0.01), large, and with a NaN operand (which gets 0: the result does not depend on it).
//! A tie, where the derivative is undefined, goes to the left operand, as for maximumf; the
//! integer ops and index_castui have no derivative, so an integer path stops the gradient.

use super::common::context;
use super::gradcheck::{check, GradCase, Wrt};
use qd_ir::text::parse_source;
use qd_runtime::{Program, ProgramConfig};

/// `y = maxnumf(x, w)` and `z = minnumf(x, w)`, seeded 1 and 2 so that both reach each input.
const SRC: &str = r#"
qd.field @x : !qd.field<1xf32> {needs_grad}
qd.field @w : !qd.field<1xf32> {needs_grad}
qd.field @y : !qd.field<1xf32> {needs_grad}
qd.field @z : !qd.field<1xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %b = qd.load @w[%i] : f32
    %hi = arith.maxnumf %a, %b : f32
    qd.store %hi, @y[%i] : f32
    %lo = arith.minnumf %a, %b fastmath<nsz> : f32
    qd.store %lo, @z[%i] : f32
  }
}
"#;

fn case(x: f64, w: f64) -> GradCase {
    // The step stays far below the closest gap of the sweep (0.01) relative to the values.
    let h = 1e-7 * x.abs().max(w.abs()).max(1.0);
    GradCase::new(SRC, "k")
        .field("x", vec![x])
        .field("w", vec![w])
        .seed("y", vec![1.0])
        .seed("z", vec![2.0])
        .wrt(Wrt::Field("x"))
        .wrt(Wrt::Field("w"))
        .step(if h.is_nan() { 1e-7 } else { h })
}

#[test]
fn maxnumf_minnumf_match_finite_differences() {
    let pairs = [
        (1.0, 2.0),
        (2.0, 1.0),
        (-3.0, 0.5),
        (0.5, -3.0),
        (-1.25, -1.24),
        (-1.24, -1.25),
        (0.0, 0.01),
        (1e4, -1e4),
        (-7.5, 1e3),
    ];
    for (x, w) in pairs {
        let r = check(&case(x, w));
        // The larger gets y's seed (1), the smaller z's (2).
        let (dx, dw) = if x > w { (1.0, 2.0) } else { (2.0, 1.0) };
        assert_eq!((r.ad64[0][0], r.ad64[1][0]), (dx, dw), "({x}, {w})");
        assert_eq!((r.ad32[0][0], r.ad32[1][0]), (dx, dw), "({x}, {w})");
    }
}

#[test]
fn a_nan_operand_gets_no_gradient() {
    for (x, w) in [(f64::NAN, 1.5), (-2.0, f64::NAN)] {
        let r = check(&case(x, w));
        // The number is both the max and the min: it gets both seeds; the NaN none.
        let want = if x.is_nan() { (0.0, 3.0) } else { (3.0, 0.0) };
        assert_eq!((r.ad64[0][0], r.ad64[1][0]), want, "({x}, {w})");
        assert_eq!((r.ad32[0][0], r.ad32[1][0]), want, "({x}, {w})");
        // Moving the NaN changes nothing: its finite difference is exactly 0 (`check` compared
        // the number's within tolerance).
        let nan_fd = if x.is_nan() { r.fd[0][0] } else { r.fd[1][0] };
        assert_eq!(nan_fd, 0.0, "({x}, {w})");
    }
}

/// The gradient of `SRC` at `(x, w)` from the runtime's own reverse-mode pipeline.
fn runtime_gradient(x: f64, w: f64) -> (f64, f64) {
    let mut ctx = context();
    let m = parse_source(&mut ctx, SRC, "tie.mlir").expect("parses");
    let dev = Box::new(qd_interp::Interpreter::new());
    let mut p = Program::new(ctx, m, dev, ProgramConfig::default()).unwrap();
    p.write_f64("x", &[x]).unwrap();
    p.write_f64("w", &[w]).unwrap();
    let k = p.kernel("k").unwrap();
    p.launch(k, &[]).unwrap();
    p.sync().unwrap();
    let g = p.gradient("k").unwrap();
    p.write_f64("y.grad", &[1.0]).unwrap();
    p.write_f64("z.grad", &[2.0]).unwrap();
    p.launch_grad(&g, &[]).unwrap();
    p.sync().unwrap();
    (
        p.read_f64("x.grad").unwrap()[0],
        p.read_f64("w.grad").unwrap()[0],
    )
}

#[test]
fn a_tie_goes_to_the_left_operand() {
    // Both max and min pick x: it gets both seeds.
    assert_eq!(runtime_gradient(1.5, 1.5), (3.0, 0.0));
    assert_eq!(runtime_gradient(-0.0, 0.0), (3.0, 0.0));
    // Both NaN: neither gets anything.
    assert_eq!(runtime_gradient(f64::NAN, f64::NAN), (0.0, 0.0));
    // Off the tie, the runtime agrees with the sweep.
    assert_eq!(runtime_gradient(1.0, 2.0), (2.0, 1.0));
}
