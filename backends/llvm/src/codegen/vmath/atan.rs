//! atan2(y, x) on f64 lanes, fdlibm's way: with q = |y| / |x| in one of five ranges, atan q =
//! atan c + atan t, t = (|y| - c|x|) / (|x| + c|y|), c = 0, 1/2, 1, 3/2 (and for q >= 39/16,
//! pi/2 + atan(-|x| / |y|)); |t| <= 7/16 and atan t = t + t^3 A(t^2). t is computed from x and y
//! directly, in double-double (numerator, denominator and quotient), not from the rounded q,
//! which only picks the range. Then pi - a for x < 0 (or -0), in double-double, and
//! y's sign. C99's special values: both zero gives 0 or pi; both infinite gives pi/4 or 3pi/4;
//! NaN anywhere gives NaN. In the middle ranges (|y| and |x| within a factor 39/16) the inputs are
//! scaled by 2^+-600 when huge or tiny, so that nothing overflows or loses bits to the subnormal
//! range.

use super::{Vb, R, V};
use inkwell::FloatPredicate as P;

/// (atan(t) - t) / t^3 as a polynomial in z = t^2, |t| <= 7/16 + 0.01 (fit.py; error 2^-55.5,
/// that of 1/3's rounding).
const ATAN: [f64; 12] = [
    -0.3333333333333333,
    0.1999999999999907,
    -0.14285714285492324,
    0.11111111090295808,
    -0.09090908079215966,
    0.07692278562595373,
    -0.06666132009713474,
    0.058758401594970186,
    -0.052095456396454895,
    0.04463760397598906,
    -0.03248614281220109,
    0.014149869518398726,
];
/// atan c in double-double for c = 1/2, 1, 3/2, and pi/2, pi.
const ATAN_HALF: (f64, f64) = (0.4636476090008061, 2.2698777452961687e-17);
const ATAN_ONE: (f64, f64) = (std::f64::consts::FRAC_PI_4, 3.061616997868383e-17);
const ATAN_3HALF: (f64, f64) = (0.982793723247329, 1.3903311031230998e-17);
const PIO2: (f64, f64) = (std::f64::consts::FRAC_PI_2, 6.123233995736766e-17);
const PI: (f64, f64) = (std::f64::consts::PI, 1.2246467991473532e-16);

