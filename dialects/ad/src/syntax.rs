//! Small pieces of custom syntax shared by the ad ops. Printers read the IR defensively: an op
//! that does not verify still prints (possibly as text that will not parse back), never panics.

use qd_ir::asm::{Delimiter, OpAsmParser, OpAsmPrinter, UnresolvedOperand};
use qd_ir::{AttrData, Attribute, DiagResult, Ident, OpId, OperationState, Type, Value};

pub(crate) fn parse_indices(p: &mut dyn OpAsmParser) -> DiagResult<Vec<UnresolvedOperand>> {
    p.parse_operand_list(Delimiter::Square)
}

pub(crate) fn resolve_i32(
    p: &mut dyn OpAsmParser,
    ops: &[UnresolvedOperand],
) -> DiagResult<Vec<Value>> {
    let i32t = p.ctx().i32_type();
    let tys = vec![i32t; ops.len()];
    p.resolve_operands(ops, &tys)
}

/// The optional trailing `{attr-dict}` into the discardable attributes.
pub(crate) fn parse_attrs(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    st.attributes.extend(attrs);
    Ok(())
}

pub(crate) fn print_attrs(p: &mut dyn OpAsmPrinter, op: OpId) {
    let attrs: Vec<(Ident, Attribute)> = p.ctx().attrs(op).to_vec();
    p.print_optional_attr_dict(&attrs, &[]);
}

pub(crate) fn operand(p: &dyn OpAsmPrinter, op: OpId, i: usize) -> Option<Value> {
    let ctx = p.ctx();
    (i < ctx.num_operands(op)).then(|| ctx.operand(op, i))
}

pub(crate) fn print_opt_value(p: &mut dyn OpAsmPrinter, v: Option<Value>) {
    match v {
        Some(v) => p.print_operand(v),
        None => p.write("<<missing operand>>"),
    }
}

pub(crate) fn print_index_list(p: &mut dyn OpAsmPrinter, vs: &[Value]) {
    p.write("[");
    p.print_operands(vs);
    p.write("]");
}

pub(crate) fn print_colon_type(p: &mut dyn OpAsmPrinter, ty: Option<Type>) {
    p.write(" : ");
    match ty {
        Some(t) => p.print_type(t),
        None => p.write("<<missing type>>"),
    }
}

/// Prints a symbol-reference property as `@name`.
pub(crate) fn print_symbol_prop(p: &mut dyn OpAsmPrinter, op: OpId, name: &str) {
    let sym = p
        .ctx()
        .prop(op, name)
        .and_then(|a| match p.ctx().attr_data(a) {
            AttrData::SymbolRef { root, .. } => Some(p.ctx().ident_str(*root).to_string()),
            AttrData::String(s) => Some(s.clone()),
            _ => None,
        });
    match sym {
        Some(s) => p.print_symbol_name(&s),
        None => p.write("@<<missing symbol>>"),
    }
}
