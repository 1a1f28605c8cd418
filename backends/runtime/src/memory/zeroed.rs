//! [`ZeroedBlock`]: zeroed memory of the runtime's own, aligned to [`BLOCK_ALIGN`] bytes.
//!
//! The alignment lets the `cpu` device's vector stores of whole cache lines be non-temporal
//! (x86's `movnt*` needs aligned addresses): every buffer the runtime allocates starts on a
//! cache line. Large blocks are anonymous mappings (page aligned), whose pages are zero until
//! first written and cost nothing until touched, as calloc's are: a big field a kernel only
//! partly touches costs what it touches. Small blocks come from the global allocator with the
//! alignment asked for (their zeros written, a few pages at most).

use std::alloc::Layout;
use std::ptr::NonNull;

/// The alignment of every block: a cache line, the widest vector store (AVX-512).
pub const BLOCK_ALIGN: usize = 64;

/// Blocks of at least this many bytes are mapped (glibc's default mmap threshold).
const MAP_BYTES: usize = 128 << 10;

/// `bytes` zeroed bytes at a [`BLOCK_ALIGN`]-aligned address, freed on drop.
pub struct ZeroedBlock {
    ptr: NonNull<u8>,
    bytes: usize,
    mapped: bool,
}

// SAFETY: the block owns its memory exclusively (as a Box<[u8]> would).
unsafe impl Send for ZeroedBlock {}
// SAFETY: as above; `&ZeroedBlock` gives only its address.
unsafe impl Sync for ZeroedBlock {}

impl ZeroedBlock {
    /// A zeroed block of `bytes` (> 0) bytes, or None when the memory cannot be had.
    pub fn new(bytes: usize) -> Option<ZeroedBlock> {
        debug_assert!(bytes > 0);
        if bytes >= MAP_BYTES {
            if let Some(ptr) = map(bytes) {
                return Some(ZeroedBlock {
                    ptr,
                    bytes,
                    mapped: true,
                });
            }
            #[cfg(unix)]
            return None;
        }
        let layout = Layout::from_size_align(bytes, BLOCK_ALIGN).ok()?;
        // SAFETY: the layout has a nonzero size.
        let ptr = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        Some(ZeroedBlock {
            ptr,
            bytes,
            mapped: false,
        })
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
}

impl Drop for ZeroedBlock {
    fn drop(&mut self) {
        if self.mapped {
            unmap(self.ptr, self.bytes);
        } else {
            let layout = Layout::from_size_align(self.bytes, BLOCK_ALIGN).expect("its layout");
            // SAFETY: allocated by `new` with this layout.
            unsafe { std::alloc::dealloc(self.ptr.as_ptr(), layout) };
        }
    }
}

#[cfg(unix)]
fn map(bytes: usize) -> Option<NonNull<u8>> {
    // SAFETY: an anonymous private mapping at an address of the kernel's choice touches no
    // existing memory.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return None;
    }
    NonNull::new(p.cast())
}

#[cfg(unix)]
fn unmap(ptr: NonNull<u8>, bytes: usize) {
    // SAFETY: a mapping of `bytes` bytes made by `map`, unmapped once (on drop).
    unsafe { libc::munmap(ptr.as_ptr().cast(), bytes) };
}

/// Elsewhere large blocks come from the global allocator too.
#[cfg(not(unix))]
fn map(_: usize) -> Option<NonNull<u8>> {
    None
}

#[cfg(not(unix))]
fn unmap(_: NonNull<u8>, _: usize) {
    unreachable!("nothing is mapped")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_blocks_are_aligned_and_zero() {
        for bytes in [1, 4, 100, MAP_BYTES - 1, MAP_BYTES, 3 * MAP_BYTES + 12] {
            let b = ZeroedBlock::new(bytes).unwrap();
            assert_eq!(b.as_ptr() as usize % BLOCK_ALIGN, 0, "{bytes} bytes");
            assert_eq!(b.mapped, cfg!(unix) && bytes >= MAP_BYTES);
            // SAFETY: `bytes` bytes of the block, initialised (zero).
            let s = unsafe { std::slice::from_raw_parts_mut(b.as_ptr(), bytes) };
            assert!(s.iter().all(|&x| x == 0));
            s[bytes - 1] = 7;
        }
    }

    #[test]
    fn an_impossible_block_is_none() {
        assert!(ZeroedBlock::new(usize::MAX / 2).is_none());
    }
}
