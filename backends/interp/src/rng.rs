//! A small seeded PRNG (SplitMix64) for shuffling the order of parallel iterations. Not for
//! cryptography; only reproducibility matters: the same seed gives the same orders.

#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `[0, n)` (n > 0), by rejection so that no value is favoured.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let r = self.next_u64();
            if r < zone {
                return r % n;
            }
        }
    }

    /// A uniformly random permutation of `0..n` (Fisher-Yates), or None when it cannot be
    /// allocated.
    pub fn permutation(&mut self, n: u64) -> Option<Vec<u64>> {
        let len = usize::try_from(n).ok()?;
        let mut v: Vec<u64> = Vec::new();
        v.try_reserve_exact(len).ok()?;
        v.extend(0..n);
        for i in (1..len).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_permutation() {
        let a = Rng::new(7).permutation(100).unwrap();
        let b = Rng::new(7).permutation(100).unwrap();
        let c = Rng::new(8).permutation(100).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_ne!(
            a, sorted,
            "a permutation of 100 elements is almost surely not the identity"
        );
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(1);
        for n in [1, 2, 3, 10, 1 << 40] {
            for _ in 0..100 {
                assert!(r.below(n) < n);
            }
        }
        assert_eq!(Rng::new(3).permutation(0), Some(vec![]));
    }
}
