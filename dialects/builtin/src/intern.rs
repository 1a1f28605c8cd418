//! A minimal interner: equal data gets the same handle (an index).
//!
//! Each interned type picks its table ([`Intern::Table`]): [`SetTable`], a hash set hashed with
//! [`FastBuild`](crate::fast_hash::FastBuild), not SipHash, for types, attributes and names; and
//! [`crate::location::LocTable`] for locations, which parsing interns one per op.

use crate::fast_hash::FastBuild;
use indexmap::IndexSet;
use std::hash::Hash;

/// The storage of one kind of interned data.
pub(crate) trait InternTable<T>: Default {
    /// The index of `data`, added if new.
    fn intern(&mut self, data: T) -> usize;
    /// The data at `index` (from [`InternTable::intern`]).
    fn get(&self, index: usize) -> &T;
}

/// Data that can be interned, and the table it is kept in.
pub(crate) trait Intern: Sized {
    type Table: InternTable<Self>;
}

pub(crate) struct Interner<T: Intern> {
    table: T::Table,
}

impl<T: Intern> Default for Interner<T> {
    fn default() -> Self {
        Interner {
            table: T::Table::default(),
        }
    }
}

impl<T: Intern> Interner<T> {
    pub(crate) fn intern(&mut self, data: T) -> usize {
        self.table.intern(data)
    }
    pub(crate) fn get(&self, index: usize) -> &T {
        self.table.get(index)
    }
}

impl Interner<String> {
    pub(crate) fn lookup(&self, name: &str) -> Option<usize> {
        self.table.set.get_index_of(name)
    }
}

/// A hash set of the data; the index is the insertion order.
pub(crate) struct SetTable<T> {
    set: IndexSet<T, FastBuild>,
}

impl<T> Default for SetTable<T> {
    fn default() -> Self {
        SetTable {
            set: IndexSet::default(),
        }
    }
}

impl<T: Hash + Eq> InternTable<T> for SetTable<T> {
    fn intern(&mut self, data: T) -> usize {
        self.set.insert_full(data).0
    }
    fn get(&self, index: usize) -> &T {
        &self.set[index]
    }
}

impl Intern for crate::types::TypeData {
    type Table = SetTable<Self>;
}
impl Intern for crate::attributes::AttrData {
    type Table = SetTable<Self>;
}
impl Intern for String {
    type Table = SetTable<Self>;
}
