//! Operation syntax: result lists, the generic form, custom forms through the registry's hooks,
//! regions, blocks and successors.

use super::lexer::{Tok, Token};
use super::lines::At;
use super::parser::{LocSpec, LocTarget, Parser};
use crate::builder::OperationState;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::entity::*;
use crate::registry::OpTraits;
use crate::types::TypeData;
use std::borrow::Cow;

/// An entry-block argument of a region being parsed.
pub(crate) struct EntryArg<'a> {
    pub name: &'a str,
    pub ty: Type,
    pub loc: Location,
}

/// A `%name` or `%name#N` use in the generic form.
struct SsaUse<'a> {
    name: &'a str,
    number: u32,
    offset: usize,
}

impl<'a, 'c> Parser<'a, 'c> {
    /// `%a, %b:2 = op...` (results optional), then the generic or custom form and an optional
    /// trailing `loc(...)`. The op is returned detached, its results defined in the scope.
    pub(crate) fn parse_operation(&mut self) -> DiagResult<OpId> {
        let start = self.tok.start;
        // Result groups `%a, %b:2`: almost always one, kept out of the heap.
        let mut first: Option<(&'a str, u32, usize)> = None;
        let mut more: Vec<(&'a str, u32, usize)> = Vec::new();
        let mut total: usize = 0;
        if self.at(Tok::PercentIdent) {
            loop {
                let t = self.expect(Tok::PercentIdent, "expected SSA value name")?;
                let count = if self.eat(Tok::Colon) {
                    let c = self.expect(Tok::Integer, "expected integer number of results")?;
                    match self.text(c).parse::<u32>() {
                        Ok(n) if n > 0 => n,
                        _ => {
                            return Err(self.err_at(
                                c.start,
                                "expected named operation to have at least 1 result",
                            ))
                        }
                    }
                } else {
                    1
                };
                total = total.saturating_add(count as usize);
                let group = (self.text(t), count, t.start);
                if first.is_none() {
                    first = Some(group);
                } else {
                    more.push(group);
                }
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Equal, "expected '=' after SSA name")?;
        }
        // As MLIR, an op's location is its name's position (`arith.addi` in `%0 = arith.addi`).
        let loc = self.tok_loc();
        let op = match self.tok.kind {
            Tok::String => self.parse_generic_op(loc)?,
            Tok::BareIdent => self.parse_custom_op(loc, total)?,
            _ => return Err(self.err("expected operation name in quotes")),
        };
        if let Some(first) = first {
            let n = self.ctx.num_results(op);
            if n != total {
                return Err(self.err_at(
                    start,
                    format!("operation defines {n} results but was provided {total} to bind"),
                ));
            }
            let mut index = 0;
            for (name, count, offset) in std::iter::once(first).chain(more) {
                let at = self.at_of(offset);
                for k in 0..count {
                    let v = self.ctx.result(op, index);
                    index += 1;
                    self.scopes.define(self.ctx, &self.lines, name, k, v, at)?;
                }
            }
        }
        Ok(op)
    }

    /// After the op: an optional `loc(...)`, applied to the state or deferred to the op.
    fn parse_trailing_loc(&mut self) -> DiagResult<Option<LocSpec<'a>>> {
        self.parse_optional_loc_spec()
    }

    fn finish_op(&mut self, mut state: OperationState, loc: Option<LocSpec<'a>>) -> OpId {
        if let Some(LocSpec::Loc(l)) = loc {
            state.loc = l;
        }
        let op = self.ctx.create_op(state);
        if let Some(LocSpec::Deferred(name, off)) = loc {
            self.deferred_locs.push((LocTarget::Op(op), name, off));
        }
        op
    }

    /// `"ns.op"(%a)[^bb] <{props}> ({...}) {attrs} : (T) -> R`
    fn parse_generic_op(&mut self, loc: Location) -> DiagResult<OpId> {
        let name_tok = self.bump();
        let (name, traits) = match self.memo.ops.get(self.text(name_tok)) {
            Some((n, t)) => (n.clone(), *t),
            None => self.check_op_name(name_tok)?,
        };
        let isolated = traits.is_some_and(|t| t.contains(OpTraits::ISOLATED_FROM_ABOVE));

        self.expect(Tok::LParen, "expected '(' to start operand list")?;
        // Operand uses wait on a shared stack (nested ops push above them) until the signature
        // gives their types.
        let base = self.memo.use_stack.len();
        let r = self.parse_generic_rest(name, isolated, loc, base);
        self.memo.use_stack.truncate(base);
        r
    }

    fn parse_generic_rest(
        &mut self,
        name: Cow<'a, str>,
        isolated: bool,
        loc: Location,
        base: usize,
    ) -> DiagResult<OpId> {
        if !self.eat(Tok::RParen) {
            loop {
                let u = self.parse_ssa_use()?;
                self.memo.use_stack.push((u.name, u.number, u.offset));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "expected ')' to end operand list")?;
        }
        let num_uses = self.memo.use_stack.len() - base;
        let mut state = OperationState::new(name.into_owned(), loc);
        if self.eat(Tok::LSquare) {
            loop {
                state.successors.push(self.parse_successor_ref()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "expected ']' to end successor list")?;
        }
        if self.eat(Tok::Less) {
            self.parse_dict_entries(&mut state.properties)?;
            self.expect(Tok::Greater, "expected '>' to close properties")?;
        }
        if self.eat(Tok::LParen) {
            loop {
                let r = self.parse_region_with(&[], isolated)?;
                state.regions.push(r);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "expected ')' to end region list")?;
        }
        if self.at(Tok::LBrace) {
            self.parse_dict_entries(&mut state.attributes)?;
        }
        self.expect(Tok::Colon, "expected ':' followed by operation type")?;
        let ty_off = self.tok.start;
        let fty = self.parse_type()?;
        let (num_inputs, results) = match self.ctx.type_data(fty) {
            TypeData::Function { inputs, results } => (inputs.len(), results.clone()),
            _ => return Err(self.err_at(ty_off, "expected function type")),
        };
        if num_inputs != num_uses {
            let s = if num_uses == 1 { "" } else { "s" };
            return Err(self.err_at(
                ty_off,
                format!("expected {num_uses} operand type{s} but had {num_inputs}"),
            ));
        }
        state.operands.reserve(num_uses);
        for i in 0..num_uses {
            let ty = match self.ctx.type_data(fty) {
                TypeData::Function { inputs, .. } => inputs[i],
                _ => unreachable!("checked above"),
            };
            let (name, number, offset) = self.memo.use_stack[base + i];
            let at = self.at_of(offset);
            let v = self.resolve_use(name, number, ty, at)?;
            state.operands.push(v);
        }
        state.result_types = results;
        let tl = self.parse_trailing_loc()?;
        Ok(self.finish_op(state, tl))
    }

    /// The name of a generic op and its traits when registered; an unknown op is an error unless
    /// unregistered dialects are allowed (and its dialect is not registered).
    fn check_op_name(&mut self, t: Token) -> DiagResult<(Cow<'a, str>, Option<OpTraits>)> {
        let name = self.string_value(t)?;
        let traits = self.ctx.lookup_op_info(&name).map(|i| i.traits);
        if traits.is_none() {
            let dialect = name.split_once('.').map(|(d, _)| d).unwrap_or("");
            if self.ctx.is_dialect_registered(dialect) || !self.ctx.allow_unregistered {
                return Err(self.err_at(
                    t.start,
                    format!("unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"),
                ));
            }
        }
        self.memo.ops.insert(self.text(t), (name.clone(), traits));
        Ok((name, traits))
    }

    /// `%name` or `%name#N`.
    fn parse_ssa_use(&mut self) -> DiagResult<SsaUse<'a>> {
        let t = self.expect(Tok::PercentIdent, "expected SSA operand")?;
        let number = self.parse_result_number()?;
        Ok(SsaUse {
            name: self.text(t),
            number,
            offset: t.start,
        })
    }

    /// An optional `#N` after a value name.
    pub(crate) fn parse_result_number(&mut self) -> DiagResult<u32> {
        if !self.at(Tok::HashIdent) {
            return Ok(0);
        }
        let t = self.bump();
        self.text(t)[1..]
            .parse::<u32>()
            .map_err(|_| self.err_at(t.start, "invalid SSA value result number"))
    }

    /// Resolves a use to a value of type `ty`; unknown names become forward references.
    pub(crate) fn resolve_use(
        &mut self,
        name: &'a str,
        number: u32,
        ty: Type,
        at: At,
    ) -> DiagResult<Value> {
        if let Some((v, prior_at)) = self.scopes.lookup(name, number) {
            let prior = self.ctx.value_type(v);
            if prior == ty {
                return Ok(v);
            }
            let use_loc = self.resolve_at(at);
            let prior_loc = self.resolve_at(prior_at);
            let msg = format!(
                "use of value '{name}' expects different type than prior uses: '{}' vs '{}'",
                super::type_to_string(self.ctx, ty),
                super::type_to_string(self.ctx, prior)
            );
            return Err(Diagnostic::error(use_loc, msg).with_note(prior_loc, "prior use here"));
        }
        Ok(self
            .scopes
            .forward(self.ctx, &self.lines, name, number, ty, at))
    }

    /// `^bb` in a successor position.
    pub(crate) fn parse_successor_ref(&mut self) -> DiagResult<BlockId> {
        let t = self.expect(Tok::CaretIdent, "expected block name")?;
        match self.scopes.block_ref(self.ctx, self.text(t), t.start) {
            Some(b) => Ok(b),
            None => Err(self.err_at(t.start, "block reference outside of a region")),
        }
    }

    /// A registered op's custom form: the op name, then its `parse` hook.
    fn parse_custom_op(&mut self, loc: Location, num_results: usize) -> DiagResult<OpId> {
        let t: Token = self.bump();
        let written = self.text(t);
        let mut op_name = self
            .ctx
            .lookup_op_name(written)
            .filter(|&n| self.ctx.op_name_info(n).is_some());
        // As MLIR: a name without `.` is looked up in the default dialect of the innermost
        // enclosing op that sets one (`return` in a `func.func`), builtin at the top level.
        let default_dialect = self.default_dialects.last().copied().unwrap_or("builtin");
        if op_name.is_none() && !written.contains('.') {
            let full = format!("{default_dialect}.{written}");
            op_name = self
                .ctx
                .lookup_op_name(&full)
                .filter(|&n| self.ctx.op_name_info(n).is_some());
        }
        let Some(op_name) = op_name else {
            let tried = match written.contains('.') {
                true => String::new(),
                false => format!(" (tried '{default_dialect}.{written}' as well)"),
            };
            return Err(self.err_at(t.start, format!("custom op '{written}' is unknown{tried}")));
        };
        let info = self.ctx.op_name_info(op_name).expect("filtered above");
        let (full, parse, inner_dialect) = (info.name, info.parse, info.default_dialect);
        let Some(parse) = parse else {
            return Err(self.err_at(
                t.start,
                format!("custom op '{written}' has no custom assembly form; use the generic form"),
            ));
        };
        let mut state = OperationState::new(full, loc);
        let saved = (self.cur_op, self.cur_num_results);
        self.cur_op = Some(op_name);
        self.cur_num_results = num_results;
        // An op that sets no default dialect keeps the enclosing one.
        self.default_dialects.push(if inner_dialect.is_empty() {
            default_dialect
        } else {
            inner_dialect
        });
        let r = parse(self, &mut state);
        self.default_dialects.pop();
        (self.cur_op, self.cur_num_results) = saved;
        r?;
        let tl = self.parse_trailing_loc()?;
        Ok(self.finish_op(state, tl))
    }

    // ----- regions and blocks -------------------------------------------------------------------

    /// `{ ... }`: a region whose entry block takes `args`; `isolated` starts a fresh name scope.
    pub(crate) fn parse_region_with(
        &mut self,
        args: &[EntryArg<'a>],
        isolated: bool,
    ) -> DiagResult<RegionId> {
        self.enter()?;
        let r = self.parse_region_inner(args, isolated);
        self.leave();
        r
    }

    fn parse_region_inner(
        &mut self,
        args: &[EntryArg<'a>],
        isolated: bool,
    ) -> DiagResult<RegionId> {
        let lbrace = self.tok.start;
        self.expect(Tok::LBrace, "expected '{' to begin a region")?;
        let region = self.ctx.create_region();
        if args.is_empty() && self.eat(Tok::RBrace) {
            return Ok(region);
        }
        self.scopes.push(region, isolated);
        let res = self.parse_region_body(region, args, lbrace);
        let undefined = self.scopes.pop_region();
        let unresolved = if self.scopes.isolated_done() {
            self.scopes.pop_isolated(self.ctx)
        } else {
            None
        };
        res?;
        if let Some(u) = undefined {
            return Err(self.err_at(
                u.offset,
                format!("reference to an undefined block '{}'", u.name),
            ));
        }
        if let Some((name, loc)) = unresolved {
            return Err(Diagnostic::error(
                loc,
                format!("use of undeclared SSA value name '{name}'"),
            ));
        }
        Ok(region)
    }

    fn parse_region_body(
        &mut self,
        region: RegionId,
        args: &[EntryArg<'a>],
        lbrace: usize,
    ) -> DiagResult<()> {
        if self.at(Tok::CaretIdent) {
            if !args.is_empty() {
                return Err(self.err("invalid block name in region with named arguments"));
            }
        } else {
            let block = self.ctx.create_block(&[]);
            self.ctx.append_block(region, block);
            for a in args {
                let v = self.ctx.add_block_arg(block, a.ty, a.loc);
                self.scopes
                    .define(self.ctx, &self.lines, a.name, 0, v, At::Loc(a.loc))?;
            }
            self.parse_block_ops(block, lbrace)?;
        }
        while self.at(Tok::CaretIdent) {
            self.parse_labeled_block(lbrace)?;
        }
        self.expect(Tok::RBrace, "expected '}' to end region")?;
        Ok(())
    }

    fn parse_block_ops(&mut self, block: BlockId, lbrace: usize) -> DiagResult<()> {
        loop {
            match self.tok.kind {
                Tok::RBrace | Tok::CaretIdent => return Ok(()),
                Tok::Eof => {
                    let open = self.loc_of(lbrace);
                    return Err(self
                        .err("unexpected end of file: expected '}' to end region")
                        .with_note(open, "region opened here"));
                }
                _ => {
                    let op = self.parse_operation()?;
                    self.ctx.append_op(block, op);
                }
            }
        }
    }

    /// `^bb1(%a: i32 loc(...), %b: f32):` followed by the block's ops.
    fn parse_labeled_block(&mut self, lbrace: usize) -> DiagResult<()> {
        let t = self.bump();
        let name = self.text(t);
        let block = match self.scopes.block_def(self.ctx, name, t.start) {
            Ok(b) => b,
            Err(prev) => {
                let prev_loc = self.loc_of(prev);
                return Err(self
                    .err_at(t.start, format!("redefinition of block '{name}'"))
                    .with_note(prev_loc, "previously defined here"));
            }
        };
        if self.eat(Tok::LParen) && !self.eat(Tok::RParen) {
            loop {
                let a = self.expect(
                    Tok::PercentIdent,
                    "expected SSA identifier in block argument list",
                )?;
                self.expect(Tok::Colon, "expected ':' and type for SSA value")?;
                let ty = self.parse_type()?;
                let spec = self.parse_optional_loc_spec()?;
                let loc = match spec {
                    Some(LocSpec::Loc(l)) => l,
                    _ => self.loc_of(a.start),
                };
                let def_at = if spec.is_some() {
                    self.at_of(a.start)
                } else {
                    At::Loc(loc)
                };
                let v = self.ctx.add_block_arg(block, ty, loc);
                if let Some(LocSpec::Deferred(n, off)) = spec {
                    self.deferred_locs.push((LocTarget::Arg(v), n, off));
                }
                self.scopes
                    .define(self.ctx, &self.lines, self.text(a), 0, v, def_at)?;
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "expected ')' to end block argument list")?;
        }
        self.expect(Tok::Colon, "expected ':' after block name")?;
        self.parse_block_ops(block, lbrace)
    }
}
