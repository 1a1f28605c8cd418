//! Issue #14's math ops on the interpreter against Rust references, in f32 (computed in f32) and
//! f64, over sweeps that include the edges of each domain, NaN, the infinities and signed zeros.

use super::common::*;
use qd_runtime::{Arg, Scalar};

/// The unary float ops, each storing to one element of @f (f32) and @d (f64).
const UNARY: [&str; 18] = [
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
    "log1p",
    "expm1",
    "log10",
    "erf",
    "erfc",
    "cbrt",
    "trunc",
    "round",
    "roundeven",
    "copysign",
];

fn unary_src() -> String {
    let n = UNARY.len();
    let mut body = String::new();
    for (i, op) in UNARY.iter().enumerate() {
        // copysign takes the sign of %y.
        let (xf, xd) = if *op == "copysign" {
            ("%x, %y", "%xd, %yd")
        } else {
            ("%x", "%xd")
        };
        body += &format!(
            "    %i{i} = arith.constant {i} : i32
    %f{i} = math.{op} {xf} : f32
    qd.store %f{i}, @f[%i{i}] : f32
    %d{i} = math.{op} {xd} : f64
    qd.store %d{i}, @d[%i{i}] : f64
"
        );
    }
    format!(
        "module {{
  qd.field @f : !qd.field<{n}xf32>
  qd.field @d : !qd.field<{n}xf64>
  qd.kernel @k(%x: f32, %y: f32, %xd: f64, %yd: f64) {{
{body}  }}
}}"
    )
}

/// The same op in Rust, in f32 and f64.
fn reference(op: &str, x: f64, y: f64) -> (f32, f64) {
    let (a, b) = (x as f32, y as f32);
    match op {
        "asin" => (a.asin(), x.asin()),
        "acos" => (a.acos(), x.acos()),
        "atan" => (a.atan(), x.atan()),
        "sinh" => (a.sinh(), x.sinh()),
        "cosh" => (a.cosh(), x.cosh()),
        "asinh" => (a.asinh(), x.asinh()),
        "acosh" => (a.acosh(), x.acosh()),
        "atanh" => (a.atanh(), x.atanh()),
        "log1p" => (a.ln_1p(), x.ln_1p()),
        "expm1" => (a.exp_m1(), x.exp_m1()),
        "log10" => (a.log10(), x.log10()),
        "erf" => (libm::erff(a), libm::erf(x)),
        "erfc" => (libm::erfcf(a), libm::erfc(x)),
        "cbrt" => (a.cbrt(), x.cbrt()),
        "trunc" => (a.trunc(), x.trunc()),
        "round" => (a.round(), x.round()),
        "roundeven" => (a.round_ties_even(), x.round_ties_even()),
        "copysign" => (a.copysign(b), x.copysign(y)),
        _ => unreachable!("{op}"),
    }
}

/// Bits, with every NaN as one value (a NaN's payload is not specified).
fn bits(v: f64) -> u64 {
    if v.is_nan() {
        1
    } else {
        v.to_bits()
    }
}

const SWEEP: [f64; 19] = [
    f64::NAN,
    f64::NEG_INFINITY,
    -1e30,
    -4.0,
    -2.5,
    -1.0,
    -0.999,
    -0.5,
    -0.0,
    0.0,
    1e-30,
    0.5,
    0.999,
    1.0,
    1.001,
    2.5,
    3.5,
    100.0,
    f64::INFINITY,
];

#[test]
fn unary_float_ops_over_a_sweep() {
    let mut p = program(&unary_src());
    for &x in &SWEEP {
        let y = -x;
        let args = [
            Arg::Scalar(Scalar::F32(x as f32)),
            Arg::Scalar(Scalar::F32(y as f32)),
            Arg::Scalar(Scalar::F64(x)),
            Arg::Scalar(Scalar::F64(y)),
        ];
        run_ok(&mut p, "k", &args);
        let f = p.field("f").unwrap().as_f32().unwrap().to_vec();
        let d = p.field("d").unwrap().as_f64().unwrap().to_vec();
        for (i, op) in UNARY.iter().enumerate() {
            let (wf, wd) = reference(op, x, y);
            assert_eq!(bits(f[i] as f64), bits(wf as f64), "{op}({x}) f32");
            assert_eq!(bits(d[i]), bits(wd), "{op}({x}) f64");
        }
    }
}

