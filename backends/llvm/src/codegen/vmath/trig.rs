//! sin, cos and tan, computed in f64 (f32 operands are widened and the result rounded once):
//! f64 and f32 tan inline, f32 sin and cos in the out-of-line slow path of trig32.rs's f32 code.
//!
//! Reduction: n = rint(x 2/pi), r = x - n pi/2 in double-double, pi/2 in three 53-bit parts:
//! the first step is exact (one FMA; x - n P1 is a multiple of 2^-53 below 1), the second a
//! double-double product and sum, the third (n P3, below 2^-80) rounded. The error is about
//! n 2^-106 + |r| 2^-104 absolute, far below the smallest |r| that an x < 2^28 can give: the
//! reduction is exact to f64 precision for |x| < 2^28 (2^27.3 times pi/2). Past that:
//! - f32 (|x| up to 2^128): Payne-Hanek. x = M 2^E (M of 24 bits); the 96 bits of 2/pi from the
//!   one of weight 2^(1-E) on, W, give x 2/pi mod 4 = (M W mod 2^96) 2^-94 up to 2^-70: the top two
//!   bits are the quadrant, the next 62 the fraction. Integer vector code (32x32->64-bit
//!   products), in the out-of-line slow path (`Vb::patch`) called when some lane needs it.
//! - f64: each lane's libm `sin`/`cos`/`tan` (a documented fallback, in the out-of-line slow
//!   path called when some lane has a finite |x| >= 2^28).
//!
//! Kernels on |r| <= pi/4: f32 uses the polynomials of glibc's `sinf`/`cosf` (degree 7 and 8, for
//! an f32 result: about 0.5 ulp); f64 uses sin r = r + r^3 S(r^2) and cos r = 1 - r^2/2 + r^4 C(r^2)
//! (fit.py) with the low part of r added to first order, and 1 - r^2/2's rounding error recovered.
//! tan r = r + r^3 T(r^2), in double-double, and -1/tan r for odd n with one Newton correction.
//! sin and tan of +-0 are that zero; inf and NaN give NaN.

use super::{Vb, R, V};
use inkwell::values::InstructionOpcode as Op;
use inkwell::{FloatPredicate as P, IntPredicate as I};
use qd_math::names;

/// pi/2 in three 53-bit parts (fit.py; the rest is 5.6e-50).
const P1: f64 = std::f64::consts::FRAC_PI_2;
const P2: f64 = 6.123233995736766e-17;
const P3: f64 = -1.4973849048591698e-33;
/// Below this |x| the Cody-Waite reduction is exact.
const REDUCE_LIMIT: f64 = 268_435_456.0; // 2^28
/// The bits of 2/pi after the binary point, 32 to a word (fdlibm's table, regrouped).
const TWO_OVER_PI: [u32; 7] = [
    0xA2F9_836E,
    0x4E44_1529,
    0xFC27_57D1,
    0xF534_DDC0,
    0xDB62_9599,
    0x3C43_9041,
    0xFE51_63AB,
];

/// glibc's `sinf`/`cosf` polynomials (minimax for an f32 result on |r| <= pi/4):
/// sin r = r + r^3 (S1 + z S2 + z^2 S3), cos r = 1 + z C1 + z^2 C2 + z^3 C3 + z^4 C4, z = r^2.
const S32: [f64; 3] = [
    -0.166_666_549_437_010_84,
    0.008_332_178_146_138_854,
    -0.000_195_172_989_813_857_25,
];
const C32: [f64; 4] = [
    -0.499_999_997_251_082_24,
    0.041_666_623_324_344_516,
    -0.001_388_676_379_437_604,
    2.439_045_070_356_454_2e-5,
];
/// (sin r - r) / r^3 and (cos r - 1 + r^2/2) / r^4 as polynomials in z = r^2 (fit.py).
const SIN: [f64; 7] = [
    -0.16666666666666666,
    0.008333333333333331,
    -0.00019841269841264943,
    2.75573192192438e-06,
    -2.5052106199405445e-08,
    1.6058526395022024e-10,
    -7.586389958204284e-13,
];
const COS: [f64; 6] = [
    0.041666666666666664,
    -0.0013888888888887359,
    2.480158729870778e-05,
    -2.755731724176732e-07,
    2.087614003959427e-09,
    -1.1382184802496203e-11,
];
/// (tan r - r) / r^3 as a polynomial in z = r^2 (fit.py).
const TAN: [f64; 16] = [
    0.3333333333333333,
    0.13333333333333364,
    0.05396825396821335,
    0.021869488538346495,
    0.008863235467965577,
    0.0035921290923330578,
    0.0014558226115668502,
    0.0005901178389886547,
    0.0002386361700612517,
    9.885939303269089e-05,
    3.369664703730147e-05,
    2.7532694360570476e-05,
    -1.0735607868521135e-05,
    1.9988133341338306e-05,
    -9.969747886170227e-06,
    3.999793193092266e-06,
];

