//! The math ops GLSL.std.450 lacks (or has only in forms that cancel), as straight-line f32
//! code: every float op `NoContraction` (no fusing, no reassociation), special values by selects.
//! Max error in ulps of the exact value (the f64 libm result): on lavapipe over the sweep of
//! `tests/it/math_ext.rs` (16384 points; it prints the table), and, in parentheses, of the same
//! algorithms run as Rust f32 code on every 257th positive and negative normal f32:
//!
//! | op     | method | max ulp |
//! |--------|--------|---------|
//! | atan | musl's atanf: five ranges of abs(x), atan x = atan c + atan((abs(x) - c) / (1 + cabs(x))), atan c in two parts, an odd polynomial | 0.72 |
//! | asin | atan(x / sqrt((1 - x)(1 + x))) | 1.81 |
//! | acos | 2 atan(sqrt((1 - x) / (1 + x))) | 1.34 |
//! | expm1 | k = rint(x / ln 2), r + c = x - k ln 2 (Cody-Waite, ln 2 in two parts, the error c of r kept), expm1(r + c) = r + (r^2 P(r) + c (1 + r)) with P the Taylor polynomial to degree 8; then (2^k - 1) + 2^k u, 2^k from its bits in two factors | 1.18 (1.38) |
//! | log1p | fdlibm's: 1 + x = 2^k m, m in [sqrt(1/2), sqrt 2), f = m - 1 exact (f = x itself near 0), the rounding of 1 + x corrected by c = (x - (u - 1)) / u; log(1 + f) = f - (f^2/2 - s (f^2/2 + R(s^2))), s = f / (2 + f), R musl's minimax polynomial (Kahan's accurate form, without a driver's log) | 1.60 (2.04) |
//! | log10 | musl's log10f: the same core, f - f^2/2 split in two parts times 1/ln 10 in two parts, plus k log10(2) in two parts | 0.78 (0.82) |
//! | cbrt | sign(x) pow(abs(x), 1/3) (GLSL's Pow), then one Newton step y - (y - abs(x) / y^2) / 3 | 0.73 (0.73) |
//! | erf | abs(x) < 0.8: the Maclaurin series x (2 / sqrt pi) (1 - x^2/3 + x^4/10 - ...) to x^19; past it 1 - erfc(abs(x)) with x's sign | 2.32 (2.70) |
//! | erfc | abs(x) >= 0.8: Numerical Recipes' erfcc (Chebyshev-fitted, relative error 1.2e-7 everywhere: t exp(-z^2 - 1.26551223 + t P(t)), t = 1 / (1 + z/2)), exp(-z^2) taken as exp(-s^2) exp(-(z - s)(z + s) + ...) with s = z to 12 bits (s^2 exact), by our own exp (as expm1), so that the tail keeps its relative accuracy; 2 - erfc(-x) below 0; abs(x) < 0.8: 1 - erf(x) | 4.14 (6.27) |
//! | sinh | abs(x) < 1: (m + m / (m + 1)) / 2, m = expm1abs(x); else h - 1/(4h), h = e^abs(x) / 2 (our exp, scaled by 2^-1 before rounding, so no early overflow); x's sign | 1.83 (2.03) |
//! | cosh | h + 1/(4h), h as for sinh | 1.11 (1.24) |
//! | asinh | log1p(abs(x) + x^2 / (1 + sqrt(1 + x^2))), past 4096 logabs(x) + ln 2; x's sign | 2.13 (2.68) |
//! | acosh | log1p(t + sqrt(t (t + 2))), t = x - 1, past 4096 log x + ln 2; NaN below 1 | 1.97 (2.62) |
//! | atanh | log1p(2a + 2a^2 / (1 - a)) / 2 below a = abs(x) = 1/2, log1p(2a / (1 - a)) / 2 above; x's sign | 2.03 (2.52) |
//!
//! GLSL.std.450 has asin, acos, atan, sinh, cosh, asinh, acosh and atanh, but Mesa computes the
//! first three by short polynomials (lavapipe's asin and acos were 3800 ulps off, 2.3e-4, and its
//! atan loses the sign of -0) and lowers the others to their naive forms ((e^x - e^-x) / 2,
//! log(x + sqrt(x^2 + 1)), ...), which lose all relative accuracy near 0 and overflow early:
//! these are used instead. The exact ops: `copysign` by bit operations (f64 on
//! its two words, no `Int64` needed), `round` (half away from zero; GLSL's `Round` leaves the
//! direction of halves open) as trunc(x) + sign(x) where |x - trunc(x)| >= 1/2, `fpowi` by
//! libgcc's repeated squaring unrolled over the exponent's bits (the interpreter's `powi`, bit for
//! bit), then 1 / r for a negative exponent.
//!
//! Subnormal inputs and results are as the driver treats them (lavapipe may flush them to 0).

use super::{Gen, Scalar, R};
use rspirv::dr::Operand;
use rspirv::spirv::Word;

// GLSL.std.450 instruction numbers.
const ROUND_EVEN: u32 = 2;
const TRUNC: u32 = 3;
const FABS: u32 = 4;
const FSIGN: u32 = 6;
const POW: u32 = 26;
const SQRT: u32 = 31;

