//! The f32 `sin`, `cos` and `tanh` the backend compiles (its own straight-line code, the
//! vectorised math's: see `codegen/vmath`), not libm's, so not always libm's bits (the
//! interpreter's): sin and cos are within 0.8 ulp of the exact value (the f32 path below 4096,
//! the f64 one with Payne-Hanek's reduction past it, in an out-of-line function), with libm's
//! signed zeros and NaNs; tanh is within an ulp of the exact value.

use super::common::*;

const SRC: &str = r#"module {
  qd.field @x : !qd.field<65536xf32>
  qd.field @s : !qd.field<65536xf32>
  qd.field @c : !qd.field<65536xf32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %a = math.sin %v : f32
      %b = math.cos %v : f32
      qd.store %a, @s[%i] : f32
      qd.store %b, @c[%i] : f32
    }
  }
}"#;

/// 65536 f32 inputs: the f32 neighbours of pi/4 (a quadrant's edge) and of 4096 (the f32 path's
/// limit), signed zeros, tiny, huge and non-finite values, then sweeps of [-4, 4],
/// [-1e-3, 1e-3] and [-1e5, 1e5].
fn inputs() -> Vec<f32> {
    let pio4 = std::f32::consts::FRAC_PI_4;
    let mut xs = vec![
        0.0,
        -0.0,
        f32::MIN_POSITIVE,
        -1e-30,
        f32::NAN,
        f32::INFINITY,
    ];
    xs.extend([f32::NEG_INFINITY, 1e9, -3e12, 1e30, f32::MAX, -f32::MAX]);
    for edge in [pio4, 4096.0] {
        let (mut up, mut down) = (edge, edge);
        for _ in 0..32 {
            up = f32::from_bits(up.to_bits() + 1);
            down = f32::from_bits(down.to_bits() - 1);
            xs.extend([up, down, -up, -down]);
        }
    }
    let rest = 65536 - xs.len();
    for i in 0..rest {
        let t = i as f64 / rest as f64;
        let x = match i % 3 {
            0 => (t - 0.5) * 8.0,
            1 => (t - 0.5) * 2e-3,
            _ => (t - 0.5) * 2e5,
        };
        xs.push(x as f32);
    }
    xs
}

#[test]
fn f32_sin_and_cos_are_within_an_ulp() {
    let xs = inputs();
    let mut c = cpu(SRC, 2);
    let as_f64: Vec<f64> = xs.iter().map(|&x| f64::from(x)).collect();
    c.write_f64("x", &as_f64).unwrap();
    run_ok(&mut c, "k", &[]);
    let (s, co) = (c.read_f64("s").unwrap(), c.read_f64("c").unwrap());
    let mut bad = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        let d = f64::from(x);
        for (got, want, what) in [(s[i], d.sin(), "sin"), (co[i], d.cos(), "cos")] {
            let ok = if !x.is_finite() || x == 0.0 {
                // NaN for NaN and inf, sin(+-0) = +-0, cos(+-0) = 1: libm's, bit for bit.
                let libm = if what == "sin" { x.sin() } else { x.cos() };
                (got as f32).to_bits() == libm.to_bits() || (got.is_nan() && libm.is_nan())
            } else {
                let w = (want as f32).abs();
                let ulp = f64::from(f32::from_bits(w.to_bits() + 1) - w);
                (got - want).abs() / ulp <= 0.8
            };
            if !ok {
                bad.push(format!("{what}({x:e}) = {got:e}, exact {want:e}"));
            }
        }
    }
    assert!(bad.is_empty(), "{} off:\n{}", bad.len(), bad.join("\n"));
}

const TANH: &str = r#"module {
  qd.field @x : !qd.field<65536xf32>
  qd.field @t : !qd.field<65536xf32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %a = math.tanh %v : f32
      qd.store %a, @t[%i] : f32
    }
  }
}"#;

/// The f32 tanh (`codegen/vmath/tanh.rs`, not libm's) is within an ulp of the exact value (f64's
/// tanh, rounded); in fact within 0.77 ulp, where glibc's `tanhf` is off by up to 2. Signed zeros and
/// the tiny values it returns as is are exact; infinities give +-1 and NaN stays NaN.
#[test]
fn f32_tanh_is_within_an_ulp() {
    let mut xs = vec![
        0.0f32,
        -0.0,
        1e-30,
        -1e-5,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ];
    xs.extend([
        9.0,
        10.0,
        11.0,
        1e30,
        -1e30,
        f32::MAX,
        2.0f32.powi(-12),
        -(2.0f32.powi(-12)),
    ]);
    let rest = 65536 - xs.len();
    for i in 0..rest {
        let t = i as f64 / rest as f64;
        let x = match i % 3 {
            0 => (t - 0.5) * 24.0,
            1 => (t - 0.5) * 2.0,
            _ => (t - 0.5) * 2e-3,
        };
        xs.push(x as f32);
    }
    let mut c = cpu(TANH, 2);
    let as_f64: Vec<f64> = xs.iter().map(|&x| f64::from(x)).collect();
    c.write_f64("x", &as_f64).unwrap();
    run_ok(&mut c, "k", &[]);
    let got = c.read_f64("t").unwrap();
    for (i, &x) in xs.iter().enumerate() {
        let (got, want) = (got[i], f64::from(x).tanh());
        if x.is_nan() {
            assert!(got.is_nan(), "tanh(NaN) = {got}");
            continue;
        }
        let w = want as f32;
        let ulp = f64::from(f32::from_bits(w.abs().to_bits() + 1) - w.abs());
        let err = (got - want).abs() / ulp;
        assert!(
            err <= 0.78,
            "tanh({x:e}) = {got:e}, exact {want:e}: {err} ulp"
        );
        if x == 0.0 || x.abs() < 2.0f32.powi(-12) {
            assert_eq!((got as f32).to_bits(), x.to_bits(), "tanh({x:e})");
        }
    }
}