/// `name` (sin, cos or tan) of `x` (f32 when `f32`, else f64; scalar or vector). f32 sin and
/// cos take the f32 path (trig32.rs) below its limit; the rest takes the f64 path below 2^28.
/// Other lanes call an out-of-line function (`Vb::patch`): f32, this path with Payne-Hanek;
/// f64, libm.
pub(super) fn emit<'ctx>(v: &Vb<'_, 'ctx>, name: &str, x: V<'ctx>, f32: bool) -> R<V<'ctx>> {
    let what = name.trim_start_matches("math.");
    let ax = v.abs(x)?;
    if f32 && name != names::TAN {
        let fast = super::trig32::sin_cos(v, x, name == names::COS)?;
        // inf takes the slow path too (NaN either way); NaN stays here (NaN).
        let m = v.fcmp(P::OGE, ax, v.c32(super::trig32::FAST_LIMIT))?;
        let name = name.to_string();
        return v.patch(m, x, fast, what, move |v, x| full_f32(v, &name, x));
    }
    let d = v.widen(x, f32)?;
    let (n, rh, rl) = reduce(v, d)?;
    let r = kernel(v, name, d, n, rh, rl, f32)?;
    let (lim, inf) = if f32 {
        (v.c32(REDUCE_LIMIT as f32), v.c32(f32::INFINITY))
    } else {
        (v.c(REDUCE_LIMIT), v.c(f64::INFINITY))
    };
    let big = v.mand(v.fcmp(P::OGE, ax, lim)?, v.fcmp(P::OLT, ax, inf)?)?;
    let name = name.to_string();
    v.patch(big, x, r, what, move |v, x| {
        if f32 {
            full_f32(v, &name, x)
        } else {
            libm_each(v, &name, x)
        }
    })
}

/// `name` of the f32 `x` for every lane: the f64 reduction, Payne-Hanek's for finite
/// |x| >= 2^28, and the f64 kernels (a slow path: see `emit`).
fn full_f32<'ctx>(v: &Vb<'_, 'ctx>, name: &str, x: V<'ctx>) -> R<V<'ctx>> {
    let d = v.widen(x, true)?;
    let (n, rh, rl) = reduce(v, d)?;
    let ax = v.abs(x)?;
    let big = v.mand(
        v.fcmp(P::OGE, ax, v.c32(REDUCE_LIMIT as f32))?,
        v.fcmp(P::OLT, ax, v.c32(f32::INFINITY))?,
    )?;
    let (nl, rlarge) = payne_hanek(v, x)?;
    let n = v.sel(big, nl, n)?;
    let rh = v.sel(big, rlarge, rh)?;
    let rl = v.sel(big, v.c(0.0), rl)?;
    kernel(v, name, d, n, rh, rl, true)
}

/// The kernel `name` of n pi/2 + (rh + rl), d the (widened) argument; rounded to f32 when
/// `f32`.
fn kernel<'ctx>(
    v: &Vb<'_, 'ctx>,
    name: &str,
    d: V<'ctx>,
    n: V<'ctx>,
    rh: V<'ctx>,
    rl: V<'ctx>,
    f32: bool,
) -> R<V<'ctx>> {
    let r = match name {
        names::SIN => sin_cos(v, n, rh, rl, false, f32)?,
        names::COS => sin_cos(v, n, rh, rl, true, f32)?,
        _ => tan(v, n, rh, rl)?,
    };
    // sin(+-0) and tan(+-0) are that zero (the kernels' sums would give +0).
    let r = if name == names::COS {
        r
    } else {
        v.sel(v.fcmp(P::OEQ, d, v.c(0.0))?, d, r)?
    };
    v.narrow(r, f32)
}

