//! f64 `sin`, `cos`, `exp` and `tanh`, which GLSL.std.450 defines for 32-bit floats only, as
//! straight-line f64 code (a few ulps; the interpreter calls the platform libm):
//! - sin/cos: fdlibm's reduction by pi/2 in three parts (exact while |x| < 2^20 pi/2) and its
//!   `__kernel_sin`/`__kernel_cos` polynomials, as the LLVM backend's f32 sin/cos;
//! - exp: `2^k exp(r)`, `k = rint(x / ln 2)`, `r` reduced with ln 2 in two parts, `exp(r)` by its
//!   Taylor series to degree 13 (|r| <= ln2/2: truncation below 1e-17), 2^k from its bits;
//! - tanh: `expm1(2|x|) / (expm1(2|x|) + 2)` below 0.5 (expm1 by its series to degree 17),
//!   `1 - 2 / (exp(2|x|) + 1)` above, 1 past 22, with x's sign.

use super::{Gen, Scalar, R};
use rspirv::dr::Operand;
use rspirv::spirv::Word;

const PIO2_1: f64 = 1.570_796_326_734_125_6;
const PIO2_2: f64 = 6.077_100_506_303_966e-11;
const PIO2_2T: f64 = 2.022_266_248_795_950_6e-21;
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
/// fdlibm's ln 2 in two parts, as published (the high part has trailing zero bits).
#[allow(clippy::excessive_precision)]
const LN2_HI: f64 = 6.931_471_803_691_238_2e-1;
#[allow(clippy::excessive_precision)]
const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

// GLSL.std.450 instruction numbers (all defined for f64).
const ROUND_EVEN: u32 = 2;
const FABS: u32 = 4;
const FLOOR: u32 = 8;

/// Emission helpers over f64 values.
struct F<'g, 'a> {
    g: &'g mut Gen<'a>,
    t: Word,
    bt: Word,
}

impl F<'_, '_> {
    fn k(&mut self, v: f64) -> Word {
        self.g.constant(Scalar::F(64), v.to_bits())
    }
    fn ext(&mut self, inst: u32, args: &[Word]) -> R<Word> {
        let (t, glsl) = (self.t, self.g.glsl);
        let ops = args.iter().map(|&a| Operand::IdRef(a));
        ck!(self.g, self.g.b.ext_inst(t, None, glsl, inst, ops))
    }
    fn mul(&mut self, a: Word, b: Word) -> R<Word> {
        let r = ck!(self.g, self.g.b.f_mul(self.t, None, a, b))?;
        Ok(self.g.exact(r))
    }
    fn add(&mut self, a: Word, b: Word) -> R<Word> {
        let r = ck!(self.g, self.g.b.f_add(self.t, None, a, b))?;
        Ok(self.g.exact(r))
    }
    fn sub(&mut self, a: Word, b: Word) -> R<Word> {
        let r = ck!(self.g, self.g.b.f_sub(self.t, None, a, b))?;
        Ok(self.g.exact(r))
    }
    fn div(&mut self, a: Word, b: Word) -> R<Word> {
        let r = ck!(self.g, self.g.b.f_div(self.t, None, a, b))?;
        Ok(self.g.exact(r))
    }
    /// a * b + c, as two rounded ops: drivers' f64 `Fma` is not always exact (lavapipe's is
    /// not), and every product fused here is exact or needs no fusing.
    fn fma(&mut self, a: Word, b: Word, c: Word) -> R<Word> {
        let p = self.mul(a, b)?;
        self.add(p, c)
    }
    fn sel(&mut self, c: Word, a: Word, b: Word) -> R<Word> {
        ck!(self.g, self.g.b.select(self.t, None, c, a, b))
    }
    fn eq(&mut self, a: Word, b: f64) -> R<Word> {
        let b = self.k(b);
        ck!(self.g, self.g.b.f_ord_equal(self.bt, None, a, b))
    }
    fn ge(&mut self, a: Word, b: f64) -> R<Word> {
        let b = self.k(b);
        ck!(
            self.g,
            self.g.b.f_ord_greater_than_equal(self.bt, None, a, b)
        )
    }
    fn lt(&mut self, a: Word, b: f64) -> R<Word> {
        let b = self.k(b);
        ck!(self.g, self.g.b.f_ord_less_than(self.bt, None, a, b))
    }
    fn or(&mut self, a: Word, b: Word) -> R<Word> {
        ck!(self.g, self.g.b.logical_or(self.bt, None, a, b))
    }
    fn neg(&mut self, a: Word) -> R<Word> {
        ck!(self.g, self.g.b.f_negate(self.t, None, a))
    }
    /// c[0] + c[1] z + ... by Horner's scheme.
    fn poly(&mut self, c: &[f64], z: Word) -> R<Word> {
        let mut acc = self.k(c[c.len() - 1]);
        for &ci in c[..c.len() - 1].iter().rev() {
            let kc = self.k(ci);
            acc = self.fma(acc, z, kc)?;
        }
        Ok(acc)
    }
}

