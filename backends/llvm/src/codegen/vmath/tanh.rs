//! tanh.
//!
//! f32: for |x| < 0.5, x + x^3 T(x^2) in f32 (a degree-5 polynomial in x^2 fit on
//! |x| <= 0.5625, fit.py; 0.77 ulp at most, by an exhaustive test); else (in a block that runs
//! only when a lane needs it) computed in f64 and rounded once: with a = |x| (at most 10:
//! tanh(10) rounds to 1 in f32) and e = exp(2a), tanh(x) = copysign((e - 1) / (e + 1), x).
//! exp is 2^k p(r),
//! k = rint(2a / ln 2), r = 2a - k ln 2 (ln 2 in two parts; k ln2_hi is exact), p the degree-9
//! Taylor polynomial of exp on |r| <= ln2 / 2 (error 7e-12). The subtraction e - 1 costs at most
//! a factor 1/(2a) of relative accuracy; below a = 2^-12, tanh(x) rounds to x itself, which is
//! returned (signed zeros too). NaN stays NaN (the clamp keeps it).
//!
//! f64: below |x| = 0.55 the odd polynomial x + x^3 T(x^2); above,
//! 1 - 2 / (exp(2|x|) + 1) with exp in double-double (exp_core) and the quotient corrected by
//! one Newton step, so that the only large rounding is the last one; |x| is limited to 22, where
//! tanh rounds to 1.

use super::exp_log::{exp_core, LN2_HI, LN2_LO};
use super::{Vb, R, V};
use inkwell::FloatPredicate as P;

/// (tanh(x) - x) / x^3 as a polynomial in z = x^2, |x| <= 0.56 (fit.py; error 2^-55.6, that of
/// 1/3's rounding).
const TANH: [f64; 12] = [
    -0.3333333333333333,
    0.13333333333333303,
    -0.053968253968206974,
    0.021869488533346106,
    -0.008863235442972801,
    0.0035921264450435885,
    -0.0014558158462893048,
    0.0005898844744906634,
    -0.00023838728841244365,
    9.433420430982972e-05,
    -3.34096750845956e-05,
    7.682149145096749e-06,
];

/// (tanh(x) - x) / x^3 as a polynomial in z = x^2 for |x| <= 0.5625, in f32 (fit.py: error
/// 2^-28.2 relative to x).
const TANH32: [f32; 6] = [
    -0.333_333_34,
    0.133_333_22,
    -0.053_964_064,
    0.021_811_903,
    -0.008_499_248,
    0.002_487_614_8,
];
/// Below this |x| f32 tanh is the f32 odd polynomial.
pub(super) const NEAR32: f32 = 0.5;

/// f32 tanh: x + x^3 T(x^2) in f32 for |x| < `NEAR32` (and NaN); other lanes take the f64 code
/// of `tanh_f32_wide` in a block that runs only when there are any (a chained tanh whose values
/// stay small waits for a short polynomial only).
pub(super) fn tanh_f32<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let bad = |e: inkwell::builder::BuilderError| e.to_string();
    let c = |k: f32| v.c32(k);
    let z = v.mul(x, x)?;
    let z2 = v.mul(z, z)?;
    let pair = |i: usize| v.mad(z, c(TANH32[i + 1]), c(TANH32[i]));
    let p = v.mad(v.mul(z2, z2)?, pair(4)?, v.mad(z2, pair(2)?, pair(0)?)?)?;
    let near = v.mad(v.mul(x, z)?, p, x)?;
    // tanh(+-0) is that zero (the sum gives +0 for -0).
    let near = v.sel(v.fcmp(P::OEQ, x, c(0.0))?, x, near)?;
    let far = v.fcmp(P::OGE, v.abs(x)?, c(NEAR32))?;
    let any = v.any(far)?;
    let func = v.func()?;
    let from = v.b.get_insert_block().ok_or("no insertion block")?;
    let far_bb = v.llcx.append_basic_block(func, "vm.tanh.far");
    let join_bb = v.llcx.append_basic_block(func, "vm.tanh");
    v.b.build_conditional_branch(any, far_bb, join_bb)
        .map_err(bad)?;
    v.b.position_at_end(far_bb);
    // Lanes below NEAR32 keep the polynomial: a lane's result does not depend on the others.
    let wide = v.sel(far, tanh_f32_wide(v, x)?, near)?;
    let far_end = v.b.get_insert_block().ok_or("no insertion block")?;
    v.b.build_unconditional_branch(join_bb).map_err(bad)?;
    v.b.position_at_end(join_bb);
    let phi = v.b.build_phi(x.get_type(), "vm.tanh").map_err(bad)?;
    phi.add_incoming(&[(&near, from), (&wide, far_end)]);
    Ok(phi.as_basic_value())
}

