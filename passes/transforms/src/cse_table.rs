//! The table of ops a CSE scope knows, for scopes in CFG regions: ops by a home bucket (that the
//! caller picks) and their key's hash; the caller compares keys through the IR.
//!
//! A million-op block makes a table larger than the caches; with ops spread at random each op
//! costs a cache miss or two, which made the pass's time per op double from 100k to 1M ops. So
//! the caller picks an op's home by its newest operand (its *anchor*, in practice defined a few
//! ops before it; see `cse.rs`): [`local_home`] gives consecutive anchors consecutive buckets,
//! so consecutive ops touch the same few cache lines.
//!
//! The table is one flat array of buckets of a cache line each, sized once for the block (a
//! scope holds at most one entry per op of its block) and reused from block to block: a table
//! of hash maps, one per group of anchors with a vector per hash, cost an allocation per op
//! and made most of the pass's time on big blocks. An op goes to the first bucket with room
//! among its home and the next few; past those (a crowd no placement by anchor spreads) to a
//! hash map, so that no sequence of ops makes a lookup scan more than a few buckets.

use qd_ir::fast_hash::FastMap;
use qd_ir::OpId;

/// Entries per bucket: eight of 8 bytes, a cache line.
const SLOTS: usize = 8;

/// Buckets an op may go to, from its home on.
const PROBES: usize = 4;

/// The home of an op whose anchor is value index `anchor`.
pub(crate) fn local_home(anchor: usize) -> usize {
    anchor
}

/// The home of an op from the hash of its key alone.
pub(crate) fn hashed_home(hash: u64) -> usize {
    (hash >> 32) as usize
}

/// The memory of a table that ended, cleared.
#[derive(Default)]
pub(crate) struct Spare {
    slots: Vec<u64>,
    ops: Vec<OpId>,
}

/// Known ops by home bucket and hash.
pub(crate) struct KnownOps {
    /// Buckets of [`SLOTS`] entries from `start` on, each entry `tag << 32 | (k + 1)` for the
    /// op `ops[k]` (the tag: the low half of the key's hash), 0 when free; a bucket fills from
    /// the front. Taken at the first insert (a scope of a big block may hold nothing: the
    /// module's, around kernels).
    slots: Vec<u64>,
    /// The ops in the buckets, in insertion order.
    ops: Vec<OpId>,
    /// Where the first bucket starts in `slots`: on a cache line.
    start: usize,
    /// Whether `slots` holds the table yet.
    allocated: bool,
    /// Buckets - 1 (a power of two).
    mask: usize,
    /// Ops the table is for.
    n: usize,
    /// Ops whose home and the buckets after it were full, by hash.
    overflow: FastMap<u64, Vec<OpId>>,
}

impl KnownOps {
    /// A table for `n` ops at most.
    #[cfg(test)]
    pub(crate) fn new(n: usize) -> KnownOps {
        KnownOps::reusing(n, Spare::default())
    }

    /// A table for `n` ops at most, in the memory of an ended one (from
    /// [`KnownOps::into_spare`]) where it is large enough.
    pub(crate) fn reusing(n: usize, spare: Spare) -> KnownOps {
        // Room for every op of the block (in a block of n ops whose results are the next
        // ops' anchors, n/8 buckets hold at most about eight each), at most half of it unused:
        // each fresh page the table touches costs a page fault, which made most of the first
        // run on a million-op block with room for twice as many.
        let buckets = n.div_ceil(SLOTS).max(1).next_power_of_two();
        KnownOps {
            slots: spare.slots,
            ops: spare.ops,
            start: 0,
            allocated: false,
            mask: buckets - 1,
            n,
            overflow: FastMap::default(),
        }
    }

    /// Takes the table's memory: at the first insert.
    fn allocate(&mut self) {
        let len = (self.mask + 1) * SLOTS + SLOTS - 1;
        if self.slots.len() < len {
            // Zeroed memory: fresh pages are zero already and cost only where touched.
            self.slots = vec![0; len];
        }
        let entry = std::mem::size_of::<u64>();
        let misaligned = self.slots.as_ptr() as usize % (SLOTS * entry) / entry;
        self.start = (SLOTS - misaligned) % SLOTS;
        self.allocated = true;
        // Sized once: grown by doubling, a big block's list was copied over and over.
        self.ops.reserve(self.n);
    }

    /// The table's memory, cleared, for [`KnownOps::reusing`].
    pub(crate) fn into_spare(mut self) -> Spare {
        if self.allocated {
            let used = self.start..self.start + (self.mask + 1) * SLOTS;
            self.slots[used].fill(0);
        }
        self.ops.clear();
        Spare {
            slots: self.slots,
            ops: self.ops,
        }
    }

    /// Entries in the table's memory (to decide whether to keep it).
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    fn bucket(&self, home: usize, k: usize) -> &[u64] {
        let b = home.wrapping_add(k) & self.mask;
        &self.slots[self.start + b * SLOTS..][..SLOTS]
    }

