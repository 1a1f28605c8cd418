//! [`OpTable`]: what the pass knows per op of one kernel, asked for once or twice per op. The
//! ops of a kernel were mostly created together (parsed, or built by one pass), so their arena
//! indices span little more than their count: the table is then a vector over that span, which
//! the conversion reads in about the order it was filled (pre-order), instead of a hash map whose
//! every lookup in a million-op kernel is a cache miss. Spread-out kernels get a hash map.

use qd_ir::fast_hash::FastMap;
use qd_ir::OpId;

/// A dense span may hold this many slots per op of the kernel (plus a constant); a kernel
/// spread wider uses the hash map alone.
const SLOTS_PER_OP: usize = 4;
const SLACK: usize = 1024;

#[derive(Clone, Debug)]
pub struct OpTable<T> {
    /// Ops of index `lo..hi` are in `slots`, at `index - lo`; any other op in `others`.
    lo: usize,
    hi: usize,
    slots: Vec<Option<T>>,
    others: FastMap<OpId, T>,
}

impl<T> Default for OpTable<T> {
    fn default() -> Self {
        OpTable {
            lo: 0,
            hi: 0,
            slots: Vec::new(),
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
        match self.slot(op) {
            Some(i) => {
                if i >= self.slots.len() {
                    // The whole span at once (pages are only touched as slots are written),
                    // rather than copied at each doubling.
                    self.slots
                        .reserve_exact(self.hi - self.lo - self.slots.len());
                    self.slots.resize(i + 1, None);
                }
                self.slots[i] = Some(v);
            }
            None => {
                self.others.insert(op, v);
            }
        }
    }

    pub fn get(&self, op: OpId) -> Option<T> {
        match self.slot(op) {
            Some(i) => self.slots.get(i).copied().flatten(),
            None => self.others.get(&op).copied(),
        }
    }
}