/// fdlibm's ln 2 in two parts (the high part's low 9 bits are zero: k LN2_HI is exact for
/// |k| < 512).
const LN2_HI: f32 = f32::from_bits(0x3f31_7180);
const LN2_LO: f32 = f32::from_bits(0x3717_f7d1);
const INVLN2: f32 = std::f32::consts::LOG2_E;
/// musl's logf polynomial: |(log(1+s) - log(1-s)) / s - Lg(s)| < 2^-34.24.
const LG: [f32; 4] = [
    f32::from_bits(0x3f2a_aaaa),
    f32::from_bits(0x3ecc_ce13),
    f32::from_bits(0x3e91_e9ee),
    f32::from_bits(0x3e78_9e26),
];
/// musl's log10f: 1/ln 10 and log10(2), each in two parts.
const IVLN10_HI: f32 = f32::from_bits(0x3ede_6000);
const IVLN10_LO: f32 = f32::from_bits(0xb804_ead9);
const LOG10_2_HI: f32 = f32::from_bits(0x3e9a_2080);
const LOG10_2_LO: f32 = f32::from_bits(0x3554_27db);
/// musl's atanf: atan c in two parts for c = 1/2, 1, 3/2 and pi/2, and the odd polynomial.
const ATAN_HI: [f32; 4] = [
    f32::from_bits(0x3eed_6338),
    f32::from_bits(0x3f49_0fda),
    f32::from_bits(0x3f7b_985e),
    f32::from_bits(0x3fc9_0fda),
];
const ATAN_LO: [f32; 4] = [
    f32::from_bits(0x31ac_3769),
    f32::from_bits(0x3322_2168),
    f32::from_bits(0x3314_0fb4),
    f32::from_bits(0x33a2_2168),
];
const AT: [f32; 5] = [
    f32::from_bits(0x3eaa_aaa9),
    f32::from_bits(0xbe4c_ca98),
    f32::from_bits(0x3e11_f50d),
    f32::from_bits(0xbdda_1247),
    f32::from_bits(0x3d7c_ac25),
];
/// Numerical Recipes' erfcc: erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z/2).
#[allow(clippy::excessive_precision)]
const ERFC: [f32; 10] = [
    -1.265_512_23,
    1.000_023_68,
    0.374_091_96,
    0.096_784_18,
    -0.186_288_06,
    0.278_868_07,
    -1.135_203_98,
    1.488_515_87,
    -0.822_152_23,
    0.170_872_77,
];
/// erf(x) / (x 2/sqrt(pi)) = sum (-1)^n x^2n / (n! (2n + 1)), n <= 9.
const ERF: [f32; 10] = [
    1.0,
    -1.0 / 3.0,
    1.0 / 10.0,
    -1.0 / 42.0,
    1.0 / 216.0,
    -1.0 / 1320.0,
    1.0 / 9360.0,
    -1.0 / 75600.0,
    1.0 / 685_440.0,
    -1.0 / 6_894_720.0,
];
const TWO_OVER_SQRT_PI: f32 = std::f32::consts::FRAC_2_SQRT_PI;
/// Past this |x| asinh and acosh are log|x| + ln 2 (x^2 dwarfs 1).
const FAR: f32 = 4096.0;
/// Below this |x| erf is its series.
const ERF_SERIES: f32 = 0.8;

/// Emission helpers over f32 values (and the u32 words of their bits).
pub(super) struct M<'g, 'a> {
    g: &'g mut Gen<'a>,
    f: Word,
    u: Word,
    bt: Word,
}

