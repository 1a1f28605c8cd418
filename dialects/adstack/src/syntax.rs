//! Custom syntax of the adstack ops. The type after `:` is always the element type `T` of the
//! stack `!adstack.stack<T>`:
//!
//! ```text
//! %s = adstack.alloca : f32 {max_size = 100}     // properties max_size / size_expr in the dict
//! adstack.push %s, %v : f32
//! adstack.pop %s : f32
//! %v = adstack.load_top %s : f32
//! %a = adstack.load_top_adj %s : f32
//! adstack.acc_adjoint %s, %a : f32
//! ```
//!
//! Discardable attributes go in an optional `{...}` before the `:` (after it for alloca, whose
//! dictionary also holds its properties). Printers read the IR defensively: an op that does not
//! verify still prints, it never panics.

use crate::types::{is_valid_elem, stack_type, StackType};
use crate::{ID, MAX_SIZE, SIZE_EXPR};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter, UnresolvedOperand};
use qd_ir::{
    AttrData, Attribute, DiagResult, Diagnostic, Ident, OpId, OperationState, Type, Value,
};

/// `: T` where T must be a valid stack element; returns (T, !adstack.stack<T>).
fn parse_elem(p: &mut dyn OpAsmParser) -> DiagResult<(Type, Type)> {
    p.parse_punct(":")?;
    let loc = p.current_loc();
    let elem = p.parse_type()?;
    if !is_valid_elem(p.ctx_ref(), elem) {
        let t = qd_ir::text::type_to_string(p.ctx_ref(), elem);
        return Err(Diagnostic::error(
            loc,
            format!("expected an integer or float stack element type, got {t}"),
        ));
    }
    let st = stack_type(p.ctx(), elem);
    Ok((elem, st))
}

fn parse_attrs(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    st.attributes.extend(attrs);
    Ok(())
}

fn print_attrs(p: &mut dyn OpAsmPrinter, op: OpId) {
    let attrs: Vec<(Ident, Attribute)> = p.ctx().attrs(op).to_vec();
    p.print_optional_attr_dict(&attrs, &[]);
}

/// The element type to print for an op whose operand 0 is the stack (or its raw type when it is
/// not a stack, so that printing never fails).
fn operand_elem(p: &dyn OpAsmPrinter, op: OpId) -> Option<Type> {
    let ctx = p.ctx();
    if ctx.num_operands(op) == 0 {
        return None;
    }
    let ty = ctx.value_type(ctx.operand(op, 0));
    Some(StackType::from_type(ctx, ty).map_or(ty, |s| s.elem(ctx)))
}

fn print_colon_type(p: &mut dyn OpAsmPrinter, ty: Option<Type>) {
    p.write(" : ");
    match ty {
        Some(t) => p.print_type(t),
        None => p.write("<<missing type>>"),
    }
}

fn print_operands_of(p: &mut dyn OpAsmPrinter, op: OpId) {
    p.write(" ");
    let vs: Vec<Value> = p.ctx().operand_vec(op);
    p.print_operands(&vs);
}

// ----- alloca ------------------------------------------------------------------------------

pub(crate) fn parse_alloca(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let (_, stack) = parse_elem(p)?;
    st.result_types.push(stack);
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    for (k, v) in entries {
        if matches!(p.ctx_ref().ident_str(k), ID | MAX_SIZE | SIZE_EXPR) {
            st.properties.push((k, v));
        } else {
            st.attributes.push((k, v));
        }
    }
    Ok(())
}

