//! Adstack guards: a debug mode of the `cpu` device that shows whether compiled code ever
//! writes outside a stack's slice (a push at capacity must write nothing; pop and load_top
//! clamp at 0).
//!
//! In the normal layout ([`HeapLayout`]) slices of one row and rows of one heap touch, so a
//! stray write lands in a neighbouring stack's slice or row, inside the same allocation, where
//! neither the program nor valgrind can see it. The two guard modes change only what the
//! device publishes (heap bases, strides, offsets): the compiled code is the same, and still
//! addresses a slice as `heap + row * stride + offset[id]`.
//!
//! - [`AdstackGuard::Canary`]: each heap is still `rows x stride` bytes in one allocation, but
//!   every slice is preceded by [`RED_ZONE`] bytes and each row ends with [`RED_ZONE`] more.
//!   Every byte that is not in a slice (red zones, and the tail padding of a slice to 8 bytes)
//!   holds a known pattern; after each task the device checks them all and reports the first
//!   changed byte as an error naming the kernel, the stack, the worker row and how far from
//!   the slice it lies. Cheap: for the normal test suite.
//! - [`AdstackGuard::Exact`]: each slice of each worker is its own heap allocation of exactly
//!   `8 + depth * entry` bytes, for valgrind's memcheck, which flags any access past such a
//!   block. The heap bases are published as 0 and each worker's offsets as its blocks'
//!   addresses minus `row * stride`, so the code's own `row * stride + offset` arithmetic lands
//!   on the block (wrong strides or rows land elsewhere, where memcheck sees them).
//!
//! The mode comes from [`GUARD_ENV`] (read by [`crate::CpuDevice::new`], so that a test can set
//! it for a `qd-run` child) or from [`crate::CpuDevice::with_adstack_guard`].

use crate::frame::{W_HEAP_FLOAT, W_HEAP_INT, W_STRIDE_FLOAT, W_STRIDE_INT};
use qd_runtime::adstack::layout::{Heap, HeapLayout};
use qd_runtime::adstack::COUNT_HEADER_BYTES;
use std::alloc::Layout;
use std::collections::HashMap;
use std::ptr::NonNull;

/// The environment variable that turns a guard on for `CpuDevice::new`: `canary` or `exact`
/// (`off` or empty: none). For tests and debugging only.
pub const GUARD_ENV: &str = "QD_CPU_ADSTACK_GUARD";

/// Bytes of red zone before each slice and at the end of each row: more than 16 entries of the
/// largest kind (f64 primal + adjoint), so that a write a few entries off stays in it.
pub const RED_ZONE: u64 = 256;

/// The red zones' contents: byte `k` of a heap holds byte `k % 8` of this word. Not a value
/// a kernel plausibly stores (not 0, not a small integer, not an ordinary float).
pub const CANARY: u64 = 0xA5C3_5AF0_0FA5_3CC3;

/// How the `cpu` device lays out adstack heaps.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum AdstackGuard {
    /// The normal layout: slices touch.
    #[default]
    Off,
    /// Red zones of a known pattern around every slice, checked after every task.
    Canary,
    /// Every slice its own allocation of exactly its size, for valgrind.
    Exact,
}

impl AdstackGuard {
    /// `off` (or empty), `canary` or `exact`.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s.trim() {
            "" | "off" => Ok(AdstackGuard::Off),
            "canary" => Ok(AdstackGuard::Canary),
            "exact" => Ok(AdstackGuard::Exact),
            other => Err(format!(
                "{GUARD_ENV}='{other}': expected 'off', 'canary' or 'exact'"
            )),
        }
    }

    /// The mode [`GUARD_ENV`] names ([`AdstackGuard::Off`] when it is not set).
    pub fn from_env() -> Result<Self, String> {
        match std::env::var(GUARD_ENV) {
            Ok(v) => Self::parse(&v),
            Err(std::env::VarError::NotPresent) => Ok(AdstackGuard::Off),
            Err(e) => Err(format!("{GUARD_ENV}: {e}")),
        }
    }
}

fn heap_index(h: Heap) -> usize {
    match h {
        Heap::Float => 0,
        Heap::Int => 1,
    }
}

/// One stack's slice in a guarded row.
#[derive(Copy, Clone, Debug)]
struct Slice {
    id: u32,
    heap: Heap,
    /// Byte offset of the count header in the guarded row (Canary) or 0 (Exact).
    offset: u64,
    /// The bytes the stack may touch: the header and `max_size` entries.
    len: u64,
    max_size: u64,
    entry_bytes: u64,
}