/// f32 tanh of every lane, computed in f64 (see the module's doc).
fn tanh_f32_wide<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let d = v.widen(x, true)?;
    let a = v.abs(d)?;
    // a > 10 compares false for NaN, which so goes on.
    let a = v.sel(v.fcmp(P::OGT, a, v.c(10.0))?, v.c(10.0), a)?;
    let y = v.mul(a, v.c(2.0))?;
    let kf = v.rint(v.mul(y, v.c(std::f64::consts::LOG2_E))?)?;
    let nk = v.neg(kf)?;
    let r = v.mad(nk, v.c(LN2_HI), y)?;
    let r = v.mad(nk, v.c(LN2_LO), r)?;
    // exp(r) = sum of r^n / n!, n <= 9, by Estrin's scheme.
    let mut c = [1.0f64; 10];
    for n in 1..10 {
        c[n] = c[n - 1] / n as f64;
    }
    let r2 = v.mul(r, r)?;
    let r4 = v.mul(r2, r2)?;
    let r8 = v.mul(r4, r4)?;
    let pair = |i: usize| v.mad(v.c(c[i + 1]), r, v.c(c[i]));
    let p03 = v.mad(pair(2)?, r2, pair(0)?)?;
    let p47 = v.mad(pair(6)?, r2, pair(4)?)?;
    let p = v.mad(pair(8)?, r8, v.mad(p47, r4, p03)?)?;
    // 0 <= k <= 29 (a NaN k gives 2^0, and p, NaN, the result).
    let e = v.mul(p, v.pow2(kf)?)?;
    let t = v.div(v.sub(e, v.c(1.0))?, v.add(e, v.c(1.0))?)?;
    let t = v.copysign(t, d)?;
    let tiny = v.fcmp(P::OLT, a, v.c(f64::from(2.0f32.powi(-12))))?;
    v.narrow(v.sel(tiny, d, t)?, true)
}

pub(super) fn tanh_f64<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let a = v.abs(x)?;
    // Near 0: x + x^3 T(x^2) (x itself at zeros, whose sign the sum would lose).
    let z = v.mul(x, x)?;
    let small = v.mad(v.mul(x, z)?, v.poly(z, &TANH)?, x)?;
    let small = v.sel(v.fcmp(P::OEQ, x, v.c(0.0))?, x, small)?;
    // Else 1 - 2 / (e + 1), e = exp(2a) = (eh + el) 2^k.
    let a2 = v.sel(v.fcmp(P::OGT, a, v.c(22.0))?, v.c(22.0), a)?;
    let (eh, el, k) = exp_core(v, v.mul(a2, v.c(2.0))?, v.c(0.0))?;
    let s = v.pow2(k)?;
    let (dh, de) = v.fast_two_sum(v.mul(eh, s)?, v.c(1.0))?;
    let dl = v.mad(el, s, de)?;
    let q = v.div(v.c(2.0), dh)?;
    let corr = v.div(v.sub(v.fma(v.neg(q)?, dh, v.c(2.0))?, v.mul(q, dl)?)?, dh)?;
    let (h, he) = v.fast_two_sum(v.c(1.0), v.neg(q)?)?;
    let big = v.copysign(v.add(h, v.sub(he, corr)?)?, x)?;
    v.sel(v.fcmp(P::OLT, a, v.c(0.55))?, small, big)
}
