//! NumPy arrays bound to a program as ndarrays, without copies: each array passed to a kernel is
//! registered once as a runtime `Ndarray` whose storage is the array's own memory (see
//! `alloc`), keyed by its data pointer and dtype, and found again on later launches. An entry
//! holds a buffer export of its array (NumPy then refuses to resize or free it) until a `sync`
//! finds that nothing but the entry refers to the array any more, or the tape that recorded it
//! is dropped.

use crate::buffers::Pinned;
use crate::errors::{qd_err, ErrorKind};
use crate::storage::{foreign_storage, readopt, storage_ptr, Home};
use pyo3::prelude::*;
use qd_runtime::{DType, Ndarray, NdarrayId, Program};
use std::collections::HashMap;

struct Entry {
    pinned: Pinned,
    id: NdarrayId,
    home: Home,
    /// A launch since the last sync used it: the device may hold newer data than the array.
    pending: bool,
    /// Recorded by a tape: kept until the tape releases it.
    tape_pins: u32,
}

#[derive(Default)]
pub struct ArrayCache {
    entries: Vec<Option<Entry>>,
    by_ptr: HashMap<(usize, DType), usize>,
}

impl ArrayCache {
    /// The ndarray for `obj`, which must be a C-contiguous writable array of `dtype` and rank
    /// `rank` (`what` names the argument in errors). Registers it on first use.
    pub fn bind(
        &mut self,
        p: &mut Program,
        obj: &Bound<'_, PyAny>,
        dtype: DType,
        rank: usize,
        what: &dyn Fn() -> String,
    ) -> PyResult<NdarrayId> {
        let py = obj.py();
        let pinned = Pinned::new(obj, what)?;
        if pinned.dtype != dtype {
            return Err(qd_err(
                py,
                ErrorKind::DType,
                format!(
                    "{} must be an array of {} (numpy {}), got {}",
                    what(),
                    dtype,
                    crate::buffers::numpy_dtype(dtype),
                    crate::buffers::numpy_dtype(pinned.dtype)
                ),
            ));
        }
        if pinned.shape.len() != rank {
            return Err(qd_err(
                py,
                ErrorKind::Shape,
                format!(
                    "{} must have rank {rank}, got an array of shape {:?}",
                    what(),
                    pinned.shape
                ),
            ));
        }
        let key = (pinned.ptr() as usize, dtype);
        if let Some(&i) = self.by_ptr.get(&key) {
            let e = self.entries[i].as_mut().expect("indexed entries exist");
            if e.pinned.shape == pinned.shape {
                if !e.pending {
                    // Python may have written the array since the last sync: a device with
                    // its own copy must take it again (nothing to copy on host devices).
                    if let Err(err) = p.ndarray_mut(e.id) {
                        return Err(crate::program::runtime_err(py, p, err));
                    }
                    e.pending = true;
                }
                return Ok(e.id);
            }
            // The same memory under another shape: the old binding goes, unless still in use.
            if e.pending || e.tape_pins > 0 {
                return Err(qd_err(
                    py,
                    ErrorKind::Shape,
                    format!(
                        "{} shares its memory with an array of shape {:?} that a launch or tape still uses; sync first",
                        what(),
                        e.pinned.shape
                    ),
                ));
            }
            self.remove(p, i);
        }
        let home = Home {
            ptr: pinned.ptr() as usize,
            len: pinned.len(),
            dtype,
        };
        // SAFETY: the export keeps the array's memory alive and unmoved while the entry lives,
        // and the entry outlives the ndarray (removed from the program first in `remove`).
        let storage = unsafe { foreign_storage(dtype, pinned.ptr(), pinned.len()) }
            .ok_or_else(|| qd_err(py, ErrorKind::Other, "out of memory registering an array"))?;
        let nd = Ndarray::new(&pinned.shape, storage)
            .map_err(|e| qd_err(py, ErrorKind::Shape, format!("{}: {e}", what())))?;
        let id = p.add_ndarray(nd);
        let entry = Entry {
            pinned,
            id,
            home,
            pending: true,
            tape_pins: 0,
        };
        let i = match self.entries.iter().position(Option::is_none) {
            Some(i) => {
                self.entries[i] = Some(entry);
                i
            }
            None => {
                self.entries.push(Some(entry));
                self.entries.len() - 1
            }
        };
        self.by_ptr.insert(key, i);
        Ok(id)
    }

    fn remove(&mut self, p: &mut Program, i: usize) {
        if let Some(e) = self.entries[i].take() {
            self.by_ptr.remove(&(e.home.ptr, e.home.dtype));
            // The runtime drops its Vec over the array's memory (freeing nothing) before the
            // export is released with `e`.
            let _ = p.remove_ndarray(e.id);
        }
    }

    /// After a sync: nothing is pending; arrays only the cache still refers to are released.
    pub fn after_sync(&mut self, py: Python<'_>, p: &mut Program) {
        for i in 0..self.entries.len() {
            let Some(e) = self.entries[i].as_mut() else {
                continue;
            };
            e.pending = false;
            if e.tape_pins == 0 && e.pinned.other_refs(py) <= 0 {
                self.remove(p, i);
            }
        }
    }

    /// Puts each array's memory back under its ndarray where the runtime replaced it (a tape
    /// restoring a snapshot), copying the ndarray's contents into the array.
    pub fn readopt_all(&mut self, p: &mut Program) {
        for e in self.entries.iter().flatten() {
            let moved = p
                .ndarray(e.id)
                .map(|nd| storage_ptr(nd.data()) != e.home.ptr)
                .unwrap_or(false);
            if moved {
                if let Ok(nd) = p.ndarray_mut(e.id) {
                    readopt(nd.data_mut(), e.home);
                }
            }
        }
    }

    /// The array bound as ndarray `id`.
    pub fn array_of<'py>(&self, py: Python<'py>, id: NdarrayId) -> Option<Bound<'py, PyAny>> {
        self.entries
            .iter()
            .flatten()
            .find(|e| e.id == id)
            .map(|e| e.pinned.object(py))
    }

    /// Keeps `id` bound while a tape holds it.
    pub fn pin(&mut self, id: NdarrayId) {
        if let Some(e) = self.entries.iter_mut().flatten().find(|e| e.id == id) {
            e.tape_pins += 1;
        }
    }

    pub fn unpin(&mut self, id: NdarrayId) {
        if let Some(e) = self.entries.iter_mut().flatten().find(|e| e.id == id) {
            e.tape_pins = e.tape_pins.saturating_sub(1);
        }
    }

    /// How many arrays are bound.
    pub fn len(&self) -> usize {
        self.entries.iter().flatten().count()
    }

    /// Releases every binding (the program is going away).
    pub fn clear(&mut self, p: &mut Program) {
        for i in 0..self.entries.len() {
            self.remove(p, i);
        }
    }
}
