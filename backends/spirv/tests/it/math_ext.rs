//! The math ops added for issue #14 on lavapipe: each f32 op over a sweep (every binade of the
//! normal range, both signs, the domain's edges, dense sweeps of [-4, 4] and [-1e-3, 1e-3])
//! against the f64 libm result, in ulps (the table is printed with `--nocapture`; the bounds are
//! the measured maxima with a little margin, documented in `codegen/libm32.rs`); the exact ops
//! (trunc, round, roundeven, copysign, fpowi, absi, isnan, isinf, isfinite) in f32 and f64 against
//! the interpreter bit for bit; the f64 ops that are not emulated refused with a located error.
//! Inputs and results in the subnormal range are left out: lavapipe may flush them.

use crate::vulkan::device;
use qd_ir::text::parse_source;
use qd_runtime::{Device, Program, ProgramConfig};

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

/// (op, f64 reference, max ulps on lavapipe).
const UNARY: &[(&str, Ref, f64)] = &[
    ("asin", f64::asin, 3.0),
    ("acos", f64::acos, 3.0),
    ("atan", f64::atan, 2.0),
    ("sinh", f64::sinh, 3.0),
    ("cosh", f64::cosh, 2.0),
    ("asinh", |x| unsafe { glibc::asinh(x) }, 3.0),
    ("acosh", |x| unsafe { glibc::acosh(x) }, 3.0),
    ("atanh", |x| unsafe { glibc::atanh(x) }, 3.0),
    ("log1p", f64::ln_1p, 3.0),
    ("expm1", f64::exp_m1, 2.0),
    ("log10", f64::log10, 2.0),
    ("cbrt", f64::cbrt, 2.0),
    ("erf", |x| unsafe { glibc::erf(x) }, 3.0),
    ("erfc", |x| unsafe { glibc::erfc(x) }, 7.0),
    ("trunc", f64::trunc, 0.0),
    ("round", f64::round, 0.0),
    ("roundeven", f64::round_ties_even, 0.0),
];

const N: usize = 16_384;

/// f32 inputs (as f64): edges, a sweep of the normal bit patterns, dense sweeps.
fn inputs() -> Vec<f64> {
    let mut xs: Vec<f32> = vec![
        0.0,
        -0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        -2.5,
        0.8,
        -0.8,
        4096.0,
        88.5,
        -89.0,
        10.0,
        -20.0,
        f32::MAX,
        -f32::MAX,
    ];
    for c in [1.0f32, -1.0, 0.5] {
        for d in 1..=8u32 {
            xs.extend([
                f32::from_bits(c.to_bits() + d),
                f32::from_bits(c.to_bits() - d),
            ]);
        }
    }
    let sweep = 6000u32;
    let (lo, hi) = (f32::MIN_POSITIVE.to_bits(), f32::MAX.to_bits());
    for i in 0..sweep {
        let b = lo + ((hi - lo) as u64 * u64::from(i / 2) / u64::from(sweep / 2)) as u32;
        let x = f32::from_bits(b);
        xs.push(if i % 2 == 0 { x } else { -x });
    }
    let rest = N - xs.len();
    for i in 0..rest {
        let t = i as f32 / rest as f32;
        xs.push(if i % 2 == 0 {
            (t - 0.5) * 8.0
        } else {
            (t - 0.5) * 2e-3
        });
    }
    xs.into_iter().map(f64::from).collect()
}

