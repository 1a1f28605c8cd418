//! Location syntax: `loc(...)` after ops and block arguments, and location aliases.

use super::lexer::Tok;
use super::parser::{Alias, LocSpec, Parser};
use crate::diagnostics::DiagResult;
use crate::entity::Location;
use crate::location::LocData;

impl<'a, 'c> Parser<'a, 'c> {
    /// `loc(...)` when present (the current token is `loc` followed by `(`).
    pub(crate) fn parse_optional_loc_spec(&mut self) -> DiagResult<Option<LocSpec<'a>>> {
        if self.at_keyword("loc") && self.peek().kind == Tok::LParen {
            return self.parse_loc_spec().map(Some);
        }
        Ok(None)
    }

    /// An optional trailing `loc(...)` that must resolve now (no forward alias).
    pub(crate) fn parse_optional_loc_now(&mut self) -> DiagResult<Option<Location>> {
        match self.parse_optional_loc_spec()? {
            None => Ok(None),
            Some(LocSpec::Loc(l)) => Ok(Some(l)),
            Some(LocSpec::Deferred(n, off)) => {
                Err(self.err_at(off, format!("undefined symbol alias id '{n}'")))
            }
        }
    }

    /// `loc(` location `)`; a lone alias not yet defined is deferred.
    pub(crate) fn parse_loc_spec(&mut self) -> DiagResult<LocSpec<'a>> {
        self.bump(); // `loc`
        self.expect(Tok::LParen, "expected '(' in location")?;
        let spec = if self.at(Tok::HashIdent) && self.peek().kind == Tok::RParen {
            let t = self.bump();
            let name = &self.text(t)[1..];
            match self.attr_aliases.get(name) {
                Some(Alias::Loc(l)) => LocSpec::Loc(*l),
                Some(Alias::Attr(_)) => {
                    return Err(self.err_at(t.start, format!("'#{name}' is not a location alias")))
                }
                None => LocSpec::Deferred(name, t.start),
            }
        } else {
            LocSpec::Loc(self.parse_loc_inst()?)
        };
        self.expect(Tok::RParen, "expected ')' in location")?;
        Ok(spec)
    }

    /// A location instance: `unknown`, `"file":l:c`, `"name"`, `"name"(loc)`, `fused[...]`,
    /// `fused<attr>[...]`, `callsite(loc at loc)`, `#alias`.
    pub(crate) fn parse_loc_inst(&mut self) -> DiagResult<Location> {
        self.enter()?;
        let r = self.parse_loc_inst_inner();
        self.leave();
        r
    }

    fn parse_loc_inst_inner(&mut self) -> DiagResult<Location> {
        match self.tok.kind {
            Tok::BareIdent if self.at_keyword("unknown") => {
                self.bump();
                Ok(self.ctx.unknown_loc())
            }
            Tok::BareIdent if self.at_keyword("fused") => {
                self.bump();
                let metadata = if self.eat(Tok::Less) {
                    let a = self.parse_attr(None)?;
                    self.expect(Tok::Greater, "expected '>' after fused location metadata")?;
                    Some(a)
                } else {
                    None
                };
                self.expect(Tok::LSquare, "expected '[' in fused location")?;
                let mut locs = Vec::new();
                if !self.eat(Tok::RSquare) {
                    loop {
                        locs.push(self.parse_loc_inst()?);
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RSquare, "expected ']' in fused location")?;
                }
                Ok(self.ctx.intern_loc(LocData::Fused { locs, metadata }))
            }
            Tok::BareIdent if self.at_keyword("callsite") => {
                self.bump();
                self.expect(Tok::LParen, "expected '(' in callsite location")?;
                let callee = self.parse_loc_inst()?;
                if !self.at_keyword("at") {
                    return Err(self.err("expected 'at' in callsite location"));
                }
                self.bump();
                let caller = self.parse_loc_inst()?;
                self.expect(Tok::RParen, "expected ')' in callsite location")?;
                Ok(self.ctx.intern_loc(LocData::CallSite { callee, caller }))
            }
            Tok::String => {
                let t = self.bump();
                let s = self.string_value(t)?;
                if self.eat(Tok::Colon) {
                    let line = self.parse_loc_number("line")?;
                    self.expect(Tok::Colon, "expected ':' in FileLineColLoc")?;
                    let col = self.parse_loc_number("column")?;
                    let file = self.ctx.ident(&s);
                    return Ok(self
                        .ctx
                        .intern_loc(LocData::FileLineCol { file, line, col }));
                }
                let name = self.ctx.ident(&s);
                let child = if self.eat(Tok::LParen) {
                    let c = self.parse_loc_inst()?;
                    self.expect(Tok::RParen, "expected ')' after child location of NameLoc")?;
                    // `"name"(unknown)` is `"name"`, as in MLIR (an unknown child is no child).
                    (!matches!(self.ctx.loc_data(c), LocData::Unknown)).then_some(c)
                } else {
                    None
                };
                Ok(self.ctx.intern_loc(LocData::Name { name, child }))
            }
            Tok::HashIdent => {
                let t = self.bump();
                let name = &self.text(t)[1..];
                match self.attr_aliases.get(name) {
                    Some(Alias::Loc(l)) => Ok(*l),
                    Some(Alias::Attr(_)) => {
                        Err(self.err_at(t.start, format!("'#{name}' is not a location alias")))
                    }
                    None => {
                        Err(self.err_at(t.start, format!("undefined symbol alias id '{name}'")))
                    }
                }
            }
            _ => Err(self.err("expected location instance")),
        }
    }

    fn parse_loc_number(&mut self, what: &str) -> DiagResult<u32> {
        if !self.at(Tok::Integer) {
            return Err(self.err(format!("expected integer {what} number in FileLineColLoc")));
        }
        let t = self.bump();
        self.text(t).parse::<u32>().map_err(|_| {
            self.err_at(
                t.start,
                format!("expected integer {what} number in FileLineColLoc"),
            )
        })
    }
}
