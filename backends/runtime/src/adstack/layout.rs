//! [`HeapLayout`]: where each adstack of a task lives in the two adstack heaps, for one launch.
//!
//! Lowered IR (and every compiled device) keeps adstacks in two heaps, float (primal + adjoint
//! entries) and int (primal only), each made of one row per thread (or worker) of the task. A row
//! holds a slice per stack of the task, in the order of the task's `adstacks` list:
//!
//! - a stack's slice is an 8-byte count header followed by `depth` entries; a float entry is
//!   `[primal, adjoint]` (`2 * sizeof(T)`), an int entry the primal only (`sizeof(T)`, with `i1`
//!   widened to `i32` as lowered IR addresses it, [`lowered_entry_bytes`]);
//! - each slice starts 8-aligned (`offset[id]`), so that the i64 count header is aligned;
//! - the row's `stride` is the sum of its slices (a multiple of 8), `max_size[id]` is the
//!   stack's depth for this launch (from the runtime's [`AdstackPlan`]);
//! - a heap takes `rows * stride` bytes.
//!
//! Every size is checked: a layout or a heap that does not fit 64 bits (or the host's address
//! space), or that the host cannot allocate, is a [`LayoutError`], never a wrapped value or a
//! panic.

use super::{AdstackPlan, COUNT_HEADER_BYTES};
use crate::value::DType;
use std::fmt;

/// Slices start at multiples of this many bytes (the count header is an i64).
pub const SLICE_ALIGN: u64 = 8;

/// One of the two adstack heaps.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Heap {
    /// Float stacks: `[primal, adjoint]` entries.
    Float,
    /// Integer and i1 stacks: primal entries.
    Int,
}

impl Heap {
    /// The heap of stacks of element type `elem`.
    pub fn of(elem: DType) -> Heap {
        if elem.is_float() {
            Heap::Float
        } else {
            Heap::Int
        }
    }

    /// 0 for `Float`, 1 for `Int`: the heap's slot in a device's pair of heaps.
    pub fn index(self) -> usize {
        match self {
            Heap::Float => 0,
            Heap::Int => 1,
        }
    }

    /// `float` or `int`, as lowered IR spells it.
    pub fn name(self) -> &'static str {
        match self {
            Heap::Float => "float",
            Heap::Int => "int",
        }
    }
}

/// The bytes of one entry in the lowered layout: `2 * sizeof(T)` for a float stack, `sizeof(T)`
/// for an integer stack, 4 for an i1 stack (widened to i32).
pub fn lowered_entry_bytes(elem: DType) -> u64 {
    match elem {
        DType::I1 => 4,
        e if e.is_float() => 2 * e.size_bytes() as u64,
        e => e.size_bytes() as u64,
    }
}

/// Where one stack lives in its heap's row.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct StackSlice {
    /// The stack's id (the `id` property of its `adstack.alloca`).
    pub id: u32,
    pub elem: DType,
    pub heap: Heap,
    /// Byte offset of the count header within the row (a multiple of [`SLICE_ALIGN`]).
    pub offset: u64,
    /// Capacity in entries (the stack's depth for this launch).
    pub max_size: u64,
    /// Bytes per entry ([`lowered_entry_bytes`]).
    pub entry_bytes: u64,
    /// Bytes of the slice: header, entries, and padding to the next aligned offset.
    pub bytes: u64,
}

/// The heap layout of one task for one launch.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct HeapLayout {
    stacks: Vec<StackSlice>,
    float_stride: u64,
    int_stride: u64,
}

/// Why a heap layout or a heap cannot be made.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LayoutError {
    pub kernel: String,
    pub message: String,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "adstack heap of kernel @{}: {}",
            self.kernel, self.message
        )
    }
}

impl std::error::Error for LayoutError {}

impl HeapLayout {
    /// The layout of a task whose stacks are `stacks` (id and element type, in the task's
    /// order), each given its depth by the launch's `plan`. An id the plan does not size, an id
    /// listed twice, or sizes past 64 bits are errors.
    pub fn compute(plan: &AdstackPlan, stacks: &[(u32, DType)]) -> Result<HeapLayout, LayoutError> {
        HeapLayout::with_depths(&plan.kernel, |id| plan.depth(id), stacks)
    }

