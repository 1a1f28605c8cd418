//! One conversion per qd, ad and adstack op (the table of [`lower_op`]); `arith` and `math` ops
//! are legal in lowered IR and are cloned with their operands remapped. Any other op fails the
//! conversion with `failed to legalize operation 'name'` at its location.

use crate::lowerer::{Lowerer, R};
use crate::{adstack, control, locals, memory};
use qd_ir::Diagnostic;
use qd_ir::OpId;

/// The dialects whose ops lowered IR keeps as they are.
const LEGAL_DIALECTS: [&str; 2] = ["arith", "math"];

/// Lowers `op` at the insertion point; its results are mapped in `lw.map`.
pub fn lower_op(lw: &mut Lowerer, op: OpId) -> R<()> {
    let saved = lw.loc;
    lw.loc = lw.ctx.loc(op);
    let r = dispatch(lw, op);
    lw.loc = saved;
    r
}

fn dispatch(lw: &mut Lowerer, op: OpId) -> R<()> {
    use qd_frontend as qd;
    let name = lw.ctx.name(op).to_string();
    match name.as_str() {
        qd::RANGE_FOR_OP => control::range_for(lw, op),
        qd::STRUCT_FOR_OP => control::struct_for(lw, op),
        qd::WHILE_OP => control::while_loop(lw, op),
        qd::IF_OP => control::if_op(lw, op),
        qd::BREAK_OP => control::break_op(lw, op),
        qd::CONTINUE_OP => control::continue_op(lw, op),
        qd::LOAD_OP => memory::field_load(lw, op),
        qd::STORE_OP => memory::field_store(lw, op),
        qd::ATOMIC_ADD_OP | qd::ATOMIC_MIN_OP | qd::ATOMIC_MAX_OP => memory::field_atomic(lw, op),
        qd::NDARRAY_LOAD_OP => memory::ndarray_load(lw, op),
        qd::NDARRAY_STORE_OP => memory::ndarray_store(lw, op),
        qd::NDARRAY_SHAPE_OP => memory::ndarray_shape(lw, op),
        qd::ALLOCA_OP => locals::alloca(lw, op),
        qd::LOCAL_LOAD_OP => locals::local_load(lw, op),
        qd::LOCAL_STORE_OP => locals::local_store(lw, op),
        qd::ELEM_PTR_OP => locals::elem_ptr(lw, op),
        qd::MEMBER_PTR_OP => locals::member_ptr(lw, op),
        qd_ad::LOAD_FIELD_ADJOINT_OP => memory::load_field_adjoint(lw, op),
        qd_ad::ACC_FIELD_ADJOINT_OP | qd_ad::STORE_FIELD_ADJOINT_OP => {
            memory::write_field_adjoint(lw, op)
        }
        qd_ad::ACC_NDARRAY_ADJOINT_OP => memory::acc_ndarray_adjoint(lw, op),
        qd_ad::LOAD_ELEMENT_OP | qd_ad::STORE_ELEMENT_OP => locals::element(lw, op),
        qd_adstack::ALLOCA_OP => adstack::alloca(lw, op),
        qd_adstack::PUSH_OP => adstack::push(lw, op),
        qd_adstack::POP_OP => adstack::pop(lw, op),
        qd_adstack::LOAD_TOP_OP => adstack::load_top(lw, op),
        qd_adstack::LOAD_TOP_ADJ_OP => adstack::load_top_adj(lw, op),
        qd_adstack::ACC_ADJOINT_OP => adstack::acc_adjoint(lw, op),
        _ if is_legal(lw, op) => clone_legal(lw, op),
        _ => Err(not_legalized(lw, op)),
    }
}

fn is_legal(lw: &Lowerer, op: OpId) -> bool {
    LEGAL_DIALECTS.contains(&lw.ctx.dialect_of(op))
        && lw.ctx.is_registered(op)
        && lw.ctx.regions(op).is_empty()
}

/// The error for an op that has no conversion.
pub fn not_legalized(lw: &Lowerer, op: OpId) -> Diagnostic {
    Diagnostic::error(
        lw.ctx.loc(op),
        format!("failed to legalize operation '{}'", lw.ctx.name(op)),
    )
}

/// Clones a legal op after materializing its operands; the clone's results are mapped.
fn clone_legal(lw: &mut Lowerer, op: OpId) -> R<()> {
    let operands = lw.ctx.operand_vec(op);
    lw.get_all(&operands)?;
    let new = lw.ctx.clone_op(op, &mut lw.map);
    lw.place(new);
    Ok(())
}
