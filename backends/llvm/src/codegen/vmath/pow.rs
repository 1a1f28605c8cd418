//! pow(x, y) = exp(y log|x|) with log|x| and the product in double-double (log_dd's 2^-62
//! relative error keeps |y log x| up to 745 within an ulp), and C99's special cases: pow(x, +-0)
//! = 1 and pow(1, y) = 1 even for NaN; pow(-1, +-inf) = 1; a negative finite x to a non-integer
//! y is NaN; a negative x (or -0) to an odd integer y gives the negated result; zeros and
//! infinities of x and y come out of log|x| = -inf / +inf and exp's limits.

use super::exp_log::{exp_dd, log_dd};
use super::{Vb, R, V};
use inkwell::FloatPredicate as P;

pub(super) fn pow<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>, y: V<'ctx>) -> R<V<'ctx>> {
    let inf = v.c(f64::INFINITY);
    let ax = v.abs(x)?;
    let (lh, ll) = log_dd(v, ax)?;
    // log|x| at 0, inf and NaN: -inf, inf, NaN (log_dd gives garbage there).
    let finite = v.mand(v.fcmp(P::OGT, ax, v.c(0.0))?, v.fcmp(P::OLT, ax, inf)?)?;
    let lspec = v.sel(v.fcmp(P::OEQ, ax, v.c(0.0))?, v.c(f64::NEG_INFINITY), ax)?;
    let lh = v.sel(finite, lh, lspec)?;
    let ll = v.sel(finite, ll, v.c(0.0))?;
    // y log|x| in double-double; where the product is not finite its error term is dropped.
    let (zh, ze) = v.two_prod(y, lh)?;
    let zl = v.mad(y, ll, ze)?;
    let zfin = v.fcmp(P::OLT, v.abs(zh)?, inf)?;
    let zl = v.sel(zfin, zl, v.c(0.0))?;
    let mag = exp_dd(v, zh, zl)?;
    // The sign: negative for x < 0 (or -0) and odd integer y.
    let fl = v.call("llvm.floor", &[y])?;
    let int = v.fcmp(P::OEQ, fl, y)?;
    let half = v.mul(y, v.c(0.5))?;
    let odd = v.mand(int, v.fcmp(P::UNE, v.call("llvm.floor", &[half])?, half)?)?;
    let xbits = v.bitcast(x, v.it(64))?;
    let xneg = v.icmp(inkwell::IntPredicate::SLT, xbits, v.ci(64, 0))?;
    let r = v.sel(v.mand(xneg, odd)?, v.neg(mag)?, mag)?;
    // A negative finite x to a non-integer y.
    let negfin = v.mand(
        v.fcmp(P::OLT, x, v.c(0.0))?,
        v.fcmp(P::OGT, x, v.c(f64::NEG_INFINITY))?,
    )?;
    let notint = v.fcmp(P::UNE, fl, y)?;
    let r = v.sel(v.mand(negfin, notint)?, v.c(f64::NAN), r)?;
    // Results of 1: y = +-0; x = 1; |x| = 1 and |y| = inf.
    let one = v.mor(v.fcmp(P::OEQ, y, v.c(0.0))?, v.fcmp(P::OEQ, x, v.c(1.0))?)?;
    let unit_inf = v.mand(
        v.fcmp(P::OEQ, ax, v.c(1.0))?,
        v.fcmp(P::OEQ, v.abs(y)?, inf)?,
    )?;
    v.sel(v.mor(one, unit_inf)?, v.c(1.0), r)
}