impl<'g, 'a> M<'g, 'a> {
    pub fn new(g: &'g mut Gen<'a>) -> Self {
        let f = g.scalar_ty(Scalar::F(32));
        let u = g.scalar_ty(Scalar::I(32));
        let bt = g.scalar_ty(Scalar::Bool);
        M { g, f, u, bt }
    }
    fn k(&mut self, v: f32) -> Word {
        self.g.constant(Scalar::F(32), u64::from(v.to_bits()))
    }
    fn ku(&mut self, v: u32) -> Word {
        self.g.u32c(v)
    }
    fn add(&mut self, a: Word, b: Word) -> R<Word> {
        let r = ck!(self.g, self.g.b.f_add(self.f, None, a, b))?;
        Ok(self.g.exact(r))
    }
    fn sub(&mut self, a: Word, b: Word) -> R<Word> {
        let r = ck!(self.g, self.g.b.f_sub(self.f, None, a, b))?;
        Ok(self.g.exact(r))
    }
    fn mul(&mut self, a: Word, b: Word) -> R<Word> {
        let r = ck!(self.g, self.g.b.f_mul(self.f, None, a, b))?;
        Ok(self.g.exact(r))
    }
    fn div(&mut self, a: Word, b: Word) -> R<Word> {
        let r = ck!(self.g, self.g.b.f_div(self.f, None, a, b))?;
        Ok(self.g.exact(r))
    }
    fn addk(&mut self, a: Word, b: f32) -> R<Word> {
        let b = self.k(b);
        self.add(a, b)
    }
    fn mulk(&mut self, a: Word, b: f32) -> R<Word> {
        let b = self.k(b);
        self.mul(a, b)
    }
    fn neg(&mut self, a: Word) -> R<Word> {
        ck!(self.g, self.g.b.f_negate(self.f, None, a))
    }
    fn ext(&mut self, inst: u32, args: &[Word]) -> R<Word> {
        let (f, glsl) = (self.f, self.g.glsl);
        let ops = args.iter().map(|&a| Operand::IdRef(a));
        ck!(self.g, self.g.b.ext_inst(f, None, glsl, inst, ops))
    }
    fn sel(&mut self, c: Word, a: Word, b: Word) -> R<Word> {
        ck!(self.g, self.g.b.select(self.f, None, c, a, b))
    }
    fn selk(&mut self, c: Word, a: f32, b: Word) -> R<Word> {
        let a = self.k(a);
        self.sel(c, a, b)
    }
    fn lt(&mut self, a: Word, b: f32) -> R<Word> {
        let b = self.k(b);
        ck!(self.g, self.g.b.f_ord_less_than(self.bt, None, a, b))
    }
    fn gt(&mut self, a: Word, b: f32) -> R<Word> {
        let b = self.k(b);
        ck!(self.g, self.g.b.f_ord_greater_than(self.bt, None, a, b))
    }
    fn eq(&mut self, a: Word, b: f32) -> R<Word> {
        let b = self.k(b);
        ck!(self.g, self.g.b.f_ord_equal(self.bt, None, a, b))
    }
    fn or(&mut self, a: Word, b: Word) -> R<Word> {
        ck!(self.g, self.g.b.logical_or(self.bt, None, a, b))
    }
    fn and(&mut self, a: Word, b: Word) -> R<Word> {
        ck!(self.g, self.g.b.logical_and(self.bt, None, a, b))
    }
    fn is_nan(&mut self, a: Word) -> R<Word> {
        ck!(self.g, self.g.b.is_nan(self.bt, None, a))
    }
    fn bits(&mut self, a: Word) -> R<Word> {
        ck!(self.g, self.g.b.bitcast(self.u, None, a))
    }
    fn float_of(&mut self, a: Word) -> R<Word> {
        ck!(self.g, self.g.b.bitcast(self.f, None, a))
    }
    fn uand(&mut self, a: Word, b: u32) -> R<Word> {
        let b = self.ku(b);
        ck!(self.g, self.g.b.bitwise_and(self.u, None, a, b))
    }
    fn uor(&mut self, a: Word, b: Word) -> R<Word> {
        ck!(self.g, self.g.b.bitwise_or(self.u, None, a, b))
    }
    fn iadd(&mut self, a: Word, b: Word) -> R<Word> {
        ck!(self.g, self.g.b.i_add(self.u, None, a, b))
    }
    /// c[0] + c[1] z + ... by Horner's scheme.
    fn poly(&mut self, c: &[f32], z: Word) -> R<Word> {
        let mut acc = self.k(c[c.len() - 1]);
        for &ci in c[..c.len() - 1].iter().rev() {
            acc = self.mul(acc, z)?;
            acc = self.addk(acc, ci)?;
        }
        Ok(acc)
    }
    /// `v` where `x` is NaN or zero (x itself), else `v`.
    fn keep_nan_zero(&mut self, x: Word, v: Word) -> R<Word> {
        let nan = self.is_nan(x)?;
        let zero = self.eq(x, 0.0)?;
        let keep = self.or(nan, zero)?;
        self.sel(keep, x, v)
    }

    /// 2^k for an integer k (i32) in [-126, 127], from its bits.
    fn pow2(&mut self, k: Word) -> R<Word> {
        let bias = self.ku(127);
        let e = self.iadd(k, bias)?;
        let sh = self.ku(23);
        let b = ck!(self.g, self.g.b.shift_left_logical(self.u, None, e, sh))?;
        self.float_of(b)
    }

    /// k as i32 and the two halves of it, k1 + k2 = k, each 2^ki normal for |k| <= 252.
    fn split_pow2(&mut self, k: Word) -> R<(Word, Word)> {
        let one = self.ku(1);
        let k1 = ck!(
            self.g,
            self.g.b.shift_right_arithmetic(self.u, None, k, one)
        )?;
        let k2 = ck!(self.g, self.g.b.i_sub(self.u, None, k, k1))?;
        Ok((self.pow2(k1)?, self.pow2(k2)?))
    }

    /// (k as f32, r, c) with x = k ln 2 + r + c, |r| <= ln2 / 2 (about).
    fn reduce(&mut self, x: Word) -> R<(Word, Word, Word)> {
        let s = self.mulk(x, INVLN2)?;
        let k = self.ext(ROUND_EVEN, &[s])?;
        let kh = self.mulk(k, LN2_HI)?;
        let hi = self.sub(x, kh)?;
        let lo = self.mulk(k, LN2_LO)?;
        let r = self.sub(hi, lo)?;
        let d = self.sub(hi, r)?;
        let c = self.sub(d, lo)?;
        Ok((k, r, c))
    }

    /// expm1(r + c) for |r| <= 0.35: r + (r^2 P(r) + c (1 + r)).
    fn expm1_reduced(&mut self, r: Word, c: Word) -> R<Word> {
        let mut coef = [0f32; 7];
        let mut fact = 1f64;
        for (i, ci) in coef.iter_mut().enumerate() {
            fact *= (i + 2) as f64;
            *ci = (1.0 / fact) as f32;
        }
        let p = self.poly(&coef, r)?;
        let r2 = self.mul(r, r)?;
        let t = self.mul(r2, p)?;
        let r1 = self.addk(r, 1.0)?;
        let cr = self.mul(c, r1)?;
        let t = self.add(t, cr)?;
        self.add(r, t)
    }

    fn f_to_i(&mut self, k: Word) -> R<Word> {
        ck!(self.g, self.g.b.convert_f_to_s(self.u, None, k))
    }