    /// [`HeapLayout::compute`] with each stack's depth given by `depth` (None: not sized) for
    /// kernel `kernel`.
    pub fn with_depths(
        kernel: &str,
        depth: impl Fn(u32) -> Option<u64>,
        stacks: &[(u32, DType)],
    ) -> Result<HeapLayout, LayoutError> {
        let err = |message: String| LayoutError {
            kernel: kernel.to_string(),
            message,
        };
        let mut layout = HeapLayout::default();
        for &(id, elem) in stacks {
            if layout.stack(id).is_some() {
                return Err(err(format!("stack id {id} is listed twice in one task")));
            }
            let Some(depth) = depth(id) else {
                return Err(err(format!(
                    "the launch's adstack plan does not size stack id {id}"
                )));
            };
            let entry_bytes = lowered_entry_bytes(elem);
            let bytes = depth
                .checked_mul(entry_bytes)
                .and_then(|b| b.checked_add(COUNT_HEADER_BYTES))
                .and_then(|b| b.checked_next_multiple_of(SLICE_ALIGN))
                .ok_or_else(|| {
                    err(format!(
                        "stack id {id} ({elem}) of depth {depth} takes more than 2^64 bytes"
                    ))
                })?;
            let heap = Heap::of(elem);
            let stride = match heap {
                Heap::Float => &mut layout.float_stride,
                Heap::Int => &mut layout.int_stride,
            };
            let offset = *stride;
            *stride = offset.checked_add(bytes).ok_or_else(|| {
                err(format!(
                    "a row of the {} heap takes more than 2^64 bytes",
                    heap.name()
                ))
            })?;
            layout.stacks.push(StackSlice {
                id,
                elem,
                heap,
                offset,
                max_size: depth,
                entry_bytes,
                bytes,
            });
        }
        Ok(layout)
    }

    /// The task's stacks, in its order.
    pub fn stacks(&self) -> &[StackSlice] {
        &self.stacks
    }
    /// The slice of stack `id`.
    pub fn stack(&self, id: u32) -> Option<&StackSlice> {
        self.stacks.iter().find(|s| s.id == id)
    }
    /// Byte offset of stack `id` within its heap's row.
    pub fn offset(&self, id: u32) -> Option<u64> {
        self.stack(id).map(|s| s.offset)
    }
    /// Capacity of stack `id`, in entries.
    pub fn max_size(&self, id: u32) -> Option<u64> {
        self.stack(id).map(|s| s.max_size)
    }
    /// Bytes per row of `heap`.
    pub fn stride(&self, heap: Heap) -> u64 {
        match heap {
            Heap::Float => self.float_stride,
            Heap::Int => self.int_stride,
        }
    }

    /// The bytes `heap` takes for `rows` rows, `rows * stride`, checked against 64 bits and the
    /// host's address space. `kernel` names the kernel in the error.
    pub fn heap_bytes(&self, kernel: &str, heap: Heap, rows: u64) -> Result<usize, LayoutError> {
        let stride = self.stride(heap);
        let too_big = |limit: &str| LayoutError {
            kernel: kernel.to_string(),
            message: format!(
                "the {} heap needs {rows} rows of {stride} bytes, more than {limit}",
                heap.name()
            ),
        };
        let bytes = rows
            .checked_mul(stride)
            .ok_or_else(|| too_big("2^64 bytes"))?;
        usize::try_from(bytes).map_err(|_| too_big("this host can address"))
    }

