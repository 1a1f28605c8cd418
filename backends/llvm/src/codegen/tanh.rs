//! f32 `tanh` as straight-line f64 code, instead of a call to libm's `tanhf` (glibc's goes through
//! `expm1f` and its branches: a gradient of a tanh loop spent most of its time there). It
//! vectorizes, and within one ulp of the exact value (a test sweeps it).
//!
//! With a = |x| (at most 10: tanh(10) rounds to 1 in f32) and e = exp(2a):
//! tanh(x) = copysign((e - 1) / (e + 1), x). exp is 2^k * p(r), k = rint(2a / ln 2), r = 2a - k ln 2
//! (ln 2 in two parts; k ln2_hi is exact), p the degree-9 Taylor polynomial of exp on
//! |r| <= ln2 / 2 (error 7e-12). The subtraction e - 1 costs at most a factor 1/(2a) of relative
//! accuracy; below a = 2^-12, tanh(x) rounds to x itself, which is returned (signed zeros too).
//! NaN stays NaN (the clamp keeps it).

use super::arith::intrinsic;
use super::{Gen, R};
use inkwell::values::FloatValue;
use inkwell::FloatPredicate;

/// ln 2 in two parts (fdlibm's): the high one has 21 trailing zero bits, so k * LN2_HI is exact.
const LN2_HI: f64 = 0.693_147_180_369_123_8;
const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

/// tanh of the f32 `x`.
pub(super) fn tanh_f32<'ctx>(g: &Gen<'_, 'ctx>, x: FloatValue<'ctx>) -> R<FloatValue<'ctx>> {
    let f64t = g.llcx.f64_type();
    let i64t = g.i64();
    let k = |v: f64| f64t.const_float(v);
    let b = &g.b;
    let mul = |a, c| g.ck(b.build_float_mul(a, c, "m"));
    let fma = |a: FloatValue<'ctx>, c: FloatValue<'ctx>, e: FloatValue<'ctx>| {
        Ok::<_, qd_ir::Diagnostic>(
            intrinsic(
                g,
                "llvm.fmuladd",
                &[f64t.into()],
                &[a.into(), c.into(), e.into()],
            )?
            .into_float_value(),
        )
    };
    let d = g.ck(b.build_float_ext(x, f64t, "d"))?;
    let a = intrinsic(g, "llvm.fabs", &[f64t.into()], &[d.into()])?.into_float_value();
    // a > 10 compares false for NaN, which so goes on.
    let over = g.ck(b.build_float_compare(FloatPredicate::OGT, a, k(10.0), "over"))?;
    let a = g
        .ck(b.build_select(over, k(10.0), a, "a"))?
        .into_float_value();
    let y = mul(a, k(2.0))?;
    let kf = intrinsic(
        g,
        "llvm.rint",
        &[f64t.into()],
        &[mul(y, k(std::f64::consts::LOG2_E))?.into()],
    )?
    .into_float_value();
    let neg_k = g.ck(b.build_float_neg(kf, "nk"))?;
    let r = fma(neg_k, k(LN2_HI), y)?;
    let r = fma(neg_k, k(LN2_LO), r)?;
    // exp(r) = sum of r^n / n!, n <= 9, by Estrin's scheme.
    let mut c = [1.0f64; 10];
    for n in 1..10 {
        c[n] = c[n - 1] / n as f64;
    }
    let r2 = mul(r, r)?;
    let r4 = mul(r2, r2)?;
    let r8 = mul(r4, r4)?;
    let pair = |i: usize| fma(k(c[i + 1]), r, k(c[i]));
    let p03 = fma(pair(2)?, r2, pair(0)?)?;
    let p47 = fma(pair(6)?, r2, pair(4)?)?;
    let p = fma(pair(8)?, r8, fma(p47, r4, p03)?)?;
    // 2^k from its bits (0 <= k <= 29).
    // Saturating: a NaN k gives 0 (and p, NaN, the result) instead of poison.
    let ki = intrinsic(
        g,
        "llvm.fptosi.sat",
        &[i64t.into(), f64t.into()],
        &[kf.into()],
    )?
    .into_int_value();
    let biased = g.ck(b.build_int_add(ki, i64t.const_int(1023, false), "biased"))?;
    let bits = g.ck(b.build_left_shift(biased, i64t.const_int(52, false), "bits"))?;
    let scale = g
        .ck(b.build_bit_cast(bits, f64t, "scale"))?
        .into_float_value();
    let e = mul(p, scale)?;
    let num = g.ck(b.build_float_sub(e, k(1.0), "num"))?;
    let den = g.ck(b.build_float_add(e, k(1.0), "den"))?;
    let t = g.ck(b.build_float_div(num, den, "t"))?;
    let t =
        intrinsic(g, "llvm.copysign", &[f64t.into()], &[t.into(), d.into()])?.into_float_value();
    let tiny = g.ck(b.build_float_compare(
        FloatPredicate::OLT,
        a,
        k(f64::from(2.0f32.powi(-12))),
        "tiny",
    ))?;
    let v = g.ck(b.build_select(tiny, d, t, "tanh"))?.into_float_value();
    g.ck(b.build_float_trunc(v, x.get_type(), "tanh"))
}
