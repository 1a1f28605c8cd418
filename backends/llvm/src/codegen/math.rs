//! math to LLVM intrinsics, each in its operand's precision: `llvm.sin`, `llvm.cos`, `llvm.tan`,
//! `llvm.exp`, `llvm.exp2`, `llvm.log`, `llvm.log2`, `llvm.sqrt`, `llvm.tanh`, `llvm.fabs`,
//! `llvm.floor`, `llvm.ceil`, `llvm.pow`, `llvm.atan2`, `llvm.fma`; `rsqrt` is `1 / sqrt` as in
//! the interpreter. The transcendental ones become calls to the platform libm, the one the
//! interpreter calls, so that scalar results are the interpreter's bit for bit.
//!
//! LLVM has no vector form of `sin`/`cos` without a vector math library, so a loop calling them
//! would not vectorize: f32 `sin` and `cos` are our own straight-line code instead ([`sin_cos_f32`]),
//! computed in f64 (fdlibm's reduction by pi/2 in three parts and its kernel polynomials, accurate
//! to about 1e-16) and rounded once to f32: the correctly rounded result but in rare near-halfway
//! cases (then one ulp off libm's). The reduction is exact while |x| < 2^20 * pi/2; past that the
//! result loses accuracy (f64 keeps libm).

use super::arith::intrinsic;
use super::{Gen, R};
use inkwell::values::{BasicValueEnum, FloatValue};
use inkwell::FloatPredicate;
use qd_ir::OpId;
use qd_math::names;

pub(super) fn emit(g: &mut Gen<'_, '_>, op: OpId, name: &str) -> R<()> {
    let n = g.ir.num_operands(op);
    let args = (0..n)
        .map(|i| g.operand(op, i))
        .collect::<R<Vec<BasicValueEnum>>>()?;
    let Some(BasicValueEnum::FloatValue(x)) = args.first().copied() else {
        return Err(g.err(format!("'{name}' expects float operands")));
    };
    let t = x.get_type();
    if t == g.llcx.f32_type() && (name == names::SIN || name == names::COS) {
        let v = sin_cos_f32(g, x, name == names::COS)?;
        g.set(op, 0, v.into());
        return Ok(());
    }
    let intr = match name {
        names::SIN => "llvm.sin",
        names::COS => "llvm.cos",
        names::TAN => "llvm.tan",
        names::EXP => "llvm.exp",
        names::EXP2 => "llvm.exp2",
        names::LOG => "llvm.log",
        names::LOG2 => "llvm.log2",
        names::SQRT | names::RSQRT => "llvm.sqrt",
        names::TANH => "llvm.tanh",
        names::ABSF => "llvm.fabs",
        names::FLOOR => "llvm.floor",
        names::CEIL => "llvm.ceil",
        names::POWF => "llvm.pow",
        names::ATAN2 => "llvm.atan2",
        names::FMA => "llvm.fma",
        _ => return Err(g.err(format!("the LLVM backend does not support '{name}'"))),
    };
    let mut v = intrinsic(g, intr, &[t.into()], &args)?;
    if name == names::RSQRT {
        let one = t.const_float(1.0);
        v = g
            .ck(g.b.build_float_div(one, v.into_float_value(), "rsqrt"))?
            .into();
    }
    g.set(op, 0, v);
    Ok(())
}

/// fdlibm's pi/2 in three parts (33 bits each, so that `k * part` is exact for |k| < 2^20).
const PIO2_1: f64 = 1.570_796_326_734_125_6;
const PIO2_2: f64 = 6.077_100_506_303_966e-11;
const PIO2_2T: f64 = 2.022_266_248_795_950_6e-21;
/// fdlibm's __kernel_sin and __kernel_cos coefficients, as published.
#[allow(clippy::excessive_precision)]
const S: [f64; 6] = [
    -1.666_666_666_666_663_2e-1,
    8.333_333_333_322_49e-3,
    -1.984_126_982_985_795e-4,
    2.755_731_370_707_006_8e-6,
    -2.505_076_025_340_686_3e-8,
    1.589_690_995_211_55e-10,
];
#[allow(clippy::excessive_precision)]
const C: [f64; 6] = [
    4.166_666_666_666_660_2e-2,
    -1.388_888_888_887_411e-3,
    2.480_158_728_947_673e-5,
    -2.755_731_435_139_066_3e-7,
    2.087_572_321_298_174_8e-9,
    -1.135_964_755_778_819_5e-11,
];

