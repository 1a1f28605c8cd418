//! A map from IR handles (`Value`, `OpId`) to small copyable data, as dense pages of 64 slots
//! found through a table of one entry per page. The gradient builder's tables are keyed by the
//! values and ops of one kernel, which the forward replay visits in order and the reverse pass in
//! reverse order: consecutive handles share a page, where a hash map puts each key in a cache
//! line of its own (a million-op kernel's tables then miss the cache on every lookup). Pages are
//! made as keys arrive, so a small kernel in a large module costs a page or two per table.

use crate::handle_set::Handle;
use qd_ir::fast_hash::FastMap;
use std::marker::PhantomData;

const PAGE_BITS: usize = 6;
const PAGE: usize = 1 << PAGE_BITS;

pub(crate) struct HandleMap<K, V> {
    /// Page number -> index in `pages`.
    dir: FastMap<u32, u32>,
    pages: Vec<[Option<V>; PAGE]>,
    _key: PhantomData<fn() -> K>,
}

impl<K, V> Default for HandleMap<K, V> {
    fn default() -> Self {
        HandleMap {
            dir: FastMap::default(),
            pages: Vec::new(),
            _key: PhantomData,
        }
    }
}

impl<K, V> std::fmt::Debug for HandleMap<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HandleMap({} pages)", self.pages.len())
    }
}

impl<K: Handle, V: Copy> HandleMap<K, V> {
    fn slot(&self, k: K) -> Option<&Option<V>> {
        let i = k.index();
        let p = *self.dir.get(&((i >> PAGE_BITS) as u32))?;
        Some(&self.pages[p as usize][i & (PAGE - 1)])
    }

    fn slot_mut(&mut self, k: K) -> &mut Option<V> {
        let i = k.index();
        let fresh = self.pages.len() as u32;
        let p = *self.dir.entry((i >> PAGE_BITS) as u32).or_insert(fresh);
        if p == fresh {
            self.pages.push([None; PAGE]);
        }
        &mut self.pages[p as usize][i & (PAGE - 1)]
    }

    pub(crate) fn get(&self, k: K) -> Option<V> {
        self.slot(k).copied().flatten()
    }

    /// Sets `k` to `v`; returns what `k` held before.
    pub(crate) fn insert(&mut self, k: K, v: V) -> Option<V> {
        self.slot_mut(k).replace(v)
    }

    pub(crate) fn remove(&mut self, k: K) -> Option<V> {
        let i = k.index();
        let p = *self.dir.get(&((i >> PAGE_BITS) as u32))?;
        self.pages[p as usize][i & (PAGE - 1)].take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[derive(Copy, Clone)]
    struct H(usize);
    impl Handle for H {
        fn index(self) -> usize {
            self.0
        }
    }

    /// Agrees with a HashMap on a pseudo-random mix of inserts, overwrites, removes and lookups
    /// over keys spread across pages (and one far away).
    #[test]
    fn agrees_with_a_hash_map() {
        let mut m = HandleMap::<H, u32>::default();
        let mut r = HashMap::<usize, u32>::new();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for step in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = if x.is_multiple_of(97) {
                (1 << 31) + (x as usize % 5)
            } else {
                (x >> 8) as usize % 700
            };
            match x % 4 {
                0 | 1 => assert_eq!(m.insert(H(k), step), r.insert(k, step), "insert {k}"),
                2 => assert_eq!(m.remove(H(k)), r.remove(&k), "remove {k}"),
                _ => {}
            }
            assert_eq!(m.get(H(k)), r.get(&k).copied(), "get {k}");
        }
        for k in 0..700 {
            assert_eq!(m.get(H(k)), r.get(&k).copied(), "final {k}");
        }
        // Keys never inserted, on a page that exists and on one that does not.
        assert_eq!(m.get(H(1 << 31)).is_some(), r.contains_key(&(1 << 31)));
        assert_eq!(m.get(H(5_000_000)), None);
        assert_eq!(m.remove(H(5_000_000)), None);
    }
}
