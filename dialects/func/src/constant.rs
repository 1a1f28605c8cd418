//! `func.constant`: a function-typed value of a `func.func` symbol.
//!
//! ```text
//! %0 = constant @callee : (i32) -> i32          (inside a func.func)
//! %0 = "func.constant"() <{value = @callee}> : () -> ((i32) -> i32)
//! ```

use crate::func::FuncOp;
use crate::syntax::*;
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::{constraint, prop};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{Builder, Context, DiagResult, Location, OpId, OpTraits, OperationState, Type, Value};

qd_ir::declare_op! {
    /// A `func.constant` op.
    pub struct ConstantOp = "func.constant" {
        summary: "a function-typed value of a func.func symbol",
        traits: [OpTraits::PURE, OpTraits::SYMBOL_USER],
        results: [result: single(constraint::ANY)],
        properties: [value as _: optional(prop::AnyAttr)],
        builder: none,
        syntax: (parse_constant, print_constant),
        verify: verify_constant,
        verify_symbol_uses: verify_constant_symbol_uses,
        asm_result_names: constant_names,
    }
}

/// MLIR's `func::ConstantOp::getAsmResultNames`: `%f`.
fn constant_names(ctx: &Context, op: OpId, set_name: &mut dyn FnMut(Value, &str)) {
    set_name(ctx.result(op, 0), "f");
}

impl ConstantOp {
    /// Creates `func.constant @callee : ty` and returns its value.
    pub fn build(b: &mut Builder, callee: &str, ty: Type, loc: Location) -> Value {
        let sym = b.ctx.symbol_ref_attr(callee);
        let st = OperationState::new(ConstantOp::NAME, loc)
            .results(&[ty])
            .prop(b.ctx, "value", sym);
        b.insert_value(st)
    }
    /// The referenced function's name.
    pub fn callee(self, ctx: &Context) -> Option<&str> {
        flat_symbol_prop(ctx, self.0, "value")
    }
}

/// ODS's check of the property.
fn verify_constant(ctx: &Context, op: OpId) -> DiagResult<()> {
    check_prop(ctx, op, "value", true, PropCheck::FlatSymbolRef)
}

/// MLIR's ConstantOp::verifySymbolUses.
fn verify_constant_symbol_uses(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<()> {
    let name = flat_symbol_prop(ctx, op, "value").unwrap_or_default();
    let Some(f) = symbols
        .lookup_symbol_from(ctx, op, name)
        .and_then(|o| FuncOp::from_op(ctx, o))
    else {
        return Err(op_err(
            ctx,
            op,
            format!("reference to undefined function '{name}'"),
        ));
    };
    if f.function_type(ctx) != Some(ctx.value_type(ctx.result(op, 0))) {
        return Err(op_err(
            ctx,
            op,
            "reference to function with mismatched type",
        ));
    }
    Ok(())
}

/// `attr-dict $value `:` type(results)`
fn parse_constant(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    parse_attr_dict(p, st, &[])?;
    let name = p.parse_symbol_name()?;
    let ty = p.parse_colon_type()?;
    let sym = p.ctx().symbol_ref_attr(&name);
    st.add_prop(p.ctx(), "value", sym);
    st.result_types.push(ty);
    Ok(())
}

fn print_constant(op: OpId, p: &mut dyn OpAsmPrinter) {
    print_attr_dict(p, op, &[]);
    let name = flat_symbol_prop(p.ctx(), op, "value")
        .unwrap_or_default()
        .to_string();
    p.write(" ");
    p.print_symbol_name(&name);
    p.write(" : ");
    let ty = p.ctx().value_type(p.ctx().result(op, 0));
    p.print_type(ty);
}
