//! [`Storage`]: a typed, dense, row-major host buffer (one [`HostBuf`] per element type: memory
//! of the runtime's own or external memory such as a NumPy array's).

use super::host_buf::{ExternalOwner, HostBuf, ZeroBits};
use crate::value::{DType, Scalar};

/// A typed buffer. i1 elements are `bool`s.
#[derive(Clone, PartialEq, Debug)]
pub enum Storage {
    I1(HostBuf<bool>),
    I8(HostBuf<i8>),
    I16(HostBuf<i16>),
    I32(HostBuf<i32>),
    I64(HostBuf<i64>),
    U8(HostBuf<u8>),
    U16(HostBuf<u16>),
    U32(HostBuf<u32>),
    U64(HostBuf<u64>),
    F32(HostBuf<f32>),
    F64(HostBuf<f64>),
}

/// Applies `$body` to the buffer inside any variant, bound as `$v`.
macro_rules! each {
    ($s:expr, $v:ident => $body:expr) => {
        match $s {
            Storage::I1($v) => $body,
            Storage::I8($v) => $body,
            Storage::I16($v) => $body,
            Storage::I32($v) => $body,
            Storage::I64($v) => $body,
            Storage::U8($v) => $body,
            Storage::U16($v) => $body,
            Storage::U32($v) => $body,
            Storage::U64($v) => $body,
            Storage::F32($v) => $body,
            Storage::F64($v) => $body,
        }
    };
}

/// `len` zeros (see [`HostBuf::zeroed`]: cache-line aligned, lazily zeroed when large).
fn zeroed<T: ZeroBits>(len: usize) -> Result<HostBuf<T>, String> {
    HostBuf::zeroed(len)
}

/// Buffers of at least this many bytes are zeroed by replacing them with fresh zeroed memory
/// (returning their pages to the kernel) instead of writing zeros over every page.
const FRESH_ZERO_BYTES: usize = 1 << 20;

impl Storage {
    /// `len` zeros of `dtype`; fails cleanly when the memory cannot be allocated.
    pub fn zeros(dtype: DType, len: usize) -> Result<Storage, String> {
        Ok(match dtype {
            DType::I1 => Storage::I1(zeroed(len)?),
            DType::I8 => Storage::I8(zeroed(len)?),
            DType::I16 => Storage::I16(zeroed(len)?),
            DType::I32 => Storage::I32(zeroed(len)?),
            DType::I64 => Storage::I64(zeroed(len)?),
            DType::U8 => Storage::U8(zeroed(len)?),
            DType::U16 => Storage::U16(zeroed(len)?),
            DType::U32 => Storage::U32(zeroed(len)?),
            DType::U64 => Storage::U64(zeroed(len)?),
            DType::F32 => Storage::F32(zeroed(len)?),
            DType::F64 => Storage::F64(zeroed(len)?),
        })
    }

    /// A storage of `len` elements of `dtype` over external memory at `ptr` (a NumPy array's),
    /// read and written in place; `owner` keeps that memory alive and is dropped (exactly once)
    /// when the storage is, instead of the memory being freed. A clone is an owned copy. Fails
    /// when `ptr` is null or not aligned to the element size (unless `len == 0`).
    ///
    /// # Safety
    /// Unless `len == 0`: `ptr` points to `len` initialised elements of `dtype` (for i1, bytes
    /// 0 or 1), readable and writable; the memory stays valid and unmoved until `owner` is
    /// dropped; and nothing else reads or writes it while a borrow of the storage's elements
    /// (or a pointer taken from one) is live. The runtime borrows them only inside its own
    /// calls (a launch, a sync, a read), so the memory's owner may use it between those calls.
    pub unsafe fn from_external(
        dtype: DType,
        ptr: *mut u8,
        len: usize,
        owner: ExternalOwner,
    ) -> Result<Storage, String> {
        if len != 0 && (ptr.is_null() || !(ptr as usize).is_multiple_of(dtype.size_bytes())) {
            return Err(format!(
                "external memory at {ptr:p} is not a valid, aligned buffer of {dtype}"
            ));
        }
        // SAFETY (every arm): the caller's contract, with the pointer checked non-null and
        // aligned for the element type above.
        Ok(unsafe {
            match dtype {
                DType::I1 => Storage::I1(HostBuf::from_external(ptr.cast(), len, owner)),
                DType::I8 => Storage::I8(HostBuf::from_external(ptr.cast(), len, owner)),
                DType::I16 => Storage::I16(HostBuf::from_external(ptr.cast(), len, owner)),
                DType::I32 => Storage::I32(HostBuf::from_external(ptr.cast(), len, owner)),
                DType::I64 => Storage::I64(HostBuf::from_external(ptr.cast(), len, owner)),
                DType::U8 => Storage::U8(HostBuf::from_external(ptr, len, owner)),
                DType::U16 => Storage::U16(HostBuf::from_external(ptr.cast(), len, owner)),
                DType::U32 => Storage::U32(HostBuf::from_external(ptr.cast(), len, owner)),
                DType::U64 => Storage::U64(HostBuf::from_external(ptr.cast(), len, owner)),
                DType::F32 => Storage::F32(HostBuf::from_external(ptr.cast(), len, owner)),
                DType::F64 => Storage::F64(HostBuf::from_external(ptr.cast(), len, owner)),
            }
        })
    }

