//! Runtime `Storage` over NumPy memory: an [`Export`] (a shared buffer export of an array) makes
//! external storages whose owner holds the export, so the array's memory cannot be freed or
//! resized while any storage over it lives, whatever drops first; and [`readopt`] puts a NumPy
//! buffer back under a storage the runtime replaced with memory of its own.

use crate::buffers::Pinned;
use qd_runtime::{DType, Storage};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A buffer export shared by the extension's bookkeeping and the storages over its memory.
#[derive(Clone)]
pub struct Export(Arc<Pinned>);

/// How many storages over NumPy memory exist (for tests: each ends when its storage drops).
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// A storage's owner: holds the export until the storage is dropped.
struct Owner {
    _export: Export,
}

impl Drop for Owner {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Export {
    pub fn new(pinned: Pinned) -> Export {
        Export(Arc::new(pinned))
    }

    /// The export (its object and shape need the GIL's token to reach).
    pub fn pinned(&self) -> &Pinned {
        &self.0
    }

    pub fn ptr(&self) -> *mut u8 {
        self.0.ptr()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn dtype(&self) -> DType {
        self.0.dtype
    }

    /// A storage over the array's memory (not a copy), which keeps the export alive.
    pub fn storage(&self) -> Result<Storage, String> {
        LIVE.fetch_add(1, Ordering::AcqRel);
        let owner = Box::new(Owner {
            _export: self.clone(),
        });
        // SAFETY: `Pinned` checked the export: `len` initialised, aligned, writable elements of
        // `dtype` (NumPy's bools are bytes 0 or 1). The owner holds the export, so the memory
        // neither moves nor is freed before it drops. Python touches the array only while it
        // holds the GIL, which every runtime call that borrows the storage holds too, so
        // their accesses never overlap.
        unsafe { Storage::from_external(self.dtype(), self.ptr(), self.len(), owner) }
    }
}

/// How many storages over NumPy memory exist.
pub fn live_external() -> usize {
    LIVE.load(Ordering::Acquire)
}

/// When the runtime gave `s` memory of its own (a snapshot restored, a buffer replaced), copies
/// its contents into `home`'s array and puts that array's memory back under it, so the NumPy
/// array and the runtime share one buffer again. Returns false when nothing was needed or
/// possible (another dtype or length: never for buffers the extension made).
pub fn readopt(s: &mut Storage, home: &Export) -> bool {
    let ptr = home.ptr();
    if home.len() == 0
        || s.as_ptr() == ptr.cast_const()
        || s.dtype() != home.dtype()
        || s.len() != home.len()
    {
        return false;
    }
    let bytes = home.len() * home.dtype().size_bytes();
    // SAFETY: `home` is a live export of `len` elements of `dtype`, distinct from `s`'s memory
    // (the pointers differ and `s` is not over `home`'s array, or it would start at `ptr`), and
    // `s` holds as many.
    unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), ptr, bytes) };
    match home.storage() {
        Ok(f) => {
            *s = f;
            true
        }
        Err(_) => false,
    }
}
