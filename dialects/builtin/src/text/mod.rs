//! MLIR text: lexer, parser and printer (generic form for every op, custom syntax through the
//! `asm` hooks), SSA naming, aliases, locations, and diagnostic rendering.
//!
//! - [`parse_source`] reads a buffer into a detached `builtin.module` (an explicit one, or an
//!   implicit one around the top-level ops); errors become one diagnostic in the context.
//! - [`print_op`] prints an op (custom form where available, or generic), MLIR-compatible.
//! - [`SourceMgr`] renders diagnostics with the source line and a caret.
//!
//! Dialect type hooks (`DialectDef::parse_type`) are called with the parser positioned right after
//! `!dialect.mnemonic` (the mnemonic is passed in); they parse the parameters, such as `<16xf32>`.

mod asm_impl;
mod attr_parser;
mod float_fmt;
mod lexer;
mod naming;
mod op_parser;
mod parser;
mod print_attr;
mod printer;
mod render;
mod scope;
mod type_parser;

#[cfg(test)]
mod tests;

pub use render::SourceMgr;

use crate::context::Context;
use crate::entity::{Attribute, Location, OpId, Type};
use naming::Names;
use printer::Printer;

/// How to print.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print every op in the generic form (`--mlir-print-op-generic`).
    pub generic: bool,
    /// Print `loc(...)` after each op and block argument (`--mlir-print-debuginfo`).
    pub debug_info: bool,
}

/// Parses `source` (named `filename` in locations) into a detached top-level `builtin.module`.
/// On error, emits one diagnostic into `ctx` and returns None.
pub fn parse_source(ctx: &mut Context, source: &str, filename: &str) -> Option<OpId> {
    let mut p = parser::Parser::new(ctx, source, filename);
    match p.parse_top() {
        Ok(op) => Some(op),
        Err(d) => {
            ctx.emit(d);
            None
        }
    }
}

/// Prints `op` and everything nested in it, ending with a newline.
pub fn print_op(ctx: &Context, op: OpId, opts: &PrintOptions) -> String {
    let names = Names::compute(ctx, op);
    let mut p = Printer::new(ctx, names, *opts);
    p.print_op(op);
    p.out.push('\n');
    p.out
}

/// A type in MLIR syntax (`i32`, `(f32) -> f32`, `!qd.field<4xf32>`), for messages.
pub fn type_to_string(ctx: &Context, ty: Type) -> String {
    let mut p = Printer::new(ctx, Names::empty(), PrintOptions::default());
    p.write_type(ty);
    p.out
}

/// An attribute in MLIR syntax (`1 : i32`, `[1.5 : f32]`), for messages.
pub fn attr_to_string(ctx: &Context, attr: Attribute) -> String {
    let mut p = Printer::new(ctx, Names::empty(), PrintOptions::default());
    p.write_attr(attr, true);
    p.out
}

/// A location in MLIR syntax (`loc("f.mlir":3:5)`).
pub fn loc_to_string(ctx: &Context, loc: Location) -> String {
    let mut p = Printer::new(ctx, Names::empty(), PrintOptions::default());
    p.write_loc(loc);
    p.out
}
