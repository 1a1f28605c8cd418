//! log1p(e) for f32 `e` in [0, 1] in f32 arithmetic (arith ops only), for the loss patterns'
//! softplus term log(1 + exp(-|p|)): musl's log1pf restricted to that range (one f32 division,
//! a degree-4 polynomial in s^2; below 1 ulp), so that a device without a cheap f32 log (the cpu
//! device computes `math.log` of f32 in f64 double-double arithmetic, about 10x an f32 exp) does
//! not spend a fused loss kernel on it.
//!
//! Below u = fl(1 + e) = sqrt(2), log1p(e) = log(1 + f) with f = e itself. Above it, 1 + e =
//! 2 (1 + f) with f = u / 2 - 1 (exact), plus c = (e - (u - 1)) / u for the rounding error of u
//! (e - (u - 1) is exact: Fast2Sum, 1 >= e). Then s = f / (2 + f) and
//! log(1 + f) = f - hfsq + s (hfsq + R(s^2)), hfsq = f^2 / 2, plus k ln 2 (k = 0 or 1).

use qd_arith::names as an;
use qd_arith::{build_binary, build_cmpf, build_constant_float, build_select, CmpFPredicate};
use qd_ir::{Builder, Location, Value};

/// ln 2 split: the high part's low bits are zero, so k * LN2_HI is exact.
const LN2_HI: f32 = f32::from_bits(0x3f31_7180);
const LN2_LO: f32 = f32::from_bits(0x3717_f7d1);
/// log(m) = 2s + 2/3 s^3 + ...: R(z) = z (LG1 + z^2 LG3) + z^2 (LG2 + z^2 LG4), musl's fit.
const LG1: f32 = f32::from_bits(0x3f2a_aaaa);
const LG2: f32 = f32::from_bits(0x3ecc_ce13);
const LG3: f32 = f32::from_bits(0x3e91_e9ee);
const LG4: f32 = f32::from_bits(0x3e78_9e26);
/// sqrt(2) rounded down to f32: u at or above it is halved.
const SQRT2: f32 = f32::from_bits(0x3fb5_04f3);

/// log1p(e) for an f32 `e` in [0, 1], given `u` = 1 + e (already computed by the caller).
pub fn log1p_unit_f32(b: &mut Builder, e: Value, u: Value, loc: Location) -> Value {
    let ty = b.ctx.value_type(e);
    let c = |b: &mut Builder, v: f32| build_constant_float(b, f64::from(v), ty, loc);
    let one = c(b, 1.0);
    let half = c(b, 0.5);
    let zero = c(b, 0.0);
    // k = 1 when u >= sqrt(2): m = u / 2, f = m - 1, and the rounding error of u counts
    // (c = (e - (u - 1)) / u); else k = 0 and f = e itself (exact, no correction).
    let sqrt2 = c(b, SQRT2);
    let big = build_cmpf(b, CmpFPredicate::Oge, u, sqrt2, loc);
    let um1 = build_binary(b, an::SUBF, u, one, loc);
    let err = build_binary(b, an::SUBF, e, um1, loc);
    let cu = build_binary(b, an::DIVF, err, u, loc);
    let corr = build_select(b, big, cu, zero, loc);
    let uh = build_binary(b, an::MULF, u, half, loc);
    let mh = build_binary(b, an::SUBF, uh, one, loc);
    let f = build_select(b, big, mh, e, loc);
    let dk = build_select(b, big, one, zero, loc);
    let two = c(b, 2.0);
    let den = build_binary(b, an::ADDF, f, two, loc);
    let s = build_binary(b, an::DIVF, f, den, loc);
    let z = build_binary(b, an::MULF, s, s, loc);
    let w = build_binary(b, an::MULF, z, z, loc);
    // t1 = w (LG2 + w LG4), t2 = z (LG1 + w LG3).
    let lg4 = c(b, LG4);
    let a = build_binary(b, an::MULF, w, lg4, loc);
    let lg2 = c(b, LG2);
    let a = build_binary(b, an::ADDF, lg2, a, loc);
    let t1 = build_binary(b, an::MULF, w, a, loc);
    let lg3 = c(b, LG3);
    let q = build_binary(b, an::MULF, w, lg3, loc);
    let lg1 = c(b, LG1);
    let q = build_binary(b, an::ADDF, lg1, q, loc);
    let t2 = build_binary(b, an::MULF, z, q, loc);
    let r = build_binary(b, an::ADDF, t2, t1, loc);
    let ff = build_binary(b, an::MULF, f, f, loc);
    let hfsq = build_binary(b, an::MULF, half, ff, loc);
    // s (hfsq + R) + (k LN2_LO + c) - hfsq + f + k LN2_HI, in musl's order.
    let hr = build_binary(b, an::ADDF, hfsq, r, loc);
    let shr = build_binary(b, an::MULF, s, hr, loc);
    let lo = c(b, LN2_LO);
    let klo = build_binary(b, an::MULF, dk, lo, loc);
    let klo = build_binary(b, an::ADDF, klo, corr, loc);
    let x = build_binary(b, an::ADDF, shr, klo, loc);
    let x = build_binary(b, an::SUBF, x, hfsq, loc);
    let x = build_binary(b, an::ADDF, x, f, loc);
    let hi = c(b, LN2_HI);
    let khi = build_binary(b, an::MULF, dk, hi, loc);
    build_binary(b, an::ADDF, x, khi, loc)
}
