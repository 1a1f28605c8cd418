//! The parser seen through `asm::AsmParser` / `asm::OpAsmParser`, for custom op syntax and dialect
//! type hooks.

use super::lexer::Tok;
use super::lines::At;
use super::op_parser::EntryArg;
use super::parser::Parser;
use crate::asm::{Argument, AsmParser, Delimiter, OpAsmParser, UnresolvedOperand};
use crate::context::Context;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::entity::*;
use crate::registry::{OpInfo, OpTraits};

fn punct_kind(p: &str) -> Option<Tok> {
    Some(match p {
        "(" => Tok::LParen,
        ")" => Tok::RParen,
        "{" => Tok::LBrace,
        "}" => Tok::RBrace,
        "[" => Tok::LSquare,
        "]" => Tok::RSquare,
        "<" => Tok::Less,
        ">" => Tok::Greater,
        "," => Tok::Comma,
        ":" => Tok::Colon,
        "=" => Tok::Equal,
        "->" => Tok::Arrow,
        "?" => Tok::Question,
        "*" => Tok::Star,
        "+" => Tok::Plus,
        "-" => Tok::Minus,
        "..." => Tok::Ellipsis,
        _ => return None,
    })
}

impl<'a, 'c> Parser<'a, 'c> {
    /// A comma-separated list within `delim`; `elem` returns None when no element starts here
    /// (allowed only for the first element of an undelimited list, which is then empty).
    fn parse_list<T>(
        &mut self,
        delim: Delimiter,
        mut elem: impl FnMut(&mut Self) -> DiagResult<Option<T>>,
        what: &str,
    ) -> DiagResult<Vec<T>> {
        let (open, close, optional) = match delim {
            Delimiter::None => (None, None, false),
            Delimiter::Paren => (Some(Tok::LParen), Some(Tok::RParen), false),
            Delimiter::OptionalParen => (Some(Tok::LParen), Some(Tok::RParen), true),
            Delimiter::Square => (Some(Tok::LSquare), Some(Tok::RSquare), false),
            Delimiter::OptionalSquare => (Some(Tok::LSquare), Some(Tok::RSquare), true),
            Delimiter::Braces => (Some(Tok::LBrace), Some(Tok::RBrace), false),
            Delimiter::Angle => (Some(Tok::Less), Some(Tok::Greater), false),
        };
        let mut out = Vec::new();
        if let (Some(open), Some(close)) = (open, close) {
            if optional && !self.at(open) {
                return Ok(out);
            }
            self.expect(open, "expected list delimiter")?;
            if self.eat(close) {
                return Ok(out);
            }
        }
        match elem(self)? {
            Some(x) => out.push(x),
            None if open.is_none() => return Ok(out),
            None => return Err(self.err(format!("expected {what}"))),
        }
        while self.eat(Tok::Comma) {
            match elem(self)? {
                Some(x) => out.push(x),
                None => return Err(self.err(format!("expected {what}"))),
            }
        }
        if let Some(close) = close {
            self.expect(close, "expected ',' or end of list")?;
        }
        Ok(out)
    }

    /// The `%name` text of a use this parser made.
    fn operand_text(&self, o: &UnresolvedOperand) -> &'a str {
        // Only this parser makes them, from its own text; the fallback is for a use carried over
        // from another text, which would otherwise slice out of bounds.
        self.src.get(o.start..o.end).unwrap_or("%<unknown>")
    }

    fn region_from_args(&mut self, args: &[Argument]) -> DiagResult<RegionId> {
        let mut entry = Vec::with_capacity(args.len());
        for a in args {
            let loc = self.operand_loc(&a.name);
            let Some(ty) = a.ty else {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "region argument '{}' needs a type",
                        self.operand_text(&a.name)
                    ),
                ));
            };
            entry.push(EntryArg {
                name: self.operand_text(&a.name),
                ty,
                loc,
            });
        }
        let isolated = self
            .cur_op
            .and_then(|n| self.ctx.op_name_info(n))
            .is_some_and(|i| i.has_trait(OpTraits::ISOLATED_FROM_ABOVE));
        self.parse_region_with(&entry, isolated)
    }
}

impl AsmParser for Parser<'_, '_> {
    fn ctx(&mut self) -> &mut Context {
        self.ctx
    }
    fn ctx_ref(&self) -> &Context {
        self.ctx
    }
    fn current_loc(&mut self) -> Location {
        self.tok_loc()
    }
    fn error(&mut self, message: &str) -> Diagnostic {
        self.err(message)
    }