    /// e^x 2^e (e = 0 or -1), overflowing only where the scaled result does.
    fn exp_scaled(&mut self, x: Word, e: i32) -> R<Word> {
        let hi = self.gt(x, 90.0)?;
        let lo = self.lt(x, -104.0)?;
        let xc = self.selk(hi, 90.0, x)?;
        let xc = self.selk(lo, -104.0, xc)?;
        let (k, r, c) = self.reduce(xc)?;
        let u = self.expm1_reduced(r, c)?;
        let ki = self.f_to_i(k)?;
        let ki = if e == 0 {
            ki
        } else {
            let ec = self.ku(e as u32);
            self.iadd(ki, ec)?
        };
        let (s1, s2) = self.split_pow2(ki)?;
        let one_u = self.addk(u, 1.0)?;
        let v = self.mul(one_u, s1)?;
        let v = self.mul(v, s2)?;
        let v = self.selk(hi, f32::INFINITY, v)?;
        let v = self.selk(lo, 0.0, v)?;
        let nan = self.is_nan(x)?;
        self.sel(nan, x, v)
    }

    pub fn expm1(&mut self, x: Word) -> R<Word> {
        let hi = self.gt(x, 88.8)?;
        let lo = self.lt(x, -18.0)?;
        let xc = self.selk(hi, 88.8, x)?;
        let xc = self.selk(lo, -18.0, xc)?;
        let (k, r, c) = self.reduce(xc)?;
        let u = self.expm1_reduced(r, c)?;
        let ki = self.f_to_i(k)?;
        let (s1, s2) = self.split_pow2(ki)?;
        // (2^k - 1) + 2^k u; past k = 60 (2^k overflows at 128) (1 + u) 2^k1 2^k2.
        let p = self.mul(s1, s2)?;
        let pm1 = self.addk(p, -1.0)?;
        let pu = self.mul(p, u)?;
        let main = self.add(pm1, pu)?;
        let one_u = self.addk(u, 1.0)?;
        let big = self.mul(one_u, s1)?;
        let big = self.mul(big, s2)?;
        let far = self.gt(k, 60.0)?;
        let v = self.sel(far, big, main)?;
        let v = self.selk(hi, f32::INFINITY, v)?;
        let v = self.selk(lo, -1.0, v)?;
        self.keep_nan_zero(x, v)
    }

    /// (k as f32, f) with u = 2^k (1 + f), 1 + f in [sqrt(1/2), sqrt 2), for a positive normal
    /// u; f is exact.
    fn decompose(&mut self, u: Word) -> R<(Word, Word)> {
        // Subnormals scaled to normal numbers first.
        let sub = self.lt(u, f32::MIN_POSITIVE)?;
        let us = self.mulk(u, 33_554_432.0)?; // 2^25
        let u = self.sel(sub, us, u)?;
        let b = self.bits(u)?;
        let sh = self.ku(23);
        let e = ck!(self.g, self.g.b.shift_right_logical(self.u, None, b, sh))?;
        let e = self.uand(e, 0xff)?;
        let hu = self.uand(b, 0x007f_ffff)?;
        let lim = self.ku(0x0035_04f3);
        let big = ck!(
            self.g,
            self.g.b.u_greater_than_equal(self.bt, None, hu, lim)
        )?;
        let (half, one) = (self.ku(0x3f00_0000), self.ku(0x3f80_0000));
        let exp_bits = ck!(self.g, self.g.b.select(self.u, None, big, half, one))?;
        let mb = self.uor(hu, exp_bits)?;
        let m = self.float_of(mb)?;
        let (b126, b127) = (self.ku(126), self.ku(127));
        let bias = ck!(self.g, self.g.b.select(self.u, None, big, b126, b127))?;
        let ki = ck!(self.g, self.g.b.i_sub(self.u, None, e, bias))?;
        let k = ck!(self.g, self.g.b.convert_s_to_f(self.f, None, ki))?;
        let k25 = self.addk(k, -25.0)?;
        let k = self.sel(sub, k25, k)?;
        let f = self.addk(m, -1.0)?;
        Ok((k, f))
    }

    /// (f - f^2/2 + s (f^2/2 + R), f^2/2, s (f^2/2 + R)) parts of log(1 + f): returns
    /// (hfsq, s (hfsq + R)).
    fn log_kernel(&mut self, f: Word) -> R<(Word, Word)> {
        let two_f = self.addk(f, 2.0)?;
        let s = self.div(f, two_f)?;
        let z = self.mul(s, s)?;
        let w = self.mul(z, z)?;
        let a = self.mulk(w, LG[3])?;
        let a = self.addk(a, LG[1])?;
        let t1 = self.mul(w, a)?;
        let b = self.mulk(w, LG[2])?;
        let b = self.addk(b, LG[0])?;
        let t2 = self.mul(z, b)?;
        let rr = self.add(t2, t1)?;
        let ff = self.mul(f, f)?;
        let hfsq = self.mulk(ff, 0.5)?;
        let hr = self.add(hfsq, rr)?;
        let shr = self.mul(s, hr)?;
        Ok((hfsq, shr))
    }

    /// k ln 2 + log(1 + f) + c, fdlibm's order of operations.
    fn log_sum(&mut self, k: Word, f: Word, c: Word) -> R<Word> {
        let (hfsq, shr) = self.log_kernel(f)?;
        let klo = self.mulk(k, LN2_LO)?;
        let klo = self.add(klo, c)?;
        let t = self.add(shr, klo)?;
        let t = self.sub(hfsq, t)?;
        let t = self.sub(t, f)?;
        let khi = self.mulk(k, LN2_HI)?;
        self.sub(khi, t)
    }

