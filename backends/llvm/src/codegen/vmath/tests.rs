//! vmath against libm: each function JIT-compiled for vectors (and scalars), applied to sweeps of
//! its domain plus edge values, and its max error printed (`--nocapture`) and bounded. f32 is
//! measured against the f64 libm result (so in ulps of the exact value), f64 in ulps from glibc's
//! result. Special values must match libm exactly (NaN for NaN, signed zeros, infinities).

use super::emit;
use crate::jit;
use inkwell::attributes::AttributeLoc;
use inkwell::context::Context;
use inkwell::values::{BasicValue, BasicValueEnum};
use inkwell::AddressSpace;
use qd_math::names;

/// (name, libm reference, arity, f32 bound, f64 bound) for every function.
type Ref = fn(f64, f64, f64) -> f64;
const FUNCS: &[(&str, Ref, usize, f64, f64)] = &[
    (names::SIN, |x, _, _| x.sin(), 1, 1.0, 2.0),
    (names::COS, |x, _, _| x.cos(), 1, 1.0, 2.0),
    (names::TAN, |x, _, _| x.tan(), 1, 1.0, 2.0),
    (names::EXP, |x, _, _| x.exp(), 1, 1.0, 2.0),
    (names::EXP2, |x, _, _| x.exp2(), 1, 1.0, 2.0),
    (names::LOG, |x, _, _| x.ln(), 1, 1.0, 2.0),
    (names::LOG2, |x, _, _| x.log2(), 1, 1.0, 2.0),
    (names::TANH, |x, _, _| x.tanh(), 1, 1.0, 2.0),
    (names::POWF, |x, y, _| x.powf(y), 2, 2.0, 4.0),
    (names::ATAN2, |y, x, _| y.atan2(x), 2, 1.0, 2.0),
    (names::SQRT, |x, _, _| x.sqrt(), 1, 0.5, 0.0),
    (names::RSQRT, |x, _, _| 1.0 / x.sqrt(), 1, 1.5, 1.0),
    (names::ABSF, |x, _, _| x.abs(), 1, 0.0, 0.0),
    (names::FLOOR, |x, _, _| x.floor(), 1, 0.0, 0.0),
    (names::CEIL, |x, _, _| x.ceil(), 1, 0.0, 0.0),
    (names::FMA, |x, y, z| x.mul_add(y, z), 3, 0.5, 0.0),
    (names::ASIN, |x, _, _| x.asin(), 1, 1.0, 2.0),
    (names::ACOS, |x, _, _| x.acos(), 1, 1.0, 2.0),
    (names::ATAN, |x, _, _| x.atan(), 1, 1.0, 2.0),
    (names::SINH, |x, _, _| x.sinh(), 1, 1.0, 3.0),
    (names::COSH, |x, _, _| x.cosh(), 1, 1.0, 3.0),
    (
        names::ASINH,
        |x, _, _| unsafe { glibc::asinh(x) },
        1,
        1.0,
        3.0,
    ),
    (
        names::ACOSH,
        |x, _, _| unsafe { glibc::acosh(x) },
        1,
        1.0,
        3.0,
    ),
    (
        names::ATANH,
        |x, _, _| unsafe { glibc::atanh(x) },
        1,
        1.0,
        3.0,
    ),
    (names::LOG10, |x, _, _| x.log10(), 1, 1.0, 2.0),
    (names::LOG1P, |x, _, _| x.ln_1p(), 1, 1.0, 2.0),
    (names::EXPM1, |x, _, _| x.exp_m1(), 1, 1.0, 2.0),
    (names::CBRT, |x, _, _| x.cbrt(), 1, 1.0, 2.0),
    (names::TRUNC, |x, _, _| x.trunc(), 1, 0.0, 0.0),
    (names::ROUND, |x, _, _| x.round(), 1, 0.0, 0.0),
    (names::ROUNDEVEN, |x, _, _| x.round_ties_even(), 1, 0.0, 0.0),
    (names::COPYSIGN, |x, y, _| x.copysign(y), 2, 0.0, 0.0),
];