/// |got - want| in ulps of the f32 format at want; infinite where a special value differs.
fn ulps(got: f64, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let w = want as f32;
    if w.is_infinite() || got.is_infinite() || w == 0.0 || got == 0.0 {
        return if got == f64::from(w) && got.is_sign_negative() == w.is_sign_negative() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let e = ((want.abs().to_bits() >> 52) as i64 - 1023).max(-126);
    (got - want).abs() / 2f64.powi(e as i32 - 23)
}

fn program(src: &str, dev: Box<dyn Device>) -> Program {
    let mut ctx = qd_dialects::context();
    let module = parse_source(&mut ctx, src, "math_ext.mlir").unwrap();
    Program::new(ctx, module, dev, ProgramConfig::default()).unwrap()
}

fn unary_source() -> String {
    let mut s = format!("module {{\n  qd.field @x : !qd.field<{N}xf32>\n");
    for (op, _, _) in UNARY {
        s += &format!("  qd.field @{op} : !qd.field<{N}xf32>\n");
    }
    s += "  qd.kernel @k() {\n    qd.struct_for (%i) in @x {\n      %v = qd.load @x[%i] : f32\n";
    for (op, _, _) in UNARY {
        s += &format!("      %{op} = math.{op} %v : f32\n      qd.store %{op}, @{op}[%i] : f32\n");
    }
    s + "    }\n  }\n}\n"
}

#[test]
fn f32_math_ops_are_accurate_on_lavapipe() {
    let Some(dev) = device() else {
        return;
    };
    let xs = inputs();
    let mut p = program(&unary_source(), Box::new(dev));
    p.write_f64("x", &xs).unwrap();
    let k = p.kernel("k").unwrap();
    p.launch(k, &[]).unwrap();
    p.sync().unwrap();
    let mut table = String::from("\nlavapipe f32 max error (ulps of the exact value)\n");
    let mut fails = Vec::new();
    for &(op, reference, bound) in UNARY {
        let got = p.read_f64(op).unwrap();
        let (mut worst, mut at) = (0.0f64, 0usize);
        for (i, &x) in xs.iter().enumerate() {
            let want = reference(x);
            // Subnormal results: the driver may flush them.
            if want != 0.0 && want.abs() < f64::from(f32::MIN_POSITIVE) {
                continue;
            }
            let e = ulps(got[i], want);
            if e > worst || e.is_nan() {
                (worst, at) = (e, i);
            }
        }
        table += &format!(
            "{op:<10} {worst:>7.3}  at {:e} -> {:e} (exact {:e})\n",
            xs[at],
            got[at],
            reference(xs[at])
        );
        if worst.is_nan() || worst > bound {
            fails.push(format!(
                "{op}: {worst} ulp at {:e}: got {:e}, want {:e} (bound {bound})",
                xs[at],
                got[at],
                reference(xs[at])
            ));
        }
    }
    println!("{table}");
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// The exact ops of one float type: copysign, fpowi (i32 and i8 exponents), trunc, round,
/// roundeven, absi (i32), isnan, isinf, isfinite (stored as i32).
fn exact_source(t: &str) -> String {
    format!(
        r#"module {{
  qd.field @x : !qd.field<{N}x{t}>
  qd.field @y : !qd.field<{N}x{t}>
  qd.field @n : !qd.field<{N}xi32>
  qd.field @cs : !qd.field<{N}x{t}>
  qd.field @pw : !qd.field<{N}x{t}>
  qd.field @pb : !qd.field<{N}x{t}>
  qd.field @tr : !qd.field<{N}x{t}>
  qd.field @rd : !qd.field<{N}x{t}>
  qd.field @re : !qd.field<{N}x{t}>
  qd.field @ab : !qd.field<{N}xi32>
  qd.field @cl : !qd.field<{N}xi32>
  qd.kernel @k() {{
    qd.struct_for (%i) in @x {{
      %a = qd.load @x[%i] : {t}
      %b = qd.load @y[%i] : {t}
      %m = qd.load @n[%i] : i32
      %cs = math.copysign %a, %b : {t}
      qd.store %cs, @cs[%i] : {t}
      %pw = math.fpowi %a, %m : {t}, i32
      qd.store %pw, @pw[%i] : {t}
      %m8 = arith.trunci %m : i32 to i8
      %pb = math.fpowi %a, %m8 : {t}, i8
      qd.store %pb, @pb[%i] : {t}
      %tr = math.trunc %a : {t}
      qd.store %tr, @tr[%i] : {t}
      %rd = math.round %a : {t}
      qd.store %rd, @rd[%i] : {t}
      %re = math.roundeven %a : {t}
      qd.store %re, @re[%i] : {t}
      %ab = math.absi %m : i32
      qd.store %ab, @ab[%i] : i32
      %isn = math.isnan %a : {t}
      %isi = math.isinf %a : {t}
      %isf = math.isfinite %a : {t}
      %n1 = arith.extui %isn : i1 to i32
      %i1 = arith.extui %isi : i1 to i32
      %f1 = arith.extui %isf : i1 to i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %i2 = arith.muli %i1, %c2 : i32
      %f4 = arith.muli %f1, %c4 : i32
      %s = arith.addi %n1, %i2 : i32
      %cl = arith.addi %s, %f4 : i32
      qd.store %cl, @cl[%i] : i32
    }}
  }}
}}
"#
    )
}