/// `sin(x)` (or `cos(x)`) of an f32, as straight-line f64 code that vectorizes.
///
/// Written for a short dependency chain, since a loop that feeds each result into the next call
/// waits on every step: each `a * b + c` is `llvm.fmuladd` (one FMA where the target has it; the
/// reduction's products `n * PIO2_1` and `n * PIO2_2` are exact, so fused or not they give the
/// same bits), and the polynomials are evaluated by Estrin's scheme (pairs of terms, then powers
/// of z), a depth of three FMAs instead of Horner's six. Both polynomials run side by side; the
/// quadrant only selects between them at the end.
fn sin_cos_f32<'ctx>(g: &Gen<'_, 'ctx>, x: FloatValue<'ctx>, cos: bool) -> R<FloatValue<'ctx>> {
    let f64t = g.llcx.f64_type();
    let k = |v: f64| f64t.const_float(v);
    let b = &g.b;
    let mul = |a, c| g.ck(b.build_float_mul(a, c, "m"));
    let add = |a, c| g.ck(b.build_float_add(a, c, "a"));
    let sub = |a, c| g.ck(b.build_float_sub(a, c, "s"));
    // a * c + e, fused where the target can.
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
    // n = rint(d * 2/pi); r = d - n*pi/2 in three parts.
    let scaled = mul(d, k(std::f64::consts::FRAC_2_PI))?;
    let n = intrinsic(g, "llvm.rint", &[f64t.into()], &[scaled.into()])?.into_float_value();
    let neg_n = g.ck(b.build_float_neg(n, "nn"))?;
    let r = fma(neg_n, k(PIO2_1), d)?;
    let r = fma(neg_n, k(PIO2_2), r)?;
    let r = fma(neg_n, k(PIO2_2T), r)?;
    // In the first quadrant r is d itself (which keeps sin(-0) = -0).
    let n0 = g.ck(b.build_float_compare(FloatPredicate::OEQ, n, k(0.0), "n0"))?;
    let r = g.ck(b.build_select(n0, d, r, "r"))?.into_float_value();
    // The quadrant n mod 4 (exact in f64), shifted by one for cos.
    let n = if cos { add(n, k(1.0))? } else { n };
    let quarter = mul(n, k(0.25))?;
    let fl = intrinsic(g, "llvm.floor", &[f64t.into()], &[quarter.into()])?.into_float_value();
    let q = sub(n, mul(fl, k(4.0))?)?;
    let z = mul(r, r)?;
    let z2 = mul(z, z)?;
    let z4 = mul(z2, z2)?;
    // c0 + c1 z + ... + c5 z^5 = (c0 + c1 z) + z^2 (c2 + c3 z) + z^4 (c4 + c5 z).
    let estrin = |c: &[f64; 6]| -> R<FloatValue<'ctx>> {
        let p01 = fma(k(c[1]), z, k(c[0]))?;
        let p23 = fma(k(c[3]), z, k(c[2]))?;
        let p45 = fma(k(c[5]), z, k(c[4]))?;
        fma(p45, z4, fma(p23, z2, p01)?)
    };
    // sin(r) = r + r^3 (S1 + z (S2 + ...)).
    let zr = mul(z, r)?;
    let sin_r = fma(zr, estrin(&S)?, r)?;
    // cos(r) = 1 - z/2 + z^2 (C1 + z (C2 + ...)).
    let half = fma(z, k(-0.5), k(1.0))?;
    let cos_r = fma(z2, estrin(&C)?, half)?;
    let odd = {
        let q1 = g.ck(b.build_float_compare(FloatPredicate::OEQ, q, k(1.0), "q1"))?;
        let q3 = g.ck(b.build_float_compare(FloatPredicate::OEQ, q, k(3.0), "q3"))?;
        g.ck(b.build_or(q1, q3, "odd"))?
    };
    let neg = g.ck(b.build_float_compare(FloatPredicate::OGE, q, k(2.0), "neg"))?;
    let v = g
        .ck(b.build_select(odd, cos_r, sin_r, "v"))?
        .into_float_value();
    let minus = g.ck(b.build_float_neg(v, "nv"))?;
    let v = g.ck(b.build_select(neg, minus, v, "v"))?.into_float_value();
    g.ck(b.build_float_trunc(v, x.get_type(), "sin"))
}
