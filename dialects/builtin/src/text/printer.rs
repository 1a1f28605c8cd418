//! Printing ops, regions and blocks: the generic form for every op, the custom form through an
//! op's `print` hook (when registered, allowed by the options, and the op passes its own verifier,
//! so that hooks only ever see well-formed ops, as MLIR's printer does).

use super::aliases::Aliases;
use super::loc_aliases::LocAliases;
use super::naming::Names;
use super::PrintOptions;
use crate::asm::{AsmPrinter, OpAsmPrinter};
use crate::attributes::AttrData;
use crate::context::Context;
use crate::entity::*;
use crate::registry::PrintFn;

pub(crate) struct Printer<'c> {
    pub(crate) ctx: &'c Context,
    pub(crate) out: String,
    indent: usize,
    names: Names,
    opts: PrintOptions,
    /// The default dialect of each region being printed (innermost last): ops of that dialect
    /// print without their prefix, as MLIR's printer does with `OpAsmOpInterface`.
    default_dialects: Vec<&'static str>,
    /// Aliases being given (when printing a top-level op): affine maps print as `#map<n>`.
    pub(crate) aliases: Option<Aliases>,
    /// Location aliases (with debug info): collected by a first pass, used by the second.
    pub(crate) locs: Option<LocAliases>,
    /// Whether this pass only collects location aliases.
    pub(crate) collecting_locs: bool,
}

impl<'c> Printer<'c> {
    pub(crate) fn new(ctx: &'c Context, names: Names, opts: PrintOptions) -> Self {
        Printer {
            ctx,
            out: String::new(),
            indent: 0,
            names,
            opts,
            default_dialects: Vec::new(),
            aliases: None,
            locs: None,
            collecting_locs: false,
        }
    }

    fn write_indent(&mut self) {
        self.out.extend(std::iter::repeat_n(' ', self.indent));
    }

    /// The custom printer to use for `op`, if any.
    fn custom_printer(&self, op: OpId) -> Option<PrintFn> {
        if self.opts.generic {
            return None;
        }
        let info = self.ctx.info(op)?;
        let print = info.print?;
        match info.verify {
            Some(verify) if verify(self.ctx, op).is_err() => None,
            _ => Some(print),
        }
    }

    /// Prints one op (results, body, location) at the current indentation, without a newline.
    pub(crate) fn print_op(&mut self, op: OpId) {
        let ctx = self.ctx;
        if self.collecting_locs {
            // MLIR visits an op's location before the op's contents.
            if let Some(locs) = self.locs.as_mut() {
                locs.visit(ctx, ctx.loc(op), true);
            }
        }
        self.write_indent();
        if ctx.num_results(op) > 0 {
            self.names.write_results_def(ctx, op, &mut self.out);
            self.out.push_str(" = ");
        }
        match self.custom_printer(op) {
            Some(print) => {
                // MLIR elides the prefix of the enclosing region's default dialect when the rest
                // of the name has no further `.`; at the top level and in a module that is
                // `builtin` (`module`, but `builtin.module` inside an unregistered op).
                let name = ctx.name(op);
                let default = self.default_dialects.last().copied().unwrap_or("builtin");
                self.out.push_str(
                    Some(default)
                        .filter(|d| !d.is_empty())
                        .and_then(|d| name.strip_prefix(d))
                        .and_then(|rest| rest.strip_prefix('.'))
                        .filter(|rest| !rest.contains('.'))
                        .unwrap_or(name),
                );
                print(op, self);
            }
            None => self.print_generic(op),
        }
        if self.opts.debug_info {
            self.out.push(' ');
            self.write_op_loc(ctx.loc(op));
        }
    }