/// A write the guard saw outside every slice.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Violation {
    pub heap: Heap,
    /// The worker's row.
    pub row: u64,
    /// The stack whose slice is nearest to the changed bytes.
    pub stack: u32,
    /// Whether the changed bytes lie after the stack's slice (else before its header).
    pub after: bool,
    /// The distances of the nearest and farthest changed byte from the slice, in bytes
    /// (after: 0 is the first byte past the slice; before: 1 is the byte before the header).
    pub distance: (u64, u64),
    /// How many bytes of this red zone changed.
    pub changed: u64,
    /// The stack's capacity and entry size, for the message.
    pub max_size: u64,
    pub entry_bytes: u64,
}

impl Violation {
    /// The message of the device's error.
    pub fn message(&self) -> String {
        let (lo, hi) = self.distance;
        let place = if self.after {
            format!("{lo}..{} bytes past the end of", hi + 1)
        } else {
            format!("{hi}..{lo} bytes before")
        };
        format!(
            "adstack guard: {} byte(s) outside every stack's slice were written in the {} heap, \
             worker row {}, {place} the slice of stack {} (count header and {} entries of {} \
             bytes)",
            self.changed,
            self.heap.name(),
            self.row,
            self.stack,
            self.max_size,
            self.entry_bytes
        )
    }
}

/// A heap of `rows x stride` bytes with red zones ([`AdstackGuard::Canary`]).
pub(crate) struct CanaryHeaps {
    slices: Vec<Slice>,
    strides: [u64; 2],
    rows: u64,
    heaps: [Vec<u64>; 2],
}

fn canary_byte(k: u64) -> u8 {
    CANARY.to_le_bytes()[(k % 8) as usize]
}
fn byte(heap: &[u64], k: u64) -> u8 {
    heap[(k / 8) as usize].to_le_bytes()[(k % 8) as usize]
}
fn set_byte(heap: &mut [u64], k: u64, b: u8) {
    let w = &mut heap[(k / 8) as usize];
    let mut bytes = w.to_le_bytes();
    bytes[(k % 8) as usize] = b;
    *w = u64::from_le_bytes(bytes);
}

impl CanaryHeaps {
    fn new(kernel: &str, layout: &HeapLayout, rows: u64) -> Result<Self, String> {
        let too_big = || format!("the guarded adstack heaps of kernel @{kernel} are too large");
        let mut strides = [0u64; 2];
        let mut slices = Vec::new();
        for s in layout.stacks() {
            let stride = &mut strides[heap_index(s.heap)];
            let offset = stride.checked_add(RED_ZONE).ok_or_else(too_big)?;
            // `s.bytes` is the header and entries rounded up to 8: the layout checked it.
            *stride = offset.checked_add(s.bytes).ok_or_else(too_big)?;
            slices.push(Slice {
                id: s.id,
                heap: s.heap,
                offset,
                len: COUNT_HEADER_BYTES + s.max_size * s.entry_bytes,
                max_size: s.max_size,
                entry_bytes: s.entry_bytes,
            });
        }
        for stride in &mut strides {
            if *stride > 0 {
                *stride = stride.checked_add(RED_ZONE).ok_or_else(too_big)?;
            }
        }
        let mut heaps = [Vec::new(), Vec::new()];
        for (h, heap) in heaps.iter_mut().enumerate() {
            let words = rows
                .checked_mul(strides[h] / 8)
                .and_then(|w| usize::try_from(w).ok())
                .ok_or_else(too_big)?;
            heap.try_reserve_exact(words).map_err(|_| {
                format!("cannot allocate the guarded adstack heaps of kernel @{kernel}")
            })?;
            heap.resize(words, CANARY);
        }
        // Slices start zeroed, as the device's rows do.
        for s in &slices {
            let h = heap_index(s.heap);
            for r in 0..rows {
                let start = r * strides[h] + s.offset;
                for k in start..start + s.len {
                    set_byte(&mut heaps[h], k, 0);
                }
            }
        }
        Ok(CanaryHeaps {
            slices,
            strides,
            rows,
            heaps,
        })
    }