#[test]
fn rounding_ties() {
    let mut p = program(&unary_src());
    let at = |op: &str| UNARY.iter().position(|o| *o == op).unwrap();
    for (x, trunc, round, even) in [
        (2.5, 2.0, 3.0, 2.0),
        (-2.5, -2.0, -3.0, -2.0),
        (3.5, 3.0, 4.0, 4.0),
        (-0.5, -0.0, -1.0, -0.0),
        (0.49999997, 0.0, 0.0, 0.0),
    ] {
        let args = [
            Arg::Scalar(Scalar::F32(x as f32)),
            Arg::Scalar(Scalar::F32(1.0)),
            Arg::Scalar(Scalar::F64(x)),
            Arg::Scalar(Scalar::F64(1.0)),
        ];
        run_ok(&mut p, "k", &args);
        let d = p.field("d").unwrap().as_f64().unwrap().to_vec();
        let got = [d[at("trunc")], d[at("round")], d[at("roundeven")]];
        let want: [f64; 3] = [trunc, round, even];
        assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{x}");
    }
}

const OTHER: &str = r#"module {
  qd.field @p : !qd.field<2xf32>
  qd.field @pd : !qd.field<1xf64>
  qd.field @a : !qd.field<2xi32>
  qd.field @b : !qd.field<6xi32>
  qd.kernel @k(%x: f32, %n: i32, %xd: f64, %m: i64, %i: i32, %j: i8) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %0 = math.fpowi %x, %n : f32, i32
    qd.store %0, @p[%c0] : f32
    %1 = math.fpowi %x, %m : f32, i64
    qd.store %1, @p[%c1] : f32
    %2 = math.fpowi %xd, %n : f64, i32
    qd.store %2, @pd[%c0] : f64
    %3 = math.absi %i : i32
    qd.store %3, @a[%c0] : i32
    %4 = math.absi %j : i8
    %w4 = arith.extsi %4 : i8 to i32
    qd.store %w4, @a[%c1] : i32
    %5 = math.isnan %x : f32
    %6 = math.isinf %x : f32
    %7 = math.isfinite %x : f32
    %8 = math.isnan %xd : f64
    %9 = math.isinf %xd : f64
    %10 = math.isfinite %xd : f64
    %t = arith.constant 1 : i32
    %f = arith.constant 0 : i32
    %s5 = arith.select %5, %t, %f : i32
    qd.store %s5, @b[%c0] : i32
    %s6 = arith.select %6, %t, %f : i32
    qd.store %s6, @b[%c1] : i32
    %s7 = arith.select %7, %t, %f : i32
    qd.store %s7, @b[%c2] : i32
    %s8 = arith.select %8, %t, %f : i32
    qd.store %s8, @b[%c3] : i32
    %s9 = arith.select %9, %t, %f : i32
    qd.store %s9, @b[%c4] : i32
    %s10 = arith.select %10, %t, %f : i32
    qd.store %s10, @b[%c5] : i32
  }
}"#;

#[test]
fn fpowi_absi_and_classifications() {
    let mut p = program(OTHER);
    for &x in &SWEEP {
        for n in [-3i32, -1, 0, 1, 2, 5] {
            for (i, j) in [(i32::MIN, i8::MIN), (-7, -5), (0, 0), (9, 127)] {
                // An exponent beyond i32: odd, so a negative base keeps its sign.
                let m = (1i64 << 40) + 1;
                let args = [
                    Arg::Scalar(Scalar::F32(x as f32)),
                    Arg::Scalar(Scalar::I32(n)),
                    Arg::Scalar(Scalar::F64(x)),
                    Arg::Scalar(Scalar::I64(m)),
                    Arg::Scalar(Scalar::I32(i)),
                    Arg::Scalar(Scalar::I8(j)),
                ];
                run_ok(&mut p, "k", &args);
                let pf = p.field("p").unwrap().as_f32().unwrap().to_vec();
                let pd = p.field("pd").unwrap().as_f64().unwrap().to_vec();
                assert_eq!(
                    bits(pf[0] as f64),
                    bits((x as f32).powi(n) as f64),
                    "{x}^{n}"
                );
                let wide = (x.powf(m as f64) as f32) as f64;
                assert_eq!(bits(pf[1] as f64), bits(wide), "{x}^{m}");
                assert_eq!(bits(pd[0]), bits(x.powi(n)), "{x}^{n} f64");
                let a = p.field("a").unwrap().as_i32().unwrap().to_vec();
                assert_eq!(a, [i.wrapping_abs(), j.wrapping_abs() as i32], "{i} {j}");
                let b = p.field("b").unwrap().as_i32().unwrap().to_vec();
                let class = [x.is_nan(), x.is_infinite(), x.is_finite()];
                let want: Vec<i32> = class.iter().chain(&class).map(|&c| c as i32).collect();
                // 1e30 is finite in f64 and in f32 too (f32 reaches 3.4e38).
                assert_eq!(b, want, "{x}");
            }
        }
    }
}