    fn print_generic(&mut self, op: OpId) {
        let ctx = self.ctx;
        super::lexer::escape_into(&mut self.out, ctx.name(op));
        self.out.push('(');
        for (i, v) in ctx.operands(op).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.names.write_value(ctx, v, &mut self.out);
        }
        self.out.push(')');
        let succs = ctx.successors(op);
        if !succs.is_empty() {
            self.out.push('[');
            for (i, &b) in succs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.names.write_block(b, &mut self.out);
            }
            self.out.push(']');
        }
        let props = ctx.properties(op);
        if !props.is_empty() {
            self.out.push_str(" <");
            self.write_dict(props, &[]);
            self.out.push('>');
        }
        let regions = ctx.regions(op);
        if !regions.is_empty() {
            self.out.push_str(" (");
            for (i, &r) in regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_region_impl(r, true, true);
            }
            self.out.push(')');
        }
        let attrs = ctx.attrs(op);
        if !attrs.is_empty() {
            self.out.push(' ');
            self.write_dict(attrs, &[]);
        }
        self.out.push_str(" : (");
        for (i, v) in ctx.operands(op).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.write_type(ctx.value_type(v));
        }
        self.out.push_str(") -> ");
        let results = ctx.results(op);
        self.write_result_types(results.len(), |i| ctx.value_type(results[i]));
    }

    /// `T` for one non-function result type, `(T, U)` otherwise.
    pub(crate) fn write_result_types(&mut self, n: usize, ty: impl Fn(usize) -> Type) {
        let single = n == 1
            && !matches!(
                self.ctx.type_data(ty(0)),
                crate::types::TypeData::Function { .. }
            );
        if single {
            self.write_type(ty(0));
            return;
        }
        self.out.push('(');
        for i in 0..n {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.write_type(ty(i));
        }
        self.out.push(')');
    }

    /// `{` blocks `}`. The entry block's header is printed when `entry_args` and it has
    /// arguments, or when `empty_block` and it has no ops (so that `{}` stays a region without
    /// blocks and `{ ^bb0: }` one with an empty block).
    fn print_region_impl(&mut self, region: RegionId, entry_args: bool, empty_block: bool) {
        let ctx = self.ctx;
        self.out.push_str("{\n");
        let parent = ctx.region_parent_op(region);
        let default_dialect = match parent {
            Some(op) if ctx.name(op) == crate::builtin::MODULE => "builtin",
            _ => parent
                .and_then(|op| ctx.info(op))
                .map_or("", |i| i.default_dialect),
        };
        self.default_dialects.push(default_dialect);
        let blocks = ctx.region_blocks(region);
        let preds = if blocks.len() > 1 {
            predecessors(ctx, blocks)
        } else {
            Vec::new()
        };
        let no_preds = Vec::new();
        for (i, &b) in blocks.iter().enumerate() {
            let header = i > 0
                || (empty_block && ctx.block_is_empty(b))
                || (entry_args && !ctx.block_args(b).is_empty());
            let p = preds.get(i).unwrap_or(&no_preds);
            self.print_block(b, header, i == 0, p, blocks);
        }
        self.default_dialects.pop();
        self.write_indent();
        self.out.push('}');
    }

    /// A block; with `header`, its label, arguments and MLIR's predecessor comment (`// pred:
    /// ^bb0`, `// 2 preds: ^bb0, ^bb2`, `// no predecessors` but for the entry block), where
    /// `preds` are the indices in `blocks` of the blocks branching here, one per edge.
    fn print_block(
        &mut self,
        block: BlockId,
        header: bool,
        entry: bool,
        preds: &[usize],
        blocks: &[BlockId],
    ) {
        let ctx = self.ctx;
        if header {
            self.write_indent();
            self.names.write_block(block, &mut self.out);
            let args = ctx.block_args(block);
            if !args.is_empty() {
                self.out.push('(');
                for (i, &a) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.names.write_value(ctx, a, &mut self.out);
                    self.out.push_str(": ");
                    self.write_type(ctx.value_type(a));
                    if self.opts.debug_info {
                        self.out.push(' ');
                        self.write_arg_loc(ctx.value_loc(a));
                    }
                }
                self.out.push(')');
            }
            self.out.push(':');
            match preds {
                [] if entry => {}
                [] => self.out.push_str("  // no predecessors"),
                [p] => {
                    self.out.push_str("  // pred: ");
                    self.names.write_block(blocks[*p], &mut self.out);
                }
                _ => {
                    self.out.push_str("  // ");
                    self.out.push_str(&preds.len().to_string());
                    self.out.push_str(" preds: ");
                    for (k, &p) in preds.iter().enumerate() {
                        if k > 0 {
                            self.out.push_str(", ");
                        }
                        self.names.write_block(blocks[p], &mut self.out);
                    }
                }
            }
            self.out.push('\n');
        }
        self.indent += 2;
        for op in ctx.block_ops(block) {
            self.print_op(op);
            self.out.push('\n');
        }
        self.indent -= 2;
    }

    /// `{k = v, flag}` over the entries not named in `elided` (printed even when empty).
    pub(crate) fn write_dict(&mut self, entries: &[(Ident, Attribute)], elided: &[&str]) {
        let ctx = self.ctx;
        self.out.push('{');
        let mut first = true;
        for &(k, v) in entries {
            let key = ctx.ident_str(k);
            if elided.contains(&key) {
                continue;
            }
            if !first {
                self.out.push_str(", ");
            }
            first = false;
            self.write_keyword_or_string(key);
            if !matches!(ctx.attr_data(v), AttrData::Unit) {
                self.out.push_str(" = ");
                self.write_attr(v, true);
            }
        }
        self.out.push('}');
    }
}

