//! A minimal unsigned big integer for exact decimal conversion of float values (printing needs
//! `significand * 5^k` and exact comparisons; the values stay below a few thousand bits).

use std::cmp::Ordering;

/// Little-endian base-2^32 limbs, no trailing zero limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BigUint(Vec<u32>);

impl BigUint {
    pub(crate) fn from_u64(v: u64) -> Self {
        let mut n = BigUint(vec![v as u32, (v >> 32) as u32]);
        n.trim();
        n
    }

    pub(crate) fn from_u128(v: u128) -> Self {
        let mut n = BigUint((0..4).map(|i| (v >> (32 * i)) as u32).collect());
        n.trim();
        n
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn bit_len(&self) -> u32 {
        match self.0.last() {
            Some(&top) => (self.0.len() as u32 - 1) * 32 + (32 - top.leading_zeros()),
            None => 0,
        }
    }

    /// The value when it fits in 64 bits.
    #[cfg(test)]
    pub(crate) fn to_u64(&self) -> Option<u64> {
        match self.0.len() {
            0 => Some(0),
            1 => Some(self.0[0] as u64),
            2 => Some(self.0[0] as u64 | (self.0[1] as u64) << 32),
            _ => None,
        }
    }

    pub(crate) fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let t = *limb as u64 * m as u64 + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }

    pub(crate) fn mul_pow5(&mut self, mut n: u32) {
        // 5^13 is the largest power of five below 2^32.
        while n >= 13 {
            self.mul_small(1_220_703_125);
            n -= 13;
        }
        self.mul_small(5u32.pow(n));
    }

    pub(crate) fn shl(&mut self, n: u32) {
        if self.is_zero() {
            return;
        }
        let (limbs, bits) = ((n / 32) as usize, n % 32);
        if bits != 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let t = (*limb << bits) | carry;
                carry = *limb >> (32 - bits);
                *limb = t;
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    /// Divides in place, returning the remainder.
    pub(crate) fn divrem_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let t = (rem << 32) | *limb as u64;
            *limb = (t / d as u64) as u32;
            rem = t % d as u64;
        }
        self.trim();
        rem as u32
    }

    /// Divides by 10^n, truncating.
    pub(crate) fn div_pow10(&mut self, mut n: u32) {
        while n >= 9 {
            self.divrem_small(1_000_000_000);
            n -= 9;
        }
        self.divrem_small(10u32.pow(n));
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_matches_u128() {
        let mut n = BigUint::from_u64(123_456_789_012_345);
        n.mul_pow5(7);
        n.shl(5);
        let want = 123_456_789_012_345u128 * 78125 * 32;
        assert_eq!(n.bit_len(), 128 - want.leading_zeros());
        assert_eq!(n.divrem_small(1000), (want % 1000) as u32);
        n.div_pow10(10);
        assert_eq!(n.to_u64(), Some((want / 1000 / 10_000_000_000) as u64));
        assert!(BigUint::from_u64(1 << 40) > BigUint::from_u64(1 << 39));
        let mut big = BigUint::from_u64(1);
        big.shl(100);
        assert!(big > BigUint::from_u64(u64::MAX));
        assert_eq!(big.to_u64(), None);
        assert!(BigUint::from_u64(0).is_zero());
    }
}
