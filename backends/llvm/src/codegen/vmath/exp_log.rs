//! exp, exp2, log and log2 of f64 lanes, and the double-double cores that pow and tanh share.
//!
//! exp(z) = 2^k exp(r), k = rint(z / ln 2), r = z - k ln 2 with ln 2 in two parts (the high one
//! has 32 bits, so k * LN2_HI is exact and so is the subtraction), exp(r) = 1 + r + r^2 E(r).
//! log(x) = e ln 2 + log(m), x = 2^e m with m in [sqrt(1/2), sqrt 2), and
//! log(m) = 2 atanh(s) = 2s + (2/3) s^3 + s^5 L(s^2), s = (m - 1) / (m + 1), the first two terms
//! in double-double: log's error is then about 2^-62 relative, as pow needs.

use super::{Vb, R, V};
use inkwell::FloatPredicate as P;

/// (exp(r) - 1 - r) / r^2 on |r| <= ln2/2 + 0.002 (fit.py; error 2^-58.9).
pub(super) const EXP: [f64; 11] = [
    0.5,
    0.1666666666666667,
    0.04166666666666667,
    0.008333333333325803,
    0.001388888888888351,
    0.0001984126987597895,
    2.480158732637491e-05,
    2.7557253939287672e-06,
    2.7557272599857133e-07,
    2.5105821598328188e-08,
    2.0915118711998567e-09,
];
/// (2 atanh(s) - 2s - (2/3) s^3) / s^5 as a polynomial in t = s^2, t <= 0.0295 (fit.py).
const LOG: [f64; 8] = [
    0.4,
    0.28571428571429436,
    0.22222222221614582,
    0.18181818344701792,
    0.15384593973645397,
    0.13334858164542526,
    0.11704812742743151,
    0.11737979319596589,
];
/// ln 2: 32 leading bits, and the rest.
pub(super) const LN2_HI: f64 = 0.6931471803691238;
pub(super) const LN2_LO: f64 = 1.9082149292705877e-10;
/// ln 2 rounded, and its error.
const LN2: f64 = std::f64::consts::LN_2;
const LN2_TAIL: f64 = 2.3190468138462996e-17;
/// 1 / ln 2 in double-double.
const INVLN2_HI: f64 = std::f64::consts::LOG2_E;
const INVLN2_LO: f64 = 2.0355273740931033e-17;
/// 2/3 in double-double.
const TWO3_HI: f64 = 0.6666666666666666;
const TWO3_LO: f64 = 3.700743415417188e-17;

/// exp(zh + zl) for |zl| <= ulp(zh) and zh in [-746, 710] (or NaN) as (hi, lo, k): the value is
/// (hi + lo) 2^k with hi + lo in about [0.7, 1.42], within about 2^-57 relative.
pub(super) fn exp_core<'ctx>(
    v: &Vb<'_, 'ctx>,
    zh: V<'ctx>,
    zl: V<'ctx>,
) -> R<(V<'ctx>, V<'ctx>, V<'ctx>)> {
    let k = v.rint(v.mul(zh, v.c(std::f64::consts::LOG2_E))?)?;
    let nk = v.neg(k)?;
    let rh = v.fma(nk, v.c(LN2_HI), zh)?;
    let rl = v.fma(nk, v.c(LN2_LO), zl)?;
    let (r, rr) = v.two_sum(rh, rl)?;
    // exp(r + rr) = exp(r) (1 + rr): 1 + [r + (r^2 E(r) + rr (1 + r))].
    let p = v.mul(v.mul(r, r)?, v.poly(r, &EXP)?)?;
    let t = v.add(v.mad(rr, r, rr)?, p)?;
    let (sh, sl) = v.fast_two_sum(v.c(1.0), r)?;
    let (hi, lo) = v.fast_two_sum(sh, v.add(sl, t)?)?;
    Ok((hi, lo, k))
}

/// `z` limited to [-746, 710], past which exp is 0 or inf anyway (NaN stays NaN), and whether
/// it was limited.
fn clamp<'ctx>(v: &Vb<'_, 'ctx>, z: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
    let hi = v.fcmp(P::OGT, z, v.c(710.0))?;
    let lo = v.fcmp(P::OLT, z, v.c(-746.0))?;
    let z = v.sel(hi, v.c(710.0), z)?;
    let z = v.sel(lo, v.c(-746.0), z)?;
    Ok((z, v.mor(hi, lo)?))
}

/// exp(zh + zl) for any double-double argument (zl is ignored where zh is out of range).
pub(super) fn exp_dd<'ctx>(v: &Vb<'_, 'ctx>, zh: V<'ctx>, zl: V<'ctx>) -> R<V<'ctx>> {
    let (zh, out) = clamp(v, zh)?;
    let zl = v.sel(out, v.c(0.0), zl)?;
    let (hi, lo, k) = exp_core(v, zh, zl)?;
    v.scale(v.add(hi, lo)?, k)
}

pub(super) fn exp<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    exp_dd(v, x, v.c(0.0))
}

/// 2^x = 2^n exp((x - n) ln 2), n = rint(x), the product (x - n) ln 2 in double-double.
pub(super) fn exp2<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let hi = v.fcmp(P::OGT, x, v.c(1100.0))?;
    let lo = v.fcmp(P::OLT, x, v.c(-1100.0))?;
    let x = v.sel(hi, v.c(1100.0), x)?;
    let x = v.sel(lo, v.c(-1100.0), x)?;
    let n = v.rint(x)?;
    let r = v.sub(x, n)?;
    let (zh, e) = v.two_prod(r, v.c(LN2))?;
    let zl = v.mad(r, v.c(LN2_TAIL), e)?;
    let (eh, el, k) = exp_core(v, zh, zl)?;
    let n = v.add(n, k)?;
    // n beyond the exponent range: the result is 0 or inf (scale takes |n| <= 1080).
    let n = v.sel(v.fcmp(P::OGT, n, v.c(1080.0))?, v.c(1080.0), n)?;
    let n = v.sel(v.fcmp(P::OLT, n, v.c(-1080.0))?, v.c(-1080.0), n)?;
    v.scale(v.add(eh, el)?, n)
}

