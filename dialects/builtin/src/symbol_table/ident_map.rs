//! [`IdentMap`]: the ops of a symbol table by the identifiers of their names.
//!
//! A module's symbols are mostly named by identifiers interned one after another as it was
//! parsed, and its references resolve in about that order. A vector indexed by the identifier
//! then turns each lookup into a read next to the previous one, where a hash map costs a cache
//! miss per lookup once it outgrows the caches (a quarter of a million fields: several MB). So a
//! table whose identifiers are dense enough is a vector; a sparse one (a few symbols of a large
//! context) stays a hash map, whose size follows the symbols rather than the context.

use crate::entity::{Ident, OpId};
use crate::fast_hash::FastMap;

/// At least one slot in `DENSITY` holds a symbol in a dense table (4 bytes a slot: a dense table
/// costs at most `4 * DENSITY` bytes per symbol, about what a hash map entry costs with its
/// spare capacity).
const DENSITY: usize = 8;
/// Below this many slots a vector is always small enough.
const SMALL: usize = 64;
const EMPTY: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub(super) enum IdentMap {
    Sparse(FastMap<Ident, OpId>),
    /// `OpId` indices by identifier index, `EMPTY` where no symbol has the name.
    Dense {
        slots: Vec<u32>,
        len: usize,
    },
}

impl IdentMap {
    /// An empty map fit for `count` names of which the highest identifier is `max`.
    pub(super) fn with_names(count: usize, max: Option<Ident>) -> Self {
        match max {
            Some(m) if fits_dense(m.index() + 1, count) => IdentMap::Dense {
                slots: vec![EMPTY; m.index() + 1],
                len: 0,
            },
            _ => IdentMap::Sparse(FastMap::default()),
        }
    }

    pub(super) fn get(&self, id: Ident) -> Option<OpId> {
        match self {
            IdentMap::Sparse(m) => m.get(&id).copied(),
            IdentMap::Dense { slots, .. } => match slots.get(id.index()) {
                Some(&s) if s != EMPTY => Some(OpId(s)),
                _ => None,
            },
        }
    }

    /// Maps `id` to `op` (the caller checked it was unmapped).
    pub(super) fn insert(&mut self, id: Ident, op: OpId) {
        if let IdentMap::Dense { slots, len } = self {
            let i = id.index();
            if i >= slots.len() {
                if !fits_dense(i + 1, *len + 1) {
                    self.make_sparse();
                    return self.insert(id, op);
                }
                slots.resize(i + 1, EMPTY);
            }
            slots[i] = op.0;
            *len += 1;
            return;
        }
        if let IdentMap::Sparse(m) = self {
            m.insert(id, op);
        }
    }

    pub(super) fn remove(&mut self, id: Ident) -> Option<OpId> {
        match self {
            IdentMap::Sparse(m) => m.remove(&id),
            IdentMap::Dense { slots, len } => {
                let s = slots.get_mut(id.index()).filter(|s| **s != EMPTY)?;
                let op = OpId(std::mem::replace(s, EMPTY));
                *len -= 1;
                Some(op)
            }
        }
    }

    /// `(identifier, op)` for every entry, in no particular order.
    pub(super) fn iter(&self) -> Box<dyn Iterator<Item = (Ident, OpId)> + '_> {
        match self {
            IdentMap::Sparse(m) => Box::new(m.iter().map(|(&k, &v)| (k, v))),
            IdentMap::Dense { slots, .. } => Box::new(
                slots
                    .iter()
                    .enumerate()
                    .filter(|(_, &s)| s != EMPTY)
                    .map(|(i, &s)| (Ident::from_index(i), OpId(s))),
            ),
        }
    }

    fn make_sparse(&mut self) {
        if let IdentMap::Dense { .. } = self {
            let m = self.iter().collect();
            *self = IdentMap::Sparse(m);
        }
    }

    #[cfg(test)]
    pub(super) fn is_dense(&self) -> bool {
        matches!(self, IdentMap::Dense { .. })
    }
}

fn fits_dense(slots: usize, count: usize) -> bool {
    slots <= SMALL.max(count.saturating_mul(DENSITY))
}
