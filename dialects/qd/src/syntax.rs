//! Small pieces of custom syntax shared by the qd ops (the public ones also by dialects built on
//! qd, such as ad): index lists, attribute dictionaries,
//! region bodies. Printers read the IR defensively: an op that does not verify still prints
//! (possibly as text that will not parse back), it never panics.

use qd_ir::asm::{Argument, Delimiter, OpAsmParser, OpAsmPrinter, UnresolvedOperand};
use qd_ir::{Attribute, DiagResult, Ident, OpId, OperationState, RegionId, Type, Value};

/// `i32`: the type of field/ndarray/array indices and of struct_for induction variables.
pub(crate) fn i32_type(p: &mut dyn OpAsmParser) -> Type {
    p.ctx().i32_type()
}

/// `[%a, %b]` resolved as `i32` indices.
pub fn parse_indices(p: &mut dyn OpAsmParser) -> DiagResult<Vec<UnresolvedOperand>> {
    p.parse_operand_list(Delimiter::Square)
}

pub fn resolve_i32(p: &mut dyn OpAsmParser, ops: &[UnresolvedOperand]) -> DiagResult<Vec<Value>> {
    let i32t = i32_type(p);
    let tys = vec![i32t; ops.len()];
    p.resolve_operands(ops, &tys)
}

/// The optional trailing `{attr-dict}` into the discardable attributes.
pub fn parse_attrs(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    st.attributes.extend(attrs);
    Ok(())
}

/// Prints the discardable attributes, if any.
pub fn print_attrs(p: &mut dyn OpAsmPrinter, op: OpId) {
    let attrs: Vec<(Ident, Attribute)> = p.ctx().attrs(op).to_vec();
    p.print_optional_attr_dict(&attrs, &[]);
}

/// A body region `{...}` whose entry block gets `args`; an empty `{}` still gets its block, so
/// that custom syntax always yields a body to insert into.
pub(crate) fn parse_body(p: &mut dyn OpAsmParser, args: &[Argument]) -> DiagResult<RegionId> {
    let region = p.parse_region(args)?;
    ensure_block(p, region);
    Ok(region)
}

pub(crate) fn ensure_block(p: &mut dyn OpAsmParser, region: RegionId) {
    if p.ctx_ref().region_blocks(region).is_empty() {
        let b = p.ctx().create_block(&[]);
        p.ctx().append_block(region, b);
    }
}

/// Gives each argument type `ty` (loop induction variables have no type in the text).
pub(crate) fn typed(args: Vec<Argument>, ty: Type) -> Vec<Argument> {
    args.into_iter()
        .map(|a| Argument {
            name: a.name,
            ty: Some(ty),
        })
        .collect()
}

/// Prints ` ` + the region at `index`, when the op has it.
pub(crate) fn print_region_at(p: &mut dyn OpAsmPrinter, op: OpId, index: usize) {
    if let Some(&r) = p.ctx().regions(op).get(index) {
        p.write(" ");
        p.print_region(r, false);
    } else {
        p.write(" {\n}");
    }
}

/// Operand `i`, when present.
pub fn operand(p: &dyn OpAsmPrinter, op: OpId, i: usize) -> Option<Value> {
    let ctx = p.ctx();
    (i < ctx.num_operands(op)).then(|| ctx.operand(op, i))
}

/// Prints a value, or a marker when an ill-formed op lacks it.
pub fn print_opt_value(p: &mut dyn OpAsmPrinter, v: Option<Value>) {
    match v {
        Some(v) => p.print_operand(v),
        None => p.write("<<missing operand>>"),
    }
}

/// Prints `[%a, %b]`.
pub fn print_index_list(p: &mut dyn OpAsmPrinter, vs: &[Value]) {
    p.write("[");
    p.print_operands(vs);
    p.write("]");
}

/// Prints ` : type` of a value (or of the op's first result), when present.
pub fn print_colon_type(p: &mut dyn OpAsmPrinter, ty: Option<Type>) {
    p.write(" : ");
    match ty {
        Some(t) => p.print_type(t),
        None => p.write("<<missing type>>"),
    }
}

/// Prints a symbol-reference property as `@name`.
pub fn print_symbol_prop(p: &mut dyn OpAsmPrinter, op: OpId, name: &str) {
    let sym = p
        .ctx()
        .prop(op, name)
        .and_then(|a| match p.ctx().attr_data(a) {
            qd_ir::AttrData::SymbolRef { root, .. } => Some(p.ctx().ident_str(*root).to_string()),
            qd_ir::AttrData::String(s) => Some(s.clone()),
            _ => None,
        });
    match sym {
        Some(s) => p.print_symbol_name(&s),
        None => p.write("@<<missing symbol>>"),
    }
}
