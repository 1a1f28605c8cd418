//! The interpreter of lowered IR (`qd-run --device interp-lowered`): the `lowered` dialect's
//! [`DialectInterpreter`] ([`LoweredDialect`]) and the device that runs a `lowered.kernel`
//! ([`LoweredInterpreter`]), on the same core as the qd-level interpreter (`exec`: one closure
//! per op over a frame of registers), with arith and math as there.
//!
//! It runs lowered IR the way a compiled device does, so that it checks the lowering and the
//! runtime's per-launch sizing before any backend exists:
//! - `task`: tasks in order; a serial task is one thread, a range task `max(end - begin, 0)`
//!   threads in ascending order (or the seeded order of `--shuffle`, drawn as the qd interpreter
//!   draws it for the parallel loop the task comes from); begin/end read from the temporaries
//!   after the previous tasks ran.
//! - `pointer`: pointers into fields, adjoint fields, ndarrays, the temporaries buffer, the
//!   thread's private memory and the two adstack heaps; `state`: what a launch's ops share.
//! - `memory`: kernel data, loads, stores, atomics and bounds checks; `private`: private
//!   memory (locals); `control`: structured control flow.
//! - `adstack`: heap metadata, heap pointers and overflow. The heaps and their metadata come
//!   from the runtime's [`qd_runtime::adstack::layout::HeapLayout`] of each task, computed from
//!   the launch's adstack plan, as a compiled device's will.
//! - Errors are the qd interpreter's: a failed bounds check gives its out-of-bounds error (text,
//!   kind, location), an overflow its `AdstackOverflow`; anything the lowering should never
//!   produce (an access past a buffer, an unknown stack id) is a located device error.

mod adstack;
mod control;
mod device;
mod memory;
mod pointer;
mod private;
mod state;
mod task;

pub use device::{LoweredInterpreter, NAME, PIPELINE};

use crate::exec::{Compiler, DialectInterpreter, Exec, Flow, StateId};
use qd_ir::{AttrData, Diagnostic, OpId, Type};
use qd_lowered as lw;
use state::LoweredState;

/// Runs `lowered.*` ops (inside tasks; the device itself runs the kernel and its tasks).
#[derive(Default)]
pub struct LoweredDialect;

impl DialectInterpreter for LoweredDialect {
    fn dialect(&self) -> &'static str {
        "lowered"
    }

    fn compile(&self, c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
        match c.ctx().name(op) {
            lw::ARG_OP => memory::arg(c, op),
            lw::NDARRAY_PTR_OP => memory::ndarray_ptr(c, op),
            lw::NDARRAY_DIM_OP => memory::ndarray_dim(c, op),
            lw::FIELD_PTR_OP => memory::field_ptr(c, op),
            lw::TEMP_PTR_OP => memory::temp_ptr(c, op),
            lw::OFFSET_OP => memory::offset(c, op),
            lw::LOAD_OP => memory::load(c, op),
            lw::STORE_OP => memory::store(c, op),
            lw::ATOMIC_ADD_OP | lw::ATOMIC_MIN_OP | lw::ATOMIC_MAX_OP => memory::atomic(c, op),
            lw::BOUNDS_CHECK_OP => memory::bounds_check(c, op),
            lw::ALLOCA_OP => private::alloca(c, op),
            lw::ELEM_PTR_OP => private::elem_ptr(c, op),
            lw::MEMBER_PTR_OP => private::member_ptr(c, op),
            lw::FOR_OP => control::for_loop(c, op),
            lw::IF_OP => control::if_op(c, op),
            lw::WHILE_OP => control::while_loop(c, op),
            // Terminators carry no values the parent does not read itself.
            lw::YIELD_OP | lw::CONDITION_OP | lw::RETURN_OP => Ok(Box::new(|_| Ok(Flow::Next))),
            lw::THREAD_ID_OP => task::thread_id(c, op),
            lw::TASK_BEGIN_OP => task::task_begin(c, op),
            lw::ADSTACK_STRIDE_OP => adstack::stride(c, op),
            lw::ADSTACK_OFFSET_OP | lw::ADSTACK_MAX_SIZE_OP => adstack::stack_meta(c, op),
            lw::ADSTACK_ROW_OP => adstack::row(c, op),
            lw::HEAP_PTR_OP => adstack::heap_ptr(c, op),
            lw::ADSTACK_OVERFLOW_OP => adstack::overflow(c, op),
            lw::TASK_OP | lw::KERNEL_OP => Err(c.error(
                op,
                format!(
                    "'{}' may only appear at the top of a lowered kernel",
                    c.ctx().name(op)
                ),
            )),
            _ => Err(c.unsupported(op)),
        }
    }
}

