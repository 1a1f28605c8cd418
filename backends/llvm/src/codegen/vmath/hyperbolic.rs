//! sinh, cosh, asinh, acosh and atanh of f64 lanes, through expm1 and log1p (near_one.rs) where
//! the naive forms cancel:
//! - sinh |x| = (m + m / (m + 1)) / 2, m = expm1|x|; cosh = (e + 1/e) / 2, e = m + 1; past
//!   |x| = 22 both are (h / 2) h, h = exp(|x| / 2) (e^-|x| is below 2^-63 of the result, and
//!   exp(|x|) alone would overflow before the result does); x's sign for sinh;
//! - asinh |x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))), past 2^28 log|x| + ln 2;
//! - acosh x = log1p(t + sqrt(t (t + 2))), t = x - 1 (exact near 1), past 2^28 log x + ln 2;
//!   NaN below 1;
//! - atanh |x| = log1p(2|x| / (1 - |x|)) / 2 (inf at 1, NaN past it); x's sign.

use super::exp_log::{exp, log};
use super::near_one::{expm1, log1p};
use super::{Vb, R, V};
use inkwell::FloatPredicate as P;

const BIG: f64 = 268_435_456.0; // 2^28

/// (|x| limited to 22, whether it was over 22, (h / 2) h for the lanes over it).
fn parts<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<(V<'ctx>, V<'ctx>, V<'ctx>)> {
    let a = v.abs(x)?;
    let far = v.fcmp(P::OGT, a, v.c(22.0))?;
    let h = exp(v, v.mul(a, v.c(0.5))?)?;
    let big = v.mul(v.mul(h, v.c(0.5))?, h)?;
    Ok((v.sel(far, v.c(22.0), a)?, far, big))
}

pub(super) fn sinh<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let (a, far, big) = parts(v, x)?;
    let m = expm1(v, a)?;
    let s = v.mul(v.add(m, v.div(m, v.add(m, v.c(1.0))?)?)?, v.c(0.5))?;
    v.copysign(v.sel(far, big, s)?, x)
}

pub(super) fn cosh<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let (a, far, big) = parts(v, x)?;
    let e = v.add(expm1(v, a)?, v.c(1.0))?;
    let c = v.add(v.mul(e, v.c(0.5))?, v.div(v.c(0.5), e)?)?;
    v.sel(far, big, c)
}

/// log(a) + ln 2, for the large arguments of asinh and acosh.
fn log_twice<'ctx>(v: &Vb<'_, 'ctx>, a: V<'ctx>) -> R<V<'ctx>> {
    v.add(log(v, a)?, v.c(std::f64::consts::LN_2))
}

pub(super) fn asinh<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let a = v.abs(x)?;
    let far = v.fcmp(P::OGT, a, v.c(BIG))?;
    let ac = v.sel(far, v.c(1.0), a)?;
    let t = v.mul(ac, ac)?;
    let one = v.c(1.0);
    let d = v.add(one, v.call("llvm.sqrt", &[v.add(one, t)?])?)?;
    let near = log1p(v, v.add(ac, v.div(t, d)?)?)?;
    v.copysign(v.sel(far, log_twice(v, a)?, near)?, x)
}

pub(super) fn acosh<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let far = v.fcmp(P::OGT, x, v.c(BIG))?;
    let xc = v.sel(far, v.c(2.0), x)?;
    let t = v.sub(xc, v.c(1.0))?;
    let s = v.call("llvm.sqrt", &[v.mul(t, v.add(t, v.c(2.0))?)?])?;
    let near = log1p(v, v.add(t, s)?)?;
    let r = v.sel(far, log_twice(v, x)?, near)?;
    v.sel(v.fcmp(P::OLT, x, v.c(1.0))?, v.c(f64::NAN), r)
}

pub(super) fn atanh<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let a = v.abs(x)?;
    let q = v.div(v.add(a, a)?, v.sub(v.c(1.0), a)?)?;
    let r = v.mul(log1p(v, q)?, v.c(0.5))?;
    v.copysign(r, x)
}
