//! Tests of the text layer: a tiny `test` dialect with custom syntax, and helpers.

mod custom;
mod errors;
mod float_print;
mod generic;
mod lexer_tests;
mod render_tests;
mod result_names;
mod robustness;
mod shaped;
mod shaped_prop;
mod typed_attr;

use super::{parse_source, print_op, PrintOptions, SourceMgr};
use crate::asm::{Argument, AsmParser, AsmPrinter, Delimiter, OpAsmParser, OpAsmPrinter};
use crate::builder::OperationState;
use crate::context::Context;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::entity::*;
use crate::registry::{DialectDef, OpInfo, OpTraits};
use crate::types::TypeParam;

pub(super) const FILE: &str = "t.mlir";

/// A context with the test dialect, accepting unregistered dialects.
pub(super) fn ctx() -> Context {
    let mut c = Context::new();
    c.register_dialect(test_dialect());
    c.allow_unregistered = true;
    c
}

/// A context with the test dialect only (unregistered dialects rejected).
pub(super) fn strict_ctx() -> Context {
    let mut c = Context::new();
    c.register_dialect(test_dialect());
    c
}

pub(super) fn parse(ctx: &mut Context, src: &str) -> OpId {
    match parse_source(ctx, src, FILE) {
        Some(op) => op,
        None => {
            let mut sm = SourceMgr::new();
            sm.add_buffer(FILE, src);
            let msgs: Vec<String> = ctx
                .diagnostics()
                .iter()
                .map(|d| sm.render(ctx, d))
                .collect();
            panic!("parse failed:\n{}", msgs.join(""));
        }
    }
}

pub(super) fn custom() -> PrintOptions {
    PrintOptions::default()
}

pub(super) fn generic() -> PrintOptions {
    PrintOptions {
        generic: true,
        debug_info: false,
    }
}

/// Parses `src` and prints it with `opts`; checks that printing is a fixed point after one
/// round (print(parse(x)) == print(parse(print(parse(x))))) and returns the first print.
pub(super) fn round_trip_with(src: &str, opts: PrintOptions) -> String {
    let mut c = ctx();
    let op = parse(&mut c, src);
    let first = print_op(&c, op, &opts);
    let mut c2 = ctx();
    let op2 = parse(&mut c2, &first);
    let second = print_op(&c2, op2, &opts);
    assert_eq!(
        first, second,
        "printing is not stable; first print:\n{first}"
    );
    first
}

/// Round trip in custom and generic form (the generic output must re-parse to the same custom
/// output too); returns the custom print.
pub(super) fn round_trip(src: &str) -> String {
    let custom_out = round_trip_with(src, custom());
    let generic_out = round_trip_with(src, generic());
    let mut c = ctx();
    let op = parse(&mut c, &generic_out);
    assert_eq!(
        print_op(&c, op, &custom()),
        custom_out,
        "generic re-parse differs"
    );
    custom_out
}

/// Parses `src` expecting failure; returns (line, col, message) of the one diagnostic.
pub(super) fn parse_error_in(mut c: Context, src: &str) -> (u32, u32, String) {
    let r = parse_source(&mut c, src, FILE);
    assert!(r.is_none(), "expected a parse error for:\n{src}");
    let diags = c.diagnostics();
    assert_eq!(diags.len(), 1, "expected exactly one diagnostic");
    let d = &diags[0];
    let (file, line, col) = c
        .file_line_col(d.loc)
        .expect("diagnostic without a file location");
    assert_eq!(file, FILE);
    (line, col, d.message.clone())
}

pub(super) fn parse_error(src: &str) -> (u32, u32, String) {
    parse_error_in(ctx(), src)
}

// ----- the test dialect ---------------------------------------------------------------------------

fn test_dialect() -> DialectDef {
    let mut d = DialectDef::new("test");
    d.ops = vec![
        OpInfo::new("test.add", "a + b")
            .traits(OpTraits::PURE)
            .verify(|c, op| shape(c, op, 1, 0, 0))
            .syntax(parse_add, print_add),
        OpInfo::new("test.loop", "a loop with an induction variable")
            .verify(verify_loop)
            .syntax(parse_loop, print_loop),
        OpInfo::new("test.isolated", "an isolated region")
            .traits(OpTraits::ISOLATED_FROM_ABOVE)
            .verify(|c, op| shape(c, op, 0, 1, 0))
            .syntax(parse_isolated, print_isolated),
        OpInfo::new("test.scoped", "a region whose `test` ops drop their prefix")
            .default_dialect("test")
            .verify(|c, op| shape(c, op, 0, 1, 0))
            .syntax(parse_isolated, print_isolated),
        OpInfo::new("test.br", "a branch")
            .traits(OpTraits::TERMINATOR)
            .verify(|c, op| shape(c, op, 0, 0, 1))
            .syntax(parse_br, print_br),
        OpInfo::new("test.generic_only", "no custom syntax"),
        OpInfo::new("test.named", "names its result after its `hint` attribute")
            .asm_result_names(hint_names),
        OpInfo::new(
            "test.checked",
            "prints custom only when it has an `ok` attribute",
        )
        .verify(verify_checked)
        .syntax(parse_checked, print_checked),
    ];
    d.parse_type = Some(parse_box);
    d.print_type = Some(print_box);
    d.parse_attr = Some(parse_attr);
    d
}

/// The `hint` string attribute as the name of every result (an empty or missing one: none).
fn hint_names(ctx: &Context, op: OpId, set_name: &mut dyn FnMut(Value, &str)) {
    if let Some(crate::attributes::AttrData::String(h)) =
        ctx.attr(op, "hint").map(|a| ctx.attr_data(a))
    {
        for &r in ctx.results(op) {
            set_name(r, h);
        }
    }
}

