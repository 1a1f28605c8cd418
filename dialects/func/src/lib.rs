//! Upstream MLIR's `func` dialect, with its names, custom syntax, generic form and verifier
//! messages as `mlir-opt` 22 prints them, so that upstream test files and tools read qd's text.
//!
//! ```text
//! func.func private @decl(i32, f32 {t.x}) -> (i1 {t.r = 1 : i32})
//! func.func @caller(%arg0: i32, %arg1: f32) -> i32 attributes {t.fattr} {
//!   %0:2 = call @callee(%arg0, %arg1) : (i32, f32) -> (i32, f32)
//!   %1 = constant @callee : (i32, f32) -> (i32, f32)
//!   %2:2 = call_indirect %1(%arg0, %arg1) : (i32, f32) -> (i32, f32)
//!   return %0#0 : i32
//! }
//! "func.func"() <{arg_attrs = [{}, {t.x}], function_type = (i32, f32) -> i1,
//!   res_attrs = [{t.r = 1 : i32}], sym_name = "decl", sym_visibility = "private"}> ({
//! }) : () -> ()
//! ```
//!
//! - `func.func` ([`FuncOp`]) is a symbol, isolated from above; a declaration has an empty body
//!   region and must not be public. Its properties: `sym_name`, `function_type`, optional
//!   `sym_visibility` (printed as the `private`/`public`/`nested` keyword), `arg_attrs` /
//!   `res_attrs` (arrays of dictionaries, present when some entry is not empty). Its default
//!   dialect is `func`: inside its body the func ops print and parse without the `func.` prefix.
//! - `func.return` ([`ReturnOp`]) ends a block of a `func.func` with the function's results.
//! - `func.call` ([`CallOp`]) calls `@callee`; `func.constant` ([`ConstantOp`]) makes a
//!   function-typed value of `@callee`; `func.call_indirect` ([`CallIndirectOp`]) calls one.
//!   The callee checks are symbol uses (MLIR's `SymbolUserOpInterface`): the op's verifier reports
//!   them in MLIR's words.
//!
//! qd's own passes work on `qd.kernel`s; they leave `func.func` alone or reject it with a
//! located error.

pub mod call;
pub mod constant;
pub mod func;
pub mod ret;
mod syntax;

pub use call::{CallIndirectOp, CallOp};
pub use constant::ConstantOp;
pub use func::FuncOp;
pub use ret::ReturnOp;

pub const DIALECT: &str = "func";
pub const FUNC_OP: &str = FuncOp::NAME;
pub const RETURN_OP: &str = ReturnOp::NAME;
pub const CALL_OP: &str = CallOp::NAME;
pub const CALL_INDIRECT_OP: &str = CallIndirectOp::NAME;
pub const CONSTANT_OP: &str = ConstantOp::NAME;

/// The func dialect, to register in a [`qd_ir::Context`].
pub fn dialect() -> qd_ir::DialectDef {
    let mut d = qd_ir::DialectDef::new(DIALECT);
    d.ops = vec![
        FuncOp::op_info().default_dialect(DIALECT),
        ReturnOp::op_info(),
        CallOp::op_info(),
        CallIndirectOp::op_info(),
        ConstantOp::op_info(),
    ];
    d
}