    /// The first op inserted at `home` with `hash` for which `same` holds, in insertion order.
    pub(crate) fn find(
        &self,
        home: usize,
        hash: u64,
        mut same: impl FnMut(OpId) -> bool,
    ) -> Option<OpId> {
        if !self.allocated {
            return None;
        }
        let tag = hash as u32;
        for k in 0..PROBES {
            for &e in self.bucket(home, k) {
                if e == 0 {
                    // A bucket with room ends the sequence: the op would be here or before.
                    return None;
                }
                if (e >> 32) as u32 == tag {
                    let op = self.ops[(e as u32 - 1) as usize];
                    if same(op) {
                        return Some(op);
                    }
                }
            }
        }
        let crowd = self.overflow.get(&hash)?;
        crowd.iter().copied().find(|&o| same(o))
    }

    pub(crate) fn insert(&mut self, home: usize, hash: u64, op: OpId) {
        if !self.allocated {
            self.allocate();
        }
        let entry = (hash as u32 as u64) << 32 | (self.ops.len() as u64 + 1);
        for k in 0..PROBES {
            let b = home.wrapping_add(k) & self.mask;
            let bucket = &mut self.slots[self.start + b * SLOTS..][..SLOTS];
            if let Some(free) = bucket.iter_mut().find(|e| **e == 0) {
                *free = entry;
                self.ops.push(op);
                return;
            }
        }
        self.overflow.entry(hash).or_default().push(op);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(n: usize) -> Vec<OpId> {
        let mut ctx = qd_ir::Context::new();
        ctx.allow_unregistered = true;
        let loc = ctx.unknown_loc();
        (0..n)
            .map(|_| ctx.create_op(qd_ir::OperationState::new("t.op", loc)))
            .collect()
    }

    #[test]
    fn finds_every_op_of_a_crowded_home_by_hash_and_key() {
        let ops = ops(200);
        let mut t = KnownOps::new(2);
        // 100 ops at one home, more than its buckets hold (so some overflow), with 3 hashes;
        // others spread around it.
        for i in 0..100u64 {
            t.insert(7, i % 3, ops[i as usize]);
            t.insert(i as usize * 5, 1 << 32 | 1, ops[100 + i as usize]);
        }
        for i in 0..100 {
            // The op is told apart from the others under its hash by `same` (the key).
            assert_eq!(t.find(7, i as u64 % 3, |o| o == ops[i]), Some(ops[i]));
            let spread = ops[100 + i];
            assert_eq!(t.find(i * 5, 1 << 32 | 1, |o| o == spread), Some(spread));
        }
        // The first match in insertion order (ops[100] has the same tag, another hash, and is
        // told apart by `same` only); none for another hash.
        assert_eq!(t.find(7, 1, |o| ops[..100].contains(&o)), Some(ops[1]));
        assert_eq!(t.find(7, 1, |_| true), Some(ops[100]));
        assert_eq!(t.find(7, 5, |_| true), None);
    }

    #[test]
    fn homes_that_wrap_around_share_buckets_and_stay_apart() {
        let ops = ops(2);
        let mut t = KnownOps::new(1 << 12);
        t.insert(3, 9, ops[0]);
        t.insert(3 + (1 << 10), 9, ops[1]);
        assert_eq!(t.find(3, 9, |o| o == ops[1]), Some(ops[1]));
        assert_eq!(t.find(3 + (1 << 10), 9, |o| o == ops[0]), Some(ops[0]));
        assert_eq!(t.find(4, 9, |_| true), None);
    }

    #[test]
    fn reused_memory_starts_empty() {
        let ops = ops(40);
        let mut t = KnownOps::new(64);
        for (i, &o) in ops.iter().enumerate() {
            t.insert(i, i as u64, o);
        }
        let spare = t.into_spare();
        assert!(spare.slots.iter().all(|&e| e == 0) && spare.ops.is_empty());
        let mut t = KnownOps::reusing(8, spare);
        assert!(!t.slots.is_empty(), "the memory is kept");
        assert!((0..40).all(|i| t.find(i, i as u64, |_| true).is_none()));
        t.insert(5, 5, ops[5]);
        assert_eq!(t.find(5, 5, |_| true), Some(ops[5]));
    }

    #[test]
    fn memory_is_taken_at_the_first_insert_and_buckets_lie_on_cache_lines() {
        let ops = ops(1);
        for n in [1, 7, 100, 5000] {
            let mut t = KnownOps::new(n);
            assert!(t.slots.is_empty() && t.find(0, 0, |_| true).is_none());
            t.insert(n, 3, ops[0]);
            let first = &t.slots[t.start] as *const u64 as usize;
            assert_eq!(first % 64, 0);
            assert!(t.start + (t.mask + 1) * SLOTS <= t.slots.len());
            assert_eq!(t.find(n, 3, |_| true), Some(ops[0]));
        }
    }
}
