//! Attribute syntax: literals (range-checked against their type), arrays, dictionaries, symbol
//! references, dense arrays, dialect attributes and attribute aliases.

use super::float_fmt;
use super::lexer::{self, Tok, Token};
use super::parser::{Alias, Parser, MEMO_LIMIT};
use crate::apint;
use crate::attributes::{AttrData, TypedAttr};
use crate::diagnostics::DiagResult;
use crate::entity::*;
use crate::types::{FloatKind, Signedness, TypeData};
use std::borrow::Cow;

/// Widest integer attribute value (the types go to MLIR's 16777215 bits).
pub(crate) const MAX_VALUE_WIDTH: u32 = 1 << 16;

/// A numeric literal: optional `-`, then an integer or float token.
pub(crate) struct NumLit {
    pub neg: bool,
    pub tok: Token,
    /// Offset of the `-` or of the literal.
    pub start: usize,
}

/// What a literal may become, by type.
enum NumKind {
    Int { width: u32, sign: Signedness },
    Float(FloatKind),
    Other,
}

/// Sign-extends `value` from `width` bits, as `Context::integer_attr` stores it.
pub(crate) fn wrap_to_width(value: i64, width: u32) -> i64 {
    match width {
        0 => 0,
        w if w < 64 => (value << (64 - w)) >> (64 - w),
        _ => value,
    }
}

impl<'a, 'c> Parser<'a, 'c> {
    pub(crate) fn parse_attr(&mut self, ty: Option<Type>) -> DiagResult<Attribute> {
        self.enter()?;
        let r = self.parse_attr_inner(ty);
        self.leave();
        r
    }

    fn parse_attr_inner(&mut self, ty: Option<Type>) -> DiagResult<Attribute> {
        match self.tok.kind {
            Tok::Integer | Tok::Float | Tok::Minus => {
                let lit = self.parse_number()?;
                let ty = match ty {
                    Some(t) => t,
                    None if self.eat(Tok::Colon) => self.parse_type()?,
                    None if lit.tok.kind == Tok::Float => self.ctx.f64_type(),
                    None => self.ctx.i64_type(),
                };
                // Constants recur (`0 : i32`, `4 : i64`): memoize by spelling and type.
                let text = &self.src[lit.start..lit.tok.end];
                if let Some(&a) = self.memo.numbers.get(&(text, ty)) {
                    return Ok(a);
                }
                let a = self.number_attr(&lit, ty)?;
                if self.memo.numbers.len() < MEMO_LIMIT {
                    self.memo.numbers.insert((text, ty), a);
                }
                Ok(a)
            }
            Tok::String => {
                let t = self.bump();
                if let Some(&a) = self.memo.strings.get(self.text(t)) {
                    return Ok(a);
                }
                let s = self.string_value(t)?;
                let a = self.ctx.string_attr(&s);
                if self.memo.strings.len() < MEMO_LIMIT {
                    self.memo.strings.insert(self.text(t), a);
                }
                Ok(a)
            }
            Tok::LSquare => {
                self.bump();
                let mut elems = Vec::new();
                if !self.eat(Tok::RSquare) {
                    loop {
                        elems.push(self.parse_attr(None)?);
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RSquare, "expected ']' to close an array attribute")?;
                }
                Ok(self.ctx.array_attr(elems))
            }
            Tok::LBrace => {
                let mut entries = Vec::new();
                self.parse_dict_entries(&mut entries)?;
                Ok(self.ctx.dict_attr(entries))
            }
            Tok::AtIdent => self.parse_symbol_ref(),
            Tok::HashIdent => self.parse_hash_attr(),
            Tok::ExclaimIdent | Tok::LParen => {
                let t = self.parse_type()?;
                Ok(self.ctx.type_attr(t))
            }
            Tok::BareIdent => match self.tok_text() {
                "unit" => {
                    self.bump();
                    Ok(self.ctx.unit_attr())
                }
                "true" | "false" => {
                    let b = self.bump();
                    Ok(self.ctx.bool_attr(self.text(b) == "true"))
                }
                "array" if self.peek().kind == Tok::Less => self.parse_dense_array(),
                "dense" if self.peek().kind == Tok::Less => self.parse_dense_attr(ty),
                "strided" if self.peek().kind == Tok::Less => self.parse_strided(),
                "affine_map" if self.peek().kind == Tok::Less => self.parse_affine_map_attr(),
                kw if Self::is_type_keyword(kw) => {
                    let t = self.parse_type()?;
                    Ok(self.ctx.type_attr(t))
                }
                _ => Err(self.err("expected attribute value")),
            },
            _ => Err(self.err("expected attribute value")),
        }
    }