fn f<'g, 'a>(g: &'g mut Gen<'a>) -> F<'g, 'a> {
    let t = g.scalar_ty(Scalar::F(64));
    let bt = g.scalar_ty(Scalar::Bool);
    F { g, t, bt }
}

/// f64 `sin(x)` or `cos(x)`.
pub(super) fn sin_cos(g: &mut Gen<'_>, x: Word, cos: bool) -> R<Word> {
    let mut f = f(g);
    let two_pi = f.k(std::f64::consts::FRAC_2_PI);
    let scaled = f.mul(x, two_pi)?;
    let n = f.ext(ROUND_EVEN, &[scaled])?;
    let nn = f.neg(n)?;
    let (p1, p2, p3) = (f.k(PIO2_1), f.k(PIO2_2), f.k(PIO2_2T));
    let r = f.fma(nn, p1, x)?;
    let r = f.fma(nn, p2, r)?;
    let r = f.fma(nn, p3, r)?;
    // In the first quadrant r is x itself (which keeps sin(-0) = -0).
    let n0 = f.eq(n, 0.0)?;
    let r = f.sel(n0, x, r)?;
    let n = if cos {
        let one = f.k(1.0);
        f.add(n, one)?
    } else {
        n
    };
    let quarter = f.k(0.25);
    let qn = f.mul(n, quarter)?;
    let fl = f.ext(FLOOR, &[qn])?;
    let four = f.k(4.0);
    let fl4 = f.mul(fl, four)?;
    let q = f.sub(n, fl4)?;
    let z = f.mul(r, r)?;
    let zr = f.mul(z, r)?;
    let ps = f.poly(&S, z)?;
    let sin_r = f.fma(zr, ps, r)?;
    let z2 = f.mul(z, z)?;
    let (mhalf, one) = (f.k(-0.5), f.k(1.0));
    let half = f.fma(z, mhalf, one)?;
    let pc = f.poly(&C, z)?;
    let cos_r = f.fma(z2, pc, half)?;
    let q1 = f.eq(q, 1.0)?;
    let q3 = f.eq(q, 3.0)?;
    let odd = f.or(q1, q3)?;
    let neg = f.ge(q, 2.0)?;
    let v = f.sel(odd, cos_r, sin_r)?;
    let minus = f.neg(v)?;
    f.sel(neg, minus, v)
}

