//! Issue #14's arith ops (ceildivsi, floordivsi, ceildivui, maxui, minui, index_castui,
//! maxnumf, minnumf) on every device against Rust references, bit for bit (every NaN as one
//! value), over every pair of edge values: INT_MIN, -1, 0 (a division by zero is the same
//! located error on every device), negative operands and their unsigned readings, NaN,
//! infinities and signed zeros.

use super::common::*;
use qd_runtime::{Arg, RuntimeErrorKind, Scalar};

const INTS: [i32; 12] = [
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
const FLOATS: [f32; 8] = [
    f32::NAN,
    f32::NEG_INFINITY,
    -1.5,
    -0.0,
    0.0,
    2.0,
    2.5,
    f32::INFINITY,
];
/// Every (a, b) pair, and every (x, y) pair repeated along them.
const N: usize = INTS.len() * INTS.len();

/// The rounding divisions, each with a kernel `div_OP` dividing by zero before its loop (scalar
/// code) or in it (vector lanes: b[5] is 0).
const DIVS: [&str; 3] = ["ceildivsi", "floordivsi", "ceildivui"];

fn src() -> String {
    let mut s = format!(
        "module {{
  qd.field @a : !qd.field<{N}xi32>
  qd.field @b : !qd.field<{N}xi32>
  qd.field @x : !qd.field<{N}xf32>
  qd.field @y : !qd.field<{N}xf32>
  qd.field @o0 : !qd.field<{N}xi32>
  qd.field @o1 : !qd.field<{N}xi32>
  qd.field @o2 : !qd.field<{N}xi32>
  qd.field @o3 : !qd.field<{N}xi32>
  qd.field @o4 : !qd.field<{N}xi32>
  qd.field @w0 : !qd.field<{N}xi64>
  qd.field @w1 : !qd.field<{N}xi64>
  qd.field @f0 : !qd.field<{N}xf32>
  qd.field @f1 : !qd.field<{N}xf32>
  qd.field @f2 : !qd.field<{N}xf32>
  qd.field @d0 : !qd.field<{N}xf64>
  qd.field @d1 : !qd.field<{N}xf64>
  qd.kernel @ints() {{
    qd.struct_for (%i) in @a {{
      %a = qd.load @a[%i] : i32
      %b0 = qd.load @b[%i] : i32
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %isz = arith.cmpi eq, %b0, %z : i32
      %b = arith.select %isz, %one, %b0 : i32
      %0 = arith.ceildivsi %a, %b : i32
      qd.store %0, @o0[%i] : i32
      %1 = arith.floordivsi %a, %b : i32
      qd.store %1, @o1[%i] : i32
      %2 = arith.ceildivui %a, %b : i32
      qd.store %2, @o2[%i] : i32
      %3 = arith.maxui %a, %b0 : i32
      qd.store %3, @o3[%i] : i32
      %4 = arith.minui %a, %b0 : i32
      qd.store %4, @o4[%i] : i32
      %u = arith.index_castui %a : i32 to index
      %u64 = arith.index_cast %u : index to i64
      qd.store %u64, @w0[%i] : i64
      %s = arith.index_cast %b0 : i32 to index
      %t = arith.index_castui %s : index to i16
      %t64 = arith.extsi %t : i16 to i64
      qd.store %t64, @w1[%i] : i64
    }}
  }}
  qd.kernel @floats() {{
    qd.struct_for (%i) in @x {{
      %x = qd.load @x[%i] : f32
      %y = qd.load @y[%i] : f32
      %0 = arith.maxnumf %x, %y : f32
      qd.store %0, @f0[%i] : f32
      %1 = arith.minnumf %x, %y fastmath<nnan> : f32
      qd.store %1, @f1[%i] : f32
      %2 = arith.minnumf %x, %y fastmath<nsz> : f32
      qd.store %2, @f2[%i] : f32
      %xd = arith.extf %x : f32 to f64
      %yd = arith.extf %y : f32 to f64
      %3 = arith.maxnumf %xd, %yd : f64
      qd.store %3, @d0[%i] : f64
      %4 = arith.minnumf %xd, %yd : f64
      qd.store %4, @d1[%i] : f64
    }}
  }}
"
    );
    for op in DIVS {
        s += &format!(
            "  qd.kernel @div_{op}(%a: i32, %b: i32) {{
    %c0 = arith.constant 0 : i32
    %q = arith.{op} %a, %b : i32
    qd.store %q, @o0[%c0] : i32
    qd.struct_for (%i) in @a {{
      %v = qd.load @b[%i] : i32
      %r = arith.{op} %a, %v : i32
      qd.store %r, @o1[%i] : i32
    }}
  }}
"
        );
    }
    s + "}"
}

/// The (a, b, x, y) operands of element k.
fn operands(k: usize) -> (i32, i32, f32, f32) {
    let (n, f) = (INTS.len(), FLOATS.len());
    (INTS[k / n], INTS[k % n], FLOATS[k % f], FLOATS[(k / f) % f])
}

