//! fpowi with i64 exponents (past i32's range too, where the interpreter takes pow in f64: the
//! squaring over 64 bits gives the same 0, inf or +-1 there) and i8 ones, and absi of i64, on
//! every device against the interpreter bit for bit. vulkan has no f64 power of an i64 exponent
//! (refused at the op, tested in qd-spirv): its kernel leaves that one out.

use super::common::*;
use qd_runtime::{Program, Scalar};

const N: usize = 128;

fn src(f64_power: bool) -> String {
    let q = if f64_power {
        "%q = math.fpowi %d, %n : f64, i64
      qd.store %q, @q[%i] : f64"
    } else {
        ""
    };
    format!(
        r#"module {{
  qd.field @x : !qd.field<{N}xf32>
  qd.field @d : !qd.field<{N}xf64>
  qd.field @n : !qd.field<{N}xi64>
  qd.field @b : !qd.field<{N}xi8>
  qd.field @p : !qd.field<{N}xf32>
  qd.field @q : !qd.field<{N}xf64>
  qd.field @r : !qd.field<{N}xf32>
  qd.field @a : !qd.field<{N}xi64>
  qd.kernel @k() {{
    qd.struct_for (%i) in @x {{
      %x = qd.load @x[%i] : f32
      %d = qd.load @d[%i] : f64
      %n = qd.load @n[%i] : i64
      %b = qd.load @b[%i] : i8
      %p = math.fpowi %x, %n : f32, i64
      qd.store %p, @p[%i] : f32
      {q}
      %r = math.fpowi %x, %b : f32, i8
      qd.store %r, @r[%i] : f32
      %a = math.absi %n : i64
      qd.store %a, @a[%i] : i64
    }}
  }}
}}"#
    )
}

/// Bases just below and above 1 (large powers show their rounding), -2.5, -1, 1 and values a
/// little above 1; every exponent against each.
fn fill(p: &mut Program) {
    let ns: [i64; 16] = [
        0,
        1,
        -1,
        7,
        -7,
        1 << 31,
        -(1 << 31),
        -(1 << 31) - 1,
        (1 << 31) - 1,
        (1 << 40) + 1,
        -(1 << 40) - 1,
        i64::MAX,
        i64::MIN,
        1 << 53,
        (1 << 33) + 1,
        -3,
    ];
    let d: Vec<f64> = (0..N)
        .map(|i| match i / 16 {
            0 => -1.0000001,
            1 => 0.99999994,
            2 => -2.5,
            3 => 1.0 + 1e-12 * i as f64,
            4 => f64::from(-1.000_000_1f32),
            5 => f64::from(0.999_999_94f32),
            6 => -1.0,
            _ => 1.0,
        })
        .collect();
    let x: Vec<f64> = d.iter().map(|&x| f64::from(x as f32)).collect();
    let b: Vec<f64> = (0..N)
        .map(|i| f64::from(((i * 37 % 256) as i32 - 128) as i8))
        .collect();
    p.write_f64("x", &x).unwrap();
    p.write_f64("d", &d).unwrap();
    p.write_f64("b", &b).unwrap();
    // i64 values past 2^53 do not pass through f64: written as scalars.
    let n: Vec<Scalar> = (0..N).map(|i| Scalar::I64(ns[i % ns.len()])).collect();
    p.write_scalars("n", &n).unwrap();
}

#[test]
fn fpowi_of_wide_and_narrow_exponents_is_the_interpreters_on_every_device() {
    // 8-bit and 64-bit integers.
    for c in configs().into_iter().filter(|c| !c.only_32_bit) {
        let f64_power = c.name != "vulkan";
        let src = src(f64_power);
        let mut want = program_on(&src, interp());
        fill(&mut want);
        run_ok(&mut want, "interp", "k", &[]);
        let Some(dev) = c.device() else { continue };
        let mut p = program_on(&src, dev);
        fill(&mut p);
        run_ok(&mut p, c.label, "k", &[]);
        let fields: &[&str] = if f64_power {
            &["p", "q", "r", "a"]
        } else {
            &["p", "r", "a"]
        };
        for f in fields {
            assert_eq!(
                p.field(f).unwrap(),
                want.field(f).unwrap(),
                "{}: field {f}",
                c.label
            );
        }
    }
}