#[test]
fn exact_math_ops_match_the_interpreter_on_lavapipe() {
    let Some(_) = device() else {
        return;
    };
    for t in ["f32", "f64"] {
        let round = |x: f64| if t == "f32" { f64::from(x as f32) } else { x };
        let base = inputs();
        // Halves (round's ties), bases near 1 and small ones for the powers.
        let xs: Vec<f64> = base
            .iter()
            .enumerate()
            .map(|(i, &x)| match i % 5 {
                0 => (i % 200) as f64 / 2.0 - 50.0,
                1 => round(1.0 + x * 1e-4),
                2 => round(x.clamp(-3.0, 3.0)),
                _ => x,
            })
            .collect();
        let ys: Vec<f64> = xs.iter().rev().copied().collect();
        let ns: Vec<f64> = (0..N)
            .map(|i| match i % 9 {
                0 => f64::from(i32::MIN),
                1 => f64::from(i32::MAX),
                2 => (i % 2000) as f64 - 1000.0,
                _ => (i % 61) as f64 - 30.0,
            })
            .collect();
        let src = exact_source(t);
        let mut want = program(&src, Box::new(qd_interp::Interpreter::new()));
        let mut got = program(&src, Box::new(device().unwrap()));
        for p in [&mut want, &mut got] {
            p.write_f64("x", &xs).unwrap();
            p.write_f64("y", &ys).unwrap();
            p.write_f64("n", &ns).unwrap();
            let k = p.kernel("k").unwrap();
            p.launch(k, &[]).unwrap();
            p.sync().unwrap();
        }
        let tiny = if t == "f32" {
            f64::from(f32::MIN_POSITIVE)
        } else {
            f64::MIN_POSITIVE
        };
        for f in ["cs", "pw", "pb", "tr", "rd", "re", "ab", "cl"] {
            let (g, w) = (got.read_f64(f).unwrap(), want.read_f64(f).unwrap());
            for i in 0..N {
                // A subnormal power may be flushed to zero by the driver.
                let flushed = w[i] != 0.0 && w[i].abs() < tiny && g[i] == 0.0;
                let same = g[i].to_bits() == w[i].to_bits() || (g[i].is_nan() && w[i].is_nan());
                assert!(
                    same || flushed,
                    "{t} {f}[{i}]: x = {:e}, y = {:e}, n = {}: got {:e}, want {:e}",
                    xs[i],
                    ys[i],
                    ns[i],
                    g[i],
                    w[i]
                );
            }
        }
    }
}

/// f64 forms that are not emulated fail to compile, naming the op (the diagnostic is located at
/// it, as every codegen error).
#[test]
fn f64_ops_without_an_emulation_are_refused_at_the_op() {
    for (op, ty) in [
        ("math.erf %v : f64", "f64"),
        ("math.log1p %v : f64", "f64"),
        ("math.asinh %v : f64", "f64"),
        ("math.fpowi %v, %n : f64, i64", "f64"),
    ] {
        let src = format!(
            r#"module {{
  qd.field @x : !qd.field<4x{ty}>
  qd.field @n : !qd.field<4xi64>
  qd.kernel @k() {{
    qd.struct_for (%i) in @x {{
      %v = qd.load @x[%i] : {ty}
      %n = qd.load @n[%i] : i64
      %r = {op}
      qd.store %r, @x[%i] : {ty}
    }}
  }}
}}
"#
        );
        let out = crate::corpus::compile_source(&src, "k", false, &[qd_spirv::Options::default()]);
        let errs = match &out[..] {
            [c] => c
                .result
                .as_ref()
                .err()
                .cloned()
                .expect("an f64 op without an emulation compiled"),
            _ => panic!("one module expected"),
        };
        let name = op.split(' ').next().unwrap();
        assert!(
            errs.contains(&format!("the SPIR-V backend has no f64 '{name}'")),
            "{op}: {errs}"
        );
    }
}
