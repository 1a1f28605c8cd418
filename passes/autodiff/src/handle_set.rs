//! A set of IR handles (`Value`, `OpId`) as bits in pages of 4096 handles: a lookup is a shift
//! and a mask in a page found through a table of one entry per page, where a hash set has an
//! entry per member (a million-op kernel's activity sets would fit no cache). Pages are made as
//! members arrive, so a small kernel in a large module costs a few pages, not a bit per handle
//! of the whole context.

use qd_ir::fast_hash::FastMap;
use qd_ir::{OpId, Value};
use std::marker::PhantomData;

/// An IR handle: an index into one of the context's arenas.
pub(crate) trait Handle: Copy {
    fn index(self) -> usize;
}

impl Handle for Value {
    fn index(self) -> usize {
        Value::index(self)
    }
}

impl Handle for OpId {
    fn index(self) -> usize {
        OpId::index(self)
    }
}

const PAGE_BITS: usize = 12;
const WORDS: usize = (1 << PAGE_BITS) / 64;

pub(crate) struct HandleSet<T> {
    pages: FastMap<usize, Box<[u64; WORDS]>>,
    _handle: PhantomData<fn() -> T>,
}

impl<T> Default for HandleSet<T> {
    fn default() -> Self {
        HandleSet {
            pages: FastMap::default(),
            _handle: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for HandleSet<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HandleSet({} pages)", self.pages.len())
    }
}

/// The page, word and bit of index `i`.
fn place(i: usize) -> (usize, usize, u64) {
    let bit = i & ((1 << PAGE_BITS) - 1);
    (i >> PAGE_BITS, bit / 64, 1u64 << (bit % 64))
}

impl<T: Handle> HandleSet<T> {
    /// Adds `h`; whether it was not there.
    pub(crate) fn insert(&mut self, h: T) -> bool {
        let (p, w, m) = place(h.index());
        let word = &mut self.pages.entry(p).or_insert_with(|| Box::new([0; WORDS]))[w];
        let fresh = *word & m == 0;
        *word |= m;
        fresh
    }

    pub(crate) fn contains(&self, h: T) -> bool {
        let (p, w, m) = place(h.index());
        self.pages.get(&p).is_some_and(|page| page[w] & m != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Copy, Clone)]
    struct H(usize);
    impl Handle for H {
        fn index(self) -> usize {
            self.0
        }
    }

    #[test]
    fn members_are_found_and_others_not_across_pages() {
        let mut s = HandleSet::<H>::default();
        let members = [0, 1, 63, 64, 4095, 4096, 1 << 20, (1 << 20) + 77];
        for &i in &members {
            assert!(s.insert(H(i)), "{i} inserted twice");
        }
        for &i in &members {
            assert!(s.contains(H(i)), "{i} missing");
            assert!(!s.insert(H(i)), "{i} new again");
        }
        for i in [2, 62, 65, 4094, 4097, 8192, (1 << 20) + 1] {
            assert!(!s.contains(H(i)), "{i} present");
        }
        assert_eq!(s.pages.len(), 3);
    }
}