/// `: T {max_size = N, size_expr = E, attrs...}`: max_size prints without its `: i64`, as the
/// parser reads a bare integer as i64.
pub(crate) fn print_alloca(op: OpId, p: &mut dyn OpAsmPrinter) {
    let ctx = p.ctx();
    let elem = ctx
        .results(op)
        .first()
        .map(|&r| ctx.value_type(r))
        .map(|t| StackType::from_type(ctx, t).map_or(t, |s| s.elem(ctx)));
    print_colon_type(p, elem);
    let ctx = p.ctx();
    let id = ctx.prop(op, ID);
    let max_size = ctx.prop(op, MAX_SIZE);
    let size_expr = ctx.prop(op, SIZE_EXPR);
    let attrs: Vec<(Ident, Attribute)> = ctx.attrs(op).to_vec();
    let unknown_props: Vec<(Ident, Attribute)> = ctx
        .properties(op)
        .iter()
        .filter(|(k, _)| !matches!(ctx.ident_str(*k), ID | MAX_SIZE | SIZE_EXPR))
        .copied()
        .collect();
    if id.is_none()
        && max_size.is_none()
        && size_expr.is_none()
        && attrs.is_empty()
        && unknown_props.is_empty()
    {
        return;
    }
    p.write(" {");
    let mut first = true;
    let mut sep = |p: &mut dyn OpAsmPrinter| {
        if !first {
            p.write(", ");
        }
        first = false;
    };
    for (name, a) in [(ID, id), (MAX_SIZE, max_size)] {
        let Some(a) = a else { continue };
        sep(p);
        p.write(name);
        p.write(" = ");
        let is_i64 = matches!(p.ctx().attr_data(a), AttrData::Integer { ty, .. }
            if p.ctx().type_data(*ty).bit_width() == Some(64) && p.ctx().type_data(*ty).is_integer());
        if is_i64 {
            p.print_attribute_without_type(a);
        } else {
            p.print_attribute(a);
        }
    }
    if let Some(a) = size_expr {
        sep(p);
        p.write("size_expr = ");
        p.print_attribute(a);
    }
    // Properties the verifier rejects print too, so that the text shows what is wrong.
    for (k, v) in unknown_props.into_iter().chain(attrs) {
        sep(p);
        let key = p.ctx().ident_str(k).to_string();
        if is_bare_key(&key) {
            p.write(&key);
        } else {
            p.print_string(&key);
        }
        if !matches!(p.ctx().attr_data(v), AttrData::Unit) {
            p.write(" = ");
            p.print_attribute(v);
        }
    }
    p.write("}");
}

/// Whether a dictionary key prints as a bare identifier (`[A-Za-z_][A-Za-z0-9_$.]*`).
fn is_bare_key(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

// ----- push / acc_adjoint: `%s, %v : T` -----------------------------------------------------

pub(crate) fn parse_stack_value(
    p: &mut dyn OpAsmParser,
    st: &mut OperationState,
) -> DiagResult<()> {
    let s = p.parse_operand()?;
    p.parse_punct(",")?;
    let v = p.parse_operand()?;
    parse_attrs(p, st)?;
    let (elem, stack) = parse_elem(p)?;
    st.operands = p.resolve_operands(&[s, v], &[stack, elem])?;
    Ok(())
}

pub(crate) fn print_stack_value(op: OpId, p: &mut dyn OpAsmPrinter) {
    print_operands_of(p, op);
    print_attrs(p, op);
    let ty = operand_elem(p, op);
    print_colon_type(p, ty);
}

// ----- pop / load_top / load_top_adj: `%s : T` ----------------------------------------------

pub(crate) fn parse_stack_only(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let s: UnresolvedOperand = p.parse_operand()?;
    parse_attrs(p, st)?;
    let (elem, stack) = parse_elem(p)?;
    st.operands = vec![p.resolve_operand(&s, stack)?];
    // Loads name their result; a pop with one fails verification.
    if p.num_results() > 0 {
        st.result_types.push(elem);
    }
    Ok(())
}

pub(crate) fn print_stack_only(op: OpId, p: &mut dyn OpAsmPrinter) {
    print_operands_of(p, op);
    print_attrs(p, op);
    let ty = operand_elem(p, op);
    print_colon_type(p, ty);
}
