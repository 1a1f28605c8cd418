//! Copying a seed into its adjoint buffer on the host, as fast as the memory allows: a large copy
//! is split over the host's cores and, past the caches, written with non-temporal stores (a plain
//! store first reads every line it fills: a third more memory traffic, as the cpu device's
//! streaming kernels avoid). The gradient kernel then reads the adjoint from memory either way.

use qd_runtime::Storage;

/// The least a thread copies (starting one costs tens of microseconds: a smaller share would
/// not repay it).
const BYTES_PER_THREAD: usize = 2 << 20;

/// Copies written with non-temporal stores from this many bytes: the cpu device's threshold for
/// its kernels' streaming stores (a smaller copy stays in the caches for the kernel to read).
const STREAM_BYTES: usize = 16 << 20;

/// Copies `src` into `dst` when both hold f32 or both f64, of one length; false (nothing copied)
/// otherwise.
pub(crate) fn copy_storage(dst: &mut Storage, src: &Storage) -> bool {
    match (dst, src) {
        (Storage::F32(d), Storage::F32(s)) if d.len() == s.len() => copy(d, s),
        (Storage::F64(d), Storage::F64(s)) if d.len() == s.len() => copy(d, s),
        _ => return false,
    }
    true
}

fn copy<T: Copy + Send + Sync>(d: &mut [T], s: &[T]) {
    let bytes = std::mem::size_of_val(s);
    let stream = bytes >= STREAM_BYTES;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.min(bytes / BYTES_PER_THREAD).max(1);
    if threads == 1 {
        copy_chunk(d, s, stream);
        return;
    }
    // Chunks of whole cache lines, so that no two threads write one line.
    let line = (64 / size_of::<T>()).max(1);
    let chunk = s.len().div_ceil(threads).div_ceil(line) * line;
    std::thread::scope(|sc| {
        for (d, s) in d.chunks_mut(chunk).zip(s.chunks(chunk)) {
            sc.spawn(move || copy_chunk(d, s, stream));
        }
    });
}

/// Copies `s` into `d` (same length), with non-temporal 16-byte stores when `stream` (x86-64,
/// where SSE2 is always present; elsewhere plainly).
fn copy_chunk<T: Copy>(d: &mut [T], s: &[T], stream: bool) {
    #[cfg(target_arch = "x86_64")]
    if stream && 16 % size_of::<T>() == 0 {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_sfence, _mm_stream_si128};
        let n = d.len().min(s.len());
        // Elements up to the first 16-byte aligned one of `d`, then whole 16-byte blocks.
        let head = d.as_ptr().align_offset(16).min(n);
        let per = 16 / size_of::<T>();
        let body = (n - head) / per * per;
        d[..head].copy_from_slice(&s[..head]);
        for i in (head..head + body).step_by(per) {
            // SAFETY: elements i .. i + per are in bounds of both slices (i + per <= head + body
            // <= n), so the 16 bytes read and written lie inside them; d + i is 16-byte aligned
            // (head aligns it, steps of 16 bytes keep it), as _mm_stream_si128 requires; the
            // unaligned load has no alignment requirement; T is Copy (plain bytes).
            unsafe {
                let v = _mm_loadu_si128(s.as_ptr().add(i).cast::<__m128i>());
                _mm_stream_si128(d.as_mut_ptr().add(i).cast::<__m128i>(), v);
            }
        }
        d[head + body..n].copy_from_slice(&s[head + body..n]);
        // Non-temporal stores are weakly ordered: make them visible before the kernel reads them
        // (the thread's end, or the launch, follows this fence).
        // SAFETY: sfence has no preconditions.
        unsafe { _mm_sfence() };
        return;
    }
    let _ = stream;
    d.copy_from_slice(s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_every_element_at_any_offset_and_size() {
        // Sizes around the thresholds and odd ones, at an offset that misaligns the destination.
        for n in [
            0usize,
            1,
            3,
            17,
            1000,
            (1 << 18) + 5,
            (STREAM_BYTES / 4) + 7,
        ] {
            for off in [0usize, 1, 3] {
                let s: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 3.0).collect();
                let mut d = vec![f32::NAN; n + off];
                copy(&mut d[off..], &s);
                assert!(d[off..]
                    .iter()
                    .zip(&s)
                    .all(|(a, b)| a.to_bits() == b.to_bits()));
                assert!(d[..off].iter().all(|a| a.is_nan()), "n {n} off {off}");
            }
        }
        let s: Vec<f64> = (0..(STREAM_BYTES / 8) + 3).map(|i| i as f64).collect();
        let mut d = vec![0f64; s.len()];
        copy(&mut d, &s);
        assert_eq!(d, s);
    }
}
