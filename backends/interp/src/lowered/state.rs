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
    /// The running task's heaps: float, int (row-major: `rows x stride` bytes).
    pub heaps: [Vec<u8>; 2],
    /// The running task's heap layout.
    pub layout: HeapLayout,
    /// The running thread's id (0-based within the task's dispatch).
    pub thread: u64,
    /// The running task's resolved `begin`.
    pub begin: i64,
    /// The running thread's heap row.
    pub row: u64,
}

impl LoweredState {
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