    /// Whether the elements live in external memory (see [`Storage::from_external`]).
    pub fn is_external(&self) -> bool {
        each!(self, v => v.is_external())
    }

    /// The address of the first element (dangling, never null, when empty).
    pub fn as_ptr(&self) -> *const u8 {
        each!(self, v => v.as_ptr().cast())
    }

    /// A buffer of `dtype` holding `values` converted exactly (see [`Scalar::from_f64`]).
    pub fn from_f64(dtype: DType, values: &[f64]) -> Result<Storage, String> {
        let mut s = Storage::zeros(dtype, values.len())?;
        for (i, &v) in values.iter().enumerate() {
            s.set(i, Scalar::from_f64(dtype, v)?)?;
        }
        Ok(s)
    }

    /// A buffer of `dtype` holding `values` converted with [`Scalar::convert`].
    pub fn from_scalars(dtype: DType, values: &[Scalar]) -> Result<Storage, String> {
        let mut s = Storage::zeros(dtype, values.len())?;
        for (i, &v) in values.iter().enumerate() {
            s.set(i, v.convert(dtype)?)?;
        }
        Ok(s)
    }

    pub fn dtype(&self) -> DType {
        match self {
            Storage::I1(_) => DType::I1,
            Storage::I8(_) => DType::I8,
            Storage::I16(_) => DType::I16,
            Storage::I32(_) => DType::I32,
            Storage::I64(_) => DType::I64,
            Storage::U8(_) => DType::U8,
            Storage::U16(_) => DType::U16,
            Storage::U32(_) => DType::U32,
            Storage::U64(_) => DType::U64,
            Storage::F32(_) => DType::F32,
            Storage::F64(_) => DType::F64,
        }
    }