/// What the print hooks rely on (the generic form can build anything): counts of results,
/// regions and successors.
fn shape(ctx: &Context, op: OpId, results: usize, regions: usize, succs: usize) -> DiagResult<()> {
    if ctx.num_results(op) == results
        && ctx.regions(op).len() == regions
        && ctx.successors(op).len() == succs
    {
        Ok(())
    } else {
        Err(Diagnostic::error(ctx.loc(op), "malformed test op"))
    }
}

/// `test.add %a, %b : T {attrs}`
fn parse_add(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let ops = p.parse_operand_list(Delimiter::None)?;
    let ty = p.parse_colon_type()?;
    st.operands = p.resolve_operands(&ops, &vec![ty; ops.len()])?;
    st.result_types.push(ty);
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    st.attributes.extend(attrs);
    Ok(())
}

fn print_add(op: OpId, p: &mut dyn OpAsmPrinter) {
    let operands = p.ctx().operand_vec(op);
    p.write(" ");
    p.print_operands(&operands);
    p.write(" : ");
    let ty = p.ctx().value_type(p.ctx().result(op, 0));
    p.print_type(ty);
    let attrs = p.ctx().attrs(op).to_vec();
    p.print_optional_attr_dict(&attrs, &[]);
}

/// `test.loop %i = %lo : T { body }`
fn parse_loop(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let iv = p.parse_argument(false)?;
    p.parse_punct("=")?;
    let lo = p.parse_operand()?;
    let ty = p.parse_colon_type()?;
    st.operands.push(p.resolve_operand(&lo, ty)?);
    let r = p.parse_region(&[Argument {
        name: iv.name,
        ty: Some(ty),
    }])?;
    st.regions.push(r);
    Ok(())
}

/// The printer relies on an operand and a body with an argument; the generic form may lack them.
fn verify_loop(ctx: &Context, op: OpId) -> DiagResult<()> {
    let ok = ctx.num_operands(op) == 1
        && ctx.regions(op).len() == 1
        && ctx
            .entry_block(ctx.region(op, 0))
            .is_some_and(|b| ctx.block_args(b).len() == 1);
    if ok {
        Ok(())
    } else {
        Err(Diagnostic::error(
            ctx.loc(op),
            "'test.loop' op is malformed",
        ))
    }
}

fn print_loop(op: OpId, p: &mut dyn OpAsmPrinter) {
    let ctx = p.ctx();
    let r = ctx.region(op, 0);
    let iv = ctx.block_arg(ctx.entry_block(r).expect("loop body"), 0);
    let lo = ctx.operand(op, 0);
    let ty = ctx.value_type(lo);
    p.write(" ");
    p.print_operand(iv);
    p.write(" = ");
    p.print_operand(lo);
    p.write(" : ");
    p.print_type(ty);
    p.write(" ");
    p.print_region(r, false);
}

fn parse_isolated(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let r = p.parse_region(&[])?;
    st.regions.push(r);
    Ok(())
}

fn print_isolated(op: OpId, p: &mut dyn OpAsmPrinter) {
    let r = p.ctx().region(op, 0);
    p.write(" ");
    p.print_region(r, true);
}

fn parse_br(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    st.successors.push(p.parse_successor()?);
    Ok(())
}

fn print_br(op: OpId, p: &mut dyn OpAsmPrinter) {
    let b = p.ctx().successors(op)[0];
    p.write(" ");
    p.print_successor(b);
}

fn verify_checked(ctx: &Context, op: OpId) -> DiagResult<()> {
    match ctx.attr(op, "ok") {
        Some(_) => Ok(()),
        None => Err(Diagnostic::error(
            ctx.loc(op),
            "'test.checked' op needs 'ok'",
        )),
    }
}

/// `test.checked {attrs}`
fn parse_checked(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    st.attributes.extend(attrs);
    Ok(())
}

fn print_checked(op: OpId, p: &mut dyn OpAsmPrinter) {
    let attrs = p.ctx().attrs(op).to_vec();
    p.print_optional_attr_dict(&attrs, &[]);
}

/// `!test.box<4x?xf32>`
fn parse_box(p: &mut dyn AsmParser, mnemonic: &str) -> DiagResult<Vec<TypeParam>> {
    if mnemonic != "box" {
        return Err(p.error(&format!("unknown test type '{mnemonic}'")));
    }
    p.parse_punct("<")?;
    let dims = p.parse_dimension_list(true)?;
    let elem = p.parse_type()?;
    p.parse_punct(">")?;
    Ok(vec![TypeParam::Dims(dims), TypeParam::Type(elem)])
}

fn print_box(mnemonic: &str, params: &[TypeParam], p: &mut dyn AsmPrinter) {
    p.write(mnemonic);
    p.write("<");
    if let [TypeParam::Dims(d), TypeParam::Type(t)] = params {
        p.print_dimension_list(d);
        p.print_type(*t);
    }
    p.write(">");
}

/// `#test.mode<fast>` / `#test.mode<none>`: a typed attribute holding whether it is fast.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
struct Mode(bool);

impl crate::DialectAttr for Mode {
    fn dialect(&self) -> &'static str {
        "test"
    }
    fn print(&self, out: &mut String) {
        out.push_str(if self.0 { "mode<fast>" } else { "mode<none>" });
    }
}

fn parse_attr(_ctx: &Context, body: &str) -> Result<Box<dyn crate::DialectAttr>, String> {
    match body {
        "mode<fast>" => Ok(Box::new(Mode(true))),
        "mode<none>" => Ok(Box::new(Mode(false))),
        _ => Err(format!("unknown test attribute '#test.{body}'")),
    }
}
