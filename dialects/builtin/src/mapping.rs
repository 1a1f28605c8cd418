//! [`IRMapping`]: what a clone maps each original value, block and op to (MLIR's `IRMapping`).
//!
//! Cloning consults the mapping for every operand and successor and records every result,
//! block argument, block and op it creates, so a caller can pre-seed it (to substitute values,
//! e.g. block arguments by actual values) and read it afterwards (to find the clone of a value).
//! A value, block or op that is not mapped stands for itself, which is what lets a cloned region
//! keep using the values it captures from above.

use crate::entity::{BlockId, OpId, Value};
use std::collections::HashMap;
use std::hash::Hash;

/// An entity an [`IRMapping`] can map: values, blocks and ops, each in its own table.
pub trait Mappable: Copy + Eq + Hash {
    #[doc(hidden)]
    fn table(m: &IRMapping) -> &HashMap<Self, Self>;
    #[doc(hidden)]
    fn table_mut(m: &mut IRMapping) -> &mut HashMap<Self, Self>;
}

/// Original -> replacement, for values, blocks and ops.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IRMapping {
    values: HashMap<Value, Value>,
    blocks: HashMap<BlockId, BlockId>,
    ops: HashMap<OpId, OpId>,
}

impl Mappable for Value {
    fn table(m: &IRMapping) -> &HashMap<Self, Self> {
        &m.values
    }
    fn table_mut(m: &mut IRMapping) -> &mut HashMap<Self, Self> {
        &mut m.values
    }
}

impl Mappable for BlockId {
    fn table(m: &IRMapping) -> &HashMap<Self, Self> {
        &m.blocks
    }
    fn table_mut(m: &mut IRMapping) -> &mut HashMap<Self, Self> {
        &mut m.blocks
    }
}

impl Mappable for OpId {
    fn table(m: &IRMapping) -> &HashMap<Self, Self> {
        &m.ops
    }
    fn table_mut(m: &mut IRMapping) -> &mut HashMap<Self, Self> {
        &mut m.ops
    }
}

impl IRMapping {
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `from` to `to`, replacing an earlier mapping of `from`.
    pub fn map<T: Mappable>(&mut self, from: T, to: T) {
        T::table_mut(self).insert(from, to);
    }

    /// Maps each of `from` to the value at the same position in `to`.
    pub fn map_all<T: Mappable>(&mut self, from: &[T], to: &[T]) {
        assert_eq!(from.len(), to.len(), "IRMapping::map_all: length mismatch");
        for (&f, &t) in from.iter().zip(to) {
            self.map(f, t);
        }
    }

    /// What `from` is mapped to, if it is.
    pub fn lookup<T: Mappable>(&self, from: T) -> Option<T> {
        T::table(self).get(&from).copied()
    }

    /// What `from` is mapped to, or `from` itself.
    pub fn lookup_or_default<T: Mappable>(&self, from: T) -> T {
        self.lookup_or(from, from)
    }

    /// What `from` is mapped to, or `default`.
    pub fn lookup_or<T: Mappable>(&self, from: T, default: T) -> T {
        self.lookup(from).unwrap_or(default)
    }

    pub fn contains<T: Mappable>(&self, from: T) -> bool {
        T::table(self).contains_key(&from)
    }

    /// Forgets the mapping of `from`.
    pub fn erase<T: Mappable>(&mut self, from: T) {
        T::table_mut(self).remove(&from);
    }

    pub fn clear(&mut self) {
        self.values.clear();
        self.blocks.clear();
        self.ops.clear();
    }

    /// Number of mapped values.
    pub fn num_values(&self) -> usize {
        self.values.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_lookup_and_defaults() {
        let (a, b, c) = (Value(0), Value(1), Value(2));
        let mut m = IRMapping::new();
        assert_eq!(m.lookup(a), None);
        assert_eq!(m.lookup_or_default(a), a);
        m.map(a, b);
        assert!(m.contains(a) && !m.contains(b));
        assert_eq!(m.lookup(a), Some(b));
        assert_eq!(m.lookup_or(c, a), a);
        m.map(a, c);
        assert_eq!(
            m.lookup_or_default(a),
            c,
            "a later mapping replaces an earlier one"
        );
        // Values, blocks and ops live in separate tables.
        m.map(BlockId(0), BlockId(5));
        assert_eq!(m.lookup(BlockId(0)), Some(BlockId(5)));
        assert!(!m.contains(OpId(0)));
        m.map_all(&[OpId(1), OpId(2)], &[OpId(3), OpId(4)]);
        assert_eq!(m.lookup(OpId(2)), Some(OpId(4)));
        m.erase(a);
        assert!(!m.contains(a));
        assert_eq!(m.num_values(), 0);
        m.clear();
        assert!(!m.contains(BlockId(0)));
    }
}
