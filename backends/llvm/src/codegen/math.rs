//! math to LLVM intrinsics, each in its operand's precision: `llvm.sin`, `llvm.cos`, `llvm.tan`,
//! `llvm.exp`, `llvm.exp2`, `llvm.log`, `llvm.log2`, `llvm.sqrt`, `llvm.tanh`, `llvm.fabs`,
//! `llvm.floor`, `llvm.ceil`, `llvm.pow`, `llvm.atan2`, `llvm.fma`; `rsqrt` is `1 / sqrt` as in
//! the interpreter. The transcendental ones become calls to the platform libm, the one the
//! interpreter calls, so that scalar results are the interpreter's bit for bit.
//!
//! LLVM has no vector form of `sin`/`cos` without a vector math library, so a loop calling them
//! would not vectorize: f32 `sin` and `cos` are our own straight-line code instead ([`sin_cos_f32`];
//! f32 `tanh` too, in `tanh`, within an ulp but not libm's bits),
//! computed in f64 (fdlibm's reduction by pi/2 in three parts, then the polynomials of glibc's
//! `sinf`/`cosf`) and rounded once to f32: within about 0.56 ulp, as libm's `sinf`, and libm's
//! result but in rare near-halfway cases. The reduction is exact while |x| < 2^20 * pi/2; past
//! that the result loses accuracy (f64 keeps libm).

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
    if t == g.llcx.f32_type() && name == names::TANH {
        let v = super::tanh::tanh_f32(g, x)?;
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
/// The sin and cos polynomials of glibc's (and ARM's optimized-routines') `sinf`/`cosf`, minimax
/// for an f32 result computed in f64 on |r| <= pi/4: sin r = r + r^3 (S1 + z S2 + z^2 S3) and
/// cos r = 1 + z C1 + z^2 C2 + z^3 C3 + z^4 C4 (z = r^2), within 4e-9 (sin) and 8e-11 (cos) of the
/// exact value relative, so about 0.56 ulp of f32 at worst, as libm's `sinf`.
const S: [f64; 3] = [
    -0.166_666_549_437_010_84,
    0.008_332_178_146_138_854,
    -0.000_195_172_989_813_857_25,
];
const C: [f64; 4] = [
    -0.499_999_997_251_082_24,
    0.041_666_623_324_344_516,
    -0.001_388_676_379_437_604,
    2.439_045_070_356_454_2e-5,
];

/// `sin(x)` (or `cos(x)`) of an f32, as straight-line f64 code that vectorizes.
///
/// Written for a short dependency chain, since a loop that feeds each result into the next call
/// waits on every step:
/// - |x| < pi/4 (the first quadrant, n = 0) branches around the reduction: there r is x itself
///   and only the one polynomial is needed (the same code as the reduced path, so the same bits);
///   the branch is predictable in a loop that stays in range, and if-converted when vectorized;
/// - each `a * b + c` is `llvm.fmuladd` (one FMA where the target has it; the reduction's
///   products `n * PIO2_1` and `n * PIO2_2` are exact, so fused or not they give the same bits);
/// - the polynomials are libm's (degree 7 and 8, for an f32 result) evaluated in its order, two
///   FMAs deep; both run side by side past the reduction, the quadrant only selects between them
///   at the end.
fn sin_cos_f32<'ctx>(g: &Gen<'_, 'ctx>, x: FloatValue<'ctx>, cos: bool) -> R<FloatValue<'ctx>> {
    let f64t = g.llcx.f64_type();
    let k = |v: f64| f64t.const_float(v);
    let b = &g.b;
    let d = g.ck(b.build_float_ext(x, f64t, "d"))?;
    let ad = intrinsic(g, "llvm.fabs", &[f64t.into()], &[d.into()])?.into_float_value();
    let pio4 = k(std::f64::consts::FRAC_PI_4);
    // NaN compares false: it takes the reduced path, which gives NaN.
    let small = g.ck(b.build_float_compare(FloatPredicate::OLT, ad, pio4, "small"))?;
    let fast_bb = g.llcx.append_basic_block(g.func, "sin.small");
    let slow_bb = g.llcx.append_basic_block(g.func, "sin.reduce");
    let join_bb = g.llcx.append_basic_block(g.func, "sin.done");
    g.ck(b.build_conditional_branch(small, fast_bb, slow_bb))?;

    b.position_at_end(fast_bb);
    let fast = if cos {
        SinCos::new(g, d)?.cos()?
    } else {
        // sin(-0) is -0 (the polynomial's sum would round it to +0).
        let v = SinCos::new(g, d)?.sin()?;
        let zero = g.ck(b.build_float_compare(FloatPredicate::OEQ, d, k(0.0), "zero"))?;
        g.ck(b.build_select(zero, d, v, "sin0"))?.into_float_value()
    };
    let fast_end = b.get_insert_block().unwrap_or(fast_bb);
    g.ck(b.build_unconditional_branch(join_bb))?;

    b.position_at_end(slow_bb);
    let slow = reduced(g, d, cos)?;
    let slow_end = b.get_insert_block().unwrap_or(slow_bb);
    g.ck(b.build_unconditional_branch(join_bb))?;

    b.position_at_end(join_bb);
    let phi = g.ck(b.build_phi(f64t, "sc"))?;
    phi.add_incoming(&[(&fast, fast_end), (&slow, slow_end)]);
    let v = phi.as_basic_value().into_float_value();
    g.ck(b.build_float_trunc(v, x.get_type(), "sin"))
}