/// (n, rh, rl): x = n pi/2 + (rh + rl), n as i32 (exact for |x| < 2^28; NaN and inf give NaN r).
fn reduce<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<(V<'ctx>, V<'ctx>, V<'ctx>)> {
    let k = v.rint(v.mul(x, v.c(std::f64::consts::FRAC_2_PI))?)?;
    let nk = v.neg(k)?;
    let r1 = v.fma(nk, v.c(P1), x)?;
    let (ph, pe) = v.two_prod(nk, v.c(P2))?;
    let (s, se) = v.two_sum(r1, ph)?;
    let lo = v.mad(nk, v.c(P3), v.add(se, pe)?)?;
    let (rh, rl) = v.two_sum(s, lo)?;
    // In the first quadrant r is x itself (exactly, signed zeros too).
    let n0 = v.fcmp(P::OEQ, k, v.c(0.0))?;
    let rh = v.sel(n0, x, rh)?;
    let rl = v.sel(n0, v.c(0.0), rl)?;
    Ok((v.to_int(k, 32)?, rh, rl))
}

/// (n, r) with x = n pi/2 + r for f32 lanes of 2^28 <= |x| < inf (others get garbage).
fn payne_hanek<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
    let (i32t, i64t) = (v.it(32), v.it(64));
    let c32 = |k: u32| v.ci(32, u64::from(k));
    let c64 = |k: u64| v.ci(64, k);
    let ix = v.bitcast(x, i32t)?;
    let abits = v.and(ix, c32(0x7fff_ffff))?;
    let ef = v.lshr(abits, c32(23))?;
    let m = v.or(v.and(abits, c32(0x7f_ffff))?, c32(0x80_0000))?;
    // x = M 2^E, E = ef - 150; the window starts at the bit of weight 2^-(E-1), in word
    // (E - 2) / 32 of the table at bit (E - 2) % 32 from the top.
    let idx = v.isub(ef, c32(152))?;
    let w = v.and(v.lshr(idx, c32(5))?, c32(3))?;
    let o = v.and(idx, c32(31))?;
    let word = |j: usize| -> R<V<'ctx>> {
        let mut t = c32(TWO_OVER_PI[j + 3]);
        for s in (0..3).rev() {
            let here = v.icmp(I::EQ, w, c32(s as u32))?;
            t = v.sel(here, c32(TWO_OVER_PI[j + s]), t)?;
        }
        Ok(t)
    };
    let t = [word(0)?, word(1)?, word(2)?, word(3)?];
    let fshl = |a, b| v.call("llvm.fshl", &[a, b, o]);
    let zx = |a| v.cast(Op::ZExt, a, i64t);
    let (w2, w1, w0) = (
        zx(fshl(t[0], t[1])?)?,
        zx(fshl(t[1], t[2])?)?,
        zx(fshl(t[2], t[3])?)?,
    );
    let m64 = zx(m)?;
    let (p0, p1, p2) = (v.imul(m64, w0)?, v.imul(m64, w1)?, v.imul(m64, w2)?);
    // Bits 32..95 of M W: the quadrant in the top two, the fraction below.
    let s = v.iadd(v.iadd(v.lshr(p0, c64(32))?, p1)?, v.shl(p2, c64(32))?)?;
    let rounded = v.iadd(s, c64(1 << 61))?;
    let n = v.cast(Op::Trunc, v.lshr(rounded, c64(62))?, i32t)?;
    let f = v.shl(s, c64(2))?;
    let r = v.mul(
        v.cast(Op::SIToFP, f, v.f64t())?,
        v.c(std::f64::consts::FRAC_PI_2 * 2f64.powi(-64)),
    )?;
    let neg = v.icmp(I::SLT, ix, c32(0))?;
    let r = v.sel(neg, v.neg(r)?, r)?;
    let n = v.sel(neg, v.isub(c32(0), n)?, n)?;
    Ok((n, r))
}