    /// log x for a positive normal x.
    fn log_pos(&mut self, x: Word) -> R<Word> {
        let (k, f) = self.decompose(x)?;
        let zero = self.k(0.0);
        self.log_sum(k, f, zero)
    }

    pub fn log1p(&mut self, x: Word) -> R<Word> {
        let u = self.addk(x, 1.0)?;
        let (k, f) = self.decompose(u)?;
        // Near 0, 1 + x = 2^0 (1 + x): f is x itself.
        let a = self.lt(x, std::f32::consts::SQRT_2 - 1.0)?;
        let b = self.gt(x, std::f32::consts::FRAC_1_SQRT_2 - 1.0)?;
        let near = self.and(a, b)?;
        let f = self.sel(near, x, f)?;
        let k = self.selk(near, 0.0, k)?;
        // The rounding of u = 1 + x: c = (x - (u - 1)) / u (or 1 - (u - x) where k > 0).
        let um1 = self.addk(u, -1.0)?;
        let c_neg = self.sub(x, um1)?;
        let umx = self.sub(u, x)?;
        let one = self.k(1.0);
        let c_pos = self.sub(one, umx)?;
        let kpos = self.gt(k, 0.0)?;
        let c = self.sel(kpos, c_pos, c_neg)?;
        let c = self.div(c, u)?;
        let c = self.selk(near, 0.0, c)?;
        let v = self.log_sum(k, f, c)?;
        let inf = self.eq(x, f32::INFINITY)?;
        let v = self.sel(inf, x, v)?;
        let below = self.lt(x, -1.0)?;
        let v = self.selk(below, f32::NAN, v)?;
        let m1 = self.eq(x, -1.0)?;
        let v = self.selk(m1, f32::NEG_INFINITY, v)?;
        self.keep_nan_zero(x, v)
    }

    /// musl's log10f.
    pub fn log10(&mut self, x: Word) -> R<Word> {
        let (k, f) = self.decompose(x)?;
        let (hfsq, shr) = self.log_kernel(f)?;
        let hi = self.sub(f, hfsq)?;
        let hb = self.bits(hi)?;
        let hb = self.uand(hb, 0xffff_f000)?;
        let hi = self.float_of(hb)?;
        // lo = f - hi - hfsq + s (hfsq + R)
        let lo = self.sub(f, hi)?;
        let lo = self.sub(lo, hfsq)?;
        let lo = self.add(lo, shr)?;
        let t1 = self.mulk(k, LOG10_2_LO)?;
        let lh = self.add(lo, hi)?;
        let t2 = self.mulk(lh, IVLN10_LO)?;
        let t3 = self.mulk(lo, IVLN10_HI)?;
        let t4 = self.mulk(hi, IVLN10_HI)?;
        let t5 = self.mulk(k, LOG10_2_HI)?;
        let v = self.add(t1, t2)?;
        let v = self.add(v, t3)?;
        let v = self.add(v, t4)?;
        let v = self.add(v, t5)?;
        let zero = self.eq(x, 0.0)?;
        let v = self.selk(zero, f32::NEG_INFINITY, v)?;
        let neg = self.lt(x, 0.0)?;
        let v = self.selk(neg, f32::NAN, v)?;
        let inf = self.eq(x, f32::INFINITY)?;
        let nan = self.is_nan(x)?;
        let keep = self.or(inf, nan)?;
        self.sel(keep, x, v)
    }

    pub fn cbrt(&mut self, x: Word) -> R<Word> {
        let a = self.ext(FABS, &[x])?;
        let third = self.k(1.0 / 3.0);
        let y = self.ext(POW, &[a, third])?;
        let yy = self.mul(y, y)?;
        let q = self.div(a, yy)?;
        let d = self.sub(y, q)?;
        let d = self.mulk(d, 1.0 / 3.0)?;
        let y = self.sub(y, d)?;
        let r = copysign32(self, y, x)?;
        let z = self.eq(a, 0.0)?;
        let inf = self.eq(a, f32::INFINITY)?;
        let nan = self.is_nan(x)?;
        let keep = self.or(z, inf)?;
        let keep = self.or(keep, nan)?;
        self.sel(keep, x, r)
    }

    /// erfc(a) for a >= 0.
    fn erfc_pos(&mut self, a: Word) -> R<Word> {
        let far = self.gt(a, 10.5)?;
        let a = self.selk(far, 10.5, a)?;
        let h = self.mulk(a, 0.5)?;
        let h = self.addk(h, 1.0)?;
        let one = self.k(1.0);
        let t = self.div(one, h)?;
        let p = self.poly(&ERFC, t)?;
        let ab = self.bits(a)?;
        let sb = self.uand(ab, 0xffff_f000)?;
        let s = self.float_of(sb)?;
        let ss = self.mul(s, s)?;
        let nss = self.neg(ss)?;
        let e1 = self.exp_scaled(nss, 0)?;
        let d = self.sub(a, s)?;
        let sm = self.add(a, s)?;
        let dd = self.mul(d, sm)?;
        let arg = self.sub(p, dd)?;
        let e2 = self.exp_scaled(arg, 0)?;
        let v = self.mul(t, e1)?;
        self.mul(v, e2)
    }

