//! A minimal interner: equal data gets the same handle.
//!
//! Hashed with [`FastBuild`](crate::fast_hash::FastBuild), not SipHash: parsing a million-op
//! kernel interns a location per op, and hashing made a large part of that.

use crate::fast_hash::FastBuild;
use indexmap::IndexSet;
use std::hash::Hash;

#[derive(Clone, Debug)]
pub(crate) struct Interner<T: Hash + Eq> {
    set: IndexSet<T, FastBuild>,
}

impl<T: Hash + Eq> Default for Interner<T> {
    fn default() -> Self {
        Interner {
            set: IndexSet::default(),
        }
    }
}

impl<T: Hash + Eq> Interner<T> {
    pub(crate) fn intern(&mut self, data: T) -> usize {
        self.set.insert_full(data).0
    }
    pub(crate) fn lookup<Q>(&self, data: &Q) -> Option<usize>
    where
        T: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.set.get_index_of(data)
    }
    pub(crate) fn get(&self, index: usize) -> &T {
        &self.set[index]
    }
}