/// sin (or cos) of n pi/2 + (rh + rl).
fn sin_cos<'ctx>(
    v: &Vb<'_, 'ctx>,
    n: V<'ctx>,
    rh: V<'ctx>,
    rl: V<'ctx>,
    cos: bool,
    f32: bool,
) -> R<V<'ctx>> {
    let c32 = |k: u32| v.ci(32, u64::from(k));
    let q = if cos { v.iadd(n, c32(1))? } else { n };
    let z = v.mul(rh, rh)?;
    let (s, c) = if f32 {
        // glibc's order: (r + r^3 S1) + r^5 (S2 + z S3); (1 + z C1) + z^2 C2 + z^3 (C3 + z C4).
        let r3 = v.mul(rh, z)?;
        let s23 = v.mad(z, v.c(S32[2]), v.c(S32[1]))?;
        let r5 = v.mul(r3, z)?;
        let s = v.mad(r5, s23, v.mad(r3, v.c(S32[0]), rh)?)?;
        let z2 = v.mul(z, z)?;
        let c34 = v.mad(z, v.c(C32[3]), v.c(C32[2]))?;
        let c01 = v.mad(z, v.c(C32[0]), v.c(1.0))?;
        let z3 = v.mul(z2, z)?;
        let c = v.mad(z3, c34, v.mad(z2, v.c(C32[1]), c01)?)?;
        (s, c)
    } else {
        // sin(rh + rl) = rh + rh^3 S(z) + rl (1 - z/2).
        let corr = v.mad(v.mul(v.c(-0.5), z)?, rl, rl)?;
        let s = v.add(rh, v.mad(v.mul(rh, z)?, v.poly(z, &SIN)?, corr)?)?;
        // cos(rh + rl) = w + ((1 - w) - z/2) + z^2 C(z) - rh rl, w = 1 - z/2 rounded.
        let hz = v.mul(z, v.c(0.5))?;
        let w = v.sub(v.c(1.0), hz)?;
        let back = v.sub(v.sub(v.c(1.0), w)?, hz)?;
        let tail = v.mad(v.mul(z, z)?, v.poly(z, &COS)?, v.neg(v.mul(rh, rl)?)?)?;
        let c = v.add(w, v.add(back, tail)?)?;
        (s, c)
    };
    let odd = v.icmp(I::NE, v.and(q, c32(1))?, c32(0))?;
    let negate = v.icmp(I::NE, v.and(q, c32(2))?, c32(0))?;
    let val = v.sel(odd, c, s)?;
    v.sel(negate, v.neg(val)?, val)
}

/// tan of n pi/2 + (rh + rl): t = tan r in double-double, and -1/t for odd n.
fn tan<'ctx>(v: &Vb<'_, 'ctx>, n: V<'ctx>, rh: V<'ctx>, rl: V<'ctx>) -> R<V<'ctx>> {
    let z = v.mul(rh, rh)?;
    let c = v.mad(v.mul(rh, z)?, v.poly(z, &TAN)?, v.mad(rl, z, rl)?)?;
    let (th, tl) = v.fast_two_sum(rh, c)?;
    let q = v.div(v.c(1.0), th)?;
    let e = v.sub(v.fma(v.neg(q)?, th, v.c(1.0))?, v.mul(q, tl)?)?;
    let inv = v.neg(v.mad(q, e, q)?)?;
    let odd = v.icmp(I::NE, v.and(n, v.ci(32, 1))?, v.ci(32, 0))?;
    v.sel(odd, inv, th)
}

/// libm's `name` of each lane of the f64 `d` (a slow path: see `emit`).
fn libm_each<'ctx>(v: &Vb<'_, 'ctx>, name: &str, d: V<'ctx>) -> R<V<'ctx>> {
    let err = |e: inkwell::builder::BuilderError| e.to_string();
    let intr = match name {
        names::SIN => "llvm.sin",
        names::COS => "llvm.cos",
        _ => "llvm.tan",
    };
    let scalar = Vb {
        llcx: v.llcx,
        module: v.module,
        b: v.b,
        lanes: None,
    };
    match v.lanes {
        None => scalar.call(intr, &[d]),
        Some(lanes) => {
            let mut out = d.into_vector_value();
            for i in 0..lanes {
                let i = v.llcx.i32_type().const_int(u64::from(i), false);
                let di =
                    v.b.build_extract_element(d.into_vector_value(), i, "vm")
                        .map_err(err)?;
                let li = scalar.call(intr, &[di])?;
                out = v.b.build_insert_element(out, li, i, "vm").map_err(err)?;
            }
            Ok(out.into())
        }
    }
}
