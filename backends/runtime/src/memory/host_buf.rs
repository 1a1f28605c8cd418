//! [`HostBuf`]: the elements of one [`super::Storage`]: memory of the runtime's own (a
//! [`ZeroedBlock`], cache-line aligned, from [`HostBuf::zeroed`]; or any `Vec`) or memory someone
//! else owns (a NumPy array), kept alive by an owner value the buffer holds and drops instead of
//! freeing the memory. Kernels on host devices read and write either kind in place; only the
//! runtime's own can be replaced (callers that need a new buffer make one and, if the external
//! memory must see the result, copy it back).

use super::zeroed::ZeroedBlock;
use std::any::Any;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// What keeps external memory alive: dropped (exactly once) when the buffer is.
pub type ExternalOwner = Box<dyn Any + Send + Sync>;

/// A dense buffer of `T` on the host.
pub struct HostBuf<T> {
    repr: Repr<T>,
}

enum Repr<T> {
    Owned(Vec<T>),
    /// `len` elements at the start of the block (`len > 0`).
    Block {
        block: ZeroedBlock,
        len: usize,
        _elems: std::marker::PhantomData<T>,
    },
    External {
        ptr: NonNull<T>,
        len: usize,
        /// Never read: holding it keeps the memory at `ptr` alive.
        _owner: ExternalOwner,
    },
}

// SAFETY: by `from_external`'s contract nothing else touches the memory while the buffer's
// elements are borrowed (as with a Vec's own memory), and the owner is Send + Sync: sending or
// sharing the buffer is sending or sharing `[T]`.
unsafe impl<T: Send> Send for HostBuf<T> {}
// SAFETY: as above; `&HostBuf` only gives `&[T]`.
unsafe impl<T: Sync> Sync for HostBuf<T> {}

/// Element types whose all-zero bit pattern is a valid value equal to `Default::default()`
/// (false, 0, +0.0).
///
/// # Safety
/// Implement only for such types: [`HostBuf::zeroed`] makes their values from zeroed bytes.
pub(crate) unsafe trait ZeroBits: Copy {}
unsafe impl ZeroBits for bool {}
unsafe impl ZeroBits for i8 {}
unsafe impl ZeroBits for i16 {}
unsafe impl ZeroBits for i32 {}
unsafe impl ZeroBits for i64 {}
unsafe impl ZeroBits for u8 {}
unsafe impl ZeroBits for u16 {}
unsafe impl ZeroBits for u32 {}
unsafe impl ZeroBits for u64 {}
unsafe impl ZeroBits for f32 {}
unsafe impl ZeroBits for f64 {}

impl<T> HostBuf<T> {
    /// `len` zeros in a [`ZeroedBlock`] (cache-line aligned, lazily zeroed when large), or an
    /// error when the memory cannot be had (no abort). No zeros are written for a large block.
    pub(crate) fn zeroed(len: usize) -> Result<HostBuf<T>, String>
    where
        T: ZeroBits,
    {
        let err = || format!("cannot allocate {len} elements of {} bytes", size_of::<T>());
        let bytes = len.checked_mul(size_of::<T>()).ok_or_else(err)?;
        if bytes == 0 {
            return Ok(Vec::new().into());
        }
        if isize::try_from(bytes).is_err() {
            return Err(err());
        }
        let block = ZeroedBlock::new(bytes).ok_or_else(err)?;
        Ok(HostBuf {
            repr: Repr::Block {
                block,
                len,
                _elems: std::marker::PhantomData,
            },
        })
    }
}

impl<T> HostBuf<T> {
    /// A buffer over `len` elements at `ptr` that `owner` keeps alive; `owner` is dropped when
    /// the buffer is (never the memory itself). With `len == 0` the pointer is not used.
    ///
    /// # Safety
    /// Unless `len == 0`: `ptr` is non-null, aligned for `T`, and points to `len` initialised,
    /// valid values of `T` (for `bool`, bytes 0 or 1 only), readable and writable; the memory
    /// stays valid and unmoved until `owner` is dropped; and nothing else reads or writes it
    /// while a borrow of the buffer's elements (or a pointer taken from one) is live. The runtime
    /// borrows a storage's elements only inside its own calls (a launch, a sync, a read), so
    /// the memory's owner may use it between those calls.
    pub unsafe fn from_external(ptr: *mut T, len: usize, owner: ExternalOwner) -> HostBuf<T> {
        let ptr = if len == 0 {
            NonNull::dangling()
        } else {
            debug_assert!(!ptr.is_null() && ptr.is_aligned());
            // SAFETY: non-null by the contract.
            unsafe { NonNull::new_unchecked(ptr) }
        };
        HostBuf {
            repr: Repr::External {
                ptr,
                len,
                _owner: owner,
            },
        }
    }

