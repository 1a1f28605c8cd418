//! The math ops added for issue #14 on the cpu device, vectorised and scalar: each over a sweep
//! of f32 and f64 inputs (every exponent, both signs, the domain's edges, dense sweeps of its
//! main range) against the f64 libm result (glibc; Rust's std for the exact ones).
//!
//! asin ... cbrt are vmath's code on both paths (`codegen/vmath`): correctly rounded on every f32
//! point of the sweep (0.5 ulp of the exact value by vmath's own test), within 2 ulps of glibc in
//! f64. erf and erfc have no vectorised form: their task runs scalar code, which calls libm
//! (glibc's erfcf is within 2 ulps), and its note says why. The exact ops (trunc, round,
//! roundeven, copysign, absi, isnan, isinf, isfinite, fpowi) give Rust's results bit for bit
//! (fpowi: `powi`, libgcc's repeated squaring), on both paths.

use super::common::*;
use qd_runtime::{Device, Program, ProgramConfig};

/// glibc's functions that Rust's std computes its own way.
mod glibc {
    extern "C" {
        pub fn asinh(x: f64) -> f64;
        pub fn acosh(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
    }
}

type Ref = fn(f64) -> f64;

/// (op, reference, vectorised f32 bound, scalar f32 bound, f64 bound) in ulps.
const UNARY: &[(&str, Ref, f64, f64, f64)] = &[
    ("asin", f64::asin, 0.51, 0.51, 2.0),
    ("acos", f64::acos, 0.51, 0.51, 2.0),
    ("atan", f64::atan, 0.51, 0.51, 2.0),
    ("sinh", f64::sinh, 0.51, 0.51, 2.0),
    ("cosh", f64::cosh, 0.51, 0.51, 2.0),
    ("asinh", |x| unsafe { glibc::asinh(x) }, 0.51, 0.51, 2.0),
    ("acosh", |x| unsafe { glibc::acosh(x) }, 0.51, 0.51, 2.0),
    ("atanh", |x| unsafe { glibc::atanh(x) }, 0.51, 0.51, 2.0),
    ("log1p", f64::ln_1p, 0.51, 0.51, 2.0),
    ("expm1", f64::exp_m1, 0.51, 0.51, 2.0),
    ("log10", f64::log10, 0.51, 0.51, 2.0),
    ("cbrt", f64::cbrt, 0.51, 0.51, 2.0),
    ("trunc", f64::trunc, 0.0, 0.0, 0.0),
    ("round", f64::round, 0.0, 0.0, 0.0),
    ("roundeven", f64::round_ties_even, 0.0, 0.0, 0.0),
];

/// The ops without a vectorised form (their own kernel, scalar on both devices).
const SCALAR_ONLY: &[(&str, Ref, f64)] = &[
    ("erf", |x| unsafe { glibc::erf(x) }, 1.0),
    // glibc's erfcf is within 2 ulps.
    ("erfc", |x| unsafe { glibc::erfc(x) }, 2.0),
];

const N: usize = 24_576;

/// f32 or f64 inputs: a sweep of the bit patterns, edge values, then dense sweeps of [-4, 4]
/// and [-1e-3, 1e-3].
fn inputs(f32: bool) -> Vec<f64> {
    let round = |x: f64| if f32 { f64::from(x as f32) } else { x };
    let mut xs = vec![
        0.0,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        1e-30,
        -1e-30,
        22.0,
        -22.5,
        40.0,
        88.0,
        -89.5,
        709.0,
        710.4,
        1e300,
    ];
    xs.extend([f64::from(f32::MAX), f64::from(f32::MIN_POSITIVE), 1e-45]);
    for c in [1.0f64, -1.0, 0.5] {
        for d in 1..=8u64 {
            if f32 {
                let b = (c as f32).to_bits();
                xs.extend(
                    [f32::from_bits(b + d as u32), f32::from_bits(b - d as u32)].map(f64::from),
                );
            } else {
                xs.extend([
                    f64::from_bits(c.to_bits() + d),
                    f64::from_bits(c.to_bits() - d),
                ]);
            }
        }
    }
    let sweep = 8192;
    for i in 0..sweep {
        let neg = i % 2 == 1;
        let t = (i / 2) as f64 / (sweep / 2) as f64;
        let v = if f32 {
            f64::from(f32::from_bits((t * f64::from(0x7f80_0000u32)) as u32))
        } else {
            f64::from_bits((t * 0x7ff0_0000_0000_0000u64 as f64) as u64)
        };
        xs.push(if neg { -v } else { v });
    }
    let rest = N - xs.len();
    for i in 0..rest {
        let t = i as f64 / rest as f64;
        xs.push(round(if i % 2 == 0 {
            (t - 0.5) * 8.0
        } else {
            (t - 0.5) * 2e-3
        }));
    }
    xs.into_iter().map(round).collect()
}

/// The error of `got` against `want`: f32 in ulps of the f32 format at `want`, f64 in units of
/// the last place; infinite where a special value (NaN, inf, the sign of a zero) differs.
fn ulps(f32: bool, got: f64, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let want = if f32 { f64::from(want as f32) } else { want };
    if got.is_infinite() || want.is_infinite() || got == 0.0 || want == 0.0 {
        // Exact values: the sign of zero and infinities must match. A tiny nonzero result
        // against a rounded zero is measured below.
        if got.to_bits() == want.to_bits() {
            return 0.0;
        }
        if got.is_infinite() || want.is_infinite() || (got == 0.0 && want == 0.0) {
            return f64::INFINITY;
        }
    }
    if f32 {
        let e = ((want.abs().to_bits() >> 52) as i64 - 1023).max(-126);
        (got - want).abs() / 2f64.powi(e as i32 - 23)
    } else {
        // Units in the last place: the distance of the bit patterns (ordered by value).
        let key = |x: f64| {
            let b = x.to_bits() as i64;
            if b < 0 {
                -(b & i64::MAX)
            } else {
                b
            }
        };
        (key(got) - key(want)).unsigned_abs() as f64
    }
}

fn ty(f32: bool) -> &'static str {
    if f32 {
        "f32"
    } else {
        "f64"
    }
}

