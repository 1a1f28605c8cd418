//! Syntax of dense elements attributes, as MLIR's TensorLiteralParser: `dense<1.0>` (a splat),
//! `dense<[[1, 2], [3, 4]]>`, `dense<>`, `dense<"0x0000803F">` (raw little-endian data), each
//! followed by `: type` unless the type is given. The literal is read first, then converted once
//! its type is known.

use super::attr_parser::NumLit;
use super::lexer::Tok;
use super::parser::Parser;
use crate::attributes::AttrData;
use crate::dense::{bytes_for, bytes_to_words, words_to_bytes, DenseElements};
use crate::diagnostics::DiagResult;
use crate::entity::{Attribute, Type};
use crate::float::f64_to_native;
use crate::shaped_types::num_elements;
use crate::types::{Signedness, TypeData};

/// One element of a literal.
enum Elem {
    Num(NumLit),
    Bool(bool, usize),
    /// `(re, im)` of a complex element.
    Complex(Box<Elem>, Box<Elem>),
}

/// What was written between `dense<` and `>`.
enum Literal {
    Empty,
    Hex(usize),
    /// Elements and, for a list, its shape (a scalar has none: a splat).
    Elems(Vec<Elem>, Option<Vec<i64>>),
}

/// Most bytes the elements of a literal may take (a short list of very wide integers could ask
/// for far more than its text).
const MAX_DATA_BYTES: usize = 1 << 28;

/// Most elements a hex literal may fill: bounds what a hostile type (`tensor<99999999999x...>`)
/// can make us allocate.
const MAX_ELEMENTS: u64 = 1 << 28;

impl<'a, 'c> Parser<'a, 'c> {
    /// `dense<...> : type` (the current token is `dense`); `ty` is a type given by the context.
    pub(crate) fn parse_dense_attr(&mut self, ty: Option<Type>) -> DiagResult<Attribute> {
        let kw = self.bump();
        self.expect(Tok::Less, "expected '<' after 'dense'")?;
        let lit = if self.at(Tok::Greater) {
            Literal::Empty
        } else if self.at(Tok::String) {
            let t = self.bump();
            Literal::Hex(t.start)
        } else {
            let mut elems = Vec::new();
            let shape = if self.at(Tok::LSquare) {
                Some(self.parse_literal_list(&mut elems)?)
            } else {
                elems.push(self.parse_literal_element()?);
                None
            };
            Literal::Elems(elems, shape)
        };
        self.expect(Tok::Greater, "expected '>'")?;
        let ty = match ty {
            Some(t) => t,
            None => {
                self.expect(Tok::Colon, "expected ':'")?;
                self.parse_type()?
            }
        };
        let td = self.ctx.type_data(ty);
        let shape = match td.shape() {
            Some(s) if s.iter().all(|&d| d >= 0) => s.to_vec(),
            _ if td.is_shaped() => {
                return Err(self.err_at(kw.start, "elements literal type must have static shape"))
            }
            _ => return Err(self.err_at(kw.start, "elements literal must be a shaped type")),
        };
        let elem = td.element_type().expect("shaped");
        let bits = match self.ctx.type_data(elem) {
            TypeData::Integer { width, .. } => {
                let w = *width;
                self.check_value_width(kw.start, elem)?;
                w
            }
            TypeData::Index => 64,
            TypeData::Float(k) => k.width(),
            // Two parts of whole bytes each (complex<i1> and the like have no byte layout here).
            TypeData::Complex(inner) => match self.ctx.type_data(*inner).bit_width() {
                Some(w) if w % 8 == 0 => 2 * w,
                _ => {
                    let s = super::type_to_string(self.ctx, elem);
                    return Err(self.err_at(
                        kw.start,
                        format!("dense elements of type '{s}' are not supported"),
                    ));
                }
            },
            _ => {
                let s = super::type_to_string(self.ctx, elem);
                return Err(self.err_at(
                    kw.start,
                    format!("dense elements of type '{s}' are not supported (integer, index or float elements only)"),
                ));
            }
        };
        // A splat fills any shape without storing it; a hex string must fit memory.
        let count = num_elements(&shape);
        let data = match lit {
            Literal::Empty => {
                if count != Some(0) {
                    return Err(self.err_at(
                        kw.start,
                        format!(
                            "parsed zero elements, but type ('{}') expected at least 1",
                            super::type_to_string(self.ctx, ty)
                        ),
                    ));
                }
                Vec::new()
            }
            Literal::Hex(off) => match count.filter(|&n| n <= MAX_ELEMENTS) {
                Some(n) => self.dense_hex_data(off, kw.start, ty, bits, n as usize)?,
                None => {
                    return Err(self.err_at(
                        kw.start,
                        format!("elements literal type has more than {MAX_ELEMENTS} elements"),
                    ))
                }
            },
            Literal::Elems(elems, list_shape) => {
                if let Some(s) = &list_shape {
                    // An empty list stands for any shape with no elements (`[[]]`, `[]`).
                    let empty = elems.is_empty() && count == Some(0);
                    if *s != shape && !empty {
                        return Err(self.err_at(
                            kw.start,
                            format!(
                                "inferred shape of elements literal ({}) does not match type ({})",
                                shape_text(s),
                                shape_text(&shape)
                            ),
                        ));
                    }
                }
                if elems.len().saturating_mul(bytes_for(bits)) > MAX_DATA_BYTES {
                    return Err(self.err_at(
                        kw.start,
                        format!("elements literal holds more than {MAX_DATA_BYTES} bytes"),
                    ));
                }
                let mut data = Vec::with_capacity(elems.len() * bytes_for(bits));
                if let TypeData::Complex(inner) = self.ctx.type_data(elem).clone() {
                    self.check_complex_elements(kw.start, &elems, list_shape.is_some(), ty, elem)?;
                    let part = bits / 2;
                    for e in &elems {
                        if let Elem::Complex(re, im) = e {
                            self.dense_element(re, inner, part, &mut data)?;
                            self.dense_element(im, inner, part, &mut data)?;
                        }
                    }
                } else {
                    for e in &elems {
                        self.dense_element(e, elem, bits, &mut data)?;
                    }
                }
                data
            }
        };
        let d = DenseElements::new(ty, bits, data);
        Ok(self.ctx.intern_attr(AttrData::DenseElements(d)))
    }

