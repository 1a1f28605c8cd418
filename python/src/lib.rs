//! `qd._qd`, the extension module behind the `qd` Python package (python/qd): the IR
//! (`ir`, `builder`), passes (`passes`), the fusion JIT (`jit`), and programs on NumPy arrays (`program`, `kernel`,
//! `tape`, with `arrays`, `buffers`, `storage` and `device` sharing NumPy's memory with the
//! runtime). Errors are the classes of `qd/errors.py` (`errors`).

mod arrays;
mod buffers;
mod builder;
mod device;
mod errors;
mod ir;
mod jit;
mod kernel;
mod passes;
mod program;
mod storage;
mod tape;

use pyo3::prelude::*;

/// How many NumPy buffers the runtime holds as storage right now (for tests: zero once every
/// program is gone).
#[pyfunction]
fn _live_foreign_buffers() -> usize {
    storage::live_external()
}

/// The names and descriptions of the devices of the registry.
#[pyfunction]
fn devices() -> Vec<(String, String)> {
    qd_devices::all_devices()
        .iter()
        .map(|e| (e.name.to_string(), e.description.to_string()))
        .collect()
}

#[pymodule]
fn _qd(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ir::Module>()?;
    m.add_class::<builder::Builder>()?;
    m.add_class::<builder::TypeSpec>()?;
    m.add_class::<builder::Value>()?;
    m.add_class::<program::Program>()?;
    m.add_class::<kernel::Kernel>()?;
    m.add_class::<tape::Tape>()?;
    m.add_function(wrap_pyfunction!(passes::run, m)?)?;
    m.add_function(wrap_pyfunction!(passes::list, m)?)?;
    m.add_function(wrap_pyfunction!(passes::describe, m)?)?;
    m.add_class::<jit::JitGraph>()?;
    m.add_class::<jit::JitEngine>()?;
    m.add_function(wrap_pyfunction!(jit::register_primitive, m)?)?;
    m.add_function(wrap_pyfunction!(jit::primitive_names, m)?)?;
    m.add_function(wrap_pyfunction!(devices, m)?)?;
    m.add_function(wrap_pyfunction!(_live_foreign_buffers, m)?)?;
    Ok(())
}