/// A kernel `k` storing `math.OP` of @x into @OP for each op of `ops`.
fn unary_source(ops: &[&str], f32: bool) -> String {
    let t = ty(f32);
    let mut s = format!("module {{\n  qd.field @x : !qd.field<{N}x{t}>\n");
    for op in ops {
        s += &format!("  qd.field @{op} : !qd.field<{N}x{t}>\n");
    }
    s += "  qd.kernel @k() {\n    qd.struct_for (%i) in @x {\n";
    s += &format!("      %v = qd.load @x[%i] : {t}\n");
    for op in ops {
        s += &format!("      %{op} = math.{op} %v : {t}\n      qd.store %{op}, @{op}[%i] : {t}\n");
    }
    s + "    }\n  }\n}\n"
}

fn device(scalar: bool) -> Box<dyn Device> {
    Box::new(
        qd_llvm::CpuDevice::with_threads(2)
            .unwrap()
            .with_check_bounds(true)
            .with_scalar_tasks(scalar),
    )
}

/// Runs kernel `k` of `src` on `xs` (field @x); returns the program and the task notes.
fn run_on(src: &str, xs: &[f64], scalar: bool) -> (Program, Vec<qd_runtime::TaskNote>) {
    let mut p = program_on(src, device(scalar), ProgramConfig::default());
    p.write_f64("x", xs).unwrap();
    let k = p.kernel("k").unwrap();
    p.launch(k, &[]).unwrap();
    let notes = p.task_notes(k);
    if let Err(e) = p.sync() {
        panic!("{e:?}");
    }
    (p, notes)
}

/// Measures every op of `ops` on both paths and types; returns the table and the failures.
fn measure(ops: &[(&str, Ref, f64, f64, f64)], expect_vectorised: bool) -> (String, Vec<String>) {
    let mut table = String::new();
    let mut fails = Vec::new();
    let names: Vec<&str> = ops.iter().map(|o| o.0).collect();
    for f32 in [true, false] {
        let xs = inputs(f32);
        let src = unary_source(&names, f32);
        for scalar in [false, true] {
            let (p, notes) = run_on(&src, &xs, scalar);
            let path = if scalar { "scalar" } else { "vector" };
            for n in &notes {
                let vectorised = n.lanes > 1;
                if vectorised != (expect_vectorised && !scalar) {
                    fails.push(format!("{names:?} {path}: task note {n:?}"));
                }
            }
            for &(op, reference, vb, sb, db) in ops {
                let got = p.read_f64(op).unwrap();
                let bound = match (f32, scalar) {
                    (false, _) => db,
                    (true, false) => vb,
                    (true, true) => sb,
                };
                let (mut worst, mut at) = (0.0f64, 0usize);
                for (i, &x) in xs.iter().enumerate() {
                    let e = ulps(f32, got[i], reference(x));
                    if e > worst || e.is_nan() {
                        (worst, at) = (e, i);
                    }
                }
                table += &format!(
                    "{op:<10} {}  {path}  max {worst:.3} ulp at {:e} -> {:e}\n",
                    ty(f32),
                    xs[at],
                    got[at]
                );
                if worst.is_nan() || worst > bound {
                    fails.push(format!(
                        "{op} {} {path}: {worst} ulp at {:e} (got {:e}, want {:e}; bound {bound})",
                        ty(f32),
                        xs[at],
                        got[at],
                        reference(xs[at])
                    ));
                }
            }
        }
    }
    (table, fails)
}

