//! Float literals: parsing into a float type's precision, shortest round-tripping decimal output
//! (always with a `.` so that it lexes as a float), and hex bit patterns for NaN and infinity.

use crate::float::{round_to_bf16, round_to_f16};
use crate::types::FloatKind;

/// Rounds an f64 to the precision of `kind` (as `Context::float_attr`).
pub(crate) fn round(kind: FloatKind, v: f64) -> f64 {
    match kind {
        FloatKind::F64 => v,
        FloatKind::F32 => v as f32 as f64,
        FloatKind::F16 => round_to_f16(v),
        FloatKind::BF16 => round_to_bf16(v),
    }
}

/// Parses a decimal literal (no sign) to the nearest value of `kind`.
pub(crate) fn parse_decimal(kind: FloatKind, text: &str) -> Option<f64> {
    match kind {
        FloatKind::F64 => text.parse::<f64>().ok(),
        // Parse f32 directly: going through f64 could round twice.
        FloatKind::F32 => text.parse::<f32>().ok().map(f64::from),
        _ => text.parse::<f64>().ok().map(|v| round(kind, v)),
    }
}

fn f16_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((bits >> 10) & 0x1f) as i32;
    let mant = (bits & 0x3ff) as u64;
    match exp {
        0 => sign * mant as f64 * 2f64.powi(-24),
        31 if mant == 0 => sign * f64::INFINITY,
        31 => f64::from_bits(((bits as u64 & 0x8000) << 48) | 0x7ff0_0000_0000_0000 | (mant << 42)),
        _ => sign * (1.0 + mant as f64 / 1024.0) * 2f64.powi(exp - 15),
    }
}

/// The value of the bit pattern `bits` of a `kind` float; None when it has too many bits.
pub(crate) fn from_bits(kind: FloatKind, bits: u128) -> Option<f64> {
    if bits >> kind.width() != 0 {
        return None;
    }
    Some(match kind {
        FloatKind::F64 => f64::from_bits(bits as u64),
        FloatKind::F32 => f32::from_bits(bits as u32) as f64,
        FloatKind::BF16 => f32::from_bits((bits as u32) << 16) as f64,
        FloatKind::F16 => f16_to_f64(bits as u16),
    })
}

/// The bit pattern of a non-finite value in `kind` (for the hex form of NaN and infinity).
fn nonfinite_bits(kind: FloatKind, v: f64) -> u64 {
    match kind {
        FloatKind::F64 => v.to_bits(),
        FloatKind::F32 => (v as f32).to_bits() as u64,
        FloatKind::BF16 => ((v as f32).to_bits() >> 16) as u64,
        FloatKind::F16 => {
            let b = v.to_bits();
            let sign = ((b >> 48) & 0x8000) as u16;
            if v.is_nan() {
                let payload = ((b >> 42) & 0x3ff) as u16;
                sign | 0x7c00 | if payload == 0 { 0x200 } else { payload }
            } else {
                sign | 0x7c00
            }
            .into()
        }
    }
}

/// The text of a float attribute value of type `kind`: the shortest decimal that parses back to
/// the same value, or hex bits for NaN and infinity.
pub(crate) fn format(kind: FloatKind, v: f64) -> String {
    if !v.is_finite() {
        let digits = (kind.width() / 4) as usize;
        return format!("0x{:0digits$X}", nonfinite_bits(kind, v));
    }
    let sci = match kind {
        FloatKind::F64 => format!("{v:e}"),
        FloatKind::F32 => format!("{:e}", v as f32),
        _ => (0..17)
            .map(|p| format!("{v:.p$e}"))
            .find(|s| {
                parse_decimal(kind, s.trim_start_matches('-')).map(|x| x.copysign(v)) == Some(v)
            })
            .unwrap_or_else(|| format!("{v:e}")),
    };
    layout(&sci)
}

/// Turns Rust's `{:e}` output (`-1.25e-7`, `3e0`) into an MLIR float literal: plain decimal for
/// moderate exponents, `d.ddde±x` otherwise, always with a `.`.
fn layout(sci: &str) -> String {
    let (neg, rest) = match sci.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, sci),
    };
    let (mant, exp) = rest.split_once('e').unwrap_or((rest, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let mut out = String::with_capacity(digits.len() + 8);
    if neg {
        out.push('-');
    }
    if (-5..17).contains(&exp) {
        if exp >= 0 {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', int_len - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..int_len]);
                out.push('.');
                out.push_str(&digits[int_len..]);
            }
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
            out.push_str(&digits);
        }
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        out.push_str(if digits.len() > 1 { &digits[1..] } else { "0" });
        out.push('e');
        out.push_str(&exp.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_decimals() {
        assert_eq!(format(FloatKind::F32, 1.3f32 as f64), "1.3");
        assert_eq!(format(FloatKind::F64, 1.0), "1.0");
        assert_eq!(format(FloatKind::F64, -0.0), "-0.0");
        assert_eq!(format(FloatKind::F64, 1e20), "1.0e20");
        assert_eq!(format(FloatKind::F64, 1.5e-7), "1.5e-7");
        assert_eq!(format(FloatKind::F64, 123.25), "123.25");
        assert_eq!(format(FloatKind::F64, 0.001), "0.001");
        assert_eq!(format(FloatKind::F16, round_to_f16(0.1)), "0.1");
        assert_eq!(format(FloatKind::BF16, round_to_bf16(1.0 / 3.0)), "0.334");
    }

    #[test]
    fn nonfinite_hex() {
        assert_eq!(format(FloatKind::F32, f64::NAN), "0x7FC00000");
        assert_eq!(format(FloatKind::F32, f64::NEG_INFINITY), "0xFF800000");
        assert_eq!(format(FloatKind::F64, f64::INFINITY), "0x7FF0000000000000");
        assert_eq!(format(FloatKind::F16, f64::INFINITY), "0x7C00");
        assert_eq!(format(FloatKind::F16, f64::NAN), "0x7E00");
        assert_eq!(format(FloatKind::BF16, f64::NAN), "0x7FC0");
    }

    #[test]
    fn bits_round_trip() {
        for (kind, bits) in [
            (FloatKind::F32, 0x7FC0_0000u128),
            (FloatKind::F32, 0xFF80_0000),
            (FloatKind::F16, 0x7E00),
            (FloatKind::F16, 0xFC00),
            (FloatKind::BF16, 0x7FC0),
            (FloatKind::F64, 0x7FF8_0000_0000_0000),
        ] {
            let v = round(kind, from_bits(kind, bits).unwrap());
            let text = format(kind, v);
            let back = u128::from_str_radix(&text[2..], 16).unwrap();
            assert_eq!(back, bits, "{kind:?}");
        }
        assert_eq!(from_bits(FloatKind::F16, 0x3C00), Some(1.0));
        assert_eq!(from_bits(FloatKind::F16, 0x0001), Some(2f64.powi(-24)));
        assert_eq!(from_bits(FloatKind::F16, 0x1_0000), None);
    }

    #[test]
    fn every_f16_round_trips() {
        for bits in 0..=0xffffu16 {
            let v = from_bits(FloatKind::F16, bits as u128).unwrap();
            if !v.is_finite() {
                continue;
            }
            let s = format(FloatKind::F16, v);
            assert!(s.contains('.'), "{s}");
            let (neg, body) = match s.strip_prefix('-') {
                Some(b) => (true, b),
                None => (false, s.as_str()),
            };
            let back = parse_decimal(FloatKind::F16, body).unwrap();
            let back = if neg { -back } else { back };
            assert_eq!(back.to_bits(), v.to_bits(), "{bits:#x} -> {s}");
        }
    }
}
