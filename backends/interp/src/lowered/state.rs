//! The state one launch of a lowered kernel shares between its ops: the kernel's arguments, its
//! temporaries buffer, the running task's adstack heaps and layout, and the running thread.

use qd_runtime::adstack::layout::{Heap, HeapLayout};
use qd_runtime::NdarrayId;

/// Per-launch state of a lowered kernel (a [`crate::Frame`] state, made empty at each launch and
/// filled by the device before the first task runs).
#[derive(Default)]
pub struct LoweredState {
    /// Argument registers: a scalar's canonical bits, an ndarray's handle.
    pub args: Vec<u64>,
    /// The temporaries buffer: 8 bytes per slot.
    pub temps: Vec<u8>,
    /// The running thread's rows of the task's heaps: float, int.
    pub heaps: [HeapRow; 2],
    /// The running task's heap layout.
    pub layout: HeapLayout,
    /// The running thread's id (0-based within the task's dispatch).
    pub thread: u64,
    /// The running task's resolved `begin`.
    pub begin: i64,
    /// The running thread's heap row.
    pub row: u64,
}

/// The running thread's row of an adstack heap. The heap is `rows x stride` bytes, as a compiled
/// device lays it out; threads run one after another and each touches its own row only, so the
/// interpreter keeps just the running thread's row.
#[derive(Default)]
pub struct HeapRow {
    /// The row's `stride` bytes.
    pub bytes: Vec<u8>,
    /// Where the row starts in the heap: `row * stride`.
    pub base: u64,
}

impl LoweredState {
    /// The running thread's row of heap `index` ([`heap_index`]) and the position of heap byte
    /// `off` in it; None when `off` lies outside that row.
    pub fn heap_at(&mut self, index: usize, off: u64) -> Option<(&mut [u8], u64)> {
        let row = &mut self.heaps[index];
        let rel = off.checked_sub(row.base)?;
        (rel < row.bytes.len() as u64).then_some((row.bytes.as_mut_slice(), rel))
    }

    /// The ndarray passed as argument `index`.
    pub fn ndarray(&self, index: usize) -> Option<NdarrayId> {
        self.args.get(index).map(|&bits| NdarrayId(bits as u32))
    }
}

/// The index of `heap` in [`LoweredState::heaps`].
pub fn heap_index(heap: Heap) -> usize {
    match heap {
        Heap::Float => 0,
        Heap::Int => 1,
    }
}