/// For each block of a region, the indices of its predecessors (one per successor edge, in
/// block order, as MLIR prints them sorted by block number).
fn predecessors(ctx: &Context, blocks: &[BlockId]) -> Vec<Vec<usize>> {
    let index: crate::fast_hash::FastMap<BlockId, usize> =
        blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut preds = vec![Vec::new(); blocks.len()];
    for (i, &b) in blocks.iter().enumerate() {
        for op in ctx.block_ops(b) {
            for s in ctx.successors(op) {
                if let Some(&t) = index.get(s) {
                    preds[t].push(i);
                }
            }
        }
    }
    preds
}

impl AsmPrinter for Printer<'_> {
    fn ctx(&self) -> &Context {
        self.ctx
    }
    fn write(&mut self, s: &str) {
        self.out.push_str(s);
    }
    fn print_type(&mut self, ty: Type) {
        self.write_type(ty);
    }
    fn print_attribute(&mut self, attr: Attribute) {
        self.write_attr(attr, true);
    }
    fn print_attribute_without_type(&mut self, attr: Attribute) {
        self.write_attr(attr, false);
    }
    fn print_symbol_name(&mut self, name: &str) {
        self.write_symbol(name);
    }
    fn print_string(&mut self, s: &str) {
        super::lexer::escape_into(&mut self.out, s);
    }
}

impl OpAsmPrinter for Printer<'_> {
    fn print_operand(&mut self, v: Value) {
        self.names.write_value(self.ctx, v, &mut self.out);
    }
    fn print_region(&mut self, region: RegionId, print_entry_args: bool) {
        self.print_region_impl(region, print_entry_args, false);
    }
    fn print_optional_attr_dict(&mut self, attrs: &[(Ident, Attribute)], elided: &[&str]) {
        let ctx = self.ctx;
        if attrs
            .iter()
            .all(|(k, _)| elided.contains(&ctx.ident_str(*k)))
        {
            return;
        }
        self.out.push(' ');
        self.write_dict(attrs, elided);
    }
    fn print_successor(&mut self, block: BlockId) {
        self.names.write_block(block, &mut self.out);
    }
    fn print_optional_location(&mut self, arg: Value) {
        if self.opts.debug_info {
            self.out.push(' ');
            self.write_arg_loc(self.ctx.value_loc(arg));
        }
    }
}