pub(super) fn atan2<'ctx>(v: &Vb<'_, 'ctx>, y: V<'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let ax0 = v.abs(x)?;
    let ay0 = v.abs(y)?;
    let m = v.sel(v.fcmp(P::OGT, ax0, ay0)?, ax0, ay0)?;
    let s = v.sel(
        v.fcmp(P::OGT, m, v.c(2f64.powi(1000)))?,
        v.c(2f64.powi(-600)),
        v.c(1.0),
    )?;
    let s = v.sel(
        v.fcmp(P::OLT, m, v.c(2f64.powi(-900)))?,
        v.c(2f64.powi(600)),
        s,
    )?;
    let (ax, ay) = (v.mul(ax0, s)?, v.mul(ay0, s)?);
    let q = v.div(ay0, ax0)?;
    // Ranges from the top down, so that the smallest one that holds q wins (NaN q: the last).
    // t = num / den with num and den exact double-doubles: |y| - c|x| and |x| + c|y| from the
    // scaled operands in the middle ranges (within a factor 39/16 of each other), |y| / |x| and
    // -|x| / |y| from the unscaled ones in the first and last (scaled, the smaller operand could
    // round to 0).
    let zero = v.c(0.0);
    let mut num = (v.neg(ax0)?, zero);
    let mut den = (ay0, zero);
    let mut hi = v.c(PIO2.0);
    let mut lo = v.c(PIO2.1);
    for (bound, c, (h, l)) in [
        (39.0 / 16.0, 1.5, ATAN_3HALF),
        (19.0 / 16.0, 1.0, ATAN_ONE),
        (11.0 / 16.0, 0.5, ATAN_HALF),
        (7.0 / 16.0, 0.0, (0.0, 0.0)),
    ] {
        let (n, d) = if c == 0.0 {
            ((ay0, zero), (ax0, zero))
        } else {
            let (ph, pe) = v.two_prod(v.c(c), ax)?;
            let (nh, ne) = v.two_sum(ay, v.neg(ph)?)?;
            let (qh, qe) = v.two_prod(v.c(c), ay)?;
            let (dh, de) = v.two_sum(ax, qh)?;
            ((nh, v.sub(ne, pe)?), (dh, v.add(de, qe)?))
        };
        let inr = v.fcmp(P::OLT, q, v.c(bound))?;
        num = (v.sel(inr, n.0, num.0)?, v.sel(inr, n.1, num.1)?);
        den = (v.sel(inr, d.0, den.0)?, v.sel(inr, d.1, den.1)?);
        hi = v.sel(inr, v.c(h), hi)?;
        lo = v.sel(inr, v.c(l), lo)?;
    }
    let t = v.div(num.0, den.0)?;
    let rem = v.add(v.fma(v.neg(t)?, den.0, num.0)?, num.1)?;
    let tl = v.div(v.sub(rem, v.mul(t, den.1)?)?, den.0)?;
    // An infinite denominator leaves t exact (0) and the correction NaN.
    let tl = v.sel(v.fcmp(P::OEQ, den.0, v.c(f64::INFINITY))?, zero, tl)?;
    let z = v.mul(t, t)?;
    // x < 0 (sign bit): pi - (hi + lo + atan t), the constant part in double-double.
    let xneg = v.icmp(
        inkwell::IntPredicate::SLT,
        v.bitcast(x, v.it(64))?,
        v.ci(64, 0),
    )?;
    let (ph, pe) = v.two_sum(v.c(PI.0), v.neg(hi)?)?;
    let pl = v.add(pe, v.sub(v.c(PI.1), lo)?)?;
    let bh = v.sel(xneg, ph, hi)?;
    let bl = v.sel(xneg, pl, lo)?;
    let st = v.sel(xneg, v.neg(t)?, t)?;
    let stl = v.sel(xneg, v.neg(tl)?, tl)?;
    let inner = v.mad(v.mul(st, z)?, v.poly(z, &ATAN)?, v.add(bl, stl)?)?;
    let a = v.add(bh, v.add(st, inner)?)?;
    // Both zero: 0 or pi; both infinite: pi/4 or 3pi/4.
    let zz = v.mand(
        v.fcmp(P::OEQ, ax0, v.c(0.0))?,
        v.fcmp(P::OEQ, ay0, v.c(0.0))?,
    )?;
    let ii = v.mand(
        v.fcmp(P::OEQ, ax0, v.c(f64::INFINITY))?,
        v.fcmp(P::OEQ, ay0, v.c(f64::INFINITY))?,
    )?;
    let a = v.sel(zz, v.sel(xneg, v.c(PI.0), v.c(0.0))?, a)?;
    let a = v.sel(
        ii,
        v.sel(
            xneg,
            v.c(3.0 * std::f64::consts::FRAC_PI_4),
            v.c(std::f64::consts::FRAC_PI_4),
        )?,
        a,
    )?;
    let r = v.copysign(a, y)?;
    let nan = v.mor(v.is_nan(x)?, v.is_nan(y)?)?;
    v.sel(nan, v.add(x, y)?, r)
}

/// asin, acos and atan of f64 lanes through atan2: asin x = atan2(x, s), acos x = atan2(s, x),
/// s = sqrt(1 - x^2) with 1 - x^2 from one FMA (one rounding, so s is within an ulp even near
/// |x| = 1, where it is small); atan x = atan2(x, 1). |x| > 1 gives NaN (the square root of a
/// negative number), as do NaNs; the signs of zeros and atan(+-inf) = +-pi/2 are atan2's.
pub(super) fn inverse<'ctx>(v: &Vb<'_, 'ctx>, name: &str, x: V<'ctx>) -> R<V<'ctx>> {
    use qd_math::names;
    if name == names::ATAN {
        return atan2(v, x, v.c(1.0));
    }
    let s = v.call("llvm.sqrt", &[v.fma(v.neg(x)?, x, v.c(1.0))?])?;
    if name == names::ASIN {
        atan2(v, x, s)
    } else {
        atan2(v, s, x)
    }
}
