//! The f32 `sin`, `cos` and `tanh` the backend compiles (its own straight-line f64 code, the
//! vectorised math's: see `codegen/vmath`). sin and cos give libm's results, the ones the
//! interpreter computes, bit for bit: on both sides of the first quadrant's edge, across the
//! reduced range, at signed zeros and non-finite values. tanh is within an ulp of the exact value.

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

/// 65536 f32 inputs: the f32 neighbours of pi/4 (the fast path's edge), signed zeros, tiny,
/// non-finite values, then sweeps of [-4, 4], [-1e-3, 1e-3] and [-1e5, 1e5].
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
    xs.push(f32::NEG_INFINITY);
    let mut up = pio4;
    let mut down = pio4;
    for _ in 0..32 {
        up = f32::from_bits(up.to_bits() + 1);
        down = f32::from_bits(down.to_bits() - 1);
        xs.extend([up, down, -up, -down]);
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
fn f32_sin_and_cos_are_libms_bit_for_bit() {
    let xs = inputs();
    let mut c = cpu(SRC, 2);
    let as_f64: Vec<f64> = xs.iter().map(|&x| f64::from(x)).collect();
    c.write_f64("x", &as_f64).unwrap();
    run_ok(&mut c, "k", &[]);
    let (s, co) = (c.read_f64("s").unwrap(), c.read_f64("c").unwrap());
    let mut differ = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        for (got, want, what) in [
            (s[i] as f32, x.sin(), "sin"),
            (co[i] as f32, x.cos(), "cos"),
        ] {
            let same = got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
            if !same {
                differ.push(format!("{what}({x:e}) = {got:e}, libm {want:e}"));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
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

/// The f32 tanh (`codegen/tanh.rs`, not libm's) is within an ulp of the exact value (f64's tanh,
/// rounded); in fact within 0.51 ulp, where glibc's `tanhf` is off by up to 2. Signed zeros and
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
            err <= 0.51,
            "tanh({x:e}) = {got:e}, exact {want:e}: {err} ulp"
        );
        if x == 0.0 || x.abs() < 2.0f32.powi(-12) {
            assert_eq!((got as f32).to_bits(), x.to_bits(), "tanh({x:e})");
        }
    }
}
