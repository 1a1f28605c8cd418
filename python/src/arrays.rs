//! NumPy arrays bound to a program as ndarrays, without copies: each array passed to a kernel is
//! registered once as a runtime `Ndarray` whose storage is the array's own memory (see
//! `storage`), keyed by its data pointer and dtype, and found again on later launches. An entry
//! and its ndarray's storage share a buffer export of the array (NumPy then refuses to resize or
//! free it); the entry goes when a `sync` finds that nothing but the entry refers to the array
//! any more, or when the tape that recorded it is dropped.

use crate::buffers::Pinned;
use crate::errors::{qd_err, ErrorKind};
use crate::storage::{readopt, Export};
use pyo3::prelude::*;
use qd_runtime::{DType, Ndarray, NdarrayId, Program};
use std::collections::HashMap;

struct Entry {
    /// The array's export, which its ndarray's storage also holds.
    export: Export,
    id: NdarrayId,
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
            if e.export.pinned().shape == pinned.shape {
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
                        e.export.pinned().shape
                    ),
                ));
            }
            self.remove(p, i);
        }
        let export = Export::new(pinned);
        let storage = export
            .storage()
            .map_err(|e| qd_err(py, ErrorKind::Other, format!("{}: {e}", what())))?;
        let nd = Ndarray::new(&export.pinned().shape, storage)
            .map_err(|e| qd_err(py, ErrorKind::Shape, format!("{}: {e}", what())))?;
        let id = p.add_ndarray(nd);
        let entry = Entry {
            export,
            id,
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
            self.by_ptr
                .remove(&(e.export.ptr() as usize, e.export.dtype()));
            // The export is released once both the entry and the ndarray's storage are gone.
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
            if e.tape_pins == 0 && e.export.pinned().other_refs(py) <= 0 {
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
                .map(|nd| nd.data().as_ptr() != e.export.ptr().cast_const())
                .unwrap_or(false);
            if moved {
                if let Ok(nd) = p.ndarray_mut(e.id) {
                    readopt(nd.data_mut(), &e.export);
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
            .map(|e| e.export.pinned().object(py))
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
