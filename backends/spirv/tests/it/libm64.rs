//! The f64 sin, cos, exp and tanh the code generator emits (GLSL.std.450 has none) run on
//! lavapipe and agree with the platform libm (what the interpreter calls) within a few ulps,
//! over a sweep that crosses every quadrant, large and tiny arguments, and both tanh branches.

use crate::vulkan::device;
use qd_ir::text::parse_source;
use qd_runtime::{Program, ProgramConfig};

const N: usize = 512;

fn source() -> String {
    format!(
        r#"
module {{
  qd.field @x : !qd.field<{N}xf64>
  qd.field @s : !qd.field<{N}xf64>
  qd.field @c : !qd.field<{N}xf64>
  qd.field @e : !qd.field<{N}xf64>
  qd.field @t : !qd.field<{N}xf64>
  qd.kernel @k() {{
    qd.struct_for (%i) in @x {{
      %v = qd.load @x[%i] : f64
      %s = math.sin %v : f64
      qd.store %s, @s[%i] : f64
      %c = math.cos %v : f64
      qd.store %c, @c[%i] : f64
      %e = math.exp %v : f64
      qd.store %e, @e[%i] : f64
      %t = math.tanh %v : f64
      qd.store %t, @t[%i] : f64
    }}
  }}
}}
"#
    )
}

fn inputs() -> Vec<f64> {
    let mut v: Vec<f64> = (0..N - 12)
        .map(|i| -60.0 + 120.0 * i as f64 / (N - 13) as f64)
        .collect();
    v.extend([
        0.0,
        -0.0,
        1e-300,
        -1e-8,
        0.49,
        0.51,
        1e5,
        -1234.5,
        700.0,
        -740.0,
        3.0e-9,
        std::f64::consts::FRAC_PI_2,
    ]);
    v
}

/// |got - want| within `ulps` ulps of want (or of 1e-300 near 0).
fn close(got: f64, want: f64, ulps: f64, scale: f64) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    if got == want {
        return true;
    }
    let tol = ulps * f64::EPSILON * want.abs().max(scale);
    (got - want).abs() <= tol
}

#[test]
fn f64_sin_cos_exp_tanh_match_libm_on_lavapipe() {
    let Some(dev) = device() else {
        return;
    };
    let mut ctx = qd_dialects::context();
    let src = source();
    let module = parse_source(&mut ctx, &src, "libm64.mlir").unwrap();
    let mut p = Program::new(ctx, module, Box::new(dev), ProgramConfig::default()).unwrap();
    let x = inputs();
    p.write_f64("x", &x).unwrap();
    let k = p.kernel("k").unwrap();
    p.launch(k, &[]).unwrap();
    p.sync().unwrap();
    let mut bad = Vec::new();
    type Case = (&'static str, fn(f64) -> f64, f64);
    let names: [Case; 4] = [
        ("s", f64::sin, 1.0),
        ("c", f64::cos, 1.0),
        ("e", f64::exp, 0.0),
        ("t", f64::tanh, 0.0),
    ];
    for (name, f, scale) in names {
        let got = p.read_f64(name).unwrap();
        for (i, &xi) in x.iter().enumerate() {
            // sin/cos: absolute error against 1 (the reduction is exact to |x| < 2^20 pi/2).
            if !close(got[i], f(xi), 8.0, scale) {
                bad.push(format!("{name}({xi:e}) = {:e}, libm {:e}", got[i], f(xi)));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
