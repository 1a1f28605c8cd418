//! f32 exp and exp2 at 0.5 ulp: computed in f64 and rounded once to f32, as glibc's expf and
//! exp2f. x is limited in f32 (one min and one max per f32 vector, not per f64 half) to where
//! the f32 result is finite and nonzero (and a little past; NaN stays NaN), so that 2^k is a
//! normal f64 and every scaling is exact: overflow, subnormal results and underflow to 0 come
//! from the final rounding alone.
//!
//! Two algorithms, one per target, the same for every shape (scalar or any lane count) of a
//! function, so that a kernel's vector and scalar code give the same bits:
//!
//! - AVX-512 (the function's `target-features`): 2^(n/16) exp(r), n = rint(16 x / ln 2), with a
//!   table of the 16 values 2^(j/16) held in two registers and read by `vpermi2q` (a lane
//!   permute of two registers, no gather), 2^(n >> 4) added to the entry's exponent as an
//!   integer, and exp(r) - 1 for |r| <= ln2/32 a degree-5 polynomial (relative error 2^-45.6).
//!   About 8 instead of 11 multiply-adds per f64 vector.
//! - Elsewhere: 2^k exp(r), k = rint(x / ln 2), no table: a degree-8 polynomial on
//!   |r| <= ln2/2 (relative error 2^-37.8), 2^k from k's bits.
//!
//! Either way the result before the f32 rounding is within 2^-37.7 relative of exp(x) (the table
//! one within about 2^-45), which adds at most 2^-13.7 ulp to the rounding: max 0.50004 ulp
//! (see `super` for the measured bounds).

use super::{Vb, R, V};
use std::f64::consts::{LN_2, LOG2_E};

/// (exp(r) - 1 - r) / r^2 on |r| <= ln2/2 + 0.0005, for an f32 result (fit.py; the relative
/// error of 1 + r + r^2 P(r) is 2^-37.8, which adds at most 2^-13.8 ulp to the f32 rounding:
/// degree 7 would add 2^-8).
const EXP32: [f64; 7] = [
    0.5,
    0.16666666719452422,
    0.041666666719435565,
    0.0083332982820304,
    0.00138888538479799,
    0.00019899441673222872,
    2.4859745860825014e-05,
];
/// (exp(r) - 1 - r) / r^2 on |r| <= ln2/32 + 0.0001, after the table (fit.py; the relative
/// error of 1 + r + r^2 P(r) is 2^-45.6).
const EXP16: [f64; 4] = [
    0.49999999996107,
    0.16666666666110524,
    0.04166732435843051,
    0.008333427289145113,
];
/// The bits of 2^(j/16) rounded to f64, less j << 48 (fit.py): with n << 48 added, where
/// n = 16 k + j, the sum is the bits of 2^(j/16) 2^k (the exponent field gains k).
const TABLE16: [u64; 16] = [
    0x3ff0000000000000,
    0x3fefb5586cf9890f,
    0x3fef72b83c7d517b,
    0x3fef387a6e756238,
    0x3fef06fe0a31b715,
    0x3feedea64c123422,
    0x3feebfdad5362a27,
    0x3feeab07dd485429,
    0x3feea09e667f3bcd,
    0x3feea11473eb0187,
    0x3feeace5422aa0db,
    0x3feec49182a3f090,
    0x3feee89f995ad3ad,
    0x3fef199bdd85529c,
    0x3fef5818dcfba487,
    0x3fefa4afa2a490da,
];
/// ln 2 / 16 rounded (its error, 1.4e-18, moves r by at most 2^-47.8 for |n| <= 2770).
const LN2_16: f64 = 0.04332169878499658;
/// 1.5 2^52: adding it rounds an f64 below 2^51 in magnitude to an integer, held in the low bits.
const ROUND: f64 = 6_755_399_441_055_744.0;

/// exp (or, when `base2`, exp2) of f32 lanes, as f32 lanes.
pub(super) fn exp<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>, base2: bool) -> R<V<'ctx>> {
    // exp(x) past [-120, 100] (2^x past [-160, 130]) is 0 or inf in f32.
    let (lo, hi) = if base2 {
        (-160.0, 130.0)
    } else {
        (-120.0, 100.0)
    };
    let x = v.widen(v.limit32(x, lo, hi)?, true)?;
    let r = match (v.avx512()?, base2) {
        (true, _) => table(v, x, base2)?,
        (false, false) => plain_exp(v, x)?,
        (false, true) => plain_exp2(v, x)?,
    };
    v.narrow(r, true)
}

/// The AVX-512 algorithm (see the module doc) on x in the limited range, widened.
fn table<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>, base2: bool) -> R<V<'ctx>> {
    // kd = n + ROUND, n = rint(16 x / ln 2) (or rint(16 x), exact), |n| <= 2770.
    let scale = if base2 { 16.0 } else { 16.0 * LOG2_E };
    let kd = v.fma(x, v.c(scale), v.c(ROUND))?;
    let n = v.sub(kd, v.c(ROUND))?;
    // r = x - n ln2/16 rounded once; for exp2 (x - n/16) ln 2, x - n/16 exact.
    let r = if base2 {
        v.mul(v.fma(n, v.c(-1.0 / 16.0), x)?, v.c(LN_2))?
    } else {
        v.fma(n, v.c(-LN2_16), x)?
    };
    // kd's low 16 bits are n: the permute reads its low 4 (j), the shift drops all above.
    let bits = v.bitcast(kd, v.it(64))?;
    let entry = v.lookup16(&TABLE16, bits)?;
    let s = v.bitcast(v.iadd(entry, v.shl(bits, v.ci(64, 48))?)?, v.f64t())?;
    // s (1 + q), q = r + r^2 P(r).
    let q = v.fma(v.mul(r, r)?, v.poly(r, &EXP16)?, r)?;
    v.fma(s, q, s)
}

/// exp(r) 2^k for |r| <= ln2/2 + 0.0005 and kd = k + ROUND (k in [-1022, 1023]), within
/// 2^-37.8 relative: the other targets' core. 2^k from kd's bits, whose low bits are k
/// (shifting by 52 drops ROUND's).
fn plain_core<'ctx>(v: &Vb<'_, 'ctx>, r: V<'ctx>, kd: V<'ctx>) -> R<V<'ctx>> {
    let r2 = v.mul(r, r)?;
    let e = v.add(v.c(1.0), v.mad(r2, v.poly(r, &EXP32)?, r)?)?;
    let bits = v.shl(v.bitcast(kd, v.it(64))?, v.ci(64, 52))?;
    let scale = v.iadd(bits, v.ci(64, 1023 << 52))?;
    v.mul(e, v.bitcast(scale, v.f64t())?)
}

/// exp(x) = 2^k exp(r), k = rint(x / ln 2), r = x - k ln 2 with ln 2 in one f64: |k| <= 174, so
/// r is within 2^-45 of x - k ln 2, and exp(r) within 2^-45 relative.
fn plain_exp<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let kd = v.mad(x, v.c(LOG2_E), v.c(ROUND))?;
    let k = v.sub(kd, v.c(ROUND))?;
    let r = v.mad(k, v.c(-LN_2), x)?;
    plain_core(v, r, kd)
}

/// 2^x = 2^k exp((x - k) ln 2), k = rint(x) (x - k is exact).
fn plain_exp2<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let kd = v.add(x, v.c(ROUND))?;
    let k = v.sub(kd, v.c(ROUND))?;
    let r = v.mul(v.sub(x, k)?, v.c(LN_2))?;
    plain_core(v, r, kd)
}
