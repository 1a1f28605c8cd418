//! f32 exp and exp2 in f32 arithmetic, for math ops marked `fastmath<afn>` (approximate
//! functions allowed; `fast` implies it): fewer instructions than the 0.5-ulp f64 code
//! (exp32.rs), which needs two f64 vectors per f32 vector, and within [`MAX_ULP`] (1 ulp) of the
//! exact value on every f32: `vmath_f32_afn_exhaustive` (ignored) measures 0.957 ulp at most for
//! exp, 0.941 for exp2 (the 0.5-ulp code: 0.5000002 on AVX-512, 0.50004 elsewhere).
//!
//! exp(x) = 2^k exp(r), k = rint(x / ln 2) (by adding 1.5 2^23), r = x - k ln 2 with ln 2 in two
//! parts: the high one has 16 bits, so x - k LN2_HI is exact in one FMA, and r is rounded once.
//! exp(r) = 1 + r + r^2 P(r) on |r| <= ln2/2 + 0.0005, P of degree 4 (relative error
//! 2^-26.5), all of it by Horner in FMAs. exp2(x) = 2^k exp((x - k) ln 2), k = rint(x) (x - k is
//! exact). 2^k is applied in one rounding, so that overflow, subnormal results and underflow to
//! 0 come out as rounding the exact product would give them: on AVX-512 by `vscalefps` (16
//! lanes), elsewhere by two exact powers of two (k = h + (k - h), h = k >> 1). x is first limited
//! to where exp is finite and nonzero (and a little past, NaN kept), so inf gives inf, -inf 0.

use super::{Vb, R, V};
use inkwell::values::InstructionOpcode as Op;

/// The documented bound of the f32 `afn` exp and exp2 (`fastmath<afn>` or `fastmath<fast>` on
/// `math.exp` / `math.exp2` in the cpu device), in ulps of the exact value: measured over every
/// f32, 0.957 (exp) and 0.941 (exp2) at most (`vmath_f32_afn_exhaustive`).
pub const MAX_ULP: f64 = 1.0;

/// P(r) = (exp(r) - 1 - r) / r^2, |r| <= ln2/2 + 0.0005, coefficients in f32 (Chebyshev fit,
/// as fit.py's EXP32 with degree 4 and f32 rounding: relative error of 1 + r + r^2 P 2^-26.5).
const EXPF: [f32; 5] = [
    0.5,
    0.166_665_76,
    0.041_666_552,
    0.008_363_259,
    0.001_392_628_4,
];
/// ln 2: 16 leading bits (k LN2_HI is exact for |k| < 2^8) and the rest rounded.
const LN2_HI: f32 = 0.693_145_75;
const LN2_LO: f32 = 1.428_606_8e-6;
/// 1.5 2^23: adding it rounds an f32 below 2^22 in magnitude to an integer, held in the low
/// bits.
const ROUND: f32 = 12_582_912.0;

/// exp(x) of f32 lanes, in f32.
pub(super) fn exp<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    // exp(-104) < 2^-150 rounds to 0 and exp(89) overflows; k stays in [-150, 129].
    let x = v.limit32(x, -104.0, 89.0)?;
    let kd = v.fma(x, v.c32(std::f32::consts::LOG2_E), v.c32(ROUND))?;
    let k = v.sub(kd, v.c32(ROUND))?;
    let nk = v.neg(k)?;
    let r = v.fma(nk, v.c32(LN2_HI), x)?;
    let r = v.fma(nk, v.c32(LN2_LO), r)?;
    scale(v, poly(v, r)?, k, kd)
}

/// 2^x of f32 lanes, in f32.
pub(super) fn exp2<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<V<'ctx>> {
    let x = v.limit32(x, -151.0, 129.0)?;
    let kd = v.add(x, v.c32(ROUND))?;
    let k = v.sub(kd, v.c32(ROUND))?;
    let r = v.mul(v.sub(x, k)?, v.c32(std::f32::consts::LN_2))?;
    scale(v, poly(v, r)?, k, kd)
}

/// 1 + r + r^2 P(r) by Horner.
fn poly<'ctx>(v: &Vb<'_, 'ctx>, r: V<'ctx>) -> R<V<'ctx>> {
    let mut p = v.c32(EXPF[EXPF.len() - 1]);
    for &c in EXPF[..EXPF.len() - 1].iter().rev() {
        p = v.fma(p, r, v.c32(c))?;
    }
    p = v.fma(p, r, v.c32(1.0))?;
    v.fma(p, r, v.c32(1.0))
}

/// p 2^k rounded once, for p in about [0.7, 1.42] and k (an integral f32 in [-151, 129]; kd is
/// k + ROUND).
fn scale<'ctx>(v: &Vb<'_, 'ctx>, p: V<'ctx>, k: V<'ctx>, kd: V<'ctx>) -> R<V<'ctx>> {
    if v.lanes == Some(16) && v.avx512()? {
        // vscalefps: p 2^floor(k), one rounding; the passthrough is unused (mask all ones).
        let all = v.llcx.i16_type().const_all_ones().into();
        let cur = v.llcx.i32_type().const_int(4, false).into();
        return v.call_tys(
            "llvm.x86.avx512.mask.scalef.ps.512",
            &[],
            &[p, k, p, all, cur],
        );
    }
    // k from kd's low bits, then 2^h 2^(k - h), each a normal f32: p 2^h is exact.
    let i32t = v.it(32);
    let ki = v.isub(v.bitcast(kd, i32t)?, v.ci(32, u64::from(ROUND.to_bits())))?;
    let h = v.bin(Op::AShr, ki, v.ci(32, 1))?;
    let pow2 = |e: V<'ctx>| -> R<V<'ctx>> {
        let bits = v.shl(v.iadd(e, v.ci(32, 127))?, v.ci(32, 23))?;
        v.bitcast(bits, v.f32t())
    };
    v.mul(v.mul(p, pow2(h)?)?, pow2(v.isub(ki, h)?)?)
}
