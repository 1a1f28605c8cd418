//! The table of ops a CSE scope knows, for scopes in CFG regions: open addressing over slots
//! (where the op would go, a tag from its key's hash, the op), looked up by a position and a tag
//! and compared by the caller through the IR.
//!
//! A million-op block makes a table of millions of slots, larger than the caches; with positions
//! spread at random each op costs a cache miss or two, which made the pass's time per op double
//! from 100k to 1M ops. So the caller places an op near the other users' of its newest operand
//! (its *anchor*, in practice defined a few ops before it; see `cse.rs`): [`local_pos`] gives
//! ops with nearby anchors nearby slots, so consecutive ops touch the same few cache lines. An
//! anchor with many users would crowd one window; the caller places those users at a hashed
//! position instead ([`hashed_pos`]).

use qd_ir::OpId;

#[derive(Clone, Copy)]
struct Slot {
    pos: u32,
    tag: u32,
    op: OpId,
}

/// Ops by position and tag; linear probing from each op's position, at most half full.
pub(crate) struct KnownOps {
    slots: Vec<Option<Slot>>,
    len: usize,
}

/// How many consecutive anchors share a window, and the slots of a window (half full when each
/// anchor has one user).
const ANCHORS_PER_WINDOW: u64 = 16;
const WINDOW_SLOTS: u64 = 32;

/// The position of an op whose anchor is value index `anchor`, with `hash` the hash of its key:
/// the window of the anchor, at a place in it that the hash picks.
pub(crate) fn local_pos(anchor: usize, hash: u64) -> u32 {
    let window = anchor as u64 / ANCHORS_PER_WINDOW;
    (window
        .wrapping_mul(WINDOW_SLOTS)
        .wrapping_add((hash >> 32) % WINDOW_SLOTS)) as u32
}

/// The position of an op from the hash of its key alone.
pub(crate) fn hashed_pos(hash: u64) -> u32 {
    (hash >> 32) as u32
}

/// The tag of an op's key, compared before the key itself.
pub(crate) fn tag(hash: u64) -> u32 {
    hash as u32
}

impl KnownOps {
    /// A table for about `n` ops (it grows past that).
    pub(crate) fn new(n: usize) -> KnownOps {
        KnownOps {
            slots: vec![None; (2 * n).next_power_of_two().max(16)],
            len: 0,
        }
    }

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// The ops at or after position `pos` whose tag is `tag`, up to the first empty slot: every
    /// op inserted with that position and tag is among them.
    pub(crate) fn candidates(&self, pos: u32, tag: u32) -> impl Iterator<Item = OpId> + '_ {
        let mask = self.mask();
        let start = pos as usize & mask;
        (0..self.slots.len())
            .map_while(move |i| self.slots[(start + i) & mask])
            .filter(move |s| s.tag == tag && s.pos == pos)
            .map(|s| s.op)
    }

    pub(crate) fn insert(&mut self, pos: u32, tag: u32, op: OpId) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        self.put(Slot { pos, tag, op });
        self.len += 1;
    }

    fn put(&mut self, slot: Slot) {
        let mask = self.mask();
        let mut i = slot.pos as usize & mask;
        while self.slots[i].is_some() {
            i = (i + 1) & mask;
        }
        self.slots[i] = Some(slot);
    }

    fn grow(&mut self) {
        let bigger = vec![None; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        for s in old.into_iter().flatten() {
            self.put(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_op_with_the_position_and_tag_across_growth() {
        let mut ctx = qd_ir::Context::new();
        ctx.allow_unregistered = true;
        let loc = ctx.unknown_loc();
        let ops: Vec<OpId> = (0..200)
            .map(|_| ctx.create_op(qd_ir::OperationState::new("t.op", loc)))
            .collect();
        let mut t = KnownOps::new(2);
        // Many ops on one position (a crowded window) and others spread around it.
        for i in 0..100u32 {
            t.insert(7, i % 3, ops[i as usize]);
            t.insert(i * 5, 1, ops[100 + i as usize]);
        }
        let mut got: Vec<OpId> = t.candidates(7, 1).collect();
        got.sort();
        let want: Vec<OpId> = (0..100).filter(|i| i % 3 == 1).map(|i| ops[i]).collect();
        assert_eq!(got, want);
        assert_eq!(t.candidates(35, 1).collect::<Vec<_>>(), [ops[107]]);
        assert_eq!(t.candidates(8, 5).count(), 0);
    }

    #[test]
    fn nearby_anchors_get_nearby_positions() {
        let a = local_pos(1_000_000, 0x1234_5678_9abc_def0);
        let b = local_pos(1_000_001, 0xfedc_ba98_7654_3210);
        assert!(a.abs_diff(b) < 2 * WINDOW_SLOTS as u32, "{a} {b}");
        // The same key in the same window has one position.
        assert_eq!(local_pos(5, 99 << 32), local_pos(5, 99 << 32));
    }
}
