//! `func.return`: ends a block of a `func.func` with the function's results.
//!
//! ```text
//! return %0, %1 : i32, f32          (inside a func.func; `func.return` elsewhere)
//! "func.return"(%0, %1) : (i32, f32) -> ()
//! ```

use crate::func::parent_func;
use crate::syntax::*;
use qd_ir::asm::{Delimiter, OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::constraint;
use qd_ir::{
    Builder, Context, DiagResult, Diagnostic, Location, OpId, OpTraits, OperationState, Value,
};

qd_ir::declare_op! {
    /// A `func.return` op.
    pub struct ReturnOp = "func.return" {
        summary: "returns from a func.func",
        traits: [OpTraits::TERMINATOR, OpTraits::PURE],
        operands: [values: variadic(constraint::ANY)],
        builder: none,
        syntax: (parse_return, print_return),
        verify: verify_return,
    }
}

impl ReturnOp {
    /// Creates `func.return values` at the builder's insertion point.
    pub fn build(b: &mut Builder, values: &[Value], loc: Location) -> Self {
        ReturnOp(b.insert(OperationState::new(ReturnOp::NAME, loc).operands(values)))
    }
}

/// MLIR's ReturnOp::verify (and HasParent<FuncOp>), with its messages.
fn verify_return(ctx: &Context, op: OpId) -> DiagResult<()> {
    let Some(f) = parent_func(ctx, op) else {
        return Err(op_err(ctx, op, "expects parent op 'func.func'"));
    };
    let results = f.results(ctx);
    let n = ctx.num_operands(op);
    if n != results.len() {
        return Err(op_err(
            ctx,
            op,
            format!(
                "has {n} operands, but enclosing function (@{}) returns {}",
                f.name(ctx),
                results.len()
            ),
        ));
    }
    for (i, (v, &want)) in ctx.operands(op).zip(results).enumerate() {
        let got = ctx.value_type(v);
        if got != want {
            // MLIR emits this one without the `'func.return' op` prefix.
            return Err(Diagnostic::error(
                ctx.loc(op),
                format!(
                    "type of return operand {i} ({}) doesn't match function result type ({}) in function @{}",
                    quoted(ctx, got),
                    quoted(ctx, want),
                    f.name(ctx)
                ),
            ));
        }
    }
    Ok(())
}

/// `attr-dict ($operands^ `:` type($operands))?`
fn parse_return(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    parse_attr_dict(p, st, &[])?;
    let operands = p.parse_operand_list(Delimiter::None)?;
    if operands.is_empty() {
        return Ok(());
    }
    p.parse_punct(":")?;
    let tys = parse_type_list(p)?;
    st.operands = p.resolve_operands(&operands, &tys)?;
    Ok(())
}

fn print_return(op: OpId, p: &mut dyn OpAsmPrinter) {
    print_attr_dict(p, op, &[]);
    let values = p.ctx().operand_vec(op);
    if values.is_empty() {
        return;
    }
    p.write(" ");
    p.print_operands(&values);
    p.write(" : ");
    let tys = value_types(p.ctx(), values.iter().copied());
    print_type_list(p, &tys);
}
