//! The extension's global allocator: the system allocator, except that memory NumPy owns can back
//! a Rust `Vec` of the runtime (a field's or an ndarray's `Storage`) without the runtime ever
//! freeing it. That is how kernels on host-memory devices read and write NumPy arrays in place:
//! [`foreign_vec`] registers the array's data pointer, and when the runtime drops or replaces that
//! `Vec` (a program dropped, a tape restoring a snapshot), `dealloc` sees the pointer, forgets it
//! and frees nothing; NumPy frees its memory when the array dies (the extension holds a buffer
//! export on it meanwhile, so NumPy cannot resize or free it under the runtime).
//!
//! The registry is an open-addressing table of (pointer, count) pairs behind a spin lock,
//! allocated from `System` directly (the allocator must not allocate through itself). While no
//! foreign buffer exists (`LIVE == 0`), `dealloc` costs one relaxed load more than `System`'s.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

pub struct QdAlloc;

#[global_allocator]
static GLOBAL: QdAlloc = QdAlloc;

/// How many foreign registrations exist (the sum of the counts).
static LIVE: AtomicUsize = AtomicUsize::new(0);
static LOCK: AtomicBool = AtomicBool::new(false);
/// The table, only touched under `LOCK`.
static mut TABLE: Table = Table {
    slots: std::ptr::null_mut(),
    cap: 0,
    len: 0,
};

#[derive(Copy, Clone)]
struct Slot {
    ptr: usize,
    count: usize,
}

struct Table {
    slots: *mut Slot,
    cap: usize,
    len: usize,
}

struct Guard;
impl Guard {
    fn lock() -> Guard {
        while LOCK
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            std::hint::spin_loop();
        }
        Guard
    }
}
impl Drop for Guard {
    fn drop(&mut self) {
        LOCK.store(false, Ordering::Release);
    }
}

fn hash(ptr: usize, cap: usize) -> usize {
    // Data pointers are aligned: mix the bits before masking.
    (ptr.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 16) & (cap - 1)
}

impl Table {
    fn slot(&self, i: usize) -> *mut Slot {
        // SAFETY (callers): i < cap and slots holds cap slots.
        unsafe { self.slots.add(i) }
    }

    fn find(&self, ptr: usize) -> Option<usize> {
        if self.cap == 0 {
            return None;
        }
        let mut i = hash(ptr, self.cap);
        loop {
            // SAFETY: i < cap.
            let s = unsafe { *self.slot(i) };
            if s.ptr == 0 {
                return None;
            }
            if s.ptr == ptr {
                return Some(i);
            }
            i = (i + 1) & (self.cap - 1);
        }
    }

    /// Grows to twice the capacity (16 at first); false when System is out of memory.
    fn grow(&mut self) -> bool {
        let cap = if self.cap == 0 { 16 } else { self.cap * 2 };
        let Ok(layout) = Layout::array::<Slot>(cap) else {
            return false;
        };
        // SAFETY: nonzero size; zeroed slots are empty (ptr 0).
        let slots = unsafe { System.alloc_zeroed(layout) } as *mut Slot;
        if slots.is_null() {
            return false;
        }
        let old = std::mem::replace(self, Table { slots, cap, len: 0 });
        for i in 0..old.cap {
            // SAFETY: i < old.cap.
            let s = unsafe { *old.slot(i) };
            if s.ptr != 0 {
                self.place(s);
            }
        }
        if old.cap != 0 {
            // SAFETY: allocated above with this layout.
            unsafe {
                System.dealloc(
                    old.slots as *mut u8,
                    Layout::array::<Slot>(old.cap).expect("was allocated"),
                )
            };
        }
        true
    }

    fn place(&mut self, s: Slot) {
        let mut i = hash(s.ptr, self.cap);
        // SAFETY: i < cap; the table is never full (grown at half).
        unsafe {
            while (*self.slot(i)).ptr != 0 {
                i = (i + 1) & (self.cap - 1);
            }
            *self.slot(i) = s;
        }
        self.len += 1;
    }

    fn insert(&mut self, ptr: usize) -> bool {
        if let Some(i) = self.find(ptr) {
            // SAFETY: i < cap.
            unsafe { (*self.slot(i)).count += 1 };
            return true;
        }
        if (self.len + 1) * 2 > self.cap && !self.grow() {
            return false;
        }
        self.place(Slot { ptr, count: 1 });
        true
    }

    /// Drops one registration of `ptr`; true when it was registered.
    fn remove(&mut self, ptr: usize) -> bool {
        let Some(mut i) = self.find(ptr) else {
            return false;
        };
        // SAFETY: every index below is masked to < cap.
        unsafe {
            if (*self.slot(i)).count > 1 {
                (*self.slot(i)).count -= 1;
                return true;
            }
            // Backward-shift deletion keeps every probe chain unbroken without tombstones.
            let mut j = i;
            loop {
                j = (j + 1) & (self.cap - 1);
                let s = *self.slot(j);
                if s.ptr == 0 {
                    break;
                }
                let home = hash(s.ptr, self.cap);
                // Move s into the hole when its home is not cyclically within (i, j].
                let in_range = if i <= j {
                    i < home && home <= j
                } else {
                    i < home || home <= j
                };
                if !in_range {
                    *self.slot(i) = s;
                    i = j;
                }
            }
            *self.slot(i) = Slot { ptr: 0, count: 0 };
        }
        self.len -= 1;
        true
    }
}

/// Takes one registration of `ptr` away, if it has one.
fn take_foreign(ptr: *mut u8) -> bool {
    if LIVE.load(Ordering::Acquire) == 0 {
        return false;
    }
    let _g = Guard::lock();
    // SAFETY: TABLE is only touched under the lock.
    let removed = unsafe { (*std::ptr::addr_of_mut!(TABLE)).remove(ptr as usize) };
    if removed {
        LIVE.fetch_sub(1, Ordering::AcqRel);
    }
    removed
}

unsafe impl GlobalAlloc for QdAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if !take_foreign(ptr) {
            System.dealloc(ptr, layout)
        }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !take_foreign(ptr) {
            return System.realloc(ptr, layout, new_size);
        }
        // A foreign buffer never grows in place: move the data to memory of our own.
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        let new = System.alloc(new_layout);
        if !new.is_null() {
            std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
        }
        new
    }
}

/// A `Vec` of `len` elements over memory the caller keeps alive and unmoved for as long as the
/// `Vec` (or whatever takes it over) exists; dropping the `Vec` frees nothing. `len == 0` gives
/// an empty `Vec` of its own. None when the registry cannot grow.
///
/// # Safety
/// `ptr` points to `len` initialised, properly aligned elements of `T`, valid for reads and
/// writes, not freed before the `Vec` is dropped, and backing no other live `Vec` of a
/// different length.
pub unsafe fn foreign_vec<T>(ptr: *mut T, len: usize) -> Option<Vec<T>> {
    if len == 0 || size_of::<T>() == 0 {
        return Some(Vec::new());
    }
    {
        let _g = Guard::lock();
        if !(*std::ptr::addr_of_mut!(TABLE)).insert(ptr as usize) {
            return None;
        }
        LIVE.fetch_add(1, Ordering::AcqRel);
    }
    Some(Vec::from_raw_parts(ptr, len, len))
}

/// How many foreign registrations exist (for tests: every one ends when its `Vec` drops).
pub fn live_foreign() -> usize {
    LIVE.load(Ordering::Acquire)
}