    /// erf(x) by its series, for |x| < ERF_SERIES.
    fn erf_series(&mut self, x: Word) -> R<Word> {
        let z = self.mul(x, x)?;
        let p = self.poly(&ERF, z)?;
        let p = self.mulk(p, TWO_OVER_SQRT_PI)?;
        self.mul(x, p)
    }

    pub fn erf(&mut self, x: Word) -> R<Word> {
        let a = self.ext(FABS, &[x])?;
        let e = self.erfc_pos(a)?;
        let one = self.k(1.0);
        let big = self.sub(one, e)?;
        let big = copysign32(self, big, x)?;
        let small = self.erf_series(x)?;
        let near = self.lt(a, ERF_SERIES)?;
        let v = self.sel(near, small, big)?;
        let nan = self.is_nan(x)?;
        self.sel(nan, x, v)
    }

    pub fn erfc(&mut self, x: Word) -> R<Word> {
        let a = self.ext(FABS, &[x])?;
        let e = self.erfc_pos(a)?;
        let two = self.k(2.0);
        let two_e = self.sub(two, e)?;
        let neg = self.lt(x, 0.0)?;
        let v = self.sel(neg, two_e, e)?;
        let small = self.erf_series(x)?;
        let one = self.k(1.0);
        let small = self.sub(one, small)?;
        let near = self.lt(a, ERF_SERIES)?;
        let v = self.sel(near, small, v)?;
        let nan = self.is_nan(x)?;
        self.sel(nan, x, v)
    }

    /// e^|x| / 2 and its h + 1/(4h), h - 1/(4h) parts.
    fn half_exp(&mut self, a: Word) -> R<(Word, Word)> {
        let h = self.exp_scaled(a, -1)?;
        let q = self.k(0.25);
        let q = self.div(q, h)?;
        Ok((h, q))
    }

    pub fn sinh(&mut self, x: Word) -> R<Word> {
        let a = self.ext(FABS, &[x])?;
        let small_a = self.lt(a, 1.0)?;
        let one = self.k(1.0);
        let ac = self.sel(small_a, a, one)?;
        let m = self.expm1(ac)?;
        let m1 = self.addk(m, 1.0)?;
        let q = self.div(m, m1)?;
        let s = self.add(m, q)?;
        let small = self.mulk(s, 0.5)?;
        let (h, q) = self.half_exp(a)?;
        let big = self.sub(h, q)?;
        let v = self.sel(small_a, small, big)?;
        let v = copysign32(self, v, x)?;
        let nan = self.is_nan(x)?;
        self.sel(nan, x, v)
    }

    pub fn cosh(&mut self, x: Word) -> R<Word> {
        let a = self.ext(FABS, &[x])?;
        let (h, q) = self.half_exp(a)?;
        self.add(h, q)
    }

    /// log|a| + ln 2 for the large arguments of asinh and acosh (inf stays inf).
    fn log_twice(&mut self, a: Word) -> R<Word> {
        let l = self.log_pos(a)?;
        let l = self.addk(l, std::f32::consts::LN_2)?;
        let inf = self.eq(a, f32::INFINITY)?;
        self.sel(inf, a, l)
    }

    pub fn asinh(&mut self, x: Word) -> R<Word> {
        let a = self.ext(FABS, &[x])?;
        let far = self.gt(a, FAR)?;
        let ac = self.selk(far, 1.0, a)?;
        let t = self.mul(ac, ac)?;
        let t1 = self.addk(t, 1.0)?;
        let sq = self.ext(SQRT, &[t1])?;
        let d = self.addk(sq, 1.0)?;
        let q = self.div(t, d)?;
        let arg = self.add(ac, q)?;
        let near = self.log1p(arg)?;
        let lt = self.log_twice(a)?;
        let v = self.sel(far, lt, near)?;
        let v = copysign32(self, v, x)?;
        let nan = self.is_nan(x)?;
        self.sel(nan, x, v)
    }

    pub fn acosh(&mut self, x: Word) -> R<Word> {
        let far = self.gt(x, FAR)?;
        let xc = self.selk(far, 2.0, x)?;
        let t = self.addk(xc, -1.0)?;
        let t2 = self.addk(t, 2.0)?;
        let p = self.mul(t, t2)?;
        let sq = self.ext(SQRT, &[p])?;
        let arg = self.add(t, sq)?;
        let near = self.log1p(arg)?;
        let lt = self.log_twice(x)?;
        let v = self.sel(far, lt, near)?;
        let below = self.lt(x, 1.0)?;
        let v = self.selk(below, f32::NAN, v)?;
        let nan = self.is_nan(x)?;
        self.sel(nan, x, v)
    }

    pub fn atanh(&mut self, x: Word) -> R<Word> {
        let a = self.ext(FABS, &[x])?;
        let a2 = self.add(a, a)?;
        let one = self.k(1.0);
        let d = self.sub(one, a)?;
        let big = self.div(a2, d)?;
        let aa = self.mul(a2, a)?;
        let q = self.div(aa, d)?;
        let small = self.add(a2, q)?;
        let lo = self.lt(a, 0.5)?;
        let arg = self.sel(lo, small, big)?;
        let l = self.log1p(arg)?;
        let v = self.mulk(l, 0.5)?;
        let v = copysign32(self, v, x)?;
        let nan = self.is_nan(x)?;
        self.sel(nan, x, v)
    }
}

