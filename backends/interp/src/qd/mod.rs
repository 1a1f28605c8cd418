//! The interpreter of the qd dialect: loops (parallel at a kernel's top level, serial elsewhere),
//! control flow, fields, ndarrays and locals.
//!
//! - Parallel loops (`range_for`/`struct_for` directly in a kernel body) run each iteration as a
//!   separate thread, in ascending order, or in a seeded random order when shuffling is on.
//!   Threads run one after another, so atomics are trivially atomic.
//! - Serial loops, `while`, `if`, `break` and `continue` run exactly; `range_for` bounds are
//!   compared as signed integers of their type.
//! - Every field, ndarray and local-array index is checked; an out-of-bounds index stops the
//!   launch with an error naming the index, the shape and the op's location.
//! - `qd.alloca` zero-initializes its local every time it runs (Taichi's semantics).

mod locals;
mod loops;
mod memory;

/// The local-memory layout (cells per local type), shared with `ad.load_element`.
pub(crate) use locals::cells as local_cells;

use crate::exec::{Compiler, DialectInterpreter, Exec, Flow};
use qd_frontend as qd;
use qd_ir::{Diagnostic, OpId};

/// Runs `qd.*` ops.
#[derive(Default)]
pub struct QdInterpreter;

impl DialectInterpreter for QdInterpreter {
    fn dialect(&self) -> &'static str {
        "qd"
    }

    fn compile(&self, c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
        match c.ctx().name(op) {
            qd::RANGE_FOR_OP => loops::range_for(c, op),
            qd::STRUCT_FOR_OP => loops::struct_for(c, op),
            qd::WHILE_OP => loops::while_loop(c, op),
            qd::IF_OP => loops::if_op(c, op),
            // The enclosing qd.while reads the condition's operand itself.
            qd::CONDITION_OP => Ok(Box::new(|_| Ok(Flow::Next))),
            qd::BREAK_OP => Ok(Box::new(|_| Ok(Flow::Break))),
            qd::CONTINUE_OP => Ok(Box::new(|_| Ok(Flow::Continue))),
            qd::LOAD_OP => memory::load(c, op),
            qd::STORE_OP => memory::store(c, op),
            qd::ATOMIC_ADD_OP | qd::ATOMIC_MIN_OP | qd::ATOMIC_MAX_OP => memory::atomic(c, op),
            qd::NDARRAY_LOAD_OP => memory::ndarray_load(c, op),
            qd::NDARRAY_STORE_OP => memory::ndarray_store(c, op),
            qd::NDARRAY_SHAPE_OP => memory::ndarray_shape(c, op),
            qd::NDARRAY_ATOMIC_ADD_OP
            | qd::NDARRAY_ATOMIC_SUB_OP
            | qd::NDARRAY_ATOMIC_MIN_OP
            | qd::NDARRAY_ATOMIC_MAX_OP => memory::ndarray_atomic(c, op),
            qd::ALLOCA_OP => locals::alloca(c, op),
            qd::LOCAL_LOAD_OP => locals::local_load(c, op),
            qd::LOCAL_STORE_OP => locals::local_store(c, op),
            qd::ELEM_PTR_OP => locals::elem_ptr(c, op),
            qd::MEMBER_PTR_OP => locals::member_ptr(c, op),
            _ => Err(c.unsupported(op)),
        }
    }
}
