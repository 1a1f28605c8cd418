//! A cache hint for walks over op records: the arenas are read in index order but an op's
//! neighbours in a block can lie anywhere, so walks ask for the next few records ahead.

/// A hint to bring `data` into the cache; it has no effect on what the program computes.
#[inline]
pub(crate) fn prefetch<T>(data: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = (data as *const T).cast::<i8>();
        // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 CPU has; a prefetch reads
        // nothing the program sees and never faults, and both addresses are inside `data`.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(start);
            _mm_prefetch::<_MM_HINT_T0>(start.add(std::mem::size_of::<T>().saturating_sub(1)));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}
