//! Hash maps and sets for tables keyed by IR handles (`Value`, `OpId`: u32 arena indices) or by
//! names. The std hasher (SipHash, randomly keyed) costs more than the lookup itself on
//! million-op kernels, and these keys need no defence against chosen collisions, only spread
//! bits: FxHash steps with the murmur3 finalizer, since hashbrown takes bucket bits from the low
//! end, which plain FxHash leaves poorly mixed for indices sharing their low bits (a stride of 8
//! or 1024 ops) and for strings that differ only in their last bytes (`%v12345`). Callers must
//! not let any output depend on the iteration order of these tables.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

pub type FastBuild = BuildHasherDefault<FastHasher>;
pub type FastMap<K, V> = HashMap<K, V, FastBuild>;
pub type FastSet<T> = HashSet<T, FastBuild>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn strided_indices_spread_over_the_low_bits() {
        // Indices 1024 apart must not share the low bits hashbrown picks buckets with.
        let b = FastBuild::default();
        let buckets: HashSet<u64> = (0..256u32).map(|k| b.hash_one(k * 1024) & 255).collect();
        assert!(buckets.len() > 128, "{} distinct buckets", buckets.len());
    }

    #[test]
    fn names_differing_in_their_last_byte_spread_over_the_low_bits() {
        let b = FastBuild::default();
        let buckets: HashSet<u64> = (0..256u32)
            .map(|k| b.hash_one(format!("v1234{}", k as u8 as char)) & 255)
            .collect();
        assert!(buckets.len() > 128, "{} distinct buckets", buckets.len());
    }
}