/// `a * c + e` in f64, fused where the target can.
fn fma<'ctx>(
    g: &Gen<'_, 'ctx>,
    a: FloatValue<'ctx>,
    c: FloatValue<'ctx>,
    e: FloatValue<'ctx>,
) -> R<FloatValue<'ctx>> {
    let f64t = g.llcx.f64_type();
    Ok(intrinsic(
        g,
        "llvm.fmuladd",
        &[f64t.into()],
        &[a.into(), c.into(), e.into()],
    )?
    .into_float_value())
}

/// The kernel polynomials at a reduced argument r (|r| <= pi/4), in libm's order of evaluation.
struct SinCos<'g, 'a, 'ctx> {
    g: &'g Gen<'a, 'ctx>,
    r: FloatValue<'ctx>,
    z: FloatValue<'ctx>,
}

impl<'g, 'a, 'ctx> SinCos<'g, 'a, 'ctx> {
    fn new(g: &'g Gen<'a, 'ctx>, r: FloatValue<'ctx>) -> R<Self> {
        let z = g.ck(g.b.build_float_mul(r, r, "z"))?;
        Ok(SinCos { g, r, z })
    }

    fn k(&self, v: f64) -> FloatValue<'ctx> {
        self.g.llcx.f64_type().const_float(v)
    }

    fn mul(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> R<FloatValue<'ctx>> {
        self.g.ck(self.g.b.build_float_mul(a, b, "m"))
    }

    /// (r + r^3 S1) + r^5 (S2 + z S3).
    fn sin(&self) -> R<FloatValue<'ctx>> {
        let (g, r, z) = (self.g, self.r, self.z);
        let r3 = self.mul(r, z)?;
        let s23 = fma(g, z, self.k(S[2]), self.k(S[1]))?;
        let r5 = self.mul(r3, z)?;
        let s = fma(g, r3, self.k(S[0]), r)?;
        fma(g, r5, s23, s)
    }

    /// (1 + z C1) + z^2 C2 + z^3 (C3 + z C4).
    fn cos(&self) -> R<FloatValue<'ctx>> {
        let (g, z) = (self.g, self.z);
        let z2 = self.mul(z, z)?;
        let c34 = fma(g, z, self.k(C[3]), self.k(C[2]))?;
        let c01 = fma(g, z, self.k(C[0]), self.k(1.0))?;
        let z3 = self.mul(z2, z)?;
        let c = fma(g, z2, self.k(C[1]), c01)?;
        fma(g, z3, c34, c)
    }
}

/// sin(d) (or cos(d)) for any d: reduced by n = rint(d * 2/pi) quarter turns to r = d - n*pi/2
/// (in three parts), then the kernel of quadrant n mod 4.
fn reduced<'ctx>(g: &Gen<'_, 'ctx>, d: FloatValue<'ctx>, cos: bool) -> R<FloatValue<'ctx>> {
    let f64t = g.llcx.f64_type();
    let k = |v: f64| f64t.const_float(v);
    let b = &g.b;
    let mul = |a, c| g.ck(b.build_float_mul(a, c, "m"));
    let add = |a, c| g.ck(b.build_float_add(a, c, "a"));
    let sub = |a, c| g.ck(b.build_float_sub(a, c, "s"));
    let scaled = mul(d, k(std::f64::consts::FRAC_2_PI))?;
    let n = intrinsic(g, "llvm.rint", &[f64t.into()], &[scaled.into()])?.into_float_value();
    let neg_n = g.ck(b.build_float_neg(n, "nn"))?;
    let r = fma(g, neg_n, k(PIO2_1), d)?;
    let r = fma(g, neg_n, k(PIO2_2), r)?;
    let r = fma(g, neg_n, k(PIO2_2T), r)?;
    // In the first quadrant r is d itself.
    let n0 = g.ck(b.build_float_compare(FloatPredicate::OEQ, n, k(0.0), "n0"))?;
    let r = g.ck(b.build_select(n0, d, r, "r"))?.into_float_value();
    // The quadrant n mod 4 (exact in f64), shifted by one for cos.
    let n = if cos { add(n, k(1.0))? } else { n };
    let quarter = mul(n, k(0.25))?;
    let fl = intrinsic(g, "llvm.floor", &[f64t.into()], &[quarter.into()])?.into_float_value();
    let q = sub(n, mul(fl, k(4.0))?)?;
    let poly = SinCos::new(g, r)?;
    let (sin_r, cos_r) = (poly.sin()?, poly.cos()?);
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
    Ok(g.ck(b.build_select(neg, minus, v, "v"))?.into_float_value())
}
