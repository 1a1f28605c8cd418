//! The builtin dialect: `builtin.module` and `builtin.unrealized_conversion_cast`.

use crate::asm::{Delimiter, OpAsmParser, OpAsmPrinter};
use crate::attributes::AttrData;
use crate::builder::OperationState;
use crate::context::Context;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::entity::*;
use crate::registry::{DialectDef, OpInfo, OpTraits};

pub const MODULE: &str = "builtin.module";
pub const UNREALIZED_CONVERSION_CAST: &str = "builtin.unrealized_conversion_cast";

pub fn dialect() -> DialectDef {
    let mut d = DialectDef::new("builtin");
    d.ops = vec![
        OpInfo::new(MODULE, "a top-level container of symbols")
            .traits(
                OpTraits::ISOLATED_FROM_ABOVE
                    | OpTraits::SYMBOL_TABLE
                    | OpTraits::NO_TERMINATOR
                    | OpTraits::SINGLE_BLOCK
                    | OpTraits::GRAPH_REGION,
            )
            .verify(verify_module)
            .syntax(parse_module, print_module),
        OpInfo::new(
            UNREALIZED_CONVERSION_CAST,
            "a cast between type systems, left by partial conversions",
        )
        .traits(OpTraits::PURE)
        .verify(verify_cast)
        .syntax(parse_cast, print_cast),
    ];
    d
}

/// Creates an empty, detached `builtin.module`; returns it and its body block.
pub fn create_module(ctx: &mut Context, loc: Location) -> (OpId, BlockId) {
    let (region, block) = ctx.create_region_with_block(&[]);
    let op = ctx.create_op(OperationState::new(MODULE, loc).region(region));
    (op, block)
}

/// The body block of a module.
pub fn module_body(ctx: &Context, module: OpId) -> BlockId {
    ctx.entry_block(ctx.region(module, 0))
        .expect("module without a body block")
}

fn verify_module(ctx: &Context, op: OpId) -> DiagResult<()> {
    let loc = ctx.loc(op);
    if ctx.num_operands(op) != 0 || ctx.num_results(op) != 0 {
        return Err(Diagnostic::error(
            loc,
            "'builtin.module' op takes no operands and has no results",
        ));
    }
    if ctx.regions(op).len() != 1 {
        return Err(Diagnostic::error(
            loc,
            "'builtin.module' op expects one region",
        ));
    }
    let r = ctx.region(op, 0);
    if ctx.region_blocks(r).len() != 1 {
        return Err(Diagnostic::error(
            loc,
            "'builtin.module' op expects a region with exactly one block",
        ));
    }
    if !ctx.block_args(ctx.region_blocks(r)[0]).is_empty() {
        return Err(Diagnostic::error(
            loc,
            "'builtin.module' op's body block takes no arguments",
        ));
    }
    if let Some(name) = ctx.prop_or_attr(op, "sym_name") {
        if !matches!(ctx.attr_data(name), AttrData::String(_)) {
            return Err(Diagnostic::error(
                loc,
                "'builtin.module' op's sym_name must be a string",
            ));
        }
    }
    Ok(())
}

fn parse_module(p: &mut dyn OpAsmParser, state: &mut OperationState) -> DiagResult<()> {
    if let Some(name) = p.parse_optional_symbol_name() {
        // An inherent attribute: a property, as MLIR's ModuleOp keeps it.
        let a = p.ctx().string_attr(&name);
        state.add_prop(p.ctx(), "sym_name", a);
    }
    if p.parse_optional_keyword("attributes") {
        let mut attrs = Vec::new();
        p.parse_optional_attr_dict(&mut attrs)?;
        state.attributes.extend(attrs);
    }
    let region = p.parse_region(&[])?;
    // An empty `{}` still gets its body block.
    if p.ctx_ref().region_blocks(region).is_empty() {
        let b = p.ctx().create_block(&[]);
        p.ctx().append_block(region, b);
    }
    state.regions.push(region);
    Ok(())
}

fn print_module(op: OpId, p: &mut dyn OpAsmPrinter) {
    let name = p
        .ctx()
        .prop_or_attr(op, "sym_name")
        .and_then(|a| match p.ctx().attr_data(a) {
            AttrData::String(s) => Some(s.clone()),
            _ => None,
        });
    if let Some(n) = &name {
        p.write(" ");
        p.print_symbol_name(n);
    }
    let attrs = p.ctx().attrs(op).to_vec();
    let shown: Vec<_> = attrs
        .iter()
        .filter(|(k, _)| p.ctx().ident_str(*k) != "sym_name" || name.is_none())
        .copied()
        .collect();
    if !shown.is_empty() {
        p.write(" attributes");
        p.print_optional_attr_dict(&shown, &[]);
    }
    p.write(" ");
    p.print_region(p.ctx().region(op, 0), false);
}

fn verify_cast(ctx: &Context, op: OpId) -> DiagResult<()> {
    if !ctx.regions(op).is_empty() || !ctx.successors(op).is_empty() {
        return Err(Diagnostic::error(
            ctx.loc(op),
            "'builtin.unrealized_conversion_cast' op expects no regions and no successors",
        ));
    }
    if ctx.num_results(op) == 0 {
        return Err(Diagnostic::error(
            ctx.loc(op),
            "'builtin.unrealized_conversion_cast' op expects at least one result",
        ));
    }
    Ok(())
}

fn parse_cast(p: &mut dyn OpAsmParser, state: &mut OperationState) -> DiagResult<()> {
    let operands = p.parse_operand_list(Delimiter::None)?;
    let mut in_types = Vec::new();
    if !operands.is_empty() {
        p.parse_punct(":")?;
        loop {
            in_types.push(p.parse_type()?);
            if !p.parse_optional_punct(",") {
                break;
            }
        }
    }
    p.parse_keyword("to")?;
    loop {
        let t = p.parse_type()?;
        state.result_types.push(t);
        if !p.parse_optional_punct(",") {
            break;
        }
    }
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    state.attributes.extend(attrs);
    state.operands = p.resolve_operands(&operands, &in_types)?;
    Ok(())
}

fn print_cast(op: OpId, p: &mut dyn OpAsmPrinter) {
    let operands = p.ctx().operand_vec(op);
    if !operands.is_empty() {
        p.write(" ");
        p.print_operands(&operands);
        p.write(" :");
        for (i, v) in operands.iter().enumerate() {
            p.write(if i == 0 { " " } else { ", " });
            let t = p.ctx().value_type(*v);
            p.print_type(t);
        }
    }
    p.write(" to");
    let results = p.ctx().results(op).to_vec();
    for (i, v) in results.iter().enumerate() {
        p.write(if i == 0 { " " } else { ", " });
        let t = p.ctx().value_type(*v);
        p.print_type(t);
    }
    let attrs = p.ctx().attrs(op).to_vec();
    p.print_optional_attr_dict(&attrs, &[]);
}