    /// The red zones of a row of heap `h`, row-relative, each with the slices before and after
    /// it (None at the row's ends).
    fn zones(&self, h: usize) -> Vec<(u64, u64, Option<Slice>, Option<Slice>)> {
        let mut row: Vec<Slice> = self
            .slices
            .iter()
            .copied()
            .filter(|s| heap_index(s.heap) == h)
            .collect();
        row.sort_by_key(|s| s.offset);
        let mut zones = Vec::new();
        let mut at = 0;
        let mut prev = None;
        for s in row {
            zones.push((at, s.offset, prev, Some(s)));
            at = s.offset + s.len;
            prev = Some(s);
        }
        if self.strides[h] > 0 {
            zones.push((at, self.strides[h], prev, None));
        }
        zones
    }

    /// The first red zone (heap, row, offset order) with a changed byte.
    fn check(&self) -> Option<Violation> {
        for h in 0..2 {
            let zones = self.zones(h);
            for r in 0..self.rows {
                let base = r * self.strides[h];
                for &(start, end, prev, next) in &zones {
                    let changed: Vec<u64> = (start..end)
                        .filter(|&k| byte(&self.heaps[h], base + k) != canary_byte(base + k))
                        .collect();
                    let (Some(&first), Some(&last)) = (changed.first(), changed.last()) else {
                        continue;
                    };
                    // Blame the nearer slice: the first changed byte decides.
                    let after = match (prev, next) {
                        (Some(_), None) => true,
                        (None, _) => false,
                        (Some(p), Some(n)) => first - (p.offset + p.len) < n.offset - first,
                    };
                    let s = if after { prev } else { next }?;
                    let distance = if after {
                        let end = s.offset + s.len;
                        (first - end, last - end)
                    } else {
                        (s.offset - last, s.offset - first)
                    };
                    return Some(Violation {
                        heap: s.heap,
                        row: r,
                        stack: s.id,
                        after,
                        distance,
                        changed: changed.len() as u64,
                        max_size: s.max_size,
                        entry_bytes: s.entry_bytes,
                    });
                }
            }
        }
        None
    }
}

/// One zeroed allocation of exactly one slice's bytes ([`AdstackGuard::Exact`]).
struct Block {
    ptr: NonNull<u8>,
    layout: Layout,
}