#[test]
fn new_float_math_ops_are_accurate_vectorised_and_scalar() {
    let (table, fails) = measure(UNARY, true);
    println!("{table}");
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn erf_and_erfc_run_scalar_with_a_reason() {
    let ops: Vec<(&str, Ref, f64, f64, f64)> = SCALAR_ONLY
        .iter()
        .map(|&(op, r, b)| (op, r, b, b, b))
        .collect();
    let (table, fails) = measure(&ops, false);
    println!("{table}");
    assert!(fails.is_empty(), "{}", fails.join("\n"));
    let (_, notes) = run_on(&unary_source(&["erf"], true), &inputs(true), false);
    assert_eq!(notes.len(), 1);
    assert_eq!(
        notes[0].scalar_reason.as_deref(),
        Some("'math.erf' has no vectorised form")
    );
}

/// The exact ops of mixed types: copysign (two floats), fpowi (a float and an i32), absi (i32),
/// isnan, isinf, isfinite (float to i1, stored widened to i32).
fn mixed_source(f32: bool) -> String {
    let t = ty(f32);
    format!(
        r#"module {{
  qd.field @x : !qd.field<{N}x{t}>
  qd.field @y : !qd.field<{N}x{t}>
  qd.field @n : !qd.field<{N}xi32>
  qd.field @cs : !qd.field<{N}x{t}>
  qd.field @pw : !qd.field<{N}x{t}>
  qd.field @ab : !qd.field<{N}xi32>
  qd.field @nan : !qd.field<{N}xi32>
  qd.field @inf : !qd.field<{N}xi32>
  qd.field @fin : !qd.field<{N}xi32>
  qd.kernel @k() {{
    qd.struct_for (%i) in @x {{
      %a = qd.load @x[%i] : {t}
      %b = qd.load @y[%i] : {t}
      %m = qd.load @n[%i] : i32
      %cs = math.copysign %a, %b : {t}
      qd.store %cs, @cs[%i] : {t}
      %pw = math.fpowi %a, %m : {t}, i32
      qd.store %pw, @pw[%i] : {t}
      %ab = math.absi %m : i32
      qd.store %ab, @ab[%i] : i32
      %isn = math.isnan %a : {t}
      %isn32 = arith.extui %isn : i1 to i32
      qd.store %isn32, @nan[%i] : i32
      %isi = math.isinf %a : {t}
      %isi32 = arith.extui %isi : i1 to i32
      qd.store %isi32, @inf[%i] : i32
      %isf = math.isfinite %a : {t}
      %isf32 = arith.extui %isf : i1 to i32
      qd.store %isf32, @fin[%i] : i32
    }}
  }}
}}
"#
    )
}

