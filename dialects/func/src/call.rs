//! `func.call` (a direct call of a `func.func` symbol) and `func.call_indirect` (a call of a
//! function-typed value).
//!
//! ```text
//! %0:2 = call @callee(%a, %b) : (i32, f32) -> (i32, f32)     (inside a func.func)
//! %1 = call_indirect %f(%a) : (i32) -> i32
//! "func.call"(%a, %b) <{callee = @callee}> : (i32, f32) -> (i32, f32)
//! "func.call_indirect"(%f, %a) : ((i32) -> i32, i32) -> i32
//! ```

use crate::func::FuncOp;
use crate::syntax::*;
use qd_ir::asm::{Delimiter, OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::{constraint, prop};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{
    Builder, Context, DiagResult, Diagnostic, Location, OpId, OpTraits, OperationState, Type, Value,
};

/// Properties of a call that its syntax does not spell: they print in the attribute dictionary.
const CALL_DICT_PROPS: [&str; 3] = ["arg_attrs", "no_inline", "res_attrs"];
const INDIRECT_DICT_PROPS: [&str; 2] = ["arg_attrs", "res_attrs"];

qd_ir::declare_op! {
    /// A `func.call` op.
    pub struct CallOp = "func.call" {
        summary: "calls a func.func by its symbol",
        traits: [OpTraits::SYMBOL_USER],
        operands: [args: variadic(constraint::ANY)],
        results: [results: variadic(constraint::ANY)],
        properties: [
            arg_attrs as _: optional(prop::AnyAttr),
            callee as _: optional(prop::AnyAttr),
            no_inline as _: optional(prop::AnyAttr),
            res_attrs as _: optional(prop::AnyAttr),
        ],
        builder: none,
        syntax: (parse_call, print_call),
        verify: verify_call,
        verify_symbol_uses: verify_call_symbol_uses,
    }
}

qd_ir::declare_op! {
    /// A `func.call_indirect` op.
    pub struct CallIndirectOp = "func.call_indirect" {
        summary: "calls a function-typed value",
        operands: [callee: single(constraint::ANY), args: variadic(constraint::ANY)],
        results: [results: variadic(constraint::ANY)],
        properties: [
            arg_attrs as _: optional(prop::AnyAttr),
            res_attrs as _: optional(prop::AnyAttr),
        ],
        builder: none,
        syntax: (parse_call_indirect, print_call_indirect),
        verify: verify_call_indirect,
    }
}

impl CallOp {
    /// Creates `func.call @callee(args) : (...) -> results`.
    pub fn build(
        b: &mut Builder,
        callee: &str,
        args: &[Value],
        results: &[Type],
        loc: Location,
    ) -> Self {
        let sym = b.ctx.symbol_ref_attr(callee);
        let st = OperationState::new(CallOp::NAME, loc)
            .operands(args)
            .results(results)
            .prop(b.ctx, "callee", sym);
        CallOp(b.insert(st))
    }
    /// The callee's name.
    pub fn callee(self, ctx: &Context) -> Option<&str> {
        flat_symbol_prop(ctx, self.0, "callee")
    }
}

impl CallIndirectOp {
    /// Creates `func.call_indirect callee(args)`; the results are the callee type's.
    pub fn build(b: &mut Builder, callee: Value, args: &[Value], loc: Location) -> Self {
        let ty = b.ctx.value_type(callee);
        let results = signature(b.ctx, ty)
            .map(|(_, r)| r.to_vec())
            .unwrap_or_default();
        let mut operands = vec![callee];
        operands.extend_from_slice(args);
        let st = OperationState::new(CallIndirectOp::NAME, loc)
            .operands(&operands)
            .results(&results);
        CallIndirectOp(b.insert(st))
    }
}

/// ODS's checks of the properties.
fn verify_call(ctx: &Context, op: OpId) -> DiagResult<()> {
    check_prop(ctx, op, "arg_attrs", false, PropCheck::DictArray)?;
    check_prop(ctx, op, "callee", true, PropCheck::FlatSymbolRef)?;
    check_prop(ctx, op, "no_inline", false, PropCheck::Unit)?;
    check_prop(ctx, op, "res_attrs", false, PropCheck::DictArray)
}

/// MLIR's CallOp::verifySymbolUses, with its messages and notes.
fn verify_call_symbol_uses(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<()> {
    let name = flat_symbol_prop(ctx, op, "callee").unwrap_or_default();
    let callee = symbols
        .lookup_symbol_from(ctx, op, name)
        .and_then(|o| FuncOp::from_op(ctx, o));
    let Some((ins, outs)) = callee
        .and_then(|f| f.function_type(ctx))
        .and_then(|t| signature(ctx, t))
    else {
        return Err(op_err(
            ctx,
            op,
            format!("'{name}' does not reference a valid function"),
        ));
    };
    if ctx.num_operands(op) != ins.len() {
        return Err(op_err(ctx, op, "incorrect number of operands for callee"));
    }
    for (i, (v, &want)) in ctx.operands(op).zip(ins).enumerate() {
        let got = ctx.value_type(v);
        if got != want {
            return Err(op_err(
                ctx,
                op,
                format!(
                    "operand type mismatch: expected operand type {}, but provided {} for operand number {i}",
                    quoted(ctx, want),
                    quoted(ctx, got)
                ),
            ));
        }
    }
    if ctx.num_results(op) != outs.len() {
        return Err(op_err(ctx, op, "incorrect number of results for callee"));
    }
    let got = value_types(ctx, ctx.results(op).iter().copied());
    if let Some(i) = got.iter().zip(outs).position(|(g, w)| g != w) {
        let loc = ctx.loc(op);
        return Err(
            op_err(ctx, op, format!("result type mismatch at index {i}"))
                .with_note(
                    loc,
                    format!("      op result types: {}", quoted_list(ctx, &got)),
                )
                .with_note(
                    loc,
                    format!("function result types: {}", quoted_list(ctx, outs)),
                ),
        );
    }
    Ok(())
}

/// ODS: the callee is a function whose inputs and results are the call's.
fn verify_call_indirect(ctx: &Context, op: OpId) -> DiagResult<()> {
    check_prop(ctx, op, "arg_attrs", false, PropCheck::DictArray)?;
    check_prop(ctx, op, "res_attrs", false, PropCheck::DictArray)?;
    let callee_ty = ctx.value_type(ctx.operand(op, 0));
    let Some((ins, outs)) = signature(ctx, callee_ty) else {
        return Err(op_err(
            ctx,
            op,
            format!(
                "operand #0 must be function type, but got {}",
                quoted(ctx, callee_ty)
            ),
        ));
    };
    let args = value_types(ctx, ctx.operands(op).skip(1));
    if args != ins {
        return Err(op_err(
            ctx,
            op,
            "failed to verify that callee input types match argument types",
        ));
    }
    let results = value_types(ctx, ctx.results(op).iter().copied());
    if results != outs {
        return Err(op_err(
            ctx,
            op,
            "failed to verify that callee result types match result types",
        ));
    }
    Ok(())
}

/// `$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)`
fn parse_call(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let name = p.parse_symbol_name()?;
    let operands = p.parse_operand_list(Delimiter::Paren)?;
    parse_attr_dict(p, st, &CALL_DICT_PROPS)?;
    p.parse_punct(":")?;
    let (_, ins, outs) = parse_function_type(p)?;
    st.operands = resolve(p, &operands, &ins)?;
    st.result_types = outs;
    let sym = p.ctx().symbol_ref_attr(&name);
    st.add_prop(p.ctx(), "callee", sym);
    Ok(())
}

fn print_call(op: OpId, p: &mut dyn OpAsmPrinter) {
    let name = flat_symbol_prop(p.ctx(), op, "callee")
        .unwrap_or_default()
        .to_string();
    p.write(" ");
    p.print_symbol_name(&name);
    p.write("(");
    let args = p.ctx().operand_vec(op);
    p.print_operands(&args);
    p.write(")");
    print_attr_dict(p, op, &CALL_DICT_PROPS);
    p.write(" : ");
    let ins = value_types(p.ctx(), args.iter().copied());
    let outs = value_types(p.ctx(), p.ctx().results(op).iter().copied());
    print_functional_type(p, &ins, &outs);
}

/// `$callee `(` $callee_operands `)` attr-dict `:` type($callee)`
fn parse_call_indirect(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let callee = p.parse_operand()?;
    let operands = p.parse_operand_list(Delimiter::Paren)?;
    parse_attr_dict(p, st, &INDIRECT_DICT_PROPS)?;
    p.parse_punct(":")?;
    let (fty, ins, outs) = parse_function_type(p)?;
    let mut values = vec![p.resolve_operand(&callee, fty)?];
    values.extend(resolve(p, &operands, &ins)?);
    st.operands = values;
    st.result_types = outs;
    Ok(())
}

fn print_call_indirect(op: OpId, p: &mut dyn OpAsmPrinter) {
    let operands = p.ctx().operand_vec(op);
    p.write(" ");
    p.print_operand(operands[0]);
    p.write("(");
    p.print_operands(&operands[1..]);
    p.write(")");
    print_attr_dict(p, op, &INDIRECT_DICT_PROPS);
    p.write(" : ");
    let ty = p.ctx().value_type(operands[0]);
    p.print_type(ty);
}

/// Resolves operands against the types of a functional type, with MLIR's count message.
fn resolve(
    p: &mut dyn OpAsmParser,
    operands: &[qd_ir::asm::UnresolvedOperand],
    tys: &[Type],
) -> DiagResult<Vec<Value>> {
    if operands.len() != tys.len() {
        let loc = p.current_loc();
        return Err(Diagnostic::error(
            loc,
            format!(
                "{} operands present, but expected {}",
                operands.len(),
                tys.len()
            ),
        ));
    }
    p.resolve_operands(operands, tys)
}