impl M<'_, '_> {
    /// musl's atanf: with a = |x| in one of five ranges, atan a = atan c + atan t,
    /// t = (a - c) / (1 + c a) (c = 0, 1/2, 1, 3/2, and -1/a past 39/16, c = inf), atan c in two
    /// parts, atan t = t - t^3 (odd polynomial); x's sign.
    pub fn atan(&mut self, x: Word) -> R<Word> {
        let a = self.ext(FABS, &[x])?;
        // (upper limit of the range, c's numerator form, atan c hi, lo), from the top down.
        let r0 = self.lt(a, 0.4375)?;
        let r1 = self.lt(a, 0.6875)?;
        let r2 = self.lt(a, 1.1875)?;
        let r3 = self.lt(a, 2.4375)?;
        // num / den per range: -1 / a, (a - 1.5) / (1 + 1.5a), (a - 1) / (a + 1),
        // (2a - 1) / (2 + a), a / 1.
        let m1 = self.k(-1.0);
        let n3 = self.addk(a, -1.5)?;
        let d3 = self.mulk(a, 1.5)?;
        let d3 = self.addk(d3, 1.0)?;
        let n2 = self.addk(a, -1.0)?;
        let d2 = self.addk(a, 1.0)?;
        let a2 = self.add(a, a)?;
        let n1 = self.addk(a2, -1.0)?;
        let d1 = self.addk(a, 2.0)?;
        let one = self.k(1.0);
        let num = self.sel(r3, n3, m1)?;
        let den = self.sel(r3, d3, a)?;
        let num = self.sel(r2, n2, num)?;
        let den = self.sel(r2, d2, den)?;
        let num = self.sel(r1, n1, num)?;
        let den = self.sel(r1, d1, den)?;
        let num = self.sel(r0, a, num)?;
        let den = self.sel(r0, one, den)?;
        let t = self.div(num, den)?;
        let pick = |m: &mut Self, v: [f32; 5]| -> R<Word> {
            let mut r = m.k(v[4]);
            for (c, &x) in [r3, r2, r1, r0].into_iter().zip(&v[..4]) {
                let k = m.k(x);
                r = m.sel(c, k, r)?;
            }
            Ok(r)
        };
        // atan c (hi, lo) for c = 3/2, 1, 1/2, 0 and the last range's pi/2.
        let hi = pick(self, [ATAN_HI[2], ATAN_HI[1], ATAN_HI[0], 0.0, ATAN_HI[3]])?;
        let lo = pick(self, [ATAN_LO[2], ATAN_LO[1], ATAN_LO[0], 0.0, ATAN_LO[3]])?;
        let z = self.mul(t, t)?;
        let w = self.mul(z, z)?;
        let s1 = self.mulk(w, AT[4])?;
        let s1 = self.addk(s1, AT[2])?;
        let s1 = self.mul(w, s1)?;
        let s1 = self.addk(s1, AT[0])?;
        let s1 = self.mul(z, s1)?;
        let s2 = self.mulk(w, AT[3])?;
        let s2 = self.addk(s2, AT[1])?;
        let s2 = self.mul(w, s2)?;
        let s = self.add(s1, s2)?;
        // atan c - ((t s - lo) - t)
        let ts = self.mul(t, s)?;
        let u = self.sub(ts, lo)?;
        let u = self.sub(u, t)?;
        let v = self.sub(hi, u)?;
        let v = copysign32(self, v, x)?;
        let nan = self.is_nan(x)?;
        self.sel(nan, x, v)
    }

    /// asin x = atan(x / sqrt((1 - x)(1 + x))) (NaN past |x| = 1).
    pub fn asin(&mut self, x: Word) -> R<Word> {
        let one = self.k(1.0);
        let d = self.sub(one, x)?;
        let e = self.addk(x, 1.0)?;
        let p = self.mul(d, e)?;
        let s = self.ext(SQRT, &[p])?;
        let q = self.div(x, s)?;
        let v = self.atan(q)?;
        // |x| = 1 divides by zero: atan(+-inf) = +-pi/2; x = +-0 keeps its sign (0 / 1).
        let a = self.ext(FABS, &[x])?;
        let out = self.gt(a, 1.0)?;
        self.selk(out, f32::NAN, v)
    }

    /// acos x = 2 atan(sqrt((1 - x) / (1 + x))) (1 - x and 1 + x exact where they are small).
    pub fn acos(&mut self, x: Word) -> R<Word> {
        let one = self.k(1.0);
        let d = self.sub(one, x)?;
        let e = self.addk(x, 1.0)?;
        let q = self.div(d, e)?;
        let s = self.ext(SQRT, &[q])?;
        let v = self.atan(s)?;
        let v = self.add(v, v)?;
        let a = self.ext(FABS, &[x])?;
        let out = self.gt(a, 1.0)?;
        self.selk(out, f32::NAN, v)
    }
}

/// |mag| with the sign of `sign` (f32).
fn copysign32(m: &mut M<'_, '_>, mag: Word, sign: Word) -> R<Word> {
    let a = m.bits(mag)?;
    let a = m.uand(a, 0x7fff_ffff)?;
    let b = m.bits(sign)?;
    let b = m.uand(b, 0x8000_0000)?;
    let r = m.uor(a, b)?;
    m.float_of(r)
}