    /// Whether the memory is someone else's (see [`HostBuf::from_external`]).
    pub fn is_external(&self) -> bool {
        matches!(self.repr, Repr::External { .. })
    }

    pub fn as_slice(&self) -> &[T] {
        match &self.repr {
            Repr::Owned(v) => v,
            // SAFETY: `len` zero-initialised (`ZeroBits`) or since written elements of the
            // block, which is aligned for any element type; `&self` borrows it.
            Repr::Block { block, len, .. } => unsafe {
                std::slice::from_raw_parts(block.as_ptr().cast(), *len)
            },
            // SAFETY: `from_external`'s contract: `len` valid elements that nothing else
            // touches while this borrow lives (a dangling, aligned pointer when `len == 0`).
            Repr::External { ptr, len, .. } => unsafe {
                std::slice::from_raw_parts(ptr.as_ptr(), *len)
            },
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match &mut self.repr {
            Repr::Owned(v) => v,
            // SAFETY: as in `as_slice`; `&mut self` makes this the only borrow.
            Repr::Block { block, len, .. } => unsafe {
                std::slice::from_raw_parts_mut(block.as_ptr().cast(), *len)
            },
            // SAFETY: as in `as_slice`; `&mut self` makes this the only borrow.
            Repr::External { ptr, len, .. } => unsafe {
                std::slice::from_raw_parts_mut(ptr.as_ptr(), *len)
            },
        }
    }
}

impl<T: Clone> HostBuf<T> {
    /// The elements as a `Vec`: the buffer itself when it is one, else a copy.
    pub fn into_vec(self) -> Vec<T> {
        match self.repr {
            Repr::Owned(v) => v,
            Repr::Block { .. } | Repr::External { .. } => self.as_slice().to_vec(),
        }
    }
}

impl<T> From<Vec<T>> for HostBuf<T> {
    fn from(v: Vec<T>) -> Self {
        HostBuf {
            repr: Repr::Owned(v),
        }
    }
}

impl<T> Deref for HostBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> DerefMut for HostBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

/// A clone is always the runtime's own: a copy of the elements in a new block (cache-line
/// aligned as `HostBuf::zeroed`'s), or in a `Vec` when no block can be had.
impl<T: Copy> Clone for HostBuf<T> {
    fn clone(&self) -> Self {
        let src = self.as_slice();
        let bytes = std::mem::size_of_val(src);
        match (bytes > 0).then(|| ZeroedBlock::new(bytes)).flatten() {
            Some(block) => {
                // SAFETY: the block holds `bytes` bytes, aligned for any element type, and
                // does not overlap `src`; after the copy it holds `src.len()` valid elements.
                unsafe {
                    std::ptr::copy_nonoverlapping(src.as_ptr(), block.as_ptr().cast(), src.len())
                };
                HostBuf {
                    repr: Repr::Block {
                        block,
                        len: src.len(),
                        _elems: std::marker::PhantomData,
                    },
                }
            }
            None => src.to_vec().into(),
        }
    }
}

/// Equal when the elements are, whoever owns them.
impl<T: PartialEq> PartialEq for HostBuf<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

/// The elements, as a `Vec`'s.
impl<T: fmt::Debug> fmt::Debug for HostBuf<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// Counts its drops.
    struct Owner(Arc<AtomicUsize>);
    impl Drop for Owner {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn external_is_read_and_written_in_place() {
        let mut mem = vec![1.0f32, 2.0, 3.0];
        let drops = Arc::new(AtomicUsize::new(0));
        // SAFETY: `mem` outlives the buffer and is not touched while the buffer lives.
        let mut b =
            unsafe { HostBuf::from_external(mem.as_mut_ptr(), 3, Box::new(Owner(drops.clone()))) };
        assert!(b.is_external());
        assert_eq!(&b[..], &[1.0, 2.0, 3.0]);
        b[1] = 5.0;
        let c = b.clone();
        assert!(!c.is_external());
        assert_eq!(c, b);
        assert_eq!(format!("{b:?}"), "[1.0, 5.0, 3.0]");
        drop(b);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(mem, [1.0, 5.0, 3.0]);
        drop(c);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn empty_external_ignores_the_pointer() {
        let drops = Arc::new(AtomicUsize::new(0));
        // SAFETY: len 0: the pointer is not used.
        let b = unsafe {
            HostBuf::<f64>::from_external(std::ptr::null_mut(), 0, Box::new(Owner(drops.clone())))
        };
        assert!(b.is_empty());
        assert_eq!(b.into_vec(), Vec::<f64>::new());
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn owned_round_trip() {
        let b: HostBuf<i32> = vec![1, 2].into();
        assert!(!b.is_external());
        assert_eq!(b.into_vec(), vec![1, 2]);
    }
}
