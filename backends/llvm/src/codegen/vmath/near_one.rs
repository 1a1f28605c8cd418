//! expm1, log1p, log10 and cbrt of f64 lanes, each without the cancellation of its naive form
//! (exp(x) - 1, log(1 + x), log(x) / ln 10, pow(x, 1/3)):
//! - expm1(x) = 2^k (1 + u) - 1 = (2^k - 1) + 2^k u, k = rint(x / ln 2), u = expm1(r) =
//!   r + r^2 E(r) (exp's polynomial, exp_log.rs) on the reduced argument r (double-double), the
//!   last sum by an exact two-sum; past 40 it is exp(x), below -40 it is -1;
//! - log1p(x) = log(u) + e / u where u + e = 1 + x exactly (two-sum), log(u) in double-double;
//! - log10(x) = log(x) (double-double) times 1/ln 10 (double-double);
//! - cbrt(x) = copysign(exp(log|x| / 3), x), the quotient in double-double, so that exp's
//!   argument is right to about 2^-60 relative.

use super::exp_log::{exp, exp_dd, log_dd, special, EXP, LN2_HI, LN2_LO};
use super::{Vb, R, V};
use inkwell::FloatPredicate as P;

/// 1 / ln 10 in double-double.
const INVLN10_HI: f64 = std::f64::consts::LOG10_E;
const INVLN10_LO: f64 = 1.098_319_650_216_765e-17;

pub(super) fn expm1<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    // The main path on [-40, 40] (k within +-58, 2^k exact); the ends select other values.
    let xc = v.sel(v.fcmp(P::OGT, x, v.c(40.0))?, v.c(40.0), x)?;
    let xc = v.sel(v.fcmp(P::OLT, xc, v.c(-40.0))?, v.c(-40.0), xc)?;
    let k = v.rint(v.mul(xc, v.c(std::f64::consts::LOG2_E))?)?;
    let nk = v.neg(k)?;
    // r + rr = x - k ln 2 (k LN2_HI is exact, so is the first step).
    let rh = v.fma(nk, v.c(LN2_HI), xc)?;
    let rl = v.mul(nk, v.c(LN2_LO))?;
    let (r, rr) = v.two_sum(rh, rl)?;
    // expm1(r + rr) = expm1(r) + rr (1 + r) + ...: u = r + [r^2 E(r) + rr (1 + r)].
    let t = v.add(v.mul(v.mul(r, r)?, v.poly(r, &EXP)?)?, v.mad(rr, r, rr)?)?;
    let (uh, ul) = v.fast_two_sum(r, t)?;
    let p = v.pow2(k)?;
    let (h, e) = v.two_sum(v.sub(p, v.c(1.0))?, v.mul(p, uh)?)?;
    let main = v.add(h, v.add(e, v.mul(p, ul)?)?)?;
    let big = v.fcmp(P::OGT, x, v.c(40.0))?;
    let r = v.sel(big, exp(v, x)?, main)?;
    let r = v.sel(v.fcmp(P::OLT, x, v.c(-40.0))?, v.c(-1.0), r)?;
    // Zeros keep their sign; NaN stays NaN.
    let keep = v.mor(v.fcmp(P::OEQ, x, v.c(0.0))?, v.is_nan(x)?)?;
    v.sel(keep, x, r)
}

pub(super) fn log1p<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let (u, e) = v.two_sum(v.c(1.0), x)?;
    let (h, l) = log_dd(v, u)?;
    let val = v.add(h, v.add(l, v.div(e, u)?)?)?;
    // u's special values are log's: 0 (x = -1) gives -inf, below NaN, inf and NaN themselves.
    let r = special(v, u, val)?;
    let keep = v.mor(v.fcmp(P::OEQ, x, v.c(0.0))?, v.is_nan(x)?)?;
    v.sel(keep, x, r)
}

pub(super) fn log10<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let (h, l) = log_dd(v, x)?;
    let (ph, pe) = v.two_prod(h, v.c(INVLN10_HI))?;
    let pl = v.mad(h, v.c(INVLN10_LO), v.mad(l, v.c(INVLN10_HI), pe)?)?;
    special(v, x, v.add(ph, pl)?)
}

pub(super) fn cbrt<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let a = v.abs(x)?;
    let (h, l) = log_dd(v, a)?;
    let three = v.c(3.0);
    let q = v.div(h, three)?;
    // h - 3q is exact (FMA), so (q, ql) is h / 3 to double-double precision.
    let rem = v.fma(v.neg(q)?, three, h)?;
    let ql = v.div(v.add(rem, l)?, three)?;
    let r = v.copysign(exp_dd(v, q, ql)?, x)?;
    // Zeros, infinities and NaN are their own cube roots.
    let keep = v.mor(
        v.fcmp(P::OEQ, a, v.c(0.0))?,
        v.fcmp(P::UEQ, a, v.c(f64::INFINITY))?,
    )?;
    v.sel(keep, x, r)
}
