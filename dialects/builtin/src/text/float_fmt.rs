//! Float literals as mlir-opt 22 reads and writes them. Printing follows AsmPrinter's
//! `printFloatValue` over llvm's `IEEEFloat::toString`: the `%e`-like form `2.000000e+00` when it
//! parses back to the same bits, else the shortest-precision `toString` form (`0.693147182`,
//! `7.39762691E-28`) when it has a `.`, else the raw bits in hex (`0x7FC00001`, `0x4B800000`).
//! Parsing a decimal goes through f64 and then rounds to the type, as MLIR's parser does.

use super::bignum::BigUint;
use crate::float::{f64_to_native, layout, native_to_f64, round_to_kind};
use crate::types::FloatKind;
use std::cmp::Ordering;

/// Rounds an f64 to the precision of `kind` (as `Context::float_attr`).
pub(crate) fn round(kind: FloatKind, v: f64) -> f64 {
    round_to_kind(kind, v)
}

/// Parses a decimal literal (no sign) to a value of `kind`: to the nearest f64 first, then to
/// `kind` (MLIR rounds twice the same way, so a literal gives mlir-opt's bits).
pub(crate) fn parse_decimal(kind: FloatKind, text: &str) -> Option<f64> {
    text.parse::<f64>().ok().map(|v| round(kind, v))
}

/// The value of the bit pattern `bits` of a `kind` float; None when it has too many bits.
pub(crate) fn from_bits(kind: FloatKind, bits: u128) -> Option<f64> {
    if bits >> kind.width() != 0 {
        return None;
    }
    Some(native_to_f64(kind, bits as u64))
}

/// The text of a float attribute value of type `kind` (a value `round` returns).
pub(crate) fn format(kind: FloatKind, v: f64) -> String {
    format_bits(kind, f64_to_native(kind, v))
}

/// The text mlir-opt prints for the `kind` float with bit pattern `bits`.
pub(crate) fn format_bits(kind: FloatKind, bits: u64) -> String {
    let d = Decoded::new(kind, bits);
    if d.finite {
        let s = to_string(&d, 6, 0, false);
        if round_trips(&d, &s) {
            return s;
        }
        let s = to_string(&d, 0, 3, true);
        if s.contains('.') {
            return s;
        }
    }
    format!("0x{bits:X}")
}

/// A float split into sign and `sig * 2^exp` (`sig == 0` for zeros).
struct Decoded {
    neg: bool,
    finite: bool,
    sig: u64,
    exp: i32,
    /// Stored mantissa bits of the format (its precision is `mbits + 1`).
    mbits: u32,
    /// The biased exponent field (0 for zeros and subnormals).
    efield: u64,
}

impl Decoded {
    fn new(kind: FloatKind, bits: u64) -> Self {
        let (eb, mb) = layout(kind);
        let neg = (bits >> (eb + mb)) & 1 == 1;
        let e = (bits >> mb) & ((1 << eb) - 1);
        let m = bits & ((1 << mb) - 1);
        let bias = (1i32 << (eb - 1)) - 1;
        let (sig, exp) = if e == 0 {
            (m, 1 - bias - mb as i32)
        } else {
            (m | (1 << mb), e as i32 - bias - mb as i32)
        };
        Decoded {
            neg,
            finite: e != (1 << eb) - 1,
            sig,
            exp,
            mbits: mb,
            efield: e,
        }
    }
}

/// `IEEEFloat::toString(FormatPrecision, FormatMaxPadding, TruncateZero)` for a finite value.
fn to_string(d: &Decoded, prec: u32, max_pad: u32, truncate_zero: bool) -> String {
    let mut out = String::new();
    if d.neg {
        out.push('-');
    }
    if d.sig == 0 {
        if max_pad != 0 {
            out.push('0');
        } else if truncate_zero {
            out.push_str("0.0E+0");
        } else {
            out.push_str("0.0");
            out.extend(std::iter::repeat_n('0', prec.saturating_sub(1) as usize));
            out.push_str("e+00");
        }
        return out;
    }
    let prec = if prec == 0 {
        2 + (d.mbits + 1) * 59 / 196
    } else {
        prec
    };
    // The exact value as an integer times a power of ten.
    let tz = d.sig.trailing_zeros();
    let mut exp = d.exp + tz as i32;
    let mut sig = BigUint::from_u64(d.sig >> tz);
    if exp > 0 {
        sig.shl(exp as u32);
        exp = 0;
    } else if exp < 0 {
        sig.mul_pow5((-exp) as u32);
    }
    // Drop (truncating) the decimal digits that cannot matter at this precision.
    let bits = sig.bit_len();
    let required = (prec * 196).div_ceil(59);
    if bits > required {
        let tens = (bits - required) * 59 / 196;
        if tens > 0 {
            sig.div_pow10(tens);
            exp += tens as i32;
        }
    }
    // Digits, least significant first, without trailing zeros.
    let mut buf: Vec<u8> = Vec::new();
    while !sig.is_zero() {
        let digit = sig.divrem_small(10) as u8;
        if buf.is_empty() && digit == 0 {
            exp += 1;
        } else {
            buf.push(digit);
        }
    }
    let (buf, mut exp) = adjust_to_precision(buf, exp, prec as usize);
    let nd = buf.len() as i32;
    let scientific = if max_pad == 0 {
        true
    } else if exp >= 0 {
        exp > max_pad as i32 || nd + exp > prec as i32
    } else {
        let msd = exp + nd - 1;
        msd < 0 && -msd > max_pad as i32
    };
    let digits: String = buf.iter().rev().map(|&d| (b'0' + d) as char).collect();
    if scientific {
        exp += nd - 1;
        out.push_str(&digits[..1]);
        out.push('.');
        if nd == 1 && truncate_zero {
            out.push('0');
        } else {
            out.push_str(&digits[1..]);
        }
        if !truncate_zero && prec as i32 > nd - 1 {
            out.extend(std::iter::repeat_n('0', (prec as i32 - nd + 1) as usize));
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if exp >= 0 { '+' } else { '-' });
        let e = exp.unsigned_abs().to_string();
        if !truncate_zero && e.len() < 2 {
            out.push('0');
        }
        out.push_str(&e);
    } else if exp >= 0 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', exp as usize));
    } else {
        let whole = exp + nd;
        if whole > 0 {
            out.push_str(&digits[..whole as usize]);
            out.push('.');
            out.push_str(&digits[whole as usize..]);
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-whole) as usize));
            out.push_str(&digits);
        }
    }
    out
}

