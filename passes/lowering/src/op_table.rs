//! [`OpTable`]: what the pass knows per op of one kernel, asked for once or twice per op. The
//! ops of a kernel were mostly created together (parsed, or built by one pass), so their arena
//! indices span little more than their count: the table is then a vector over that span, which
//! the conversion reads in about the order it was filled (pre-order), instead of a hash map whose
//! every lookup in a million-op kernel is a cache miss. Spread-out kernels get a hash map.
//!
//! The span's slots only point into a vector of the values, in insertion order, and are
//! allocated zeroed (0: no value): the allocator hands out fresh pages of a big zeroed block
//! without writing them, so a table of a few entries over a million-op span (the field
//! accesses of a long chain) touches only the pages its entries fall in, where one written
//! from end to end took a page fault per 4 KiB of it.

use qd_ir::fast_hash::FastMap;
use qd_ir::OpId;

/// A dense span may hold this many slots per op of the kernel (plus a constant); a kernel
/// spread wider uses the hash map alone.
const SLOTS_PER_OP: usize = 4;
const SLACK: usize = 1024;

#[derive(Clone, Debug)]
pub struct OpTable<T> {
    /// Ops of index `lo..hi` have a slot, at `index - lo`: 1 + the position of their value in
    /// `values`, or 0. Any other op is in `others`.
    lo: usize,
    hi: usize,
    slots: Vec<u32>,
    values: Vec<T>,
    others: FastMap<OpId, T>,
}

impl<T> Default for OpTable<T> {
    fn default() -> Self {
        OpTable {
            lo: 0,
            hi: 0,
            slots: Vec::new(),
            values: Vec::new(),
            others: FastMap::default(),
        }
    }
}

impl<T: Copy> OpTable<T> {
    /// An empty table for `ops` (the ops it will hold): dense over their span when it is
    /// compact.
    pub fn for_ops(ops: &[OpId]) -> Self {
        let lo = ops.iter().map(|o| o.index()).min();
        let hi = ops.iter().map(|o| o.index()).max();
        match (lo, hi) {
            (Some(lo), Some(hi)) if hi - lo < ops.len() * SLOTS_PER_OP + SLACK => OpTable {
                lo,
                hi: hi + 1,
                ..Default::default()
            },
            _ => Self::default(),
        }
    }

    fn slot(&self, op: OpId) -> Option<usize> {
        (self.lo..self.hi)
            .contains(&op.index())
            .then(|| op.index() - self.lo)
    }

    /// Records `v` for `op`, replacing an earlier value.
    pub fn insert(&mut self, op: OpId, v: T) {
        let Some(i) = self.slot(op) else {
            self.others.insert(op, v);
            return;
        };
        if self.slots.is_empty() {
            // The whole span at once, zeroed by the allocator (see the module doc).
            self.slots = vec![0; self.hi - self.lo];
        }
        match self.slots[i] {
            0 => {
                self.values.push(v);
                self.slots[i] = u32::try_from(self.values.len()).expect("op table overflow");
            }
            at => self.values[at as usize - 1] = v,
        }
    }

    pub fn get(&self, op: OpId) -> Option<T> {
        match self.slot(op) {
            Some(i) => match self.slots.get(i).copied().unwrap_or(0) {
                0 => None,
                at => Some(self.values[at as usize - 1]),
            },
            None => self.others.get(&op).copied(),
        }
    }
}