    /// `[e, ...]` or `[[...], ...]`: appends the elements, returns the shape.
    fn parse_literal_list(&mut self, elems: &mut Vec<Elem>) -> DiagResult<Vec<i64>> {
        self.enter()?;
        let r = self.parse_literal_list_inner(elems);
        self.leave();
        r
    }

    fn parse_literal_list_inner(&mut self, elems: &mut Vec<Elem>) -> DiagResult<Vec<i64>> {
        self.bump(); // `[`
        let mut size = 0i64;
        let mut inner: Option<Vec<i64>> = None;
        if !self.eat(Tok::RSquare) {
            loop {
                let dims = if self.at(Tok::LSquare) {
                    self.parse_literal_list(elems)?
                } else {
                    elems.push(self.parse_literal_element()?);
                    Vec::new()
                };
                size += 1;
                if inner.as_ref().is_some_and(|d| *d != dims) {
                    return Err(self.err(
                        "tensor literal is invalid; ranks are not consistent between elements",
                    ));
                }
                inner = Some(dims);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "expected ']'")?;
        }
        let mut shape = vec![size];
        shape.extend(inner.unwrap_or_default());
        Ok(shape)
    }

    fn parse_literal_element(&mut self) -> DiagResult<Elem> {
        if self.eat(Tok::LParen) {
            let re = self.parse_literal_element()?;
            self.expect(Tok::Comma, "expected ','")?;
            let im = self.parse_literal_element()?;
            self.expect(Tok::RParen, "expected ')'")?;
            return Ok(Elem::Complex(Box::new(re), Box::new(im)));
        }
        if self.at_keyword("true") || self.at_keyword("false") {
            let t = self.bump();
            return Ok(Elem::Bool(self.text(t) == "true", t.start));
        }
        if matches!(self.tok.kind, Tok::Integer | Tok::Float | Tok::Minus) {
            return Ok(Elem::Num(self.parse_number()?));
        }
        Err(self.err("expected element literal of primitive type"))
    }

    /// Every element of a complex literal is a `(re, im)` pair: MLIR counts parts otherwise
    /// (`parsed 3 elements, but type (...) expected 4 elements`).
    fn check_complex_elements(
        &mut self,
        kw: usize,
        elems: &[Elem],
        list: bool,
        ty: Type,
        elem: Type,
    ) -> DiagResult<()> {
        if elems.iter().all(|e| matches!(e, Elem::Complex(..))) {
            return Ok(());
        }
        let parts: usize = elems
            .iter()
            .map(|e| if matches!(e, Elem::Complex(..)) { 2 } else { 1 })
            .sum();
        let (shown, expected) = if list {
            (ty, 2 * elems.len())
        } else {
            (elem, 2)
        };
        let t = super::type_to_string(self.ctx, shown);
        Err(self.err_at(
            kw,
            format!("parsed {parts} elements, but type ('{t}') expected {expected} elements"),
        ))
    }

