//! Rounding of f64 values to the narrow float formats (round to nearest even).

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
}