/// glibc's f64 functions that Rust's std computes its own way (asinh, acosh and atanh are not
/// libm calls in std).
mod glibc {
    extern "C" {
        pub fn asinh(x: f64) -> f64;
        pub fn acosh(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
    }
}

/// A compiled kernel: (in0, in1, in2, out), each a pointer to one value of the kernel's type.
type K = unsafe extern "C" fn(*const u8, *const u8, *const u8, *mut u8);

/// `use_it` applied to `name` compiled (O3, host CPU) for `lanes` lanes (None: scalar) of f32
/// or f64.
fn with_kernel<T>(name: &str, f32: bool, lanes: Option<u32>, use_it: impl FnOnce(K) -> T) -> T {
    with_kernel_afn(name, false, f32, lanes, use_it)
}

/// As [`with_kernel`], the op allowing approximate functions when `afn` (`emit_flagged`).
fn with_kernel_afn<T>(
    name: &str,
    afn: bool,
    f32: bool,
    lanes: Option<u32>,
    use_it: impl FnOnce(K) -> T,
) -> T {
    let features = jit::Options::default().features;
    with_kernel_features(name, afn, f32, lanes, &features, use_it)
}

/// The host's CPU features with AVX-512 off (every `avx512*`, `evex512` and `avx10*` feature),
/// or None where the host has no AVX-512: code that chooses by AVX-512 is then also tested in
/// the form other x86 hosts run.
fn without_avx512() -> Option<String> {
    let features = jit::Options::default().features;
    let off: Vec<String> = features
        .split(',')
        .map(|f| match f.strip_prefix('+') {
            Some(n)
                if ["avx512", "evex512", "avx10"]
                    .iter()
                    .any(|p| n.starts_with(p)) =>
            {
                format!("-{n}")
            }
            _ => f.to_string(),
        })
        .collect();
    (off.join(",") != features).then(|| off.join(","))
}

/// As [`with_kernel_afn`], compiled for the host CPU with `features` in place of its own.
fn with_kernel_features<T>(
    name: &str,
    afn: bool,
    f32: bool,
    lanes: Option<u32>,
    features: &str,
    use_it: impl FnOnce(K) -> T,
) -> T {
    let llcx = Context::create();
    let module = llcx.create_module("vmath_test");
    let opts = jit::Options {
        features: features.to_string(),
        ..jit::Options::default()
    };
    let ptr = llcx.ptr_type(AddressSpace::default());
    let fnty = llcx
        .void_type()
        .fn_type(&[ptr.into(), ptr.into(), ptr.into(), ptr.into()], false);
    let f = module.add_function("f", fnty, None);
    for (k, val) in [
        ("target-cpu", &opts.cpu),
        ("target-features", &opts.features),
    ] {
        f.add_attribute(AttributeLoc::Function, llcx.create_string_attribute(k, val));
    }
    let b = llcx.create_builder();
    b.position_at_end(llcx.append_basic_block(f, "entry"));
    let elem: inkwell::types::BasicTypeEnum = if f32 {
        llcx.f32_type().into()
    } else {
        llcx.f64_type().into()
    };
    let ty: inkwell::types::BasicTypeEnum = match (lanes, elem) {
        (Some(n), inkwell::types::BasicTypeEnum::FloatType(t)) => t.vec_type(n).into(),
        _ => elem,
    };
    let arity = FUNCS.iter().find(|f| f.0 == name).map_or(1, |f| f.2);
    let ins: Vec<BasicValueEnum> = (0..arity)
        .map(|i| {
            let p = f.get_nth_param(i as u32).unwrap().into_pointer_value();
            let v = b.build_load(ty, p, "in").unwrap();
            // Rust's buffers are aligned to the element only.
            v.as_instruction_value().unwrap().set_alignment(4).unwrap();
            v
        })
        .collect();
    let r = super::emit_flagged(&llcx, &module, &b, name, &ins, afn).unwrap();
    let out = f.get_nth_param(3).unwrap().into_pointer_value();
    b.build_store(out, r).unwrap().set_alignment(4).unwrap();
    b.build_return(None).unwrap();
    let tm = jit::target_machine(&opts).unwrap();
    jit::optimize(&module, &tm, &opts).unwrap();
    let ee = jit::engine(&module).unwrap();
    let k = unsafe { ee.get_function::<K>("f").unwrap() };
    use_it(unsafe { k.as_raw() })
}

/// Runs `name` compiled for `lanes` lanes (None: scalar) of f32 or f64 on `args` (columns of
/// equal length, a multiple of the lane count), returning the results widened to f64.
fn run(name: &str, f32: bool, lanes: Option<u32>, args: &[Vec<f64>]) -> Vec<f64> {
    with_kernel(name, f32, lanes, |k| run_on(k, f32, lanes, args))
}

fn run_on(k: K, f32: bool, lanes: Option<u32>, args: &[Vec<f64>]) -> Vec<f64> {
    let w = lanes.unwrap_or(1) as usize;
    let n = args[0].len();
    assert_eq!(n % w, 0);
    let mut res = vec![0.0; n];
    let dummy = vec![0.0f64; w];
    let cols = |i: usize| args.get(i).unwrap_or(&dummy);
    if f32 {
        let cs: Vec<Vec<f32>> = (0..3)
            .map(|i| cols(i).iter().map(|&v| v as f32).collect())
            .collect();
        let mut o = vec![0.0f32; w];
        for c in 0..n / w {
            let at = |i: usize| {
                let col = &cs[i];
                if col.len() == n {
                    col[c * w..].as_ptr() as *const u8
                } else {
                    col.as_ptr() as *const u8
                }
            };
            unsafe { k(at(0), at(1), at(2), o.as_mut_ptr() as *mut u8) };
            for (j, &v) in o.iter().enumerate() {
                res[c * w + j] = f64::from(v);
            }
        }
    } else {
        let mut o = vec![0.0f64; w];
        for c in 0..n / w {
            let at = |i: usize| {
                let col = cols(i);
                if col.len() == n {
                    col[c * w..].as_ptr() as *const u8
                } else {
                    col.as_ptr() as *const u8
                }
            };
            unsafe { k(at(0), at(1), at(2), o.as_mut_ptr() as *mut u8) };
            res[c * w..c * w + w].copy_from_slice(&o);
        }
    }
    res
}

/// A deterministic pseudo-random stream in [0, 1).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Values spread evenly over the bit patterns of the type (every exponent, subnormals, both
/// signs), `n` of them.
fn bit_sweep(f32: bool, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let neg = i % 2 == 1;
            let t = (i / 2) as f64 / (n / 2) as f64;
            let v = if f32 {
                f64::from(f32::from_bits((t * f64::from(0x7f80_0000u32)) as u32))
            } else {
                f64::from_bits((t * 0x7ff0_0000_0000_0000u64 as f64) as u64)
            };
            if neg {
                -v
            } else {
                v
            }
        })
        .collect()
}