    /// Appends one element's bytes.
    fn dense_element(
        &mut self,
        e: &Elem,
        elem: Type,
        bits: u32,
        out: &mut Vec<u8>,
    ) -> DiagResult<()> {
        let kind = self.ctx.type_data(elem).clone();
        match (e, kind) {
            (Elem::Bool(b, _), TypeData::Integer { width: 1, .. }) => out.push(*b as u8),
            (Elem::Bool(_, off), TypeData::Integer { .. } | TypeData::Index) => {
                return Err(self.err_at(*off, "expected i1 type for 'true' or 'false' values"))
            }
            (Elem::Complex(..), _) => {
                let t = super::type_to_string(self.ctx, elem);
                return Err(self.err_at(
                    self.tok.start,
                    format!("complex value for the non-complex element type '{t}'"),
                ));
            }
            (Elem::Bool(_, off), _) => {
                return Err(
                    self.err_at(*off, "expected floating point elements, but parsed boolean")
                )
            }
            (Elem::Num(lit), TypeData::Float(k)) => {
                let v = self.float_value(lit, k)?;
                let b = f64_to_native(k, v);
                words_to_bytes(&[b], bits, out);
            }
            (Elem::Num(lit), TypeData::Integer { width, signedness }) => {
                if lit.tok.kind == Tok::Float {
                    return Err(self.err_at(
                        lit.start,
                        "expected integer elements, but parsed floating-point",
                    ));
                }
                if signedness == Signedness::Unsigned && lit.neg {
                    return Err(self.err_at(
                        lit.tok.start,
                        "expected unsigned integer elements, but parsed negative value",
                    ));
                }
                let words = self
                    .int_words(lit, width, signedness)
                    .map_err(out_of_range)?;
                words_to_bytes(&words, bits, out);
            }
            (Elem::Num(lit), _) => {
                if lit.tok.kind == Tok::Float {
                    return Err(self.err_at(
                        lit.start,
                        "expected integer elements, but parsed floating-point",
                    ));
                }
                let words = self
                    .int_words(lit, 64, Signedness::Signed)
                    .map_err(out_of_range)?;
                words_to_bytes(&words, bits, out);
            }
        }
        Ok(())
    }

    /// The data of `"0x..."`: all elements, or one (a splat); i1 elements packed eight to a byte
    /// (a single 0x00 or 0xFF byte is a splat).
    fn dense_hex_data(
        &mut self,
        off: usize,
        kw: usize,
        ty: Type,
        bits: u32,
        count: usize,
    ) -> DiagResult<Vec<u8>> {
        let t = super::lexer::lex(self.src.as_bytes(), off);
        let text = self.string_value(t)?;
        let hex = text.strip_prefix("0x").unwrap_or("");
        if !text.starts_with("0x")
            || hex.len() % 2 != 0
            || !hex.bytes().all(|c| c.is_ascii_hexdigit())
        {
            return Err(self.err_at(
                off,
                "expected string containing hex digits starting with `0x`",
            ));
        }
        let raw: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(0))
            .collect();
        let invalid = format!(
            "elements hex data size is invalid for provided type: '{}'",
            super::type_to_string(self.ctx, ty)
        );
        if bits == 1 {
            if raw.len() == 1 && (raw[0] == 0 || raw[0] == 0xFF) {
                return Ok(vec![raw[0] & 1]);
            }
            if raw.len() != count.div_ceil(8) {
                return Err(self.err_at(kw, invalid));
            }
            return Ok((0..count).map(|i| (raw[i / 8] >> (i % 8)) & 1).collect());
        }
        let n = bytes_for(bits);
        if raw.len() != n * count && raw.len() != n {
            return Err(self.err_at(kw, invalid));
        }
        // Bits above the width in each element's last byte are dropped, as the type holds none.
        let mut data = Vec::with_capacity(raw.len());
        for chunk in raw.chunks(n) {
            words_to_bytes(&bytes_to_words(chunk), bits, &mut data);
        }
        Ok(data)
    }
}

/// The element's range error as MLIR words it for elements.
fn out_of_range(mut d: crate::diagnostics::Diagnostic) -> crate::diagnostics::Diagnostic {
    d.message = "integer constant out of range for type".to_string();
    d
}

/// `[2, 1]` as MLIR writes shapes in messages.
fn shape_text(shape: &[i64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(", "))
}