/// log of a positive finite x as (e, mh, ml): log x = e ln 2 + (mh + ml), |ml| <= ulp(mh),
/// about 2^-62 relative. Other x give finite garbage: callers select their special values.
pub(super) fn log_parts<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<(V<'ctx>, V<'ctx>, V<'ctx>)> {
    let i64t = v.it(64);
    // Subnormals scaled to normal numbers first.
    let sub = v.fcmp(P::OLT, x, v.c(f64::MIN_POSITIVE))?;
    let x = v.sel(sub, v.mul(x, v.c(2f64.powi(54)))?, x)?;
    let bits = v.bitcast(x, i64t)?;
    let ef = v.and(v.lshr(bits, v.ci(64, 52))?, v.ci(64, 0x7ff))?;
    let e = v.cast(
        inkwell::values::InstructionOpcode::SIToFP,
        v.isub(ef, v.ci(64, 1023))?,
        v.f64t(),
    )?;
    let e = v.sub(e, v.sel(sub, v.c(54.0), v.c(0.0))?)?;
    let mbits = v.or(
        v.and(bits, v.ci(64, 0x000f_ffff_ffff_ffff))?,
        v.ci(64, 0x3ff0_0000_0000_0000),
    )?;
    let m = v.bitcast(mbits, v.f64t())?;
    let big = v.fcmp(P::OGT, m, v.c(std::f64::consts::SQRT_2))?;
    let m = v.sel(big, v.mul(m, v.c(0.5))?, m)?;
    let e = v.sel(big, v.add(e, v.c(1.0))?, e)?;
    // s = f / (2 + f) in double-double; f = m - 1 and 2 + f's split are exact.
    let f = v.sub(m, v.c(1.0))?;
    let dh = v.add(v.c(2.0), f)?;
    let dl = v.sub(f, v.sub(dh, v.c(2.0))?)?;
    let sh = v.div(f, dh)?;
    let rho = v.sub(v.fma(v.neg(sh)?, dh, f)?, v.mul(sh, dl)?)?;
    let sl = v.div(rho, dh)?;
    // s^2 and s^3 in double-double.
    let (s2h, s2e) = v.two_prod(sh, sh)?;
    let s2l = v.mad(v.add(sh, sh)?, sl, s2e)?;
    let (s3h, s3e) = v.two_prod(s2h, sh)?;
    let s3l = v.mad(s2h, sl, v.mad(s2l, sh, s3e)?)?;
    // B = (2/3) s^3.
    let (bh, be) = v.two_prod(v.c(TWO3_HI), s3h)?;
    let bl = v.mad(v.c(TWO3_HI), s3l, v.mad(v.c(TWO3_LO), s3h, be)?)?;
    // C = s^5 L(s^2), in double: it is below 2^-12 of the sum.
    let c = v.mul(v.mul(s3h, s2h)?, v.poly(s2h, &LOG)?)?;
    // 2s + B + C.
    let (ah, al) = (v.add(sh, sh)?, v.add(sl, sl)?);
    let (h, he) = v.two_sum(ah, bh)?;
    let l = v.add(v.add(he, al)?, v.add(bl, c)?)?;
    let (mh, ml) = v.fast_two_sum(h, l)?;
    Ok((e, mh, ml))
}

/// log x as a double-double (hi, lo), for positive finite x.
pub(super) fn log_dd<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
    let (e, mh, ml) = log_parts(v, x)?;
    // e LN2_HI is exact (e has at most 11 bits).
    let (h, he) = v.two_sum(v.mul(e, v.c(LN2_HI))?, mh)?;
    let l = v.add(he, v.mad(e, v.c(LN2_LO), ml)?)?;
    v.fast_two_sum(h, l)
}

/// What log and log2 give outside (0, inf): -inf at 0, NaN below, x itself at +inf and NaN.
pub(super) fn special<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>, val: V<'ctx>) -> R<V<'ctx>> {
    let normal = v.mand(
        v.fcmp(P::OGT, x, v.c(0.0))?,
        v.fcmp(P::OLT, x, v.c(f64::INFINITY))?,
    )?;
    let neg = v.sel(v.fcmp(P::OLT, x, v.c(0.0))?, v.c(f64::NAN), x)?;
    let other = v.sel(v.fcmp(P::OEQ, x, v.c(0.0))?, v.c(f64::NEG_INFINITY), neg)?;
    v.sel(normal, val, other)
}

pub(super) fn log<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let (h, l) = log_dd(v, x)?;
    special(v, x, v.add(h, l)?)
}

/// log2 x = e + log(m) / ln 2 (exact at powers of two).
pub(super) fn log2<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let (e, mh, ml) = log_parts(v, x)?;
    let (ph, pe) = v.two_prod(mh, v.c(INVLN2_HI))?;
    let pl = v.mad(mh, v.c(INVLN2_LO), v.mad(ml, v.c(INVLN2_HI), pe)?)?;
    let (h, he) = v.two_sum(e, ph)?;
    special(v, x, v.add(h, v.add(he, pl)?)?)
}
