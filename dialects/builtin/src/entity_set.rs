//! [`EntitySet`]: a set of entity handles as one bit per arena index (as Cranelift's
//! `EntitySet`). A set of a quarter of a million ops of a million-op kernel is 128 KB and stays
//! in cache, where a hash set of them is several MB and misses on each lookup.
//!
//! The bits grow on insert; keys past the end are absent. Memory follows the largest key
//! inserted, not the number of keys.

use crate::entity_map::EntityRef;
use std::marker::PhantomData;

#[derive(Clone, Debug)]
pub struct EntitySet<K> {
    words: Vec<u64>,
    len: usize,
    _key: PhantomData<fn(K)>,
}

impl<K: EntityRef> Default for EntitySet<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef> EntitySet<K> {
    pub fn new() -> Self {
        EntitySet {
            words: Vec::new(),
            len: 0,
            _key: PhantomData,
        }
    }

    /// An empty set with room for keys below `n` (an arena's slot count) before it grows.
    pub fn with_capacity(n: usize) -> Self {
        let mut s = Self::new();
        s.words.reserve(n.div_ceil(64));
        s
    }

    #[inline]
    fn at(k: K) -> (usize, u64) {
        (k.index() / 64, 1u64 << (k.index() % 64))
    }

    #[inline]
    pub fn contains(&self, k: K) -> bool {
        let (w, bit) = Self::at(k);
        self.words.get(w).is_some_and(|&x| x & bit != 0)
    }

    /// Adds `k`; whether it was absent.
    #[inline]
    pub fn insert(&mut self, k: K) -> bool {
        let (w, bit) = Self::at(k);
        if w >= self.words.len() {
            // At least doubling: ascending inserts cost amortised O(1).
            let n = (w + 1).max(self.words.len() * 2);
            self.words.resize(n, 0);
        }
        let new = self.words[w] & bit == 0;
        self.words[w] |= bit;
        self.len += usize::from(new);
        new
    }

    /// Removes `k`; whether it was present.
    pub fn remove(&mut self, k: K) -> bool {
        let (w, bit) = Self::at(k);
        let Some(x) = self.words.get_mut(w) else {
            return false;
        };
        let was = *x & bit != 0;
        *x &= !bit;
        self.len -= usize::from(was);
        was
    }

    /// The number of keys in the set.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every key (the memory is kept for reuse).
    pub fn clear(&mut self) {
        self.words.clear();
        self.len = 0;
    }

    /// The keys in index order.
    pub fn iter(&self) -> impl Iterator<Item = K> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &x)| {
            let mut bits = x;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(K::from_index(w * 64 + b))
            })
        })
    }
}

impl<K: EntityRef> Extend<K> for EntitySet<K> {
    fn extend<I: IntoIterator<Item = K>>(&mut self, iter: I) {
        for k in iter {
            self.insert(k);
        }
    }
}

impl<K: EntityRef> FromIterator<K> for EntitySet<K> {
    fn from_iter<I: IntoIterator<Item = K>>(iter: I) -> Self {
        let mut s = Self::new();
        s.extend(iter);
        s
    }
}

#[cfg(test)]
#[path = "entity_set_tests.rs"]
mod tests;