impl Block {
    fn new(bytes: u64) -> Option<Block> {
        let layout = Layout::from_size_align(usize::try_from(bytes).ok()?, 8).ok()?;
        // SAFETY: `layout` has a non-zero size (a slice has its 8-byte header at least).
        let ptr = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        Some(Block { ptr, layout })
    }
    fn addr(&self) -> u64 {
        self.ptr.as_ptr() as u64
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: allocated by `Block::new` with this layout, freed once.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

// SAFETY: a Block is plain memory owned by one value; the task functions that write it run
// while the device holds it and are done before it is dropped.
unsafe impl Send for Block {}

/// Each slice of each worker in its own allocation ([`AdstackGuard::Exact`]).
pub(crate) struct ExactSlices {
    slices: Vec<Slice>,
    /// The normal layout's strides: the code still multiplies the row by them.
    strides: [u64; 2],
    /// Row-major: `blocks[row * slices.len() + i]`.
    blocks: Vec<Block>,
}

impl ExactSlices {
    fn new(kernel: &str, layout: &HeapLayout, rows: u64) -> Result<Self, String> {
        let slices: Vec<Slice> = layout
            .stacks()
            .iter()
            .map(|s| Slice {
                id: s.id,
                heap: s.heap,
                offset: 0,
                len: COUNT_HEADER_BYTES + s.max_size * s.entry_bytes,
                max_size: s.max_size,
                entry_bytes: s.entry_bytes,
            })
            .collect();
        let mut blocks = Vec::new();
        for _ in 0..rows {
            for s in &slices {
                blocks.push(Block::new(s.len).ok_or_else(|| {
                    format!(
                        "cannot allocate the guarded slice of stack {} of kernel @{kernel}",
                        s.id
                    )
                })?);
            }
        }
        Ok(ExactSlices {
            slices,
            strides: [layout.stride(Heap::Float), layout.stride(Heap::Int)],
            blocks,
        })
    }
}

/// The guarded heaps of one task's launch: they replace what the device publishes and live
/// until the task is done.
pub(crate) enum GuardedHeaps {
    Canary(CanaryHeaps),
    Exact(ExactSlices),
}

impl GuardedHeaps {
    /// The heaps of a task laid out as `layout`, with `rows` worker rows; None when `mode` is
    /// [`AdstackGuard::Off`].
    pub(crate) fn new(
        mode: AdstackGuard,
        kernel: &str,
        layout: &HeapLayout,
        rows: u64,
    ) -> Result<Option<Self>, String> {
        Ok(match mode {
            AdstackGuard::Off => None,
            AdstackGuard::Canary => Some(Self::Canary(CanaryHeaps::new(kernel, layout, rows)?)),
            AdstackGuard::Exact => Some(Self::Exact(ExactSlices::new(kernel, layout, rows)?)),
        })
    }

    /// Publishes the heap bases, strides and every stack's offset (row 0's) and capacity into
    /// `ctx`, whose stack words `stack_words` gives (offset, then capacity).
    pub(crate) fn publish(&mut self, ctx: &mut [u64], stack_words: &HashMap<u32, u32>) {
        let (slices, strides) = match self {
            Self::Canary(c) => {
                ctx[W_HEAP_FLOAT as usize] = c.heaps[0].as_mut_ptr() as u64;
                ctx[W_HEAP_INT as usize] = c.heaps[1].as_mut_ptr() as u64;
                (&c.slices, c.strides)
            }
            Self::Exact(e) => {
                ctx[W_HEAP_FLOAT as usize] = 0;
                ctx[W_HEAP_INT as usize] = 0;
                (&e.slices, e.strides)
            }
        };
        ctx[W_STRIDE_FLOAT as usize] = strides[0];
        ctx[W_STRIDE_INT as usize] = strides[1];
        for s in slices {
            if let Some(&w) = stack_words.get(&s.id) {
                ctx[w as usize + 1] = s.max_size;
            }
        }
        self.publish_row(ctx, 0, stack_words);
    }

    /// Publishes the stack offsets of worker row `row` into its own context.
    pub(crate) fn publish_row(&self, ctx: &mut [u64], row: u64, stack_words: &HashMap<u32, u32>) {
        match self {
            Self::Canary(c) => {
                for s in &c.slices {
                    if let Some(&w) = stack_words.get(&s.id) {
                        ctx[w as usize] = s.offset;
                    }
                }
            }
            Self::Exact(e) => {
                let n = e.slices.len();
                for (i, s) in e.slices.iter().enumerate() {
                    if let Some(&w) = stack_words.get(&s.id) {
                        // heap (0) + row * stride + offset is the block's address.
                        let at = e.blocks[row as usize * n + i].addr();
                        let stride = e.strides[heap_index(s.heap)];
                        ctx[w as usize] = at.wrapping_sub(row.wrapping_mul(stride));
                    }
                }
            }
        }
    }

    /// The first write outside every slice that the guard can see (Canary); None in Exact
    /// mode, where valgrind reports them.
    pub(crate) fn check(&self) -> Option<Violation> {
        match self {
            Self::Canary(c) => c.check(),
            Self::Exact(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qd_runtime::DType;

    fn layout() -> HeapLayout {
        // f32 x2 (8 + 16), i32 x3 (8 + 12 = 20, padded to 24), f64 x1 (8 + 16).
        let depths = [2, 3, 1];
        HeapLayout::with_depths(
            "k",
            |id| depths.get(id as usize).copied(),
            &[(0, DType::F32), (1, DType::I32), (2, DType::F64)],
        )
        .unwrap()
    }

    fn canary(rows: u64) -> CanaryHeaps {
        CanaryHeaps::new("k", &layout(), rows).unwrap()
    }

    fn slice(c: &CanaryHeaps, id: u32) -> Slice {
        *c.slices.iter().find(|s| s.id == id).unwrap()
    }

    #[test]
    fn parse_and_env_names() {
        assert_eq!(AdstackGuard::parse("").unwrap(), AdstackGuard::Off);
        assert_eq!(AdstackGuard::parse("off").unwrap(), AdstackGuard::Off);
        assert_eq!(AdstackGuard::parse("canary").unwrap(), AdstackGuard::Canary);
        assert_eq!(
            AdstackGuard::parse(" exact\n").unwrap(),
            AdstackGuard::Exact
        );
        let e = AdstackGuard::parse("on").unwrap_err();
        assert!(e.contains(GUARD_ENV) && e.contains("'on'"), "{e}");
    }

    #[test]
    fn slices_sit_between_red_zones() {
        let c = canary(3);
        let (f0, i1, f2) = (slice(&c, 0), slice(&c, 1), slice(&c, 2));
        assert_eq!((f0.offset, f0.len), (RED_ZONE, 24));
        assert_eq!((f2.offset, f2.len), (RED_ZONE + 24 + RED_ZONE, 24));
        assert_eq!((i1.offset, i1.len), (RED_ZONE, 20));
        assert_eq!(c.strides, [3 * RED_ZONE + 48, 2 * RED_ZONE + 24]);
        assert_eq!(c.heaps[0].len() as u64 * 8, 3 * c.strides[0]);
        // Slices zeroed, everything else the pattern, in every row.
        for r in 0..3 {
            let b = r * c.strides[1];
            assert!((b + RED_ZONE..b + RED_ZONE + 20).all(|k| byte(&c.heaps[1], k) == 0));
            // The padding of the i32 slice to 8 bytes is red zone too.
            assert_eq!(
                byte(&c.heaps[1], b + RED_ZONE + 20),
                canary_byte(b + RED_ZONE + 20)
            );
        }
        assert_eq!(c.check(), None);
    }

    #[test]
    fn a_write_in_a_slice_is_not_a_violation() {
        let mut c = canary(2);
        let s = slice(&c, 2);
        let row1 = c.strides[0];
        for k in 0..s.len {
            set_byte(&mut c.heaps[0], row1 + s.offset + k, 0xFF);
        }
        assert_eq!(c.check(), None);
    }

    #[test]
    fn a_write_past_a_slice_names_the_stack_and_the_distance() {
        let mut c = canary(2);
        let s = slice(&c, 0);
        // One f32 entry (8 bytes) past the end of stack 0 in row 1.
        let at = c.strides[0] + s.offset + s.len;
        for k in at..at + 8 {
            set_byte(&mut c.heaps[0], k, 0x11);
        }
        let v = c.check().unwrap();
        assert_eq!(
            (v.heap, v.row, v.stack, v.after, v.distance, v.changed),
            (Heap::Float, 1, 0, true, (0, 7), 8)
        );
        assert!(
            v.message()
                .contains("worker row 1, 0..8 bytes past the end of the slice of stack 0"),
            "{}",
            v.message()
        );
    }

    #[test]
    fn a_write_before_a_header_or_in_the_padding_is_seen() {
        let mut c = canary(1);
        let s = slice(&c, 2);
        set_byte(&mut c.heaps[0], s.offset - 3, 0);
        let v = c.check().unwrap();
        assert_eq!((v.stack, v.after, v.distance), (2, false, (3, 3)));
        assert!(v
            .message()
            .contains("3..3 bytes before the slice of stack 2"));

        let mut c = canary(1);
        let s = slice(&c, 1);
        set_byte(&mut c.heaps[1], s.offset + 20, 0);
        let v = c.check().unwrap();
        assert_eq!(
            (v.heap, v.stack, v.after, v.distance),
            (Heap::Int, 1, true, (0, 0))
        );

        // The end of the last row, past the last slice.
        let mut c = canary(2);
        let end = c.heaps[0].len() as u64 * 8 - 1;
        set_byte(&mut c.heaps[0], end, 0);
        let v = c.check().unwrap();
        assert_eq!((v.row, v.stack, v.after), (1, 2, true));
    }

    #[test]
    fn exact_offsets_land_on_each_workers_blocks() {
        let l = layout();
        let mut g = GuardedHeaps::new(AdstackGuard::Exact, "k", &l, 2)
            .unwrap()
            .unwrap();
        let words: HashMap<u32, u32> = [(0, 20), (1, 22), (2, 24)].into_iter().collect();
        let mut ctx = vec![7u64; 26];
        g.publish(&mut ctx, &words);
        assert_eq!(
            (ctx[W_HEAP_FLOAT as usize], ctx[W_HEAP_INT as usize]),
            (0, 0)
        );
        assert_eq!(ctx[W_STRIDE_FLOAT as usize], l.stride(Heap::Float));
        assert_eq!((ctx[21], ctx[23], ctx[25]), (2, 3, 1));
        let GuardedHeaps::Exact(e) = &g else {
            unreachable!()
        };
        for row in 0..2u64 {
            g.publish_row(&mut ctx, row, &words);
            for (i, (id, heap)) in [(0, Heap::Float), (1, Heap::Int), (2, Heap::Float)]
                .into_iter()
                .enumerate()
            {
                let w = words[&id] as usize;
                let addr = row.wrapping_mul(l.stride(heap)).wrapping_add(ctx[w]);
                assert_eq!(addr, e.blocks[row as usize * 3 + i].addr());
                assert_eq!(
                    e.blocks[row as usize * 3 + i].layout.size() as u64,
                    e.slices[i].len
                );
            }
        }
        assert_eq!(g.check(), None);
        assert!(GuardedHeaps::new(AdstackGuard::Off, "k", &l, 2)
            .unwrap()
            .is_none());
    }
}