    pub fn len(&self) -> usize {
        each!(self, v => v.len())
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`, or None past the end.
    pub fn get(&self, i: usize) -> Option<Scalar> {
        (i < self.len()).then(|| Scalar::from_bits(self.dtype(), self.load_bits(i)))
    }

    /// Sets element `i`; the value must have this buffer's dtype and `i` must be in range.
    pub fn set(&mut self, i: usize, value: Scalar) -> Result<(), String> {
        if value.dtype() != self.dtype() {
            return Err(format!(
                "cannot store a {} value in a {} buffer",
                value.dtype(),
                self.dtype()
            ));
        }
        if i >= self.len() {
            return Err(format!(
                "index {i} is out of bounds for a buffer of {} elements",
                self.len()
            ));
        }
        self.store_bits(i, value.to_bits());
        Ok(())
    }

    /// Element `i` as f64 (None past the end).
    pub fn get_f64(&self, i: usize) -> Option<f64> {
        self.get(i).map(Scalar::to_f64)
    }

    /// Every element as f64.
    pub fn to_f64_vec(&self) -> Vec<f64> {
        (0..self.len())
            .map(|i| self.get_f64(i).unwrap_or(0.0))
            .collect()
    }

    /// Every element as a scalar.
    pub fn to_scalars(&self) -> Vec<Scalar> {
        (0..self.len())
            .map(|i| Scalar::from_bits(self.dtype(), self.load_bits(i)))
            .collect()
    }

    /// Sets every element to zero. A large owned buffer gets fresh lazily zeroed memory (its old
    /// pages are freed), so zeroing an adjoint a kernel only partly touched does not touch the
    /// rest; when that allocation fails, and always in external memory (which must stay where it
    /// is), zeros are written in place.
    pub fn fill_zero(&mut self) {
        let bytes = self.len() * self.dtype().size_bytes();
        if bytes >= FRESH_ZERO_BYTES && !self.is_external() {
            if let Ok(fresh) = Storage::zeros(self.dtype(), self.len()) {
                *self = fresh;
                return;
            }
        }
        each!(self, v => v.iter_mut().for_each(|x| *x = Default::default()))
    }

    /// Element `i` as canonical bits (see `value`). Panics when `i` is out of range: devices
    /// check indices against the shape first.
    #[inline]
    pub fn load_bits(&self, i: usize) -> u64 {
        match self {
            Storage::I1(v) => {
                if v[i] {
                    u64::MAX
                } else {
                    0
                }
            }
            Storage::I8(v) => v[i] as i64 as u64,
            Storage::I16(v) => v[i] as i64 as u64,
            Storage::I32(v) => v[i] as i64 as u64,
            Storage::I64(v) => v[i] as u64,
            Storage::U8(v) => v[i] as i8 as i64 as u64,
            Storage::U16(v) => v[i] as i16 as i64 as u64,
            Storage::U32(v) => v[i] as i32 as i64 as u64,
            Storage::U64(v) => v[i],
            Storage::F32(v) => v[i].to_bits() as u64,
            Storage::F64(v) => v[i].to_bits(),
        }
    }

    /// Stores the low bits of `bits` (canonical or not) as element `i`. Panics when `i` is out of
    /// range, as [`Storage::load_bits`].
    #[inline]
    pub fn store_bits(&mut self, i: usize, bits: u64) {
        match self {
            Storage::I1(v) => v[i] = bits & 1 != 0,
            Storage::I8(v) => v[i] = bits as i8,
            Storage::I16(v) => v[i] = bits as i16,
            Storage::I32(v) => v[i] = bits as i32,
            Storage::I64(v) => v[i] = bits as i64,
            Storage::U8(v) => v[i] = bits as u8,
            Storage::U16(v) => v[i] = bits as u16,
            Storage::U32(v) => v[i] = bits as u32,
            Storage::U64(v) => v[i] = bits,
            Storage::F32(v) => v[i] = f32::from_bits(bits as u32),
            Storage::F64(v) => v[i] = f64::from_bits(bits),
        }
    }

    pub fn as_f32(&self) -> Option<&[f32]> {
        match self {
            Storage::F32(v) => Some(v.as_slice()),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<&[f64]> {
        match self {
            Storage::F64(v) => Some(v.as_slice()),
            _ => None,
        }
    }
    pub fn as_i32(&self) -> Option<&[i32]> {
        match self {
            Storage::I32(v) => Some(v.as_slice()),
            _ => None,
        }
    }
    pub fn as_i64(&self) -> Option<&[i64]> {
        match self {
            Storage::I64(v) => Some(v.as_slice()),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<&[bool]> {
        match self {
            Storage::I1(v) => Some(v.as_slice()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeros_get_set() {
        for dt in DType::ALL {
            let mut s = Storage::zeros(dt, 3).unwrap();
            assert_eq!((s.dtype(), s.len()), (dt, 3));
            assert_eq!(s.get(0), Some(Scalar::zero(dt)));
            assert_eq!(s.get(3), None);
            let one = Scalar::from_i128(dt, 1).unwrap();
            s.set(2, one).unwrap();
            assert_eq!(s.get(2), Some(one));
            assert_eq!(s.get_f64(2), Some(1.0));
            s.fill_zero();
            assert_eq!(s.to_f64_vec(), vec![0.0; 3]);
        }
    }

    #[test]
    fn set_checks_type_and_range() {
        let mut s = Storage::zeros(DType::F32, 2).unwrap();
        assert!(s.set(0, Scalar::F64(1.0)).unwrap_err().contains("f64"));
        assert!(s
            .set(2, Scalar::F32(1.0))
            .unwrap_err()
            .contains("out of bounds"));
    }

    #[test]
    fn bits_truncate_to_width() {
        let mut s = Storage::zeros(DType::I8, 1).unwrap();
        s.store_bits(0, 0x1ff);
        assert_eq!(s.get(0), Some(Scalar::I8(-1)));
        assert_eq!(s.load_bits(0), u64::MAX);
        let mut u = Storage::zeros(DType::U16, 1).unwrap();
        u.store_bits(0, 0xffff);
        assert_eq!(u.get(0), Some(Scalar::U16(65535)));
        let mut b = Storage::zeros(DType::I1, 1).unwrap();
        b.store_bits(0, u64::MAX);
        assert_eq!(b.as_bool(), Some(&[true][..]));
    }

    #[test]
    fn conversions() {
        let s = Storage::from_f64(DType::I32, &[1.0, -2.0]).unwrap();
        assert_eq!(s.as_i32(), Some(&[1, -2][..]));
        assert!(Storage::from_f64(DType::I32, &[0.5]).is_err());
        let f = Storage::from_scalars(DType::F32, &[Scalar::I64(3), Scalar::F64(0.5)]).unwrap();
        assert_eq!(f.as_f32(), Some(&[3.0, 0.5][..]));
        assert_eq!(f.to_scalars(), vec![Scalar::F32(3.0), Scalar::F32(0.5)]);
    }

    /// Counts its drops.
    struct Owner(std::sync::Arc<std::sync::atomic::AtomicUsize>);
    impl Drop for Owner {
        fn drop(&mut self) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn external_storage_shares_the_memory_and_drops_its_owner_once() {
        use std::sync::atomic::Ordering::SeqCst;
        let drops = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut mem = vec![1i32, 2, 3];
        let ptr = mem.as_mut_ptr();
        // SAFETY: `mem` outlives the storage and is only read after the storage is dropped.
        let mut s = unsafe {
            Storage::from_external(DType::I32, ptr.cast(), 3, Box::new(Owner(drops.clone())))
        }
        .unwrap();
        assert!(s.is_external());
        assert_eq!(s.as_ptr(), ptr as *const u8);
        assert_eq!(s.as_i32(), Some(&[1, 2, 3][..]));
        s.set(0, Scalar::I32(7)).unwrap();
        let copy = s.clone();
        assert!(!copy.is_external());
        assert_ne!(copy.as_ptr(), s.as_ptr());
        assert_eq!(copy, s);
        s.fill_zero();
        assert_eq!(copy.as_i32(), Some(&[7, 2, 3][..]));
        assert_eq!(drops.load(SeqCst), 0);
        drop(copy);
        assert_eq!(drops.load(SeqCst), 0);
        s.store_bits(2, 9);
        drop(s);
        assert_eq!(drops.load(SeqCst), 1);
        assert_eq!(mem, [0, 0, 9]);
    }

    #[test]
    fn large_external_storage_is_zeroed_in_place() {
        let n = FRESH_ZERO_BYTES / 8 + 1;
        let mut mem = vec![1.5f64; n];
        // SAFETY: `mem` outlives the storage and is only read after the storage is dropped.
        let mut s =
            unsafe { Storage::from_external(DType::F64, mem.as_mut_ptr().cast(), n, Box::new(())) }
                .unwrap();
        let ptr = s.as_ptr();
        s.fill_zero();
        assert_eq!(s.as_ptr(), ptr);
        drop(s);
        assert!(mem.iter().all(|&x| x == 0.0));
    }

    #[test]
    fn external_storage_checks_the_pointer() {
        let mut mem = [0u8; 16];
        let odd = mem
            .as_mut_ptr()
            .wrapping_add(1 + (mem.as_ptr() as usize % 2));
        // SAFETY: rejected before any use.
        let err = unsafe { Storage::from_external(DType::I16, odd, 2, Box::new(())) }.unwrap_err();
        assert!(err.contains("aligned"), "{err}");
        // SAFETY: as above.
        let null =
            unsafe { Storage::from_external(DType::F32, std::ptr::null_mut(), 1, Box::new(())) };
        assert!(null.is_err());
        // SAFETY: len 0: the pointer is not used.
        let empty =
            unsafe { Storage::from_external(DType::F32, std::ptr::null_mut(), 0, Box::new(())) }
                .unwrap();
        assert!(empty.is_empty());
    }

    #[test]
    fn storage_of_the_runtime_is_cache_line_aligned() {
        for dt in DType::ALL {
            for len in [1, 3, 1000, (1 << 20) + 5] {
                let s = Storage::zeros(dt, len).unwrap();
                assert_eq!(s.as_ptr() as usize % crate::BLOCK_ALIGN, 0, "{dt} x {len}");
                let mut c = s.clone();
                assert_eq!(c.as_ptr() as usize % crate::BLOCK_ALIGN, 0, "a clone");
                assert_eq!(c, s);
                c.fill_zero();
                assert_eq!(c.as_ptr() as usize % crate::BLOCK_ALIGN, 0, "zeroed again");
            }
        }
        let f = Storage::from_f64(DType::F32, &[1.0, 2.0]).unwrap();
        assert_eq!(f.as_ptr() as usize % crate::BLOCK_ALIGN, 0);
    }

    #[test]
    fn huge_allocation_fails_cleanly() {
        let err = Storage::zeros(DType::F64, usize::MAX / 2).unwrap_err();
        assert!(err.contains("cannot allocate"), "{err}");
    }
}
