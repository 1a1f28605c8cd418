//! Syntax of the memref layouts: `strided<[4, ?], offset: ?>` and affine maps
//! `affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>` (any identifiers name the dims and symbols;
//! they print as `d<i>` and `s<i>`).

use super::lexer::Tok;
use super::parser::Parser;
use crate::affine_map::{AffineExpr, AffineMap, AffineOp};
use crate::attributes::AttrData;
use crate::diagnostics::DiagResult;
use crate::entity::Attribute;
use crate::shaped_types::DYNAMIC;

impl<'a, 'c> Parser<'a, 'c> {
    /// `strided<[s, ...]>` or `strided<[s, ...], offset: o>` (the current token is `strided`).
    pub(crate) fn parse_strided(&mut self) -> DiagResult<Attribute> {
        self.bump();
        self.expect(Tok::Less, "expected '<' after 'strided'")?;
        self.expect(Tok::LSquare, "expected '['")?;
        let mut strides = Vec::new();
        if !self.eat(Tok::RSquare) {
            loop {
                strides.push(self.parse_stride_value()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "expected ']'")?;
        }
        let mut offset = 0;
        if self.eat(Tok::Comma) {
            if !self.at_keyword("offset") {
                return Err(self.err("expected 'offset' after comma"));
            }
            self.bump();
            self.expect(Tok::Colon, "expected ':' after 'offset'")?;
            offset = self.parse_stride_value()?;
        }
        self.expect(Tok::Greater, "expected '>'")?;
        Ok(self.ctx.intern_attr(AttrData::Strided { strides, offset }))
    }

    /// `?` or an integer (possibly negative) of the i64 range, other than the `?` marker.
    fn parse_stride_value(&mut self) -> DiagResult<i64> {
        if self.eat(Tok::Question) {
            return Ok(DYNAMIC);
        }
        let start = self.tok.start;
        let neg = self.eat(Tok::Minus);
        if !self.at(Tok::Integer) {
            return Err(self.err("expected a 64-bit signed integer or '?'"));
        }
        let t = self.bump();
        let text = self.text(t);
        let v = text
            .parse::<i64>()
            .ok()
            .map(|v| if neg { -v } else { v })
            .filter(|&v| v != DYNAMIC);
        v.ok_or_else(|| self.err_at(start, "expected a 64-bit signed integer or '?'"))
    }

    /// `affine_map<(d0, d1)[s0] -> (exprs)>` (the current token is `affine_map`).
    pub(crate) fn parse_affine_map_attr(&mut self) -> DiagResult<Attribute> {
        self.bump();
        self.expect(Tok::Less, "expected '<' in affine map")?;
        let map = self.parse_affine_map()?;
        self.expect(Tok::Greater, "expected '>' in affine map")?;
        Ok(self.ctx.intern_attr(AttrData::AffineMap(map)))
    }

    fn parse_affine_map(&mut self) -> DiagResult<AffineMap> {
        let mut names: Vec<(&'a str, AffineExpr)> = Vec::new();
        let num_dims = self.parse_affine_ids(Tok::LParen, Tok::RParen, &mut names, true)?;
        let num_symbols = if self.at(Tok::LSquare) {
            self.parse_affine_ids(Tok::LSquare, Tok::RSquare, &mut names, false)?
        } else {
            0
        };
        self.expect(Tok::Arrow, "expected '->' or '['")?;
        self.expect(Tok::LParen, "expected '(' at start of affine map range")?;
        let mut results = Vec::new();
        if !self.eat(Tok::RParen) {
            loop {
                results.push(self.parse_affine_expr(&names)?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "expected ')' at end of affine map range")?;
        }
        Ok(AffineMap {
            num_dims,
            num_symbols,
            results,
        })
    }

    /// `(a, b)` or `[s]`: binds each name to the next dim or symbol; returns how many.
    fn parse_affine_ids(
        &mut self,
        open: Tok,
        close: Tok,
        names: &mut Vec<(&'a str, AffineExpr)>,
        dims: bool,
    ) -> DiagResult<u32> {
        self.expect(open, if dims { "expected '('" } else { "expected '['" })?;
        let mut n = 0u32;
        if self.eat(close) {
            return Ok(0);
        }
        loop {
            if !self.at(Tok::BareIdent) {
                return Err(self.err("expected bare identifier"));
            }
            let t = self.bump();
            let name = self.text(t);
            if names.iter().any(|(k, _)| *k == name) {
                return Err(self.err_at(t.start, format!("redefinition of identifier '{name}'")));
            }
            names.push((
                name,
                if dims {
                    AffineExpr::Dim(n)
                } else {
                    AffineExpr::Symbol(n)
                },
            ));
            n += 1;
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(close, "expected ')' or ']' after identifier list")?;
        Ok(n)
    }

    /// A sum: products separated by `+` and `-`.
    fn parse_affine_expr(&mut self, names: &[(&'a str, AffineExpr)]) -> DiagResult<AffineExpr> {
        self.enter()?;
        let r = self.parse_affine_sum(names);
        self.leave();
        r
    }

    fn parse_affine_sum(&mut self, names: &[(&'a str, AffineExpr)]) -> DiagResult<AffineExpr> {
        let mut lhs = self.parse_affine_product(names)?;
        loop {
            if self.eat(Tok::Plus) {
                let rhs = self.parse_affine_product(names)?;
                lhs = AffineExpr::sum(lhs, rhs);
            } else if self.at(Tok::Minus) {
                self.bump();
                let off = self.tok.start;
                let rhs = self.parse_affine_product(names)?;
                let neg = self.affine_mul(off, rhs, AffineExpr::Const(-1))?;
                lhs = AffineExpr::sum(lhs, neg);
            } else {
                return Ok(lhs);
            }
        }
    }

    fn parse_affine_product(&mut self, names: &[(&'a str, AffineExpr)]) -> DiagResult<AffineExpr> {
        let mut lhs = self.parse_affine_operand(names)?;
        loop {
            let op = if self.at(Tok::Star) {
                AffineOp::Mul
            } else if self.at_keyword("floordiv") {
                AffineOp::FloorDiv
            } else if self.at_keyword("ceildiv") {
                AffineOp::CeilDiv
            } else if self.at_keyword("mod") {
                AffineOp::Mod
            } else {
                return Ok(lhs);
            };
            let op_off = self.tok.start;
            self.bump();
            let rhs = self.parse_affine_operand(names)?;
            lhs = if op == AffineOp::Mul {
                self.affine_mul(op_off, lhs, rhs)?
            } else {
                let what = match op {
                    AffineOp::FloorDiv => "floordiv",
                    AffineOp::CeilDiv => "ceildiv",
                    _ => "mod",
                };
                AffineExpr::div_like(op, lhs, rhs).ok_or_else(|| {
                    self.err_at(
                        op_off,
                        format!("non-affine expression: right operand of {what} has to be either a constant or symbolic"),
                    )
                })?
            };
        }
    }

    fn affine_mul(&mut self, off: usize, l: AffineExpr, r: AffineExpr) -> DiagResult<AffineExpr> {
        AffineExpr::product(l, r).ok_or_else(|| {
            self.err_at(
                off,
                "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
            )
        })
    }

    /// `-operand`, `(sum)`, an integer or a bound identifier.
    fn parse_affine_operand(&mut self, names: &[(&'a str, AffineExpr)]) -> DiagResult<AffineExpr> {
        match self.tok.kind {
            Tok::Minus => {
                let off = self.tok.start;
                self.bump();
                let e = self.parse_affine_operand(names)?;
                self.affine_mul(off, e, AffineExpr::Const(-1))
            }
            Tok::LParen => {
                self.bump();
                let e = self.parse_affine_expr(names)?;
                self.expect(Tok::RParen, "expected ')'")?;
                Ok(e)
            }
            Tok::Integer => {
                let t = self.bump();
                self.text(t)
                    .parse::<i64>()
                    .map(AffineExpr::Const)
                    .map_err(|_| self.err_at(t.start, "constant too large for index"))
            }
            Tok::BareIdent => {
                let t = self.bump();
                let name = self.text(t);
                match names.iter().find(|(k, _)| *k == name) {
                    Some((_, e)) => Ok(e.clone()),
                    None => Err(self.err_at(t.start, "use of undeclared identifier")),
                }
            }
            _ => Err(self.err("expected affine expression")),
        }
    }
}