#[test]
fn exact_math_ops_match_rust_bit_for_bit() {
    for f32 in [true, false] {
        let xs = inputs(f32);
        // y: the inputs reversed (every sign against every sign); n: small and extreme powers.
        let ys: Vec<f64> = xs.iter().rev().copied().collect();
        let ns: Vec<i32> = (0..N)
            .map(|i| match i % 7 {
                0 => i32::MIN,
                1 => i32::MAX,
                2 => (i % 1000) as i32 - 500,
                _ => (i % 41) as i32 - 20,
            })
            .collect();
        // Bases near 1 to large powers, so that repeated squaring's rounding shows.
        let xs: Vec<f64> = xs
            .iter()
            .enumerate()
            .map(|(i, &x)| if i % 7 == 2 { 1.0 + x * 1e-3 } else { x })
            .map(|x| if f32 { f64::from(x as f32) } else { x })
            .collect();
        for scalar in [false, true] {
            let mut p = program_on(&mixed_source(f32), device(scalar), ProgramConfig::default());
            p.write_f64("x", &xs).unwrap();
            p.write_f64("y", &ys).unwrap();
            let nf: Vec<f64> = ns.iter().map(|&n| f64::from(n)).collect();
            p.write_f64("n", &nf).unwrap();
            let k = p.kernel("k").unwrap();
            p.launch(k, &[]).unwrap();
            let notes = p.task_notes(k);
            assert!(notes.iter().all(|n| (n.lanes > 1) != scalar), "{notes:?}");
            p.sync().unwrap();
            let field = |f: &str| p.read_f64(f).unwrap();
            let (cs, pw, ab) = (field("cs"), field("pw"), field("ab"));
            let (nan, inf, fin) = (field("nan"), field("inf"), field("fin"));
            let path = if scalar { "scalar" } else { "vector" };
            for i in 0..N {
                let (x, y, n) = (xs[i], ys[i], ns[i]);
                let (want_cs, want_pw) = if f32 {
                    let (x, y) = (x as f32, y as f32);
                    (f64::from(x.copysign(y)), f64::from(x.powi(n)))
                } else {
                    (x.copysign(y), x.powi(n))
                };
                let same =
                    |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
                assert!(
                    same(cs[i], want_cs),
                    "{path} copysign({x:e}, {y:e}) = {:e}",
                    cs[i]
                );
                assert!(
                    same(pw[i], want_pw),
                    "{path} fpowi({x:e}, {n}) = {:e}, want {want_pw:e}",
                    pw[i]
                );
                assert_eq!(ab[i], f64::from(n.wrapping_abs()), "{path} absi({n})");
                let flag = |b: bool| f64::from(u8::from(b));
                assert_eq!(nan[i], flag(x.is_nan()), "{path} isnan({x:e})");
                assert_eq!(inf[i], flag(x.is_infinite()), "{path} isinf({x:e})");
                assert_eq!(fin[i], flag(x.is_finite()), "{path} isfinite({x:e})");
            }
        }
    }
}

const IN_LOOPS: &str = r#"module {
  qd.field @x : !qd.field<37xf32>
  qd.field @n : !qd.field<37xi32>
  qd.field @y : !qd.field<37xf32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %x = qd.load @x[%i] : f32
      qd.local_store %x, %v : !qd.ptr<f32>
      %n = qd.load @n[%i] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %p = math.fpowi %o, %j : f32, i32
        %s = math.asinh %p : f32
        %e = math.expm1 %s : f32
        %c = math.cbrt %e : f32
        %t = math.atan %c : f32
        %r = arith.addf %o, %t : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.store %f, @y[%i] : f32
    }
  }
}"#;

/// The ops inside a per-lane (divergent) loop, fpowi's own loop nested in it: the vectorised and
/// scalar tasks give the same bits (both are vmath's code) and stay within a few ulps of the
/// interpreter (libm's functions) over the chain.
#[test]
fn math_ops_in_divergent_loops_agree() {
    let xs: Vec<f64> = (0..37).map(|i| f64::from(i as f32 * 0.11 - 2.0)).collect();
    let ns: Vec<f64> = (0..37).map(|i| f64::from(i % 9)).collect();
    let mut want = interp(IN_LOOPS);
    want.write_f64("x", &xs).unwrap();
    want.write_f64("n", &ns).unwrap();
    run_ok(&mut want, "k", &[]);
    let w = want.read_f64("y").unwrap();
    let mut outs = Vec::new();
    for scalar in [false, true] {
        let mut p = program_on(IN_LOOPS, device(scalar), ProgramConfig::default());
        p.write_f64("x", &xs).unwrap();
        p.write_f64("n", &ns).unwrap();
        let k = p.kernel("k").unwrap();
        p.launch(k, &[]).unwrap();
        assert!(p.task_notes(k).iter().all(|n| (n.lanes > 1) != scalar));
        p.sync().unwrap();
        let g = p.read_f64("y").unwrap();
        for i in 0..37 {
            assert!(
                (g[i] - w[i]).abs() <= 1e-5 * w[i].abs().max(1.0),
                "scalar={scalar}: y[{i}] = {}, interpreter {}",
                g[i],
                w[i]
            );
        }
        outs.push(g);
    }
    assert_eq!(outs[0], outs[1], "vectorised and scalar bits");
}
