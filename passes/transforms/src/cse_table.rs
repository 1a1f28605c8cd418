//! The table of ops a CSE scope knows, for scopes in CFG regions: ops by a window (a bucket the
//! caller picks) and a tag from their key's hash; the caller compares keys through the IR.
//!
//! A million-op block makes a table larger than the caches; with ops spread at random each op
//! costs a cache miss or two, which made the pass's time per op double from 100k to 1M ops. So
//! the caller picks an op's window by its newest operand (its *anchor*, in practice defined a
//! few ops before it; see `cse.rs`): [`local_window`] gives ops with nearby anchors the same or
//! nearby windows, so consecutive ops touch the same few cache lines. Each window is a table of
//! its own that grows with what it holds, so that any number of ops may share one (the loads of
//! a kernel first, then several ops on each: many ops per anchor in one stretch of windows) at
//! no more than a hash probe each.

use qd_ir::fast_hash::FastMap;
use qd_ir::OpId;

/// How many consecutive anchors share a window.
const ANCHORS_PER_WINDOW: usize = 16;

/// A window holding more ops than this is a hash map by tag; fewer are scanned.
const FEW: usize = 16;

/// The window of an op whose anchor is value index `anchor`.
pub(crate) fn local_window(anchor: usize) -> usize {
    anchor / ANCHORS_PER_WINDOW
}

/// The window of an op from the hash of its key alone.
pub(crate) fn hashed_window(hash: u64) -> usize {
    (hash >> 32) as usize
}

/// The tag of an op's key, compared before the key itself.
pub(crate) fn tag(hash: u64) -> u32 {
    hash as u32
}

enum Window {
    Few(Vec<(u32, OpId)>),
    Many(FastMap<u32, Vec<OpId>>),
}

/// Ops by window and tag.
pub(crate) struct KnownOps {
    windows: Vec<Window>,
}

impl KnownOps {
    /// A table for about `n` ops (a window per [`ANCHORS_PER_WINDOW`] of them; any number fit).
    pub(crate) fn new(n: usize) -> KnownOps {
        let count = (n / ANCHORS_PER_WINDOW).next_power_of_two();
        KnownOps {
            windows: (0..count).map(|_| Window::Few(Vec::new())).collect(),
        }
    }

    fn window(&self, w: usize) -> &Window {
        &self.windows[w & (self.windows.len() - 1)]
    }

    /// The ops inserted in window `w` with tag `tag` (and maybe others: the caller compares
    /// keys), in insertion order.
    pub(crate) fn candidates(&self, w: usize, tag: u32) -> impl Iterator<Item = OpId> + '_ {
        let (few, many): (&[(u32, OpId)], &[OpId]) = match self.window(w) {
            Window::Few(v) => (v, &[]),
            Window::Many(m) => (&[], m.get(&tag).map_or(&[][..], |v| v.as_slice())),
        };
        few.iter()
            .filter(move |e| e.0 == tag)
            .map(|e| e.1)
            .chain(many.iter().copied())
    }

    pub(crate) fn insert(&mut self, w: usize, tag: u32, op: OpId) {
        let mask = self.windows.len() - 1;
        let window = &mut self.windows[w & mask];
        match window {
            Window::Few(v) if v.len() < FEW => v.push((tag, op)),
            Window::Few(v) => {
                let mut m: FastMap<u32, Vec<OpId>> = FastMap::default();
                for &(t, o) in v.iter() {
                    m.entry(t).or_default().push(o);
                }
                m.entry(tag).or_default().push(op);
                *window = Window::Many(m);
            }
            Window::Many(m) => m.entry(tag).or_default().push(op),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_op_with_the_window_and_tag_in_a_crowded_window() {
        let mut ctx = qd_ir::Context::new();
        ctx.allow_unregistered = true;
        let loc = ctx.unknown_loc();
        let ops: Vec<OpId> = (0..200)
            .map(|_| ctx.create_op(qd_ir::OperationState::new("t.op", loc)))
            .collect();
        let mut t = KnownOps::new(2);
        // Many ops in one window (past FEW, so kept by tag) and others spread around it.
        for i in 0..100u32 {
            t.insert(7, i % 3, ops[i as usize]);
            t.insert(i as usize * 5, 1, ops[100 + i as usize]);
        }
        let want: Vec<OpId> = (0..100).filter(|i| i % 3 == 1).map(|i| ops[i]).collect();
        // A table of one window: every op is in it.
        let all: Vec<OpId> = t.candidates(7, 1).collect();
        assert_eq!(all.len(), want.len() + 100);
        assert!(want.iter().all(|o| all.contains(o)));
        assert_eq!(t.candidates(8, 5).count(), 0);
        let mut t = KnownOps::new(1 << 12);
        t.insert(3, 9, ops[0]);
        t.insert(3 + (1 << 8), 9, ops[1]);
        assert_eq!(t.candidates(3, 9).collect::<Vec<_>>(), [ops[0], ops[1]]);
        assert_eq!(t.candidates(4, 9).count(), 0);
    }

    #[test]
    fn nearby_anchors_share_a_window() {
        assert_eq!(local_window(1_000_000), local_window(1_000_001));
        assert_eq!(local_window(5), local_window(5));
    }
}