fn edges(f32: bool) -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0,
        -1.0,
        0.5,
        2.0,
        -2.0,
        3.0,
        -3.0,
        0.25,
        1e-10,
        -1e-10,
    ];
    if f32 {
        v.extend(
            [
                f32::MIN_POSITIVE,
                f32::from_bits(1),
                f32::from_bits(0x007f_ffff),
                f32::MAX,
                f32::EPSILON,
                1.0 + f32::EPSILON,
                1.0 - f32::EPSILON / 2.0,
            ]
            .map(f64::from),
        );
    } else {
        v.extend([
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::from_bits(0x000f_ffff_ffff_ffff),
            f64::MAX,
            f64::EPSILON,
            1.0 + f64::EPSILON,
            1.0 - f64::EPSILON / 2.0,
        ]);
    }
    let round = |x: f64| if f32 { f64::from(x as f32) } else { x };
    // Neighbours of multiples of pi/2 (small and large), of pi/4 and 0.5 (where f32 sin and tanh
    // change paths) and of exp's and pow's thresholds.
    let mut near = vec![
        88.72283,
        89.0,
        -87.33655,
        -103.27893,
        -104.0,
        709.782712893384,
        710.0,
        -708.4,
        -745.133,
        -745.2,
        128.0,
        -149.0,
        -150.0,
        1024.0,
        -1074.0,
        -1075.0,
        0.55,
        0.5,
        std::f64::consts::FRAC_PI_4,
        7.0 / 16.0,
        22.0,
        9.0,
    ];
    for k in [
        1.0, 2.0, 3.0, 4.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7, 3e8, 1e9, 1e15,
    ] {
        near.push(round(k * std::f64::consts::FRAC_PI_2));
    }
    for c in near {
        let c = round(c);
        for d in -8i64..=8 {
            let n = if f32 {
                f64::from(f32::from_bits((c as f32).to_bits().wrapping_add(d as u32)))
            } else {
                f64::from_bits(c.to_bits().wrapping_add(d as u64))
            };
            v.extend([n, -n]);
        }
    }
    v
}