/// APFloat's `AdjustToPrecision` on a digit buffer (least significant first): round half up to
/// `prec` digits, dropping the trailing zeros that leaves.
fn adjust_to_precision(buf: Vec<u8>, exp: i32, prec: usize) -> (Vec<u8>, i32) {
    let n = buf.len();
    if n <= prec {
        return (buf, exp);
    }
    let mut first = n - prec;
    if buf[first - 1] < 5 {
        while first < n && buf[first] == 0 {
            first += 1;
        }
        return (buf[first..].to_vec(), exp + first as i32);
    }
    // Round up: the 9s carry (and are dropped), the first other digit is incremented.
    let mut b = buf;
    let nines = b[first..].iter().take_while(|&&d| d == 9).count();
    first += nines;
    if first < n {
        b[first] += 1;
    }
    if first == n {
        return (vec![1], exp + first as i32);
    }
    (b[first..].to_vec(), exp + first as i32)
}

/// Whether the decimal `s` (as `to_string` wrote it in `%e` form) parses back, rounding to
/// nearest even in the value's own format, to exactly `d`.
fn round_trips(d: &Decoded, s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    let Some((mant, e)) = body.split_once('e') else {
        return false;
    };
    let (Ok(digits), Ok(e)) = (mant.replace('.', "").parse::<u64>(), e.parse::<i32>()) else {
        return false;
    };
    if digits == 0 || d.sig == 0 {
        return digits == 0 && d.sig == 0;
    }
    let frac_digits = mant.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
    // |s| = digits * 10^k
    let k = e - frac_digits;
    // The midpoints to the neighbouring values, as (odd multiple, power of two). Below the
    // smallest significand of a binade the spacing halves (except in the subnormal range).
    let (sig, exp) = (d.sig, d.exp);
    let hi = (2 * sig as u128 + 1, exp - 1);
    let lo = if sig == 1 << d.mbits && d.efield > 1 {
        (4 * sig as u128 - 1, exp - 2)
    } else {
        (2 * sig as u128 - 1, exp - 1)
    };
    let even = sig & 1 == 0;
    let vs_hi = compare(digits, k, hi);
    let vs_lo = compare(digits, k, lo);
    let below_hi = vs_hi == Ordering::Less || (vs_hi == Ordering::Equal && even);
    let above_lo = vs_lo == Ordering::Greater || (vs_lo == Ordering::Equal && even);
    below_hi && above_lo
}

/// Compares `digits * 10^k` with `m * 2^p` exactly.
fn compare(digits: u64, k: i32, (m, p): (u128, i32)) -> Ordering {
    let mut left = BigUint::from_u64(digits);
    let mut right = BigUint::from_u128(m);
    if k >= 0 {
        left.mul_pow5(k as u32);
    } else {
        right.mul_pow5((-k) as u32);
    }
    // left * 2^k against right * 2^p.
    let base = k.min(p);
    left.shl((k - base) as u32);
    right.shl((p - base) as u32);
    left.cmp(&right)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(kind: FloatKind, bits: u64) -> String {
        format_bits(kind, bits)
    }

    #[test]
    fn survey_examples() {
        use FloatKind::*;
        assert_eq!(f(F32, 0x7F80_0001), "0x7F800001");
        assert_eq!(f(F32, 0xFF80_0000), "0xFF800000");
        assert_eq!(f(F32, 0x8000_0000), "-0.000000e+00");
        assert_eq!(f(F64, 0xC1CD_C000_0000_0000), "0xC1CDC00000000000");
        assert_eq!(f(F32, 0x4B80_0000), "0x4B800000");
        assert_eq!(f(F16, 0x0001), "5.960460e-08");
        assert_eq!(f(BF16, 0x3DCD), "1.000980e-01");
        assert_eq!(f(F16, 0x7BFF), "6.550400e+04");
        assert_eq!(f(F32, 2.0f32.to_bits() as u64), "2.000000e+00");
        assert_eq!(f(F32, (2f32.exp()).to_bits() as u64), "7.3890562");
        assert_eq!(f(F32, (2f32.ln()).to_bits() as u64), "0.693147182");
        assert_eq!(f(F64, 0.1f64.to_bits()), "1.000000e-01");
        assert_eq!(f(F64, 0x7FF0_0000_0000_0001), "0x7FF0000000000001");
        assert_eq!(format(F32, round(F32, 1.5e-5)), "1.500000e-05");
    }

    #[test]
    fn decimal_parse_rounds_through_f64_as_mlir() {
        // Correct rounding would give 1.00000012; MLIR (and qd) round to f64 first.
        let v = parse_decimal(FloatKind::F32, "1.0000000596046447755").unwrap();
        assert_eq!(v, 1.0);
    }
}
