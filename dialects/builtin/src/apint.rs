//! Integers of any width (MLIR's APInt, for the values of `i128`, `i256`... attributes): a value is
//! its two's complement bit pattern, little-endian 64-bit words, the bits above the width
//! sign-extended so that equal values have equal words.

/// Words needed for `width` bits (at least one).
pub fn num_words(width: u32) -> usize {
    (width as usize).div_ceil(64).max(1)
}

/// Sign-extends `words` from bit `width - 1` over the top word (and truncates above the width).
pub fn normalize(words: &mut Vec<u64>, width: u32) {
    words.resize(num_words(width), 0);
    let used = width % 64;
    if width == 0 {
        words[0] = 0;
    } else if used != 0 {
        let last = words.len() - 1;
        let shift = 64 - used;
        words[last] = (((words[last] << shift) as i64) >> shift) as u64;
    }
}

/// The words of `value` sign-extended to `width` bits.
pub fn from_i64(value: i64, width: u32) -> Vec<u64> {
    let fill = if value < 0 { u64::MAX } else { 0 };
    let mut w = vec![fill; num_words(width)];
    w[0] = value as u64;
    normalize(&mut w, width);
    w
}

/// The value as an i64 when it is one (sign-extended words all equal to the sign of word 0).
pub fn to_i64(words: &[u64]) -> Option<i64> {
    let low = words[0] as i64;
    let fill = if low < 0 { u64::MAX } else { 0 };
    words[1..].iter().all(|&w| w == fill).then_some(low)
}

/// Whether bit `width - 1` (the sign) is set.
pub fn is_negative(words: &[u64], width: u32) -> bool {
    width > 0 && (words[((width - 1) / 64) as usize] >> ((width - 1) % 64)) & 1 == 1
}

/// Two's complement negation in place (over all words).
pub fn negate(words: &mut [u64]) {
    let mut carry = true;
    for w in words.iter_mut() {
        let (v, c) = (!*w).overflowing_add(carry as u64);
        *w = v;
        carry = c;
    }
}

/// The magnitude of a decimal or `0x` hexadecimal literal, or None when it needs more than
/// `max_bits` bits.
pub fn parse_magnitude(text: &str, max_bits: u32) -> Option<Vec<u64>> {
    let (digits, radix) = match text.strip_prefix("0x") {
        Some(h) => (h, 16u64),
        None => (text, 10u64),
    };
    let limit = num_words(max_bits) + 1;
    let mut words = vec![0u64];
    for c in digits.bytes() {
        let d = (c as char).to_digit(radix as u32)? as u64;
        let mut carry = d as u128;
        for w in words.iter_mut() {
            let v = (*w as u128) * radix as u128 + carry;
            *w = v as u64;
            carry = v >> 64;
        }
        if carry != 0 {
            words.push(carry as u64);
            if words.len() > limit {
                return None;
            }
        }
    }
    (active_bits(&words) <= max_bits).then_some(words)
}

/// Bits up to the highest set bit of an unsigned magnitude.
pub fn active_bits(words: &[u64]) -> u32 {
    for (i, &w) in words.iter().enumerate().rev() {
        if w != 0 {
            return i as u32 * 64 + (64 - w.leading_zeros());
        }
    }
    0
}

/// The unsigned value of `width` bits of `words` in decimal.
pub fn to_unsigned_decimal(words: &[u64], width: u32) -> String {
    let mut mag: Vec<u64> = words.to_vec();
    mag.resize(num_words(width), 0);
    let used = width % 64;
    if used != 0 {
        let last = mag.len() - 1;
        mag[last] &= (1u64 << used) - 1;
    }
    if width == 0 {
        return "0".to_string();
    }
    magnitude_decimal(mag)
}

/// The signed value of `width` bits of `words` in decimal.
pub fn to_signed_decimal(words: &[u64], width: u32) -> String {
    if !is_negative(words, width) {
        return to_unsigned_decimal(words, width);
    }
    let mut mag = words.to_vec();
    negate(&mut mag);
    // The most negative value negates to itself; its magnitude is 2^(width-1), read unsigned.
    format!("-{}", to_unsigned_decimal(&mag, width))
}

fn magnitude_decimal(mut mag: Vec<u64>) -> String {
    const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19
    let mut parts = Vec::new();
    while mag.iter().any(|&w| w != 0) {
        let mut rem: u128 = 0;
        for w in mag.iter_mut().rev() {
            let cur = (rem << 64) | *w as u128;
            *w = (cur / CHUNK as u128) as u64;
            rem = cur % CHUNK as u128;
        }
        parts.push(rem as u64);
    }
    let Some((last, rest)) = parts.split_last() else {
        return "0".to_string();
    };
    let mut s = last.to_string();
    for p in rest.iter().rev() {
        s.push_str(&format!("{p:019}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_round_trip() {
        let m = parse_magnitude("340282366920938463463374607431768211455", 128).unwrap();
        assert_eq!(m, vec![u64::MAX, u64::MAX]);
        assert_eq!(
            to_unsigned_decimal(&m, 128),
            "340282366920938463463374607431768211455"
        );
        assert_eq!(to_signed_decimal(&m, 128), "-1");
        assert_eq!(
            parse_magnitude("340282366920938463463374607431768211456", 128),
            None
        );
        let mut min = vec![0, 1u64 << 63];
        normalize(&mut min, 128);
        assert_eq!(
            to_signed_decimal(&min, 128),
            "-170141183460469231731687303715884105728"
        );
        assert_eq!(
            parse_magnitude("0xFFFFFFFFFFFFFFFFFF", 72).unwrap(),
            vec![u64::MAX, 0xFF]
        );
    }

    #[test]
    fn normalize_sign_extends_and_i64_view() {
        let mut w = vec![0, 0xFF];
        normalize(&mut w, 72);
        assert_eq!(w, vec![0, u64::MAX]);
        assert_eq!(to_i64(&from_i64(-5, 256)), Some(-5));
        assert_eq!(to_i64(&[0, 1]), None);
        assert_eq!(to_signed_decimal(&from_i64(-5, 256), 256), "-5");
        assert_eq!(
            to_unsigned_decimal(&from_i64(-1, 65), 65),
            "36893488147419103231"
        );
    }
}