/// exp(x) of an f64 (NaN stays NaN; the argument is clamped to +-800, where the result is
/// already inf or 0).
pub(super) fn exp(g: &mut Gen<'_>, x: Word) -> R<Word> {
    let mut f = f(g);
    let big = f.ge(x, 800.0)?;
    let small = f.lt(x, -800.0)?;
    let (hi, lo) = (f.k(800.0), f.k(-800.0));
    let xc = f.sel(big, hi, x)?;
    let xc = f.sel(small, lo, xc)?;
    let inv_ln2 = f.k(std::f64::consts::LOG2_E);
    let s = f.mul(xc, inv_ln2)?;
    let kf = f.ext(ROUND_EVEN, &[s])?;
    let nk = f.neg(kf)?;
    let (l1, l2) = (f.k(LN2_HI), f.k(LN2_LO));
    let r = f.fma(nk, l1, xc)?;
    let r = f.fma(nk, l2, r)?;
    let mut c = [0f64; 14];
    let mut fact = 1f64;
    for (i, ci) in c.iter_mut().enumerate() {
        if i > 0 {
            fact *= i as f64;
        }
        *ci = 1.0 / fact;
    }
    let p = f.poly(&c, r)?;
    let i32t = f.g.scalar_ty(Scalar::I(32));
    let ki = ck!(f.g, f.g.b.convert_f_to_s(i32t, None, kf))?;
    // 2^k as two exact powers of two built from their bits (|k| <= 1155 splits into halves
    // that are normal); not GLSL's Ldexp, which drivers may compute through exp2.
    let one = f.g.u32c(1);
    let k1 = ck!(f.g, f.g.b.shift_right_arithmetic(i32t, None, ki, one))?;
    let k2 = ck!(f.g, f.g.b.i_sub(i32t, None, ki, k1))?;
    let s1 = pow2(&mut f, k1)?;
    let s2 = pow2(&mut f, k2)?;
    let v = f.mul(p, s1)?;
    f.mul(v, s2)
}

/// 2^k for an i32 k in the normal range, from its bits: high word (k + 1023) << 20, low word 0.
fn pow2(f: &mut F<'_, '_>, k: Word) -> R<Word> {
    let u = f.g.scalar_ty(Scalar::I(32));
    let v2 = f.g.b.type_vector(u, 2);
    let bias = f.g.u32c(1023);
    let e = ck!(f.g, f.g.b.i_add(u, None, k, bias))?;
    let sh = f.g.u32c(20);
    let hi = ck!(f.g, f.g.b.shift_left_logical(u, None, e, sh))?;
    let zero = f.g.u32c(0);
    let w = ck!(f.g, f.g.b.composite_construct(v2, None, [zero, hi]))?;
    let t = f.t;
    ck!(f.g, f.g.b.bitcast(t, None, w))
}

/// expm1(y) for |y| <= 1, by its series to degree 17.
fn expm1_small(f: &mut F<'_, '_>, y: Word) -> R<Word> {
    let mut c = [0f64; 17];
    let mut fact = 1f64;
    for (i, ci) in c.iter_mut().enumerate() {
        fact *= (i + 1) as f64;
        *ci = 1.0 / fact;
    }
    let p = f.poly(&c, y)?;
    f.mul(p, y)
}

/// tanh(x) of an f64.
pub(super) fn tanh(g: &mut Gen<'_>, x: Word) -> R<Word> {
    let ax = f(g).ext(FABS, &[x])?;
    let y = {
        let mut f = f(g);
        let two = f.k(2.0);
        f.mul(ax, two)?
    };
    // Above 22, tanh is 1 in f64; clamping keeps exp finite.
    let yc = {
        let mut f = f(g);
        let far = f.ge(y, 44.0)?;
        let c = f.k(44.0);
        f.sel(far, c, y)?
    };
    let e = exp(g, yc)?;
    let mut f = f(g);
    let one = f.k(1.0);
    let two = f.k(2.0);
    let ep1 = f.add(e, one)?;
    let q = f.div(two, ep1)?;
    let large = f.sub(one, q)?;
    let small_y = {
        let m = f.k(1.0);
        let near = f.lt(y, 1.0)?;
        f.sel(near, y, m)?
    };
    let em = expm1_small(&mut f, small_y)?;
    let emp2 = f.add(em, two)?;
    let small = f.div(em, emp2)?;
    let is_small = f.lt(ax, 0.5)?;
    let t = f.sel(is_small, small, large)?;
    let negative = f.lt(x, 0.0)?;
    let nt = f.neg(t)?;
    let r = f.sel(negative, nt, t)?;
    // NaN in, NaN out (the compares above are all false for NaN).
    let bt = f.bt;
    let nan = ck!(f.g, f.g.b.is_nan(bt, None, x))?;
    f.sel(nan, x, r)
}
