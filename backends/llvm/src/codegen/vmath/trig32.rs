//! f32 sin and cos in f32 arithmetic, for |x| < 4096 (`FAST_LIMIT`); other lanes take the
//! accurate f64 path (trig.rs) in an out-of-line function called only when a lane needs it.
//!
//! Reduction (skipped when every lane has |x| <= pi/4): k = rint(x 2/pi), x - k pi/2 as a sum rh + rl of two f32s, with pi/2 split in
//! four parts (fit.py): P1 (24 bits; x - k P1 is exact by FMA: |x - k P1| < 1 with a multiple of
//! 2^-24 or 2^-23), P2 and P3 (11 bits each, so that k P2 and k P3 are exact for |k| < 2^12),
//! subtracted with Fast2Sum: exact errors, also when the difference cancels (then it is exact),
//! and P4 (24 bits) in the low part. pi/2 - (P1 + P2 + P3 + P4) is 3.3e-22: k times it is below
//! 2^-59, and the f32 values below `FAST_LIMIT` are not that close to a multiple of pi/2.
//!
//! Kernels on |r| <= pi/4 (a little more where rint(x 2/pi) rounded across a half): glibc's
//! `sinf`/`cosf` polynomials rounded to f32, sin(rh + rl) = rh + (rl (1 - z/2) + rh z S(z)) and
//! cos(rh + rl) = w + (((1 - w) - z/2) - zl/2 - rh rl + z^2 C(z)), w = 1 - z/2 rounded,
//! z + zl = rh^2 exactly. Max error 0.55 ulp over every f32 below the limit (the exhaustive
//! test in tests.rs; both functions are symmetric in the sign of x).

use super::{Vb, R, V};
use inkwell::{FloatPredicate as P, IntPredicate as I};

/// Below this |x| the f32 path is used (k < 2^12, the exactness bound of k P2 and k P3).
pub(super) const FAST_LIMIT: f32 = 4096.0;
/// 1.5 2^23: adding it rounds an f32 below 2^22 to an integer, in the low bits.
const MAGIC: f32 = 12_582_912.0;
/// pi/2 = P1 + P2 + P3 + P4 + 3.3e-22 (fit.py).
const P1: f32 = 1.570_796_4;
const P2: f32 = -4.368_485e-8;
const P3: f32 = -2.653_166_6e-11;
const P4: f32 = -8.820_552e-15;
/// glibc's `sinf`/`cosf` coefficients (trig.rs's S32, C32) rounded to f32; C1 is -1/2 + C1P.
const S1: f32 = -0.166_666_55;
const S2: f32 = 0.008_332_178;
const S3: f32 = -0.000_195_173;
const C1P: f32 = 2.748_917_8e-9;
const C2: f32 = 0.041_666_623;
const C3: f32 = -0.001_388_676_3;
const C4: f32 = 2.439_045_e-5;

/// sin (or cos when `cos`) of the f32 value `x` (scalar or vector), for |x| < `FAST_LIMIT`
/// (NaN and inf give NaN; larger lanes give garbage).
pub(super) fn sin_cos<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>, cos: bool) -> R<V<'ctx>> {
    let c = |k: f32| v.c32(k);
    let (n, rh, rl) = reduce_if_needed(v, x)?;
    let z = v.mul(rh, rh)?;
    let hz = v.mul(z, c(0.5))?;
    let sinv = {
        let s = v.mad(v.mad(z, c(S3), c(S2))?, z, c(S1))?;
        let corr = v.mad(v.neg(hz)?, rl, rl)?;
        v.add(rh, v.mad(v.mul(rh, z)?, s, corr)?)?
    };
    let cosv = {
        let zl = v.fma(rh, rh, v.neg(z)?)?;
        let w = v.sub(c(1.0), hz)?;
        let back = v.sub(v.sub(c(1.0), w)?, hz)?;
        let low = v.mad(zl, c(-0.5), v.neg(v.mul(rh, rl)?)?)?;
        let tail = v.mad(z, c(C1P), v.add(back, low)?)?;
        let q = v.mad(v.mad(z, c(C4), c(C3))?, z, c(C2))?;
        v.add(w, v.mad(v.mul(z, z)?, q, tail)?)?
    };
    let c32 = |k: u32| v.ci(32, u64::from(k));
    let q = if cos { v.iadd(n, c32(1))? } else { n };
    let odd = v.icmp(I::NE, v.and(q, c32(1))?, c32(0))?;
    let negate = v.icmp(I::NE, v.and(q, c32(2))?, c32(0))?;
    let r = v.sel(odd, cosv, sinv)?;
    let r = v.sel(negate, v.neg(r)?, r)?;
    if cos {
        Ok(r)
    } else {
        // sin(+-0) is that zero (the reduction gives +0 for -0).
        v.sel(v.fcmp(P::OEQ, x, c(0.0))?, x, r)
    }
}

/// (n, rh, rl): x = n pi/2 + (rh + rl), n's low two bits those of the quadrant. When no lane
/// has |x| > pi/4 that is (0, x, 0) without the reduction's block: a loop feeding each result
/// into the next call (whose values stay small) waits for the polynomials only.
fn reduce_if_needed<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>) -> R<(V<'ctx>, V<'ctx>, V<'ctx>)> {
    let c = |k: f32| v.c32(k);
    let bad = |e: inkwell::builder::BuilderError| e.to_string();
    let far = v.fcmp(P::OGT, v.abs(x)?, c(std::f32::consts::FRAC_PI_4))?;
    let any = v.any(far)?;
    let func = v.func()?;
    let from = v.b.get_insert_block().ok_or("no insertion block")?;
    let red_bb = v.llcx.append_basic_block(func, "vm.reduce");
    let join_bb = v.llcx.append_basic_block(func, "vm.reduced");
    v.b.build_conditional_branch(any, red_bb, join_bb)
        .map_err(bad)?;
    v.b.position_at_end(red_bb);
    // k = rint(x 2/pi) by the rounding of x 2/pi + 1.5 2^23, whose low bits are k's (for
    // |k| < 2^22; NaN and inf give unspecified bits, never poison).
    let t = v.fma(x, c(std::f32::consts::FRAC_2_PI), c(MAGIC))?;
    let k = v.sub(t, c(MAGIC))?;
    let nk = v.neg(k)?;
    let r1 = v.fma(nk, c(P1), x)?;
    let (a, ea) = v.fast_two_sum(r1, v.mul(nk, c(P2))?)?;
    let (rh, eb) = v.fast_two_sum(a, v.mul(nk, c(P3))?)?;
    let rl = v.fma(nk, c(P4), v.add(ea, eb)?)?;
    let n = v.bitcast(t, v.it(32))?;
    v.b.build_unconditional_branch(join_bb).map_err(bad)?;
    v.b.position_at_end(join_bb);
    let mut out = Vec::new();
    for (near, reduced) in [(v.ci(32, 0), n), (x, rh), (c(0.0), rl)] {
        let phi = v.b.build_phi(near.get_type(), "vm.red").map_err(bad)?;
        phi.add_incoming(&[(&near, from), (&reduced, red_bb)]);
        out.push(phi.as_basic_value());
    }
    Ok((out[0], out[1], out[2]))
}
