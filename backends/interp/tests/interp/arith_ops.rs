//! Issue #14's arith ops on the interpreter, against Rust references over sweeps that include
//! the edges: INT_MIN, -1, negative operands of the rounding divisions, unsigned readings of
//! negative values, NaN, infinities and signed zeros for minnumf/maxnumf.

use super::common::*;
use qd_runtime::{Arg, RuntimeErrorKind, Scalar};

const SRC: &str = r#"module {
  qd.field @o : !qd.field<5xi32>
  qd.field @w : !qd.field<2xi64>
  qd.field @f : !qd.field<2xf32>
  qd.field @d : !qd.field<2xf64>
  qd.kernel @k(%a: i32, %b: i32, %x: f32, %y: f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %0 = arith.ceildivsi %a, %b : i32
    qd.store %0, @o[%c0] : i32
    %1 = arith.floordivsi %a, %b : i32
    qd.store %1, @o[%c1] : i32
    %2 = arith.ceildivui %a, %b : i32
    qd.store %2, @o[%c2] : i32
    %3 = arith.maxui %a, %b : i32
    qd.store %3, @o[%c3] : i32
    %4 = arith.minui %a, %b : i32
    qd.store %4, @o[%c4] : i32
    %u = arith.index_castui %a : i32 to index
    %u64 = arith.index_cast %u : index to i64
    qd.store %u64, @w[%c0] : i64
    %s = arith.index_cast %a : i32 to index
    %t = arith.index_castui %s : index to i16
    %t64 = arith.extsi %t : i16 to i64
    qd.store %t64, @w[%c1] : i64
    %5 = arith.maxnumf %x, %y : f32
    qd.store %5, @f[%c0] : f32
    %6 = arith.minnumf %x, %y fastmath<nsz> : f32
    qd.store %6, @f[%c1] : f32
    %xd = arith.extf %x : f32 to f64
    %yd = arith.extf %y : f32 to f64
    %7 = arith.maxnumf %xd, %yd : f64
    qd.store %7, @d[%c0] : f64
    %8 = arith.minnumf %xd, %yd : f64
    qd.store %8, @d[%c1] : f64
  }
}"#;

pub const INTS: [i32; 12] = [
    i32::MIN,
    i32::MIN + 1,
    -7,
    -6,
    -1,
    0,
    1,
    2,
    3,
    6,
    7,
    i32::MAX,
];
pub const FLOATS: [f32; 8] = [
    f32::NAN,
    f32::NEG_INFINITY,
    -1.5,
    -0.0,
    0.0,
    2.0,
    2.5,
    f32::INFINITY,
];

/// floor(a / b), computed through Euclidean division on i64 (no overflow there).
fn floor_div(a: i64, b: i64) -> i64 {
    if b > 0 {
        a.div_euclid(b)
    } else {
        (-a).div_euclid(-b)
    }
}

/// IEEE 754-2019 maximumNumber / minimumNumber, written from their definition.
fn max_num(x: f64, y: f64) -> f64 {
    match (x.is_nan(), y.is_nan()) {
        (true, _) => y,
        (_, true) => x,
        _ if x == 0.0 && y == 0.0 => {
            if x.is_sign_positive() {
                x
            } else {
                y
            }
        }
        _ => x.max(y),
    }
}
fn min_num(x: f64, y: f64) -> f64 {
    -max_num(-x, -y)
}

fn args(a: i32, b: i32, x: f32, y: f32) -> Vec<Arg> {
    vec![
        Arg::Scalar(Scalar::I32(a)),
        Arg::Scalar(Scalar::I32(b)),
        Arg::Scalar(Scalar::F32(x)),
        Arg::Scalar(Scalar::F32(y)),
    ]
}

/// Bits, with every NaN as one value (a NaN's payload is not specified).
fn bits(v: f64) -> u64 {
    if v.is_nan() {
        1
    } else {
        v.to_bits()
    }
}

#[test]
fn integer_ops_over_a_sweep() {
    let mut p = program(SRC);
    for (k, &a) in INTS.iter().enumerate() {
        for &b in INTS.iter().filter(|&&b| b != 0) {
            let (x, y) = (FLOATS[k % 8], FLOATS[(k + 3) % 8]);
            run_ok(&mut p, "k", &args(a, b, x, y));
            let (la, lb) = (a as i64, b as i64);
            let (ua, ub) = (a as u32, b as u32);
            let want = [
                // The exact quotient wraps: INT_MIN / -1 gives INT_MIN.
                (-floor_div(-la, lb)) as i32,
                floor_div(la, lb) as i32,
                ua.div_ceil(ub) as i32,
                ua.max(ub) as i32,
                ua.min(ub) as i32,
            ];
            let got = p.field("o").unwrap().as_i32().unwrap().to_vec();
            assert_eq!(got, want, "a = {a}, b = {b}");
            let w = p.field("w").unwrap().as_i64().unwrap().to_vec();
            assert_eq!(w, [ua as i64, a as i16 as i64], "a = {a}");
        }
    }
}

#[test]
fn minnumf_maxnumf_over_a_sweep() {
    let mut p = program(SRC);
    for &x in &FLOATS {
        for &y in &FLOATS {
            run_ok(&mut p, "k", &args(1, 1, x, y));
            let f = p.field("f").unwrap().as_f32().unwrap().to_vec();
            let d = p.field("d").unwrap().as_f64().unwrap().to_vec();
            let (x6, y6) = (x as f64, y as f64);
            let want = [bits(max_num(x6, y6)), bits(min_num(x6, y6))];
            assert_eq!([bits(f[0] as f64), bits(f[1] as f64)], want, "{x} {y}");
            assert_eq!([bits(d[0]), bits(d[1])], want, "{x} {y}");
            // Only a NaN pair gives NaN.
            assert_eq!(f[0].is_nan(), x.is_nan() && y.is_nan());
        }
    }
}

#[test]
fn rounding_divisions_by_zero_are_located_errors() {
    for op in ["ceildivsi", "floordivsi", "ceildivui"] {
        let src = format!(
            "module {{
  qd.field @o : !qd.field<1xi32>
  qd.kernel @k(%a: i32, %b: i32) {{
    %c0 = arith.constant 0 : i32
    %q = arith.{op} %a, %b : i32
    qd.store %q, @o[%c0] : i32
  }}
}}"
        );
        let mut p = program(&src);
        let e = run_err(
            &mut p,
            "k",
            &[Arg::Scalar(Scalar::I32(5)), Arg::Scalar(Scalar::I32(0))],
        );
        assert_eq!(e.kind, RuntimeErrorKind::DivisionByZero, "{op}");
        assert_eq!(line_of(&e), 5, "{op}");
        assert_eq!(p.field("o").unwrap().as_i32().unwrap()[0], 0, "{op}");
    }
}
