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
//!
//! SSA names are scoped as in MLIR: per region, nested regions see enclosing names, an
//! isolated-from-above op starts a fresh scope. Forward references (other blocks, graph regions,
//! nested regions referring to a later value of their parent) get placeholders that the
//! definition replaces; one still unresolved when its isolated scope closes is an error at its
//! first use. Printing uses an op's custom form only when its own verifier accepts it, so that
//! print hooks never see malformed ops (the generic form prints anything).

mod aliases;
mod asm_impl;
mod attr_parser;
mod bignum;
mod dense_parser;
mod float_fmt;
mod input;
mod layout_parser;
mod lexer;
mod lines;
mod loc_aliases;
mod loc_parser;
mod name_table;
mod naming;
mod op_parser;
mod parser;
mod print_attr;
mod print_shaped;
mod printer;
mod render;
mod scope;
mod shaped_type_parser;
mod type_parser;

#[cfg(test)]
mod tests;

pub use input::{read_capped, read_path_capped, InputError, DEFAULT_MAX_INPUT_BYTES};
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
    let parse = |ctx: &mut Context| parser::Parser::new(ctx, source, filename).parse_top();
    // The parser recurses once per nesting level (bounded by `parser::MAX_DEPTH`); deeply
    // bracketed input gets a thread with a stack large enough for that bound in any build.
    let result = if bracket_depth(source) <= INLINE_DEPTH {
        parse(ctx)
    } else {
        with_large_stack(ctx, parse)
    };
    match result {
        Ok(op) => Some(op),
        Err(d) => {
            ctx.emit(d);
            None
        }
    }
}

/// Nesting (by brackets) up to which parsing runs on the caller's stack.
const INLINE_DEPTH: usize = 32;
/// Stack for deeply nested input: `MAX_DEPTH` levels take a few MiB in debug builds.
const LARGE_STACK: usize = 64 << 20;

/// The deepest nesting of `( [ { <` in `source` (an upper bound on the parser's recursion).
fn bracket_depth(source: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for c in source.bytes() {
        match c {
            b'(' | b'[' | b'{' | b'<' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Runs `f` on a thread with a large stack (or on this thread if none can be started).
fn with_large_stack<R: Send>(ctx: &mut Context, f: impl FnOnce(&mut Context) -> R + Send) -> R {
    let mut job = Some(f);
    let spawned = std::thread::scope(|s| {
        let job = &mut job;
        let ctx = &mut *ctx;
        std::thread::Builder::new()
            .stack_size(LARGE_STACK)
            .spawn_scoped(s, move || job.take().map(|f| f(ctx)))
            .ok()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    });
    match (spawned.flatten(), job) {
        (Some(r), _) => r,
        (None, Some(f)) => f(ctx),
        (None, None) => unreachable!("the job ran but returned nothing"),
    }
}

/// Prints `op` and everything nested in it, ending with a newline.
pub fn print_op(ctx: &Context, op: OpId, opts: &PrintOptions) -> String {
    let names = Names::compute(ctx, op, opts.generic);
    let mut p = Printer::new(ctx, names, *opts);
    if opts.debug_info {
        // A first pass finds the locations printed, to number their aliases.
        p.locs = Some(loc_aliases::LocAliases::default());
        p.collecting_locs = true;
        p.print_op(op);
        p.out.clear();
        p.collecting_locs = false;
        if let Some(l) = p.locs.as_mut() {
            l.number();
        }
    }
    p.aliases = Some(aliases::Aliases::default());
    p.print_op(op);
    p.out.push('\n');
    let aliases = p.aliases.take().unwrap_or_default();
    let (before, after) = p.alias_definitions(&aliases);
    if !before.is_empty() {
        p.out.insert_str(0, &before);
    }
    p.out.push_str(&after);
    p.out
}

/// The name `v` has when `root` is printed (`%3`, `%arg0`, `%2#1`), for messages.
pub fn value_name(ctx: &Context, root: OpId, v: crate::entity::Value) -> String {
    let names = Names::compute(ctx, root, false);
    let mut out = String::new();
    names.write_value(ctx, v, &mut out);
    out
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