/// The launch state every lowered op of the kernel shares.
fn state(c: &mut Compiler<'_>) -> StateId {
    c.shared_state::<LoweredState>()
}

/// The integer property `name` of `op`, or a located error.
fn int_prop(c: &Compiler<'_>, op: OpId, name: &str) -> Result<i64, Diagnostic> {
    match c.ctx().prop(op, name).map(|a| c.ctx().attr_data(a)) {
        Some(AttrData::Integer { value, .. }) => Ok(*value),
        _ => Err(c.error(
            op,
            format!("'{}' needs an integer property '{name}'", c.ctx().name(op)),
        )),
    }
}

/// A non-negative integer property that indexes something (an argument, a slot, an id).
fn index_prop(c: &Compiler<'_>, op: OpId, name: &str) -> Result<usize, Diagnostic> {
    let v = int_prop(c, op, name)?;
    usize::try_from(v).map_err(|_| {
        c.error(
            op,
            format!(
                "'{}': property '{name}' is negative ({v})",
                c.ctx().name(op)
            ),
        )
    })
}

/// The string property `name` of `op`, when set.
fn str_prop<'c>(c: &Compiler<'c>, op: OpId, name: &str) -> Option<&'c str> {
    match c.ctx().prop(op, name).map(|a| c.ctx().attr_data(a)) {
        Some(AttrData::String(s)) => Some(s.as_str()),
        _ => None,
    }
}

/// The flat symbol-reference property `name` of `op` (without `@`), when set.
fn symbol_prop<'c>(c: &Compiler<'c>, op: OpId, name: &str) -> Option<&'c str> {
    let ctx = c.ctx();
    match ctx.prop(op, name).map(|a| ctx.attr_data(a)) {
        Some(AttrData::SymbolRef { root, nested }) if nested.is_empty() => {
            Some(ctx.ident_str(*root))
        }
        _ => None,
    }
}

/// The heap a `heap = "float" | "int"` property names.
fn heap_prop(c: &Compiler<'_>, op: OpId) -> Result<qd_runtime::adstack::layout::Heap, Diagnostic> {
    use qd_runtime::adstack::layout::Heap;
    match str_prop(c, op, "heap") {
        Some("float") => Ok(Heap::Float),
        Some("int") => Ok(Heap::Int),
        other => Err(c.error(
            op,
            format!(
                "'{}' needs a heap property 'float' or 'int', got {other:?}",
                c.ctx().name(op)
            ),
        )),
    }
}

/// The pointee of a `!lowered.ptr` value's type, or a located error.
fn pointee(c: &Compiler<'_>, op: OpId, ty: Type) -> Result<Type, Diagnostic> {
    lw::types::pointee(c.ctx(), ty).ok_or_else(|| {
        c.error(
            op,
            format!(
                "'{}' expects a !lowered.ptr, got '{}'",
                c.ctx().name(op),
                qd_ir::text::type_to_string(c.ctx(), ty)
            ),
        )
    })
}

/// The parameter types of the kernel being compiled (its `function_type`).
fn kernel_params(c: &Compiler<'_>) -> Vec<Type> {
    let ctx = c.ctx();
    match ctx
        .prop(c.kernel(), "function_type")
        .map(|a| ctx.attr_data(a))
    {
        Some(AttrData::Type(t)) => match ctx.type_data(*t) {
            qd_ir::TypeData::Function { inputs, .. } => inputs.clone(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}