/// copysign of f32 or f64 values: the sign bit of `b` on the magnitude of `a` (f64 through its
/// two 32-bit words, the sign in the high one).
pub(super) fn copysign(g: &mut Gen<'_>, s: Scalar, a: Word, b: Word) -> R<Word> {
    if s == Scalar::F(32) {
        return copysign32(&mut M::new(g), a, b);
    }
    let u = g.scalar_ty(Scalar::I(32));
    let v2 = g.b.type_vector(u, 2);
    let t = g.scalar_ty(s);
    let aw = ck!(g, g.b.bitcast(v2, None, a))?;
    let bw = ck!(g, g.b.bitcast(v2, None, b))?;
    let ah = ck!(g, g.b.composite_extract(u, None, aw, [1]))?;
    let bh = ck!(g, g.b.composite_extract(u, None, bw, [1]))?;
    let (lo_mask, hi_mask) = (g.u32c(0x7fff_ffff), g.u32c(0x8000_0000));
    let ah = ck!(g, g.b.bitwise_and(u, None, ah, lo_mask))?;
    let bh = ck!(g, g.b.bitwise_and(u, None, bh, hi_mask))?;
    let h = ck!(g, g.b.bitwise_or(u, None, ah, bh))?;
    let w = ck!(g, g.b.composite_insert(v2, None, h, aw, [1]))?;
    ck!(g, g.b.bitcast(t, None, w))
}

/// round(x) of an f32 or f64: half away from zero.
pub(super) fn round(g: &mut Gen<'_>, s: Scalar, x: Word) -> R<Word> {
    let t = g.scalar_ty(s);
    let bt = g.scalar_ty(Scalar::Bool);
    let glsl = g.glsl;
    let tr = ck!(g, g.b.ext_inst(t, None, glsl, TRUNC, [Operand::IdRef(x)]))?;
    let d = ck!(g, g.b.f_sub(t, None, x, tr))?;
    let d = g.exact(d);
    let ad = ck!(g, g.b.ext_inst(t, None, glsl, FABS, [Operand::IdRef(d)]))?;
    let half = g.constant(s, float_bits(s, 0.5));
    let up = ck!(g, g.b.f_ord_greater_than_equal(bt, None, ad, half))?;
    let sign = ck!(g, g.b.ext_inst(t, None, glsl, FSIGN, [Operand::IdRef(x)]))?;
    let away = ck!(g, g.b.f_add(t, None, tr, sign))?;
    let away = g.exact(away);
    ck!(g, g.b.select(t, None, up, away, tr))
}

/// The bits of `v` in float type `s`.
fn float_bits(s: Scalar, v: f64) -> u64 {
    if s.width() == 32 {
        u64::from((v as f32).to_bits())
    } else {
        v.to_bits()
    }
}

/// x^n of a float x (f32 or f64) and an integer n of `n_width` bits (at most 32, or 64 for an
/// f32 x): libgcc's repeated squaring, unrolled over the bits of |n|: r *= a where the bit is
/// set, a *= a; then 1 / r for negative n. For an f32 x and |n| past i32's range this gives
/// what the interpreter's pow in f64 gives (0, +-1 or +-inf: any other f32 base saturates).
pub(super) fn fpowi(g: &mut Gen<'_>, s: Scalar, x: Word, n: Word, n_width: u32) -> R<Word> {
    let t = g.scalar_ty(s);
    let bt = g.scalar_ty(Scalar::Bool);
    let (n, w) = match n_width {
        32 | 64 => (n, n_width),
        _ => {
            let i32t = g.scalar_ty(Scalar::I(32));
            (ck!(g, g.b.s_convert(i32t, None, n))?, 32)
        }
    };
    let it = g.scalar_ty(Scalar::I(w));
    let zero = g.constant(Scalar::I(w), 0);
    let one_i = g.constant(Scalar::I(w), 1);
    let neg = ck!(g, g.b.s_less_than(bt, None, n, zero))?;
    let nn = ck!(g, g.b.s_negate(it, None, n))?;
    // |n| as an unsigned number (the minimum negates to itself, its magnitude).
    let m = ck!(g, g.b.select(it, None, neg, nn, n))?;
    // Past 2^53 the interpreter's exponent is n rounded to f64, an even number: the parity bit
    // goes (the magnitude saturates to 0, 1 or inf either way).
    let m = if w == 64 {
        let lim = g.constant(Scalar::I(64), 1 << 53);
        let even = g.constant(Scalar::I(64), !1u64);
        let far = ck!(g, g.b.u_greater_than_equal(bt, None, m, lim))?;
        let me = ck!(g, g.b.bitwise_and(it, None, m, even))?;
        ck!(g, g.b.select(it, None, far, me, m))?
    } else {
        m
    };
    let one = g.constant(s, float_bits(s, 1.0));
    let (mut a, mut r) = (x, one);
    for k in 0..w {
        let sh = g.constant(Scalar::I(w), u64::from(k));
        let b = ck!(g, g.b.shift_right_logical(it, None, m, sh))?;
        let b = ck!(g, g.b.bitwise_and(it, None, b, one_i))?;
        let set = ck!(g, g.b.i_not_equal(bt, None, b, zero))?;
        let ra = ck!(g, g.b.f_mul(t, None, r, a))?;
        let ra = g.exact(ra);
        r = ck!(g, g.b.select(t, None, set, ra, r))?;
        if k + 1 < w {
            let aa = ck!(g, g.b.f_mul(t, None, a, a))?;
            a = g.exact(aa);
        }
    }
    let inv = ck!(g, g.b.f_div(t, None, one, r))?;
    let inv = g.exact(inv);
    ck!(g, g.b.select(t, None, neg, inv, r))
}
