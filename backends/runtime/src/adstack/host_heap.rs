//! Adstack heaps in host memory (the CPU devices' `Vec<u64>` per heap): grown at launch to the
//! bytes the launch's plan asks for, and zeroed there (the stacks' count headers start at 0).

use super::layout::Heap;
use crate::error::RuntimeError;

/// Makes `heap` (heap `h` of kernel `kernel`) hold at least `bytes`, doubling its length, or
/// exactly `bytes` when doubling cannot be allocated, and zeroes its first `bytes`. Callers
/// grow heaps only between launches: the old heap is dropped here.
pub fn ensure_host_heap(
    heap: &mut Vec<u64>,
    kernel: &str,
    h: Heap,
    bytes: usize,
) -> Result<(), RuntimeError> {
    let words = bytes.div_ceil(8);
    if words > heap.len() {
        let doubled = words.max(heap.len().saturating_mul(2));
        let mut fresh: Vec<u64> = Vec::new();
        if fresh.try_reserve_exact(doubled).is_err() && fresh.try_reserve_exact(words).is_err() {
            return Err(RuntimeError::device(
                kernel,
                format!(
                    "cannot allocate the {} adstack heap of kernel @{kernel}: {bytes} bytes",
                    h.name()
                ),
            ));
        }
        let cap = fresh.capacity();
        fresh.resize(cap.min(doubled), 0);
        *heap = fresh;
    }
    heap[..words].fill(0);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_by_doubling_and_zeroes_what_is_asked() {
        let mut heap = vec![7u64; 4];
        ensure_host_heap(&mut heap, "k", Heap::Float, 40).unwrap();
        assert_eq!(heap.len(), 8);
        assert!(heap.iter().all(|&w| w == 0));
        heap.fill(9);
        ensure_host_heap(&mut heap, "k", Heap::Int, 12).unwrap();
        assert_eq!(heap.len(), 8);
        assert_eq!(&heap[..3], &[0, 0, 9]);
    }

    #[test]
    fn a_heap_past_memory_is_an_error_naming_it() {
        let mut heap = Vec::new();
        let e = ensure_host_heap(&mut heap, "k", Heap::Int, usize::MAX).unwrap_err();
        assert!(
            e.to_string()
                .contains("cannot allocate the int adstack heap of kernel @k"),
            "{e}"
        );
    }
}
