//! NumPy arrays through the buffer protocol: [`Pinned`] holds a buffer export of an array (its
//! memory cannot move or be freed while the export lives) and describes it; [`zeros`] makes a
//! NumPy array for the runtime to share.

use crate::errors::{qd_err, ErrorKind};
use pyo3::ffi;
use pyo3::prelude::*;
use qd_runtime::DType;
use std::ffi::CStr;

/// A buffer export of a Python object (a NumPy array): released when dropped.
pub struct Pinned {
    view: Box<ffi::Py_buffer>,
    pub dtype: DType,
    pub shape: Vec<usize>,
}

// SAFETY: a `Pinned` is written only while it is made; afterwards other threads can read plain
// data (pointer, dtype, shape) or reach the Python object through a `Python` token, which proves
// they hold the GIL. Releasing the export (the drop, possibly on another thread when a storage
// over the array drops there) takes the GIL first.
unsafe impl Send for Pinned {}
// SAFETY: as above.
unsafe impl Sync for Pinned {}

impl Drop for Pinned {
    fn drop(&mut self) {
        // The export is released with the GIL held (every extension call holds it).
        Python::attach(|_| unsafe { ffi::PyBuffer_Release(&mut *self.view) });
    }
}

impl Pinned {
    /// Exports `obj`'s buffer: a C-contiguous, aligned, writable array of a dtype qd has.
    /// `what` names it in errors ("argument 'a' of kernel 'compute'").
    pub fn new(obj: &Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<Pinned> {
        let py = obj.py();
        // SAFETY: a zeroed Py_buffer is what PyObject_GetBuffer fills.
        let mut view: Box<ffi::Py_buffer> = Box::new(unsafe { std::mem::zeroed() });
        let rc =
            unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), &mut *view, ffi::PyBUF_RECORDS_RO) };
        if rc != 0 {
            let cause = PyErr::take(py).map(|e| e.to_string()).unwrap_or_default();
            return Err(qd_err(
                py,
                ErrorKind::DType,
                format!(
                    "{} must be a NumPy array (or an object with the buffer protocol), got {}: {cause}",
                    what(),
                    type_name(obj)
                ),
            ));
        }
        // From here on `view` is released on every path by Pinned's drop.
        let mut p = Pinned {
            view,
            dtype: DType::F32,
            shape: Vec::new(),
        };
        let v = &*p.view;
        let format = if v.format.is_null() {
            "B".to_string()
        } else {
            // SAFETY: the exporter gives a NUL-terminated format string.
            unsafe { CStr::from_ptr(v.format) }
                .to_string_lossy()
                .into_owned()
        };
        p.dtype = dtype_of_format(&format, v.itemsize as usize).ok_or_else(|| {
            qd_err(
                py,
                ErrorKind::DType,
                format!(
                    "{} has element format '{format}' ({} bytes), which qd has no dtype for",
                    what(),
                    v.itemsize
                ),
            )
        })?;
        p.shape = (0..v.ndim as usize)
            // SAFETY: PyBUF_RECORDS_RO asks for the shape: ndim extents.
            .map(|i| unsafe { *v.shape.add(i) } as usize)
            .collect();
        // SAFETY: the view is a filled export.
        let contiguous =
            unsafe { ffi::PyBuffer_IsContiguous(v, b'C' as std::os::raw::c_char) } != 0;
        if !contiguous {
            return Err(qd_err(
                py,
                ErrorKind::Shape,
                format!(
                    "{} must be C-contiguous (numpy.ascontiguousarray makes a contiguous copy)",
                    what()
                ),
            ));
        }
        if v.readonly != 0 {
            return Err(qd_err(
                py,
                ErrorKind::DType,
                format!("{} is read-only; kernels take writable arrays", what()),
            ));
        }
        if !(v.buf as usize).is_multiple_of(p.dtype.size_bytes().max(1)) {
            return Err(qd_err(
                py,
                ErrorKind::Shape,
                format!("{} is not aligned to its element size", what()),
            ));
        }
        Ok(p)
    }

    pub fn ptr(&self) -> *mut u8 {
        self.view.buf as *mut u8
    }
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    /// The exported object.
    pub fn object<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        // SAFETY: a filled export holds a strong reference to its exporter in `obj`.
        unsafe { Bound::from_borrowed_ptr(py, self.view.obj) }
    }
    /// References to the exporter besides this export's own.
    pub fn other_refs(&self, py: Python<'_>) -> isize {
        self.object(py).get_refcnt() - 2
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// The dtype of a buffer-protocol format (struct module syntax, as NumPy writes it).
fn dtype_of_format(format: &str, itemsize: usize) -> Option<DType> {
    let code = format.trim_start_matches(['@', '=', '<', '>', '!']);
    if format.starts_with(['>', '!']) && itemsize > 1 && cfg!(target_endian = "little") {
        return None;
    }
    let d = match code {
        "?" => DType::I1,
        "b" => DType::I8,
        "B" => DType::U8,
        "h" => DType::I16,
        "H" => DType::U16,
        "i" | "l" | "q" => match itemsize {
            4 => DType::I32,
            8 => DType::I64,
            _ => return None,
        },
        "I" | "L" | "Q" => match itemsize {
            4 => DType::U32,
            8 => DType::U64,
            _ => return None,
        },
        "f" => DType::F32,
        "d" => DType::F64,
        _ => return None,
    };
    (d.size_bytes() == itemsize).then_some(d)
}

/// NumPy's name of a dtype.
pub fn numpy_dtype(d: DType) -> &'static str {
    match d {
        DType::I1 => "bool",
        DType::I8 => "int8",
        DType::I16 => "int16",
        DType::I32 => "int32",
        DType::I64 => "int64",
        DType::U8 => "uint8",
        DType::U16 => "uint16",
        DType::U32 => "uint32",
        DType::U64 => "uint64",
        DType::F32 => "float32",
        DType::F64 => "float64",
    }
}

/// A new zeroed NumPy array.
pub fn zeros<'py>(py: Python<'py>, dtype: DType, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    np.getattr("zeros")?
        .call1((shape.to_vec(), numpy_dtype(dtype)))
}