    fn parse_punct(&mut self, p: &str) -> DiagResult<()> {
        if self.parse_optional_punct(p) {
            Ok(())
        } else {
            Err(self.err(format!("expected '{p}'")))
        }
    }
    fn parse_optional_punct(&mut self, p: &str) -> bool {
        punct_kind(p).is_some_and(|k| self.eat(k))
    }
    fn parse_keyword(&mut self, kw: &str) -> DiagResult<()> {
        if self.parse_optional_keyword(kw) {
            Ok(())
        } else {
            Err(self.err(format!("expected '{kw}'")))
        }
    }
    fn parse_optional_keyword(&mut self, kw: &str) -> bool {
        if self.at_keyword(kw) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn parse_any_keyword(&mut self) -> DiagResult<String> {
        self.parse_optional_any_keyword()
            .ok_or_else(|| self.err("expected keyword"))
    }
    fn parse_optional_any_keyword(&mut self) -> Option<String> {
        if self.at(Tok::BareIdent) {
            let t = self.bump();
            Some(self.text(t).to_string())
        } else {
            None
        }
    }
    fn parse_integer(&mut self) -> DiagResult<i64> {
        match self.parse_optional_integer()? {
            Some(v) => Ok(v),
            None => Err(self.err("expected integer value")),
        }
    }
    fn parse_optional_integer(&mut self) -> DiagResult<Option<i64>> {
        let start = self.tok.start;
        let neg = self.at(Tok::Minus);
        if !(self.at(Tok::Integer) || neg && self.peek().kind == Tok::Integer) {
            return Ok(None);
        }
        if neg {
            self.bump();
        }
        let t = self.bump();
        let v = self.int_magnitude(t).and_then(|m| match neg {
            true if m <= 1 << 63 => Some((m as i128).wrapping_neg() as i64),
            false if m <= i64::MAX as u128 => Some(m as i64),
            _ => None,
        });
        match v {
            Some(v) => Ok(Some(v)),
            None => Err(self.err_at(start, "integer value too large")),
        }
    }
    fn parse_float(&mut self) -> DiagResult<f64> {
        let lit = self.parse_number()?;
        let v = if lit.tok.kind == Tok::Float {
            self.text(lit.tok)
                .parse::<f64>()
                .map_err(|_| self.err_at(lit.start, "invalid floating point literal"))?
        } else {
            match self.int_magnitude(lit.tok) {
                Some(m) => m as f64,
                None => return Err(self.err_at(lit.start, "integer value too large")),
            }
        };
        Ok(if lit.neg { -v } else { v })
    }
    fn parse_string(&mut self) -> DiagResult<String> {
        if !self.at(Tok::String) {
            return Err(self.err("expected string"));
        }
        let t = self.bump();
        Ok(self.string_value(t)?.into_owned())
    }
    fn parse_symbol_name(&mut self) -> DiagResult<String> {
        if !self.at(Tok::AtIdent) {
            return Err(self.err("expected symbol name"));
        }
        let t = self.bump();
        Ok(self.symbol_name(t)?.into_owned())
    }
    fn parse_optional_symbol_name(&mut self) -> Option<String> {
        if !self.at(Tok::AtIdent) {
            return None;
        }
        let save = self.tok;
        let t = self.bump();
        match self.symbol_name(t) {
            Ok(s) => Some(s.into_owned()),
            Err(_) => {
                // Not UTF-8: leave it for the caller's next expectation to report.
                self.tok = save;
                None
            }
        }
    }
    fn parse_type(&mut self) -> DiagResult<Type> {
        Parser::parse_type(self)
    }
    fn parse_optional_type(&mut self) -> DiagResult<Option<Type>> {
        if self.at_type_start() {
            Parser::parse_type(self).map(Some)
        } else {
            Ok(None)
        }
    }
    fn parse_attribute(&mut self, ty: Option<Type>) -> DiagResult<Attribute> {
        self.parse_attr(ty)
    }
    fn parse_optional_attr_dict(&mut self, out: &mut Vec<(Ident, Attribute)>) -> DiagResult<()> {
        if self.at(Tok::LBrace) {
            self.parse_dict_entries(out)?;
        }
        Ok(())
    }
    fn parse_dimension_list(&mut self, allow_dynamic: bool) -> DiagResult<Vec<Option<i64>>> {
        // Character level: the lexer sees `4x10xf32` as `4` and `x10xf32`.
        let b = self.src.as_bytes();
        let at = |i: usize| b.get(i).copied().unwrap_or(0);
        let mut pos = self.tok.start;
        let mut dims = Vec::new();
        loop {
            if at(pos) == b'?' && at(pos + 1) == b'x' {
                if !allow_dynamic {
                    return Err(self.err_at(pos, "expected static shape"));
                }
                dims.push(None);
                pos += 2;
                continue;
            }
            let mut end = pos;
            while at(end).is_ascii_digit() {
                end += 1;
            }
            if end == pos || at(end) != b'x' {
                break;
            }
            match self.src[pos..end].parse::<i64>() {
                Ok(n) => dims.push(Some(n)),
                Err(_) => return Err(self.err_at(pos, "invalid dimension")),
            }
            pos = end + 1;
        }
        if pos != self.tok.start {
            self.reset_to(pos);
        }
        Ok(dims)
    }
}

impl OpAsmParser for Parser<'_, '_> {
    fn num_results(&self) -> usize {
        self.cur_num_results
    }
    fn op_info(&self) -> Option<&OpInfo> {
        self.cur_op.and_then(|n| self.ctx.op_name_info(n))
    }
    fn parse_operand(&mut self) -> DiagResult<UnresolvedOperand> {
        match self.parse_optional_operand()? {
            Some(o) => Ok(o),
            None => Err(self.err("expected SSA operand")),
        }
    }
    fn parse_optional_operand(&mut self) -> DiagResult<Option<UnresolvedOperand>> {
        if !self.at(Tok::PercentIdent) {
            return Ok(None);
        }
        let t = self.bump();
        let number = self.parse_result_number()?;
        Ok(Some(UnresolvedOperand {
            start: t.start,
            end: t.end,
            number,
            loc: None,
        }))
    }
    fn parse_operand_list(&mut self, delim: Delimiter) -> DiagResult<Vec<UnresolvedOperand>> {
        self.parse_list(delim, |p| p.parse_optional_operand(), "SSA operand")
    }
    fn resolve_operand(&mut self, operand: &UnresolvedOperand, ty: Type) -> DiagResult<Value> {
        let at = match operand.loc {
            Some(l) => At::Loc(l),
            None => self.at_of(operand.start),
        };
        self.resolve_use(self.operand_text(operand), operand.number, ty, at)
    }
    fn operand_loc(&mut self, operand: &UnresolvedOperand) -> Location {
        match operand.loc {
            Some(l) => l,
            None => self.loc_of(operand.start),
        }
    }
    fn parse_argument(&mut self, with_type: bool) -> DiagResult<Argument> {
        match self.parse_optional_argument(with_type)? {
            Some(a) => Ok(a),
            None => Err(self.err("expected SSA identifier")),
        }
    }
    fn parse_optional_argument(&mut self, with_type: bool) -> DiagResult<Option<Argument>> {
        if !self.at(Tok::PercentIdent) {
            return Ok(None);
        }
        let t = self.bump();
        let ty = if with_type {
            self.expect(Tok::Colon, "expected ':' and type for SSA value")?;
            Some(Parser::parse_type(self)?)
        } else {
            None
        };
        let loc = self.parse_optional_loc_now()?;
        Ok(Some(Argument {
            name: UnresolvedOperand {
                start: t.start,
                end: t.end,
                number: 0,
                loc,
            },
            ty,
        }))
    }
    fn parse_argument_list(
        &mut self,
        delim: Delimiter,
        with_type: bool,
    ) -> DiagResult<Vec<Argument>> {
        self.parse_list(
            delim,
            |p| p.parse_optional_argument(with_type),
            "SSA identifier",
        )
    }
    fn parse_region(&mut self, args: &[Argument]) -> DiagResult<RegionId> {
        self.region_from_args(args)
    }
    fn parse_optional_region(&mut self, args: &[Argument]) -> DiagResult<Option<RegionId>> {
        if self.at(Tok::LBrace) {
            self.region_from_args(args).map(Some)
        } else {
            Ok(None)
        }
    }
    fn parse_successor(&mut self) -> DiagResult<BlockId> {
        self.parse_successor_ref()
    }
    fn parse_optional_location(&mut self) -> DiagResult<Option<Location>> {
        self.parse_optional_loc_now()
    }
}