    /// `{key = value, flag, "quoted key" = value}`; appends the entries to `out`.
    pub(crate) fn parse_dict_entries(
        &mut self,
        out: &mut Vec<(Ident, Attribute)>,
    ) -> DiagResult<()> {
        self.expect(Tok::LBrace, "expected '{' in attribute dictionary")?;
        let base = out.len();
        if self.eat(Tok::RBrace) {
            return Ok(());
        }
        loop {
            let key_tok = self.tok;
            let key: Cow<'a, str> = match self.tok.kind {
                Tok::BareIdent => Cow::Borrowed(self.tok_text()),
                Tok::String => self.string_value(key_tok)?,
                _ => return Err(self.err("expected attribute name")),
            };
            if key.is_empty() {
                return Err(self.err("expected valid attribute name"));
            }
            self.bump();
            let id = match self.memo.idents.get(self.text(key_tok)) {
                Some(&id) => id,
                None => {
                    let id = self.ctx.ident(&key);
                    self.memo.idents.insert(self.text(key_tok), id);
                    id
                }
            };
            if out[base..].iter().any(|(k, _)| *k == id) {
                return Err(self.err_at(
                    key_tok.start,
                    format!("duplicate key '{key}' in dictionary attribute"),
                ));
            }
            let value = if self.eat(Tok::Equal) {
                self.parse_attr(None)?
            } else {
                self.ctx.unit_attr()
            };
            out.push((id, value));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace, "expected '}' in attribute dictionary")?;
        Ok(())
    }

    /// The name of an `@name` / `@"name"` token.
    pub(crate) fn symbol_name(&mut self, t: Token) -> DiagResult<Cow<'a, str>> {
        let text = &self.text(t)[1..];
        if text.starts_with('"') {
            lexer::unescape(text)
                .ok_or_else(|| self.err_at(t.start, "string literal is not valid UTF-8"))
        } else {
            Ok(Cow::Borrowed(text))
        }
    }

    /// `@a` or `@a::@b::@c`.
    fn parse_symbol_ref(&mut self) -> DiagResult<Attribute> {
        let t = self.bump();
        let root = self.symbol_name(t)?;
        let root = self.ctx.ident(&root);
        let mut nested = Vec::new();
        while self.at(Tok::Colon) && self.src.as_bytes().get(self.tok.end) == Some(&b':') {
            self.bump();
            self.bump();
            if !self.at(Tok::AtIdent) {
                return Err(self.err("expected nested symbol reference identifier"));
            }
            let t = self.bump();
            let n = self.symbol_name(t)?;
            nested.push(self.ctx.ident(&n));
        }
        Ok(self.ctx.intern_attr(AttrData::SymbolRef { root, nested }))
    }

    /// `#alias`, `#dialect.body`, `#dialect.body<...>` or `#dialect<...>`.
    fn parse_hash_attr(&mut self) -> DiagResult<Attribute> {
        let t = self.bump();
        let ident = &self.text(t)[1..];
        let trailing = self.src.as_bytes().get(t.end) == Some(&b'<');
        if !ident.contains('.') && !trailing {
            return match self.attr_aliases.get(ident) {
                Some(Alias::Attr(a)) => Ok(*a),
                Some(Alias::Loc(_)) => Err(self.err_at(
                    t.start,
                    format!("'#{ident}' is a location alias, not an attribute"),
                )),
                None => Err(self.err_at(t.start, format!("undefined symbol alias id '{ident}'"))),
            };
        }
        let (ns, body_start) = match ident.split_once('.') {
            Some((ns, _)) => (ns, t.start + 1 + ns.len() + 1),
            None => (ident, t.start + 1 + ident.len()),
        };
        let mut end = t.end;
        if trailing {
            end = lexer::scan_balanced(self.src.as_bytes(), t.end)
                .map_err(|(off, msg)| self.err_at(off, msg))?;
            self.reset_to(end);
        }
        let body = &self.src[body_start..end];
        let full = &self.src[t.start..end];
        if let Some(&a) = self.memo.dialect_attrs.get(full) {
            return Ok(a);
        }
        let hook = self.ctx.dialect(ns).map(|d| d.parse_attr);
        let a = match hook {
            // Parsed once here; consumers read the typed value, never the text.
            Some(Some(parse)) => match parse(self.ctx, body) {
                Ok(v) if v.dialect() == ns => self
                    .ctx
                    .intern_attr(AttrData::Typed(TypedAttr::from_boxed(v))),
                Ok(v) => {
                    let m = format!(
                        "dialect '{ns}' parsed '{full}' as an attribute of dialect '{}'",
                        v.dialect()
                    );
                    return Err(self.err_at(t.start, m));
                }
                Err(m) => return Err(self.err_at(t.start, m)),
            },
            _ if self.ctx.allow_unregistered => self.opaque_dialect_attr(ns, body),
            Some(None) => {
                return Err(self.err_at(
                    t.start,
                    format!("dialect '{ns}' does not define attribute '{full}'"),
                ))
            }
            None => {
                return Err(self.err_at(
                    t.start,
                    format!("attribute '{full}' of unregistered dialect '{ns}'"),
                ))
            }
        };
        if self.memo.dialect_attrs.len() < MEMO_LIMIT {
            self.memo.dialect_attrs.insert(full, a);
        }
        Ok(a)
    }

    /// `#ns.body` kept as text.
    fn opaque_dialect_attr(&mut self, ns: &str, body: &str) -> Attribute {
        let dialect = self.ctx.ident(ns);
        self.ctx.intern_attr(AttrData::Dialect {
            dialect,
            body: body.to_string(),
        })
    }

    /// `array<i32: 1, 2>`, `array<f32: 1.5>`, `array<i64>`.
    fn parse_dense_array(&mut self) -> DiagResult<Attribute> {
        self.bump(); // `array`
        self.expect(Tok::Less, "expected '<' after 'array'")?;
        let ty_off = self.tok.start;
        let elem = self.parse_type()?;
        let kind = self.num_kind(elem);
        if matches!(kind, NumKind::Other) {
            let s = super::type_to_string(self.ctx, elem);
            return Err(self.err_at(
                ty_off,
                format!("expected integer or float type in dense array, got '{s}'"),
            ));
        }
        let mut ints = Vec::new();
        let mut floats = Vec::new();
        if self.eat(Tok::Colon) {
            loop {
                match kind {
                    NumKind::Int { width, sign } => {
                        let v = if self.at_keyword("true") || self.at_keyword("false") {
                            let t = self.bump();
                            (self.text(t) == "true") as i64
                        } else {
                            let lit = self.parse_number()?;
                            self.int_value(&lit, width, sign)?
                        };
                        ints.push(wrap_to_width(v, width));
                    }
                    NumKind::Float(k) => {
                        let lit = self.parse_number()?;
                        floats.push(self.float_value(&lit, k)?.to_bits());
                    }
                    NumKind::Other => unreachable!("checked above"),
                }
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::Greater, "expected '>' to close an array attribute")?;
        let data = match kind {
            NumKind::Float(_) => AttrData::DenseFloatArray {
                elem,
                values: floats,
            },
            _ => AttrData::DenseIntArray { elem, values: ints },
        };
        Ok(self.ctx.intern_attr(data))
    }

    // ----- numbers ----------------------------------------------------------------------------

    pub(crate) fn parse_number(&mut self) -> DiagResult<NumLit> {
        let start = self.tok.start;
        let neg = self.eat(Tok::Minus);
        if !matches!(self.tok.kind, Tok::Integer | Tok::Float) {
            return Err(self.err(if neg {
                "expected integer or float literal after '-'"
            } else {
                "expected integer or float literal"
            }));
        }
        let tok = self.bump();
        Ok(NumLit { neg, tok, start })
    }

    /// The magnitude of an integer token (decimal or hex); None when it does not fit 128 bits.
    pub(crate) fn int_magnitude(&self, t: Token) -> Option<u128> {
        let text = self.text(t);
        match text.strip_prefix("0x") {
            Some(hex) => u128::from_str_radix(hex, 16).ok(),
            None => text.parse::<u128>().ok(),
        }
    }

    fn num_kind(&self, ty: Type) -> NumKind {
        match self.ctx.type_data(ty) {
            TypeData::Integer { width, signedness } => NumKind::Int {
                width: *width,
                sign: *signedness,
            },
            TypeData::Index => NumKind::Int {
                width: 64,
                sign: Signedness::Signed,
            },
            TypeData::Float(k) => NumKind::Float(*k),
            _ => NumKind::Other,
        }
    }

    /// An attribute from a numeric literal and its type, range-checked.
    pub(crate) fn number_attr(&mut self, lit: &NumLit, ty: Type) -> DiagResult<Attribute> {
        match self.num_kind(ty) {
            NumKind::Int { width, sign } if width > 64 => {
                self.check_value_width(lit.start, ty)?;
                let words = self.int_words(lit, width, sign)?;
                Ok(match apint::to_i64(&words) {
                    Some(v) => self.ctx.integer_attr(v, ty),
                    None => self.ctx.intern_attr(AttrData::WideInteger { words, ty }),
                })
            }
            NumKind::Int { width, sign } => {
                let v = self.int_value(lit, width, sign)?;
                if width == 0 {
                    // `Context::integer_attr` cannot wrap to zero bits.
                    return Ok(self.ctx.intern_attr(AttrData::Integer { value: 0, ty }));
                }
                Ok(self.ctx.integer_attr(v, ty))
            }
            NumKind::Float(k) => {
                let v = self.float_value(lit, k)?;
                Ok(self.ctx.float_attr(v, ty))
            }
            NumKind::Other => {
                let s = super::type_to_string(self.ctx, ty);
                Err(self.err_at(
                    lit.start,
                    format!("numeric literal not valid for type '{s}'"),
                ))
            }
        }
    }

    /// The value of an integer literal for an integer type of `width` bits (index: signed 64),
    /// as the two's complement i64 that `Context::integer_attr` then wraps to the width.
    pub(crate) fn int_value(
        &mut self,
        lit: &NumLit,
        width: u32,
        sign: Signedness,
    ) -> DiagResult<i64> {
        if lit.tok.kind == Tok::Float {
            return Err(self.err_at(
                lit.start,
                "floating point value not valid for specified type",
            ));
        }
        let oor = "integer constant out of range for attribute";
        let Some(mag) = self.int_magnitude(lit.tok) else {
            return Err(self.err_at(lit.start, oor));
        };
        if sign == Signedness::Unsigned && lit.neg && mag != 0 {
            return Err(self.err_at(
                lit.tok.start,
                "negative integer literal not valid for unsigned integer type",
            ));
        }
        if width == 0 {
            return if mag == 0 {
                Ok(0)
            } else {
                Err(self.err_at(lit.start, oor))
            };
        }
        // Values are stored in 64 bits: wider types take the i64 (u64 when unsigned) range.
        let w = width.min(64);
        let half: u128 = 1u128 << (w - 1);
        let (max_pos, max_neg) = match sign {
            Signedness::Signed => (half - 1, half),
            Signedness::Signless if width > 64 => (half - 1, half),
            Signedness::Signless => ((half << 1) - 1, half),
            Signedness::Unsigned => ((half << 1) - 1, 0),
        };
        if lit.neg {
            if mag > max_neg {
                return Err(self.err_at(lit.start, oor));
            }
            Ok((mag as i128).wrapping_neg() as i64)
        } else {
            if mag > max_pos {
                return Err(self.err_at(lit.start, oor));
            }
            Ok(mag as u64 as i64)
        }
    }

    /// Integer values (not types) are limited to [`MAX_VALUE_WIDTH`] bits: printing one in
    /// decimal takes time quadratic in its width.
    pub(crate) fn check_value_width(&mut self, offset: usize, ty: Type) -> DiagResult<()> {
        let width = self.ctx.type_data(ty).bit_width().unwrap_or(0);
        if width > MAX_VALUE_WIDTH {
            let t = super::type_to_string(self.ctx, ty);
            return Err(self.err_at(
                offset,
                format!("integer values wider than {MAX_VALUE_WIDTH} bits are not supported (type '{t}')"),
            ));
        }
        Ok(())
    }

    /// The value of an integer literal for an integer type of any `width`, as its two's
    /// complement words (`apint`): signed types take `-2^(w-1) .. 2^(w-1) - 1`, unsigned
    /// `0 .. 2^w - 1`, signless both.
    pub(crate) fn int_words(
        &mut self,
        lit: &NumLit,
        width: u32,
        sign: Signedness,
    ) -> DiagResult<Vec<u64>> {
        if lit.tok.kind == Tok::Float {
            return Err(self.err_at(
                lit.start,
                "floating point value not valid for specified type",
            ));
        }
        let oor = "integer constant out of range for attribute";
        let zero = self.text(lit.tok).trim_start_matches(['0', 'x']).is_empty();
        if sign == Signedness::Unsigned && lit.neg && !zero {
            return Err(self.err_at(
                lit.tok.start,
                "negative integer literal not valid for unsigned integer type",
            ));
        }
        let Some(mag) = apint::parse_magnitude(self.text(lit.tok), width) else {
            return Err(self.err_at(lit.start, oor));
        };
        let bits = apint::active_bits(&mag);
        let fits = match (lit.neg, sign) {
            // Up to 2^(w-1): exactly 2^(w-1) has one active bit at w-1 and no other.
            (true, _) => bits < width || (bits == width && mag_is_pow2(&mag)),
            (false, Signedness::Signed) => bits < width,
            (false, _) => bits <= width,
        };
        if !(fits || (width == 0 && bits == 0)) {
            return Err(self.err_at(lit.start, oor));
        }
        let mut words = mag;
        if lit.neg {
            words.resize(apint::num_words(width), 0);
            apint::negate(&mut words);
        }
        apint::normalize(&mut words, width);
        Ok(words)
    }

    /// The value of a literal for a float type: a decimal float, or hex bits (`0x7FC00000`).
    pub(crate) fn float_value(&mut self, lit: &NumLit, kind: FloatKind) -> DiagResult<f64> {
        let text = self.text(lit.tok);
        if lit.tok.kind == Tok::Integer {
            if !text.starts_with("0x") {
                let d = self.err_at(
                    lit.start,
                    "unexpected decimal integer literal for a floating point value",
                );
                let loc = d.loc;
                return Err(d.with_note(loc, "add a trailing dot to make the literal a float"));
            }
            if lit.neg {
                return Err(self.err_at(
                    lit.tok.start,
                    "hexadecimal float literal should not have a leading minus",
                ));
            }
            return self
                .int_magnitude(lit.tok)
                .and_then(|bits| float_fmt::from_bits(kind, bits))
                .ok_or_else(|| {
                    self.err_at(
                        lit.start,
                        "hexadecimal float constant out of range for type",
                    )
                });
        }
        let v = float_fmt::parse_decimal(kind, text)
            .ok_or_else(|| self.err_at(lit.start, "invalid floating point literal"))?;
        Ok(if lit.neg { -v } else { v })
    }
}

/// Whether an unsigned magnitude is a power of two.
fn mag_is_pow2(mag: &[u64]) -> bool {
    mag.iter().map(|w| w.count_ones()).sum::<u32>() == 1
}
