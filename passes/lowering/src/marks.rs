//! [`ValueMarks`]: the values found so far to be defined inside a region being walked (a loop
//! the precheck checks, a task being isolated), one bit per value. An operand is mostly found
//! there without reading its definition: in a gradient kernel the reverse sweep reads the
//! forward values in reverse, and on a million-op kernel each definition read (the value's
//! record, then its op's) waits on memory, where the bits (an eighth of a byte per value) stay
//! in cache.
//!
//! One set serves the whole pass, emptied after each region: by unmarking the values marked
//! while they are few (a kernel of many small loops must not pay the size of the value arena
//! per loop), else by zeroing the words between the lowest and highest marked (at most the
//! whole set once per [`LISTED`] marks).

use qd_ir::{Context, OpId, Value};

/// Marks recorded one by one before the set is emptied by range instead.
const LISTED: usize = 4096;

#[derive(Default)]
pub struct ValueMarks {
    words: Vec<u64>,
    /// The values marked since the last clear, while there are at most `LISTED`.
    listed: Vec<Value>,
    /// The words written since the last clear: `lo..hi`.
    lo: usize,
    hi: usize,
}

impl ValueMarks {
    #[inline]
    pub fn contains(&self, v: Value) -> bool {
        let i = v.index();
        self.words
            .get(i / 64)
            .is_some_and(|&w| w & (1 << (i % 64)) != 0)
    }

    #[inline]
    pub fn mark(&mut self, v: Value) {
        let (w, bit) = (v.index() / 64, 1u64 << (v.index() % 64));
        if w >= self.words.len() {
            // At least doubling: growing to the arena costs amortised O(1) a mark.
            let n = (w + 1).max(self.words.len() * 2);
            self.words.resize(n, 0);
        }
        if self.words[w] & bit != 0 {
            return;
        }
        self.words[w] |= bit;
        if self.hi == 0 {
            (self.lo, self.hi) = (w, w + 1);
        } else {
            (self.lo, self.hi) = (self.lo.min(w), self.hi.max(w + 1));
        }
        if self.listed.len() <= LISTED {
            self.listed.push(v);
        }
    }

    /// Marks the results of `op` and the arguments of the blocks of its regions.
    pub fn mark_defined_by(&mut self, ctx: &Context, op: OpId) {
        for &r in ctx.results(op) {
            self.mark(r);
        }
        if ctx.has_regions(op) {
            for &r in ctx.regions(op) {
                for &b in ctx.region_blocks(r) {
                    for &a in ctx.block_args(b) {
                        self.mark(a);
                    }
                }
            }
        }
    }

    /// Unmarks every value.
    pub fn clear(&mut self) {
        if self.listed.len() <= LISTED {
            for v in self.listed.drain(..) {
                self.words[v.index() / 64] = 0;
            }
        } else {
            self.words[self.lo..self.hi].fill(0);
            self.listed.clear();
        }
        (self.lo, self.hi) = (0, 0);
    }
}
