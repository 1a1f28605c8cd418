//! Runtime `Storage` over NumPy memory: building one over a data pointer (see `alloc`), the
//! pointer of one, and putting a NumPy buffer back under a storage the runtime replaced.

use crate::alloc::foreign_vec;
use qd_runtime::{DType, Storage};

/// A storage of `len` elements of `dtype` over the memory at `ptr`, which the caller keeps
/// alive while the storage (or whatever takes it over) lives; None when the registry is full.
///
/// # Safety
/// `ptr` holds `len` initialised elements of `dtype`, aligned, readable and writable, and
/// outlives the storage.
pub unsafe fn foreign_storage(dtype: DType, ptr: *mut u8, len: usize) -> Option<Storage> {
    Some(match dtype {
        DType::I1 => Storage::I1(foreign_vec(ptr as *mut bool, len)?),
        DType::I8 => Storage::I8(foreign_vec(ptr as *mut i8, len)?),
        DType::I16 => Storage::I16(foreign_vec(ptr as *mut i16, len)?),
        DType::I32 => Storage::I32(foreign_vec(ptr as *mut i32, len)?),
        DType::I64 => Storage::I64(foreign_vec(ptr as *mut i64, len)?),
        DType::U8 => Storage::U8(foreign_vec(ptr, len)?),
        DType::U16 => Storage::U16(foreign_vec(ptr as *mut u16, len)?),
        DType::U32 => Storage::U32(foreign_vec(ptr as *mut u32, len)?),
        DType::U64 => Storage::U64(foreign_vec(ptr as *mut u64, len)?),
        DType::F32 => Storage::F32(foreign_vec(ptr as *mut f32, len)?),
        DType::F64 => Storage::F64(foreign_vec(ptr as *mut f64, len)?),
    })
}

/// The address of the first element (dangling for an empty storage).
pub fn storage_ptr(s: &Storage) -> usize {
    match s {
        Storage::I1(v) => v.as_ptr() as usize,
        Storage::I8(v) => v.as_ptr() as usize,
        Storage::I16(v) => v.as_ptr() as usize,
        Storage::I32(v) => v.as_ptr() as usize,
        Storage::I64(v) => v.as_ptr() as usize,
        Storage::U8(v) => v.as_ptr() as usize,
        Storage::U16(v) => v.as_ptr() as usize,
        Storage::U32(v) => v.as_ptr() as usize,
        Storage::U64(v) => v.as_ptr() as usize,
        Storage::F32(v) => v.as_ptr() as usize,
        Storage::F64(v) => v.as_ptr() as usize,
    }
}

/// Where a storage shared with Python must live: NumPy's buffer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Home {
    pub ptr: usize,
    pub len: usize,
    pub dtype: DType,
}

/// When the runtime gave `s` memory of its own (a snapshot restored, a large buffer zeroed by
/// replacement), copies its contents into `home` and puts `home`'s memory back under it, so the
/// NumPy array and the runtime share one buffer again. Returns false when nothing was needed or
/// possible (another dtype or length: never for buffers the extension made).
pub fn readopt(s: &mut Storage, home: Home) -> bool {
    if home.len == 0 || storage_ptr(s) == home.ptr || s.dtype() != home.dtype || s.len() != home.len
    {
        return false;
    }
    let bytes = home.len * home.dtype.size_bytes();
    // SAFETY: `home` is a live NumPy buffer of `len` elements of `dtype` (the caller's pinned
    // export), distinct from `s`'s own allocation (the pointers differ), and `s` holds as many.
    unsafe {
        std::ptr::copy_nonoverlapping(storage_ptr(s) as *const u8, home.ptr as *mut u8, bytes);
        if let Some(f) = foreign_storage(home.dtype, home.ptr as *mut u8, home.len) {
            *s = f;
            return true;
        }
    }
    false
}