    /// A zeroed host buffer for `heap` with `rows` rows, or an error when its size overflows
    /// ([`HeapLayout::heap_bytes`]) or the host cannot allocate it.
    pub fn allocate(&self, kernel: &str, heap: Heap, rows: u64) -> Result<Vec<u8>, LayoutError> {
        let bytes = self.heap_bytes(kernel, heap, rows)?;
        let mut v = Vec::new();
        v.try_reserve_exact(bytes).map_err(|_| LayoutError {
            kernel: kernel.to_string(),
            message: format!(
                "cannot allocate the {} heap: {rows} rows of {} bytes ({bytes} bytes)",
                heap.name(),
                self.stride(heap)
            ),
        })?;
        v.resize(bytes, 0);
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout of `stacks` when stack `i` has depth `depths[i]`.
    fn layout(depths: &[u64], stacks: &[(u32, DType)]) -> Result<HeapLayout, LayoutError> {
        HeapLayout::with_depths("k", |id| depths.get(id as usize).copied(), stacks)
    }

    #[test]
    fn offsets_are_aligned_and_strides_sum_per_heap() {
        // f32 x3: 8 + 3*8 = 32; i32 x3: 8 + 12 = 20 -> 24; f64 x1: 8 + 16 = 24; i8 x5: 13 -> 16.
        let l = layout(
            &[3, 3, 1, 5],
            &[
                (0, DType::F32),
                (1, DType::I32),
                (2, DType::F64),
                (3, DType::I8),
            ],
        )
        .unwrap();
        assert_eq!(l.offset(0), Some(0));
        assert_eq!(l.offset(2), Some(32));
        assert_eq!(l.offset(1), Some(0));
        assert_eq!(l.offset(3), Some(24));
        assert_eq!(l.stride(Heap::Float), 32 + 24);
        assert_eq!(l.stride(Heap::Int), 24 + 16);
        for s in l.stacks() {
            assert_eq!(s.offset % SLICE_ALIGN, 0, "{s:?}");
            assert_eq!(s.bytes % SLICE_ALIGN, 0, "{s:?}");
            assert!(s.bytes >= 8 + s.max_size * s.entry_bytes);
        }
        for heap in [Heap::Float, Heap::Int] {
            let sum: u64 = l
                .stacks()
                .iter()
                .filter(|s| s.heap == heap)
                .map(|s| s.bytes)
                .sum();
            assert_eq!(l.stride(heap), sum);
        }
        assert_eq!(l.max_size(3), Some(5));
        assert_eq!(l.max_size(7), None);
    }

    #[test]
    fn the_task_order_decides_offsets_and_ids_need_not_be_dense() {
        let l = layout(&[2, 0, 4], &[(2, DType::F64), (0, DType::F64)]).unwrap();
        assert_eq!(l.offset(2), Some(0));
        assert_eq!(l.offset(0), Some(8 + 4 * 16));
        assert_eq!(l.stride(Heap::Float), 72 + 40);
        assert_eq!(l.stride(Heap::Int), 0);
        assert_eq!(l.heap_bytes("k", Heap::Int, 1000).unwrap(), 0);
    }

    #[test]
    fn i1_is_widened_to_i32() {
        assert_eq!(lowered_entry_bytes(DType::I1), 4);
        assert_eq!(lowered_entry_bytes(DType::F32), 8);
        assert_eq!(lowered_entry_bytes(DType::F64), 16);
        assert_eq!(lowered_entry_bytes(DType::I64), 8);
        assert_eq!(lowered_entry_bytes(DType::U16), 2);
        let l = layout(&[3], &[(0, DType::I1)]).unwrap();
        assert_eq!(l.stack(0).unwrap().heap, Heap::Int);
        // 8 + 3*4 = 20 -> 24 (one byte per i1 would give 16).
        assert_eq!(l.stride(Heap::Int), 24);
    }

    #[test]
    fn zero_depth_keeps_the_header() {
        let l = layout(&[0], &[(0, DType::F32)]).unwrap();
        assert_eq!(l.stride(Heap::Float), 8);
        assert_eq!(l.max_size(0), Some(0));
    }

    #[test]
    fn overflow_is_an_error() {
        // Depth times entry size past 2^64.
        let e = layout(&[u64::MAX / 4], &[(0, DType::F64)]).unwrap_err();
        assert!(e.to_string().contains("more than 2^64 bytes"), "{e}");
        assert!(
            e.to_string().starts_with("adstack heap of kernel @k:"),
            "{e}"
        );
        // Each slice fits, their sum does not.
        let big = u64::MAX / 8 - 8;
        let e = layout(&[big, big], &[(0, DType::F32), (1, DType::F32)]).unwrap_err();
        assert!(e.message.contains("row of the float heap"), "{e}");
        // Rows times stride past 2^64.
        let l = layout(&[1 << 40], &[(0, DType::F64)]).unwrap();
        let e = l.heap_bytes("k", Heap::Float, 1 << 30).unwrap_err();
        assert!(e.message.contains("more than 2^64 bytes"), "{e}");
        assert!(l.allocate("k", Heap::Float, 1 << 30).is_err());
        // Representable, but not allocatable on any host.
        let e = l.allocate("k", Heap::Float, 1 << 10).unwrap_err();
        assert!(
            e.message.contains("cannot allocate") || e.message.contains("can address"),
            "{e}"
        );
    }

    #[test]
    fn unknown_and_repeated_ids_are_errors() {
        assert_eq!(
            HeapLayout::compute(&AdstackPlan::empty("k"), &[]).unwrap(),
            HeapLayout::default()
        );
        let e = HeapLayout::compute(&AdstackPlan::empty("k"), &[(0, DType::F32)]).unwrap_err();
        assert_eq!(e.kernel, "k");
        let e = layout(&[1], &[(3, DType::F32)]).unwrap_err();
        assert!(e.message.contains("does not size stack id 3"), "{e}");
        let e = layout(&[1], &[(0, DType::F32), (0, DType::F32)]).unwrap_err();
        assert!(e.message.contains("listed twice"), "{e}");
    }

    #[test]
    fn allocate_gives_zeroed_rows() {
        let l = layout(&[2], &[(0, DType::I32)]).unwrap();
        let h = l.allocate("k", Heap::Int, 3).unwrap();
        assert_eq!(h.len(), 3 * 16);
        assert!(h.iter().all(|&b| b == 0));
    }
}
