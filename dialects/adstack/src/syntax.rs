//! Custom syntax of the adstack ops: their assembly formats (in [`crate::ops`]) write every stack
//! type as its element type `T` of `!adstack.stack<T>`:
//!
//! ```text
//! %s = adstack.alloca : f32 {max_size = 100}     // properties id / max_size / size_expr in the dict
//! adstack.push %s, %v : f32
//! adstack.pop %s : f32
//! %v = adstack.load_top %s : f32
//! %a = adstack.load_top_adj %s : f32
//! adstack.acc_adjoint %s, %a : f32
//! ```
//!
//! Discardable attributes go in an optional `{...}` before the `:` (after it for alloca, whose
//! dictionary also holds its properties).

use crate::types::{is_valid_elem, stack_type, StackType};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::{DiagResult, Diagnostic, Type};

/// `T`, a valid stack element; returns `!adstack.stack<T>`.
pub(crate) fn parse_elem(p: &mut dyn OpAsmParser) -> DiagResult<Type> {
    let loc = p.current_loc();
    let elem = p.parse_type()?;
    if !is_valid_elem(p.ctx_ref(), elem) {
        let t = qd_ir::text::type_to_string(p.ctx_ref(), elem);
        return Err(Diagnostic::error(
            loc,
            format!("expected an integer or float stack element type, got {t}"),
        ));
    }
    Ok(stack_type(p.ctx(), elem))
}

/// The element type of a stack (any other type as itself, so that printing never fails).
pub(crate) fn print_elem(p: &mut dyn OpAsmPrinter, ty: Type) {
    let ctx = p.ctx();
    let elem = StackType::from_type(ctx, ty).map_or(ty, |s| s.elem(ctx));
    p.print_type(elem);
}