/// The error of `got` against `want` (the reference, in f64): f32 in ulps of the f32 format at
/// `want`, f64 in integer ulps; infinite where a special value (NaN, inf, sign of zero)
/// differs.
fn err(f32: bool, got: f64, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if f32 {
        let want32 = want as f32;
        if got.is_infinite() || want32.is_infinite() {
            return if got == f64::from(want32) {
                0.0
            } else {
                f64::INFINITY
            };
        }
        if got == 0.0 && want32 == 0.0 {
            return if got.is_sign_negative() == want32.is_sign_negative() {
                0.0
            } else {
                f64::INFINITY
            };
        }
        let e = ((want.abs().to_bits() >> 52) as i64 - 1023).max(-126);
        (got - want).abs() / 2f64.powi(e as i32 - 23)
    } else {
        if got.is_infinite() || want.is_infinite() || (got == 0.0 && want == 0.0) {
            return if got.to_bits() == want.to_bits() {
                0.0
            } else {
                f64::INFINITY
            };
        }
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

/// `err` in f32.
fn err32(got: f64, want: f64) -> f64 {
    err(true, got, want)
}

/// The inputs of one function: columns (one, or two for pow and atan2).
fn inputs(name: &str, f32: bool) -> Vec<Vec<f64>> {
    let mut rng = Lcg(0x5eed ^ name.len() as u64);
    let big = if f32 { 1 << 20 } else { 1 << 18 };
    let dense = if f32 { 200_000 } else { 150_000 };
    let round = |x: f64| if f32 { f64::from(x as f32) } else { x };
    let mut xs = bit_sweep(f32, big);
    xs.extend(edges(f32));
    let (lo, hi) = match name {
        names::SIN | names::COS | names::TAN => (-20.0, 20.0),
        names::EXP => {
            if f32 {
                (-104.0, 89.0)
            } else {
                (-746.0, 710.0)
            }
        }
        names::EXP2 => {
            if f32 {
                (-150.0, 129.0)
            } else {
                (-1076.0, 1025.0)
            }
        }
        names::LOG | names::LOG2 => (0.0, 4.0),
        names::TANH => (-12.0, 12.0),
        names::ASIN | names::ACOS | names::ATANH => (-1.0, 1.0),
        names::ACOSH => (1.0, 20.0),
        names::LOG1P => (-1.0, 3.0),
        names::EXPM1 | names::SINH | names::COSH => {
            if f32 {
                (-90.0, 90.0)
            } else {
                (-711.0, 711.0)
            }
        }
        _ => (-10.0, 10.0),
    };
    for i in 0..dense {
        xs.push(round(lo + (hi - lo) * i as f64 / dense as f64));
    }
    if name == names::SIN || name == names::COS || name == names::TAN {
        // Larger arguments: up to 2^28 (the f64 reduction's range), and random f64 past it.
        for _ in 0..dense / 2 {
            xs.push(round((rng.next() - 0.5) * 2f64.powi(29)));
        }
    }
    if name == names::FMA {
        let n = xs.len();
        let pick = |rng: &mut Lcg| xs[(rng.next() * n as f64) as usize];
        let b: Vec<f64> = (0..n).map(|_| pick(&mut rng)).collect();
        let c: Vec<f64> = (0..n).map(|_| pick(&mut rng)).collect();
        return vec![xs.clone(), b, c];
    }
    if name != names::POWF && name != names::ATAN2 && name != names::COPYSIGN {
        return vec![xs];
    }
    // Pairs: every two edge values, then random pairs of the sweep; for pow also y chosen so
    // that y log x spans exp's range.
    let e = edges(f32);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &p in &e {
        for &q in &e {
            a.push(p);
            b.push(q);
        }
    }
    let n = xs.len();
    for i in 0..n {
        let j = (rng.next() * n as f64) as usize;
        a.push(xs[i]);
        b.push(xs[j]);
    }
    if name == names::POWF {
        let lim = if f32 { 104.0 } else { 746.0 };
        for _ in 0..n / 2 {
            let x = round(2f64.powf((rng.next() - 0.5) * if f32 { 250.0 } else { 2000.0 }));
            let l = x.ln();
            let y = round((rng.next() * 2.0 - 1.0) * lim / l);
            a.push(x);
            b.push(y);
        }
        // Negative bases to integer powers; bases near 1 to large powers.
        for i in 0..20_000 {
            let x = round(-(rng.next() * 4.0));
            a.push(x);
            b.push(f64::from(i % 41 - 20));
            let x = round(1.0 + (rng.next() - 0.5) * 1e-3);
            a.push(x);
            b.push(round((rng.next() - 0.5) * 2e5));
        }
    } else if name == names::ATAN2 {
        for _ in 0..n / 4 {
            let t = rng.next() * std::f64::consts::TAU;
            let r = 2f64.powf((rng.next() - 0.5) * 100.0);
            a.push(round(r * t.sin()));
            b.push(round(r * t.cos()));
        }
    }
    vec![a, b]
}

/// Pads columns with 1.0 to a multiple of `w` lanes.
fn pad(cols: &mut [Vec<f64>], w: usize) {
    for c in cols.iter_mut() {
        while c.len() % w != 0 {
            c.push(1.0);
        }
    }
}

#[test]
fn vmath_accuracy() {
    let mut table = String::from(
        "\nvmath max error (f32: ulps of the exact value; f64: ulps from glibc)\n\
         function     type  lanes  points    max ulp   worst input\n",
    );
    let mut fails = Vec::new();
    for &(name, reference, arity, b32, b64) in FUNCS {
        for f32 in [true, false] {
            let w = if f32 { 16 } else { 8 };
            let mut cols = inputs(name, f32);
            pad(&mut cols, w);
            if f32 {
                // The kernel sees f32 inputs: so must the reference.
                for c in cols.iter_mut() {
                    c.iter_mut().for_each(|v| *v = f64::from(*v as f32));
                }
            }
            let got = run(name, f32, Some(w as u32), &cols);
            let (mut worst, mut at) = (0.0f64, 0usize);
            for i in 0..got.len() {
                let col = |k: usize| if arity > k { cols[k][i] } else { 0.0 };
                let want = reference(col(0), col(1), col(2));
                let e = err(f32, got[i], want);
                if e > worst || e.is_nan() {
                    worst = e;
                    at = i;
                }
            }
            let input = cols
                .iter()
                .map(|c| format!("{:e}", c[at]))
                .collect::<Vec<_>>()
                .join(", ");
            let ty = if f32 { "f32" } else { "f64" };
            table += &format!(
                "{:<12} {ty}   {w:>5}  {:>8}  {worst:>8.3}   {input} -> {:e}\n",
                name.trim_start_matches("math."),
                got.len(),
                got[at]
            );
            let bound = if f32 { b32 } else { b64 };
            if worst.is_nan() || worst > bound {
                fails.push(format!(
                    "{name} {ty}: {worst} ulp at {input} (bound {bound})"
                ));
            }
        }
    }
    println!("{table}");
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn vmath_scalar_and_vector_forms_agree() {
    for &(name, _, _, _, _) in FUNCS {
        for f32 in [true, false] {
            let mut cols = inputs(name, f32);
            // Every 7th input keeps the test short; both forms see the same values.
            for c in cols.iter_mut() {
                *c = c.iter().step_by(7).copied().collect();
            }
            pad(&mut cols, 48);
            let scalar = run(name, f32, None, &cols);
            for lanes in [3, if f32 { 16 } else { 8 }] {
                let vector = run(name, f32, Some(lanes), &cols);
                for i in 0..scalar.len() {
                    let same = scalar[i].to_bits() == vector[i].to_bits()
                        || (scalar[i].is_nan() && vector[i].is_nan());
                    assert!(
                        same,
                        "{name} f32={f32} lanes={lanes}: input {:?} scalar {:e}, vector {:e}",
                        cols.iter().map(|c| c[i]).collect::<Vec<_>>(),
                        scalar[i],
                        vector[i]
                    );
                }
            }
        }
    }
}

/// The optimised vector code calls nothing but LLVM intrinsics and its out-of-line slow paths
/// (`qd.vmath.*.slow.*`, noinline, defined once per module), which call nothing but LLVM
/// intrinsics either, except f64 trig's documented libm fallback past 2^28.
#[test]
fn vmath_vector_code_calls_no_libm() {
    for &(name, _, arity, _, _) in FUNCS {
        for f32 in [true, false] {
            let llcx = Context::create();
            let module = llcx.create_module("vmath_ir");
            let elem = if f32 {
                llcx.f32_type()
            } else {
                llcx.f64_type()
            };
            let vt = elem.vec_type(8);
            let params: Vec<_> = (0..arity).map(|_| vt.into()).collect();
            let f = module.add_function("f", vt.fn_type(&params, false), None);
            let b = llcx.create_builder();
            b.position_at_end(llcx.append_basic_block(f, "entry"));
            let args: Vec<BasicValueEnum> = f.get_param_iter().collect();
            // Twice: the second call site reuses the first one's slow path.
            let r = emit(&llcx, &module, &b, name, &args).unwrap();
            let r2 = emit(&llcx, &module, &b, name, &[r; 3][..arity]).unwrap();
            b.build_return(Some(&r2)).unwrap();
            let opts = jit::Options::default();
            let tm = jit::target_machine(&opts).unwrap();
            jit::optimize(&module, &tm, &opts).unwrap();
            let ir = module.print_to_string().to_string();
            // (function name, the calls in its body)
            let mut funcs: Vec<(String, Vec<String>)> = Vec::new();
            for l in ir.lines() {
                if l.starts_with("define ") {
                    let at = l.find('@').unwrap();
                    let nm = l[at + 1..].split('(').next().unwrap();
                    funcs.push((nm.trim_matches('"').to_string(), Vec::new()));
                } else if l.contains(" call ") {
                    let at = l.find('@').unwrap();
                    let callee = l[at + 1..].split('(').next().unwrap();
                    funcs
                        .last_mut()
                        .unwrap()
                        .1
                        .push(callee.trim_matches('"').into());
                }
            }
            let trig = [names::SIN, names::COS, names::TAN].contains(&name);
            let what = name.trim_start_matches("math.");
            let shape = if f32 { "v8f32" } else { "v8f64" };
            let slow = format!("qd.vmath.{what}.slow.{shape}");
            let slow1 = format!("qd.vmath.{what}.slow.{}", &shape[2..]);
            for (fname, calls) in &funcs {
                for c in calls {
                    let ok = c.starts_with("llvm.")
                        || (fname == "f" && *c == slow)
                        || (fname == &slow && *c == slow1)
                        || (fname == &slow1 && !f32 && c == what);
                    assert!(ok, "{name} f32={f32}: {fname} calls {c}");
                }
            }
            // Trig has its slow paths (vector, and the scalar one it calls lane by lane) once
            // per module, private, not inlined; the other functions have none.
            let names: Vec<&str> = funcs.iter().map(|f| f.0.as_str()).collect();
            if trig {
                assert_eq!(names, ["f", &slow, &slow1], "{name} f32={f32}");
                for s in [&slow, &slow1] {
                    let def = ir
                        .lines()
                        .find(|l| l.starts_with("define") && l.contains(&format!("@{s}(")))
                        .unwrap();
                    assert!(def.starts_with("define private"), "{def}");
                }
                let f_calls = &funcs[0].1;
                let n = f_calls.iter().filter(|c| **c == slow).count();
                assert_eq!(n, 2, "{name}: {f_calls:?}");
            } else {
                assert_eq!(names, ["f"], "{name} f32={f32}");
            }
        }
    }
}

/// The largest error in ulps (and where) of f32 `name` (approximate when `afn`), compiled for the
/// CPU `features`, 16 lanes at a time, over every f32 whose bits are in one of `ranges` (half-open), against `reference` in
/// f64, measured by `err_of`.
fn worst_over_bits(
    name: &str,
    afn: bool,
    features: &str,
    reference: fn(f64) -> f64,
    err_of: fn(f64, f64) -> f64,
    ranges: &[(u32, u32)],
) -> (f64, f32) {
    let (mut worst, mut at) = (0.0f64, 0.0f32);
    with_kernel_features(name, afn, true, Some(16), features, |k| {
        let mut xs = [0.0f32; 16];
        let mut out = [0.0f32; 16];
        for &(start, end) in ranges {
            for base in (start..end).step_by(16) {
                for (i, x) in xs.iter_mut().enumerate() {
                    *x = f32::from_bits((base + i as u32).min(end - 1));
                }
                let p = xs.as_ptr() as *const u8;
                unsafe { k(p, p, p, out.as_mut_ptr() as *mut u8) };
                for i in 0..16 {
                    let e = err_of(f64::from(out[i]), reference(f64::from(xs[i])));
                    if e > worst || e.is_nan() {
                        (worst, at) = (e, xs[i]);
                    }
                }
            }
        }
    });
    (worst, at)
}

/// Every f32 of the f32 paths: sin and cos below their limit, tanh below its polynomial's (all
/// lanes of a vector there), against the f64 libm result: max 1 ulp. The functions are
/// symmetric in the sign of x (every op of the paths is). Long (2.4 billion inputs per
/// function, about 20 s each):
/// `cargo test --release -p qd-llvm vmath_f32_exhaustive -- --ignored --nocapture`.
#[test]
#[ignore]
fn vmath_f32_exhaustive() {
    type Case = (&'static str, fn(f64) -> f64, f32);
    let cases: [Case; 3] = [
        (names::SIN, f64::sin, super::trig32::FAST_LIMIT),
        (names::COS, f64::cos, super::trig32::FAST_LIMIT),
        (names::TANH, f64::tanh, super::tanh::NEAR32),
    ];
    for (name, reference, limit) in cases {
        let host = jit::Options::default().features;
        let ranges = [(0, limit.to_bits())];
        let (worst, at) = worst_over_bits(name, false, &host, reference, err32, &ranges);
        println!("{name}: max {worst} ulp at {at:e} over [0, {limit})");
        assert!(worst <= 1.0, "{name}: {worst} ulp at {at:e}");
    }
}

/// The algorithms of f32 exp and exp2 (exp32.rs) this host can run, as (label, CPU features):
/// the host's, and on an AVX-512 host also the other targets' (AVX-512 off).
fn exp32_targets() -> Vec<(&'static str, String)> {
    let host = jit::Options::default().features;
    match without_avx512() {
        Some(off) => vec![("table (AVX-512)", host), ("no table", off)],
        None => vec![("no table", host)],
    }
}

/// f32 exp and exp2 (their own f64 code, exp32.rs; both algorithms on an AVX-512 host): within
/// 0.501 ulp of the exact value on every 127th f32 of the range where the result is finite and
/// nonzero (subnormal results included), 16 lanes at a time, as glibc's expf and exp2f (0.502),
/// which the interpreter calls; the number of results that differ from glibc's is printed.
/// Scalars and 3 lanes give the same bits as 16 lanes on every 16th of those points.
#[test]
fn vmath_f32_exp_within_half_ulp() {
    extern "C" {
        fn expf(x: f32) -> f32;
        fn exp2f(x: f32) -> f32;
    }
    type Case = (
        &'static str,
        fn(f64) -> f64,
        unsafe extern "C" fn(f32) -> f32,
        f32,
        f32,
    );
    let cases: [Case; 2] = [
        (names::EXP, f64::exp, expf, -104.0, 89.0),
        (names::EXP2, f64::exp2, exp2f, -150.0, 128.0),
    ];
    for (label, features) in exp32_targets() {
        for (name, reference, glibc, lo, hi) in cases {
            let run = |lanes: Option<u32>, cols: &[Vec<f64>]| {
                with_kernel_features(name, false, true, lanes, &features, |k| {
                    run_on(k, true, lanes, cols)
                })
            };
            let mut cols = vec![(0..hi.to_bits())
                .step_by(127)
                .chain((0x8000_0000..lo.to_bits()).step_by(127))
                .map(|b| f64::from(f32::from_bits(b)))
                .collect::<Vec<_>>()];
            pad(&mut cols, 16);
            let got = run(Some(16), &cols);
            let (mut worst, mut at, mut differ) = (0.0f64, 0.0, 0usize);
            for (&x, &g) in cols[0].iter().zip(&got) {
                let e = err(true, g, reference(x));
                if e > worst || e.is_nan() {
                    (worst, at) = (e, x);
                }
                differ += usize::from(g as f32 != unsafe { glibc(x as f32) });
            }
            println!(
                "{name} f32, {label}: {} points, max {worst:.6} ulp at {at:e}, {differ} differ \
                 from glibc",
                got.len()
            );
            assert!(worst <= 0.501, "{name} f32, {label}: {worst} ulp at {at:e}");
            let mut few = vec![cols[0].iter().step_by(16).copied().collect::<Vec<_>>()];
            pad(&mut few, 48);
            let wide = run(Some(16), &few);
            for lanes in [None, Some(3)] {
                let other = run(lanes, &few);
                for (i, &x) in few[0].iter().enumerate() {
                    assert_eq!(
                        wide[i].to_bits(),
                        other[i].to_bits(),
                        "{name}({x:e}), {label}: 16 lanes {:e}, {lanes:?} lanes {:e}",
                        wide[i],
                        other[i]
                    );
                }
            }
        }
    }
}

/// Every f32 whose exp or exp2 is finite and nonzero (and a little past), both signs, by each
/// algorithm the host can run: within 0.501 ulp. Long (about 2.3 billion inputs per function
/// and algorithm):
/// `cargo test --release -p qd-llvm vmath_f32_exp_exhaustive -- --ignored --nocapture`.
#[test]
#[ignore]
fn vmath_f32_exp_exhaustive() {
    type Case = (&'static str, fn(f64) -> f64, f32, f32);
    let cases: [Case; 2] = [
        (names::EXP, f64::exp, -104.0, 89.0),
        (names::EXP2, f64::exp2, -150.0, 128.0),
    ];
    for (label, features) in exp32_targets() {
        for (name, reference, lo, hi) in cases {
            let ranges = [(0, hi.to_bits()), (0x8000_0000, lo.to_bits())];
            let (worst, at) = worst_over_bits(name, false, &features, reference, err32, &ranges);
            println!("{name}, {label}: max {worst} ulp at {at:e} over [{lo}, {hi}]");
            assert!(worst <= 0.501, "{name}, {label}: {worst} ulp at {at:e}");
        }
    }
}

/// `Vb::lookup16` (the AVX-512 table read of f32 exp) gives `table[idx & 15]` in every lane for
/// scalars and vectors of whole, partial and several 8-lane parts, whatever the index's other
/// bits. Runs where the host has AVX-512 (the only targets that use it).
#[test]
fn vmath_lookup16_any_shape() {
    let opts = jit::Options::default();
    if crate::simd::lanes_for(&opts.features) != 16 {
        println!("no AVX-512 on this host: lookup16 is not used");
        return;
    }
    let table: [u64; 16] = std::array::from_fn(|j| 0x1234_5678_0000_0000 + 977 * j as u64);
    for lanes in [
        None,
        Some(1),
        Some(3),
        Some(8),
        Some(13),
        Some(16),
        Some(24),
    ] {
        let llcx = Context::create();
        let module = llcx.create_module("lookup16");
        let ptr = llcx.ptr_type(AddressSpace::default());
        let f = module.add_function(
            "f",
            llcx.void_type().fn_type(&[ptr.into(), ptr.into()], false),
            None,
        );
        for (k, val) in [
            ("target-cpu", &opts.cpu),
            ("target-features", &opts.features),
        ] {
            f.add_attribute(AttributeLoc::Function, llcx.create_string_attribute(k, val));
        }
        let b = llcx.create_builder();
        b.position_at_end(llcx.append_basic_block(f, "entry"));
        let v = super::Vb {
            llcx: &llcx,
            module: &module,
            b: &b,
            lanes,
        };
        let ty = v.it(64);
        let p = |i: u32| f.get_nth_param(i).unwrap().into_pointer_value();
        let idx = b.build_load(ty, p(0), "idx").unwrap();
        idx.as_instruction_value()
            .unwrap()
            .set_alignment(8)
            .unwrap();
        let r = v.lookup16(&table, idx).unwrap();
        b.build_store(p(1), r).unwrap().set_alignment(8).unwrap();
        b.build_return(None).unwrap();
        let tm = jit::target_machine(&opts).unwrap();
        jit::optimize(&module, &tm, &opts).unwrap();
        let ee = jit::engine(&module).unwrap();
        type L = unsafe extern "C" fn(*const u64, *mut u64);
        let k = unsafe { ee.get_function::<L>("f").unwrap() };
        let n = lanes.unwrap_or(1) as usize;
        for round in 0..40u64 {
            let idx: Vec<u64> = (0..n as u64)
                .map(|l| (l * 7 + round * 5) ^ (round << 40) ^ (l << 20))
                .collect();
            let mut out = vec![0u64; n];
            unsafe { k.call(idx.as_ptr(), out.as_mut_ptr()) };
            for l in 0..n {
                assert_eq!(
                    out[l],
                    table[(idx[l] & 15) as usize],
                    "{lanes:?} lanes, lane {l}, index {:#x}",
                    idx[l]
                );
            }
        }
    }
}

#[test]
fn vmath_rejects_bad_operands() {
    let llcx = Context::create();
    let module = llcx.create_module("vmath_bad");
    let f = module.add_function(
        "f",
        llcx.void_type()
            .fn_type(&[llcx.i32_type().into(), llcx.f32_type().into()], false),
        None,
    );
    let b = llcx.create_builder();
    b.position_at_end(llcx.append_basic_block(f, "entry"));
    let (i, x) = (f.get_nth_param(0).unwrap(), f.get_nth_param(1).unwrap());
    assert!(emit(&llcx, &module, &b, names::SIN, &[i]).is_err());
    assert!(emit(&llcx, &module, &b, names::POWF, &[x]).is_err());
    assert!(emit(&llcx, &module, &b, "math.nope", &[x]).is_err());
    assert!(emit(&llcx, &module, &b, names::SIN, &[]).is_err());
}

/// A lane's result does not depend on its neighbours: f32 sin, cos and tanh take a short path
/// when every lane allows it; values at the paths' edges give the same bits alone (scalar), in
/// a vector of their own and beside a far value.
#[test]
fn vmath_lanes_do_not_affect_each_other() {
    for (name, edge) in [
        (names::SIN, std::f32::consts::FRAC_PI_4),
        (names::COS, std::f32::consts::FRAC_PI_4),
        (names::SIN, super::trig32::FAST_LIMIT),
        (names::TANH, super::tanh::NEAR32),
    ] {
        let mut xs = Vec::new();
        for d in -8i32..=8 {
            let x = f32::from_bits(edge.to_bits().wrapping_add(d as u32));
            xs.extend([f64::from(x), -f64::from(x)]);
        }
        let alone = run(name, true, None, &[xs.clone()]);
        let same: Vec<f64> = xs.iter().flat_map(|&x| [x; 16]).collect();
        let beside: Vec<f64> = xs.iter().flat_map(|&x| [x, 3e4, 0.1, 2.0]).collect();
        let in_same = run(name, true, Some(16), &[same]);
        let in_beside = run(name, true, Some(4), &[beside]);
        for (i, &x) in xs.iter().enumerate() {
            let a = alone[i].to_bits();
            assert_eq!(
                a,
                in_same[16 * i].to_bits(),
                "{name}({x:e}) in a vector of itself"
            );
            assert_eq!(
                a,
                in_beside[4 * i].to_bits(),
                "{name}({x:e}) beside far values"
            );
        }
    }
}

/// `err32`, except at the overflow threshold: there a result within the bound may fall on
/// either side of FLT_MAX, so an infinite result (or an exact value past FLT_MAX) is measured
/// as if the exponent range went on, inf being 2^128.
fn err_afn(got: f64, want: f64) -> f64 {
    let want32 = f64::from(want as f32);
    if want.is_finite()
        && want > 0.0
        && got != want32
        && (got.is_infinite() || want32.is_infinite())
    {
        let g = if got.is_infinite() {
            2f64.powi(128)
        } else {
            got
        };
        return (g - want).abs() / 2f64.powi(104);
    }
    err32(got, want)
}

/// The approximate (`afn`) f32 exp and exp2 (`approx.rs`) against the f64 libm result on every
/// 1021st f32 where the result is finite and nonzero (subnormal results included) and on edge
/// and special values: within `AFN_MAX_ULP` for 16 lanes (`vscalefps` on AVX-512), 8 lanes
/// and scalars (2^k by two exact powers of two), which give the same bits. NaN gives NaN, inf
/// inf, -inf 0.
#[test]
fn vmath_f32_afn_within_bound() {
    type Case = (&'static str, fn(f64) -> f64, f32, f32);
    let cases: [Case; 2] = [
        (names::EXP, f64::exp, -104.0, 89.0),
        (names::EXP2, f64::exp2, -151.0, 129.0),
    ];
    for (name, reference, lo, hi) in cases {
        let mut xs: Vec<f64> = (0..hi.to_bits())
            .step_by(1021)
            .chain((0x8000_0000..lo.to_bits()).step_by(1021))
            .map(|b| f64::from(f32::from_bits(b)))
            .collect();
        let edges = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            1e30,
            -1e30,
            f64::from(f32::MAX),
            f64::from(f32::MIN),
            1e-45,
            -1e-45,
        ];
        xs.extend(edges);
        // Around the overflow threshold and where results turn subnormal and then 0.
        for c in [
            88.72283f32,
            -87.33655,
            -103.27893,
            -103.97208,
            128.0,
            -126.0,
            -149.0,
            -150.0,
        ] {
            for d in -40i32..=40 {
                xs.push(f64::from(f32::from_bits(
                    c.to_bits().wrapping_add(d as u32),
                )));
            }
        }
        let mut cols = vec![xs];
        pad(&mut cols, 16);
        let xs = &cols[0];
        let shapes = [Some(16), Some(8), None];
        let outs: Vec<Vec<f64>> = shapes
            .iter()
            .map(|&lanes| {
                with_kernel_afn(name, true, true, lanes, |k| run_on(k, true, lanes, &cols))
            })
            .collect();
        let (mut worst, mut at) = (0.0f64, 0.0);
        for (i, &x) in xs.iter().enumerate() {
            let e = err_afn(outs[0][i], reference(x));
            if e > worst || e.is_nan() {
                (worst, at) = (e, x);
            }
            for (s, out) in shapes.iter().zip(&outs).skip(1) {
                let (a, b) = (outs[0][i] as f32, out[i] as f32);
                assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "{name}({x:e}): 16 lanes {a:e}, {s:?} lanes {b:e}"
                );
            }
        }
        println!(
            "{name} f32 afn: {} points, max {worst:.4} ulp at {at:e}",
            xs.len()
        );
        assert!(
            worst <= super::AFN_MAX_ULP,
            "{name} f32 afn: {worst} ulp at {at:e}"
        );
    }
}

/// Every f32 whose exp or exp2 is finite and nonzero (and a little past), both signs, by the
/// approximate (`afn`) code: within `AFN_MAX_ULP`. Long (about 2.3 billion inputs per
/// function): `cargo test --release -p qd-llvm vmath_f32_afn_exhaustive -- --ignored --nocapture`.
#[test]
#[ignore]
fn vmath_f32_afn_exhaustive() {
    type Case = (&'static str, fn(f64) -> f64, f32, f32);
    let cases: [Case; 2] = [
        (names::EXP, f64::exp, -104.0, 89.0),
        (names::EXP2, f64::exp2, -151.0, 129.0),
    ];
    for (name, reference, lo, hi) in cases {
        let ranges = [(0, hi.to_bits()), (0x8000_0000, lo.to_bits())];
        let host = jit::Options::default().features;
        let (worst, at) = worst_over_bits(name, true, &host, reference, err_afn, &ranges);
        println!("{name} afn: max {worst} ulp at {at:e} over [{lo}, {hi}]");
        assert!(
            worst <= super::AFN_MAX_ULP,
            "{name} afn: {worst} ulp at {at:e}"
        );
    }
}
