//! Host buffers as bytes: the layout a device buffer of a field or ndarray has (row-major, each
//! element its dtype's size, little-endian; i1 one byte, 0 or 1, as the host's `bool`).

use qd_runtime::Storage;

/// The bytes of `s`.
pub fn storage_bytes(s: &Storage) -> &[u8] {
    fn bytes<T>(v: &[T]) -> &[u8] {
        // SAFETY: every element type of a Storage is plain old data (bool is one byte, 0 or 1).
        unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
    }
    match s {
        Storage::I1(v) => bytes(v),
        Storage::I8(v) => bytes(v),
        Storage::I16(v) => bytes(v),
        Storage::I32(v) => bytes(v),
        Storage::I64(v) => bytes(v),
        Storage::U8(v) => bytes(v),
        Storage::U16(v) => bytes(v),
        Storage::U32(v) => bytes(v),
        Storage::U64(v) => bytes(v),
        Storage::F32(v) => bytes(v),
        Storage::F64(v) => bytes(v),
    }
}

/// Fills `s` from `read`, which copies the buffer's bytes into the slice it is given.
pub fn fill_storage(s: &mut Storage, read: impl FnOnce(&mut [u8])) {
    fn bytes_mut<T: Copy>(v: &mut [T]) -> &mut [u8] {
        // SAFETY: plain old data in which every bit pattern is a value (not bool: see below).
        unsafe {
            std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, std::mem::size_of_val(v))
        }
    }
    match s {
        // Not every byte is a bool: read bytes, then compare with zero.
        Storage::I1(v) => {
            let mut tmp = vec![0u8; v.len()];
            read(&mut tmp);
            for (d, b) in v.iter_mut().zip(tmp) {
                *d = b != 0;
            }
        }
        Storage::I8(v) => read(bytes_mut(v)),
        Storage::I16(v) => read(bytes_mut(v)),
        Storage::I32(v) => read(bytes_mut(v)),
        Storage::I64(v) => read(bytes_mut(v)),
        Storage::U8(v) => read(bytes_mut(v)),
        Storage::U16(v) => read(bytes_mut(v)),
        Storage::U32(v) => read(bytes_mut(v)),
        Storage::U64(v) => read(bytes_mut(v)),
        Storage::F32(v) => read(bytes_mut(v)),
        Storage::F64(v) => read(bytes_mut(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_bools_are_normalised() {
        let s = Storage::F32(vec![1.5, -2.0].into());
        assert_eq!(storage_bytes(&s).len(), 8);
        let mut t = Storage::F32(vec![0.0; 2].into());
        let b = storage_bytes(&s).to_vec();
        fill_storage(&mut t, |out| out.copy_from_slice(&b));
        assert_eq!(s, t);
        let mut bools = Storage::I1(vec![false; 3].into());
        fill_storage(&mut bools, |out| out.copy_from_slice(&[0, 7, 1]));
        assert_eq!(bools, Storage::I1(vec![false, true, true].into()));
        assert_eq!(storage_bytes(&bools), &[0, 1, 1]);
    }
}
