//! Rounding of f64 values to the narrow float formats (round to nearest even), and exact
//! conversion between a format's bit pattern and the f64 that float attributes store.

use crate::types::FloatKind;

/// Rounds to the nearest IEEE half-precision value, returned as f64.
pub fn round_to_f16(v: f64) -> f64 {
    round_to_format(v, 10, 15)
}

/// Rounds to the nearest bfloat16 value, returned as f64.
pub fn round_to_bf16(v: f64) -> f64 {
    round_to_format(v, 7, 127)
}

/// Round to a binary format with `mant` explicit mantissa bits and exponent bias `bias`.
fn round_to_format(v: f64, mant: i32, bias: i32) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let max_exp = bias; // largest unbiased exponent of a finite value
    let min_exp = 1 - bias; // smallest normal exponent
    let exp = v.abs().log2().floor() as i32;
    // Quantum: spacing of representable values around v (subnormals share the min exponent's).
    let q = 2f64.powi(exp.max(min_exp) - mant);
    let r = (v / q).round_ties_even() * q;
    let max = (2.0 - 2f64.powi(-mant)) * 2f64.powi(max_exp);
    if r.abs() > max {
        f64::INFINITY.copysign(v)
    } else {
        r
    }
}

/// Exponent and stored-mantissa widths of a float format.
pub fn layout(kind: FloatKind) -> (u32, u32) {
    match kind {
        FloatKind::F16 => (5, 10),
        FloatKind::BF16 => (8, 7),
        FloatKind::F32 => (8, 23),
        FloatKind::F64 => (11, 52),
    }
}

/// The f64 holding the value of a `kind` bit pattern exactly. A NaN keeps its sign, quiet bit and
/// payload in the top mantissa bits (converting through `f32` would quieten a signaling NaN).
pub fn native_to_f64(kind: FloatKind, bits: u64) -> f64 {
    if kind == FloatKind::F64 {
        return f64::from_bits(bits);
    }
    let (eb, mb) = layout(kind);
    let sign = (bits >> (eb + mb)) & 1;
    let e = (bits >> mb) & ((1 << eb) - 1);
    let m = bits & ((1 << mb) - 1);
    let bias = (1i32 << (eb - 1)) - 1;
    if e == (1 << eb) - 1 {
        return f64::from_bits((sign << 63) | (0x7ff << 52) | (m << (52 - mb)));
    }
    // Finite values of the narrow formats are exact in f64.
    let (sig, exp) = if e == 0 {
        (m, 1 - bias - mb as i32)
    } else {
        (m | (1 << mb), e as i32 - bias - mb as i32)
    };
    let v = sig as f64 * 2f64.powi(exp);
    if sign == 1 {
        -v
    } else {
        v
    }
}

/// The `kind` bit pattern of `v`, which must be a value of `kind` (as `round_to_kind` returns).
pub fn f64_to_native(kind: FloatKind, v: f64) -> u64 {
    let b = v.to_bits();
    if kind == FloatKind::F64 {
        return b;
    }
    let (eb, mb) = layout(kind);
    let sign = (b >> 63) << (eb + mb);
    let fm = b & ((1 << 52) - 1);
    let fe = ((b >> 52) & 0x7ff) as i32;
    let emax = (1u64 << eb) - 1;
    if fe == 0x7ff {
        return sign | (emax << mb) | (fm >> (52 - mb));
    }
    if v == 0.0 {
        return sign;
    }
    let bias = (1i32 << (eb - 1)) - 1;
    let e = fe - 1023; // the narrow formats' values are normal in f64
    if e >= 1 - bias {
        sign | (((e + bias) as u64) << mb) | (fm >> (52 - mb))
    } else {
        let shift = (52 - mb as i32) + (1 - bias - e);
        sign | (((1u64 << 52) | fm) >> shift.min(63))
    }
}

/// Rounds to the nearest value of `kind` (ties to even). A NaN keeps the part of its payload that
/// `kind` holds (and stays a NaN: an empty payload gets the quiet bit).
pub fn round_to_kind(kind: FloatKind, v: f64) -> f64 {
    if v.is_nan() {
        let (_, mb) = layout(kind);
        let b = v.to_bits();
        let keep = !((1u64 << (52 - mb)) - 1);
        let mut nb = b & keep;
        if nb & ((1 << 52) - 1) == 0 {
            nb |= 1 << 51;
        }
        return f64::from_bits(nb);
    }
    match kind {
        FloatKind::F64 => v,
        FloatKind::F32 => v as f32 as f64,
        FloatKind::F16 => round_to_f16(v),
        FloatKind::BF16 => round_to_bf16(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_rounding() {
        assert_eq!(round_to_f16(1.0), 1.0);
        assert_eq!(round_to_f16(65504.0), 65504.0);
        assert_eq!(round_to_f16(70000.0), f64::INFINITY);
        assert_eq!(round_to_f16(0.1), 0.0999755859375);
        assert_eq!(round_to_bf16(1.0 / 3.0), 0.333984375);
    }

    #[test]
    fn native_bits_round_trip_exactly() {
        for (kind, bits) in [
            (FloatKind::F32, 0x7F80_0001u64),
            (FloatKind::F32, 0xFFC0_0001),
            (FloatKind::F32, 0x0000_0001),
            (FloatKind::F32, 0x8000_0000),
            (FloatKind::BF16, 0x7F81),
            (FloatKind::BF16, 0x0001),
            (FloatKind::F16, 0x7C01),
            (FloatKind::F16, 0x03FF),
            (FloatKind::F64, 0x7FF0_0000_0000_0001),
        ] {
            let v = native_to_f64(kind, bits);
            assert_eq!(f64_to_native(kind, v), bits, "{kind:?} {bits:#x}");
            assert_eq!(
                round_to_kind(kind, v).to_bits(),
                v.to_bits(),
                "{kind:?} {bits:#x}"
            );
        }
        assert_eq!(native_to_f64(FloatKind::F16, 0x3C00), 1.0);
        assert_eq!(native_to_f64(FloatKind::F32, 0x0000_0001), 2f64.powi(-149));
        // An f64 NaN payload that f32 cannot hold becomes a quiet NaN, not an infinity.
        let nan = round_to_kind(FloatKind::F32, f64::from_bits(0x7FF0_0000_0000_0001));
        assert_eq!(f64_to_native(FloatKind::F32, nan), 0x7FC0_0000);
    }
}