fn fill(p: &mut qd_runtime::Program) {
    let ops: Vec<_> = (0..N).map(operands).collect();
    let a = ops.iter().map(|o| o.0 as f64).collect();
    let b = ops.iter().map(|o| o.1 as f64).collect();
    let x = ops.iter().map(|o| o.2 as f64).collect();
    let y = ops.iter().map(|o| o.3 as f64).collect();
    for (name, v) in [("a", a), ("b", b), ("x", x), ("y", y)] {
        let v: Vec<f64> = v;
        p.write_f64(name, &v).unwrap();
    }
}

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

/// The expected bits of every output field, as [`bits`] reads them.
fn expected() -> Vec<(&'static str, Vec<u64>)> {
    let mut out: Vec<(&'static str, Vec<u64>)> = [
        "o0", "o1", "o2", "o3", "o4", "w0", "w1", "f0", "f1", "f2", "d0", "d1",
    ]
    .iter()
    .map(|&f| (f, Vec::new()))
    .collect();
    let b = |v: f64| if v.is_nan() { 1 } else { v.to_bits() };
    for k in 0..N {
        let (a, b0, x, y) = operands(k);
        // The kernel divides by 1 where b is 0.
        let d = if b0 == 0 { 1 } else { b0 };
        let (la, ld) = (a as i64, d as i64);
        let (ua, ud, ub) = (a as u32, d as u32, b0 as u32);
        let (x6, y6) = (x as f64, y as f64);
        let vals = [
            // The exact quotient wraps: INT_MIN / -1 gives INT_MIN.
            (-floor_div(-la, ld)) as i32 as f64,
            floor_div(la, ld) as i32 as f64,
            ua.div_ceil(ud) as i32 as f64,
            ua.max(ub) as i32 as f64,
            ua.min(ub) as i32 as f64,
            ua as f64,
            b0 as i16 as f64,
            max_num(x6, y6),
            min_num(x6, y6),
            min_num(x6, y6),
            max_num(x6, y6),
            min_num(x6, y6),
        ];
        for (o, v) in out.iter_mut().zip(vals) {
            o.1.push(b(v));
        }
    }
    out
}

#[test]
fn new_arith_ops_match_rust_on_every_device() {
    let (src, want) = (src(), expected());
    // The sweep holds INT_MIN / -1, and only a NaN pair gives NaN.
    assert!((0..N).any(|k| operands(k).0 == i32::MIN && operands(k).1 == -1));
    // The sweep stores i64 and f64 values.
    for c in configs().into_iter().filter(|c| !c.only_32_bit) {
        let Some(dev) = c.device() else { continue };
        let mut p = program_on(&src, dev);
        fill(&mut p);
        for k in ["ints", "floats"] {
            run_ok(&mut p, c.label, k, &[]);
            if let Some(vectorised) = c.vectorised {
                let id = p.kernel(k).unwrap();
                for n in p.task_notes(id) {
                    assert_eq!(n.scalar_reason, None, "{}: {k}: {n:?}", c.label);
                    assert!(n.lanes > 1 || !vectorised, "{}: {k}: {n:?}", c.label);
                }
            }
        }
        for (f, want) in &want {
            assert_eq!(&bits(&p, f), want, "{}: field {f}", c.label);
        }
    }
}

#[test]
fn rounding_divisions_by_zero_are_the_same_located_error_on_every_device() {
    let src = src();
    let args = |a: i32, b: i32| [Arg::Scalar(Scalar::I32(a)), Arg::Scalar(Scalar::I32(b))];
    let line = |text: &str| {
        1 + src
            .lines()
            .position(|l| l.trim_start().starts_with(text))
            .unwrap() as u32
    };
    for op in DIVS {
        let kernel = format!("div_{op}");
        let first = line(&format!("qd.kernel @{kernel}("));
        // Before the loop (the division at the kernel's 2nd line), then in it (its 6th).
        for (a, b, at) in [(5, 0, first + 2), (5, 1, first + 6)] {
            let mut want = None;
            for c in configs() {
                let Some(dev) = c.device() else { continue };
                let mut p = program_on(&src, dev);
                fill(&mut p);
                let errors = run(&mut p, &kernel, &args(a, b));
                assert!(!errors.is_empty(), "{}: {op}", c.label);
                for e in &errors {
                    assert_eq!(e.kind, RuntimeErrorKind::DivisionByZero, "{}: {e}", c.label);
                    assert_eq!(
                        e.position.as_ref().map(|p| p.1),
                        Some(at),
                        "{}: {e}",
                        c.label
                    );
                }
                // The store after a failed division does not happen.
                if b == 0 {
                    assert_eq!(p.read_f64("o0").unwrap()[0], 0.0, "{}: {op}", c.label);
                }
                let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                match &want {
                    None => want = Some(text),
                    Some(w) => assert_eq!(&text, w, "{}: {op} ({a}, {b})", c.label),
                }
            }
        }
    }
}
