//! [`EntityMap`]: a value per entity handle, in a vector indexed by the handle (as Cranelift's
//! `SecondaryMap`). Handles are dense arena indices, so a pass that keeps a fact per op, block,
//! value or identifier reads a slot next to the previous one where a hash map would hash and
//! probe (a cache miss per lookup once it outgrows the caches).
//!
//! Every key has a value: keys never written read as the map's default, and a write past the
//! end grows the vector (filling with the default). So the memory follows the largest key
//! written, not the number of keys: use a hash map for a few keys of a large arena.

use crate::entity::{Attribute, BlockId, Ident, Location, OpId, OpName, RegionId, Type, Value};
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A handle that is an index into a dense arena: the keys of [`EntityMap`] and
/// [`crate::entity_set::EntitySet`]. Sealed: only qd-ir's handles are entities.
pub trait EntityRef: Copy + sealed::FromIndex {
    /// The arena index of the handle.
    fn index(self) -> usize;
}

pub(crate) mod sealed {
    /// Makes a handle from its index (for iteration).
    pub trait FromIndex {
        fn from_index(i: usize) -> Self;
    }
}

macro_rules! entity_ref {
    ($($t:ident),*) => {$(
        impl EntityRef for $t {
            #[inline]
            fn index(self) -> usize {
                $t::index(self)
            }
        }
        impl sealed::FromIndex for $t {
            #[inline]
            fn from_index(i: usize) -> Self {
                $t::from_index(i)
            }
        }
    )*};
}

entity_ref!(OpId, BlockId, RegionId, Value, Type, Attribute, Location, Ident, OpName);

/// A value per key, `default` where none was written; see the module docs.
#[derive(Clone, Debug)]
pub struct EntityMap<K, V> {
    elems: Vec<V>,
    default: V,
    _key: PhantomData<fn(K)>,
}

impl<K: EntityRef, V: Clone + Default> Default for EntityMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V: Clone> EntityMap<K, V> {
    /// An empty map whose absent keys read as `V::default()`.
    pub fn new() -> Self
    where
        V: Default,
    {
        Self::with_default(V::default())
    }

    /// An empty map whose absent keys read as `default`.
    pub fn with_default(default: V) -> Self {
        EntityMap {
            elems: Vec::new(),
            default,
            _key: PhantomData,
        }
    }

    /// An empty map with room for keys below `n` (an arena's slot count, such as
    /// [`crate::Context::num_op_slots`]) before it grows.
    pub fn with_capacity(n: usize) -> Self
    where
        V: Default,
    {
        let mut m = Self::new();
        m.elems.reserve(n);
        m
    }

    /// The value of `k` (the default when none was written).
    #[inline]
    pub fn get(&self, k: K) -> &V {
        self.elems.get(k.index()).unwrap_or(&self.default)
    }

    /// The value of `k`, to change in place; grows the map to hold `k`.
    #[inline]
    pub fn get_mut(&mut self, k: K) -> &mut V {
        let i = k.index();
        if i >= self.elems.len() {
            self.grow_to(i + 1);
        }
        &mut self.elems[i]
    }

    /// Sets the value of `k`; returns the one it had (the default when none was written).
    #[inline]
    pub fn insert(&mut self, k: K, v: V) -> V {
        std::mem::replace(self.get_mut(k), v)
    }

    /// Sets `k` back to the default; returns the value it had.
    pub fn remove(&mut self, k: K) -> V {
        match self.elems.get_mut(k.index()) {
            Some(slot) => std::mem::replace(slot, self.default.clone()),
            None => self.default.clone(),
        }
    }

    /// The value absent keys read as.
    pub fn default_value(&self) -> &V {
        &self.default
    }

    /// How many keys have a slot (every key below this one): an upper bound of the keys written.
    pub fn slots(&self) -> usize {
        self.elems.len()
    }

    /// Every key to the default (the memory is kept for reuse).
    pub fn clear(&mut self) {
        self.elems.clear();
    }

    /// `(key, value)` for every key with a slot, in index order: the keys written and those
    /// below them, which hold the default.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (K, &V)> + ExactSizeIterator + '_ {
        self.elems
            .iter()
            .enumerate()
            .map(|(i, v)| (K::from_index(i), v))
    }

    /// Grows to `n` slots; the new ones hold the default. Out of line: the hot paths only
    /// check the length.
    #[cold]
    fn grow_to(&mut self, n: usize) {
        // At least doubling, so that keys written in ascending order cost amortised O(1).
        let n = n.max(self.elems.len() * 2);
        self.elems.resize(n, self.default.clone());
    }
}

impl<K: EntityRef, V: Clone> Index<K> for EntityMap<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, k: K) -> &V {
        self.get(k)
    }
}

impl<K: EntityRef, V: Clone> IndexMut<K> for EntityMap<K, V> {
    /// Grows the map to hold `k`, as [`EntityMap::get_mut`].
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        self.get_mut(k)
    }
}

#[cfg(test)]
#[path = "entity_map_tests.rs"]
mod tests;
