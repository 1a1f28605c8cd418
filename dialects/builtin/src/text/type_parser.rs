//! Type syntax: builtin types, function types, dialect types (through the dialect's hook, or kept
//! verbatim for unregistered dialects) and type aliases.

use super::lexer::{self, Tok};
use super::parser::Parser;
use super::shaped_type_parser::ShapedKind;
use crate::diagnostics::DiagResult;
use crate::entity::Type;
use crate::types::{FloatKind, Signedness, TypeData};

/// Widest integer type, as MLIR.
const MAX_INT_WIDTH: u64 = 16_777_215;

impl<'a, 'c> Parser<'a, 'c> {
    /// Whether a bare identifier names a builtin type.
    pub(crate) fn is_type_keyword(s: &str) -> bool {
        matches!(
            s,
            "index"
                | "f16"
                | "bf16"
                | "f32"
                | "f64"
                | "none"
                | "vector"
                | "tensor"
                | "memref"
                | "complex"
                | "tuple"
        ) || int_type_parts(s).is_some()
    }

    /// Whether the current token can start a type.
    pub(crate) fn at_type_start(&self) -> bool {
        match self.tok.kind {
            Tok::LParen | Tok::ExclaimIdent => true,
            Tok::BareIdent => Self::is_type_keyword(self.tok_text()),
            _ => false,
        }
    }

    pub(crate) fn parse_type(&mut self) -> DiagResult<Type> {
        // Fast path: a builtin type keyword seen before (no nesting involved).
        if self.tok.kind == Tok::BareIdent {
            if let Some(&ty) = self.memo.keyword_types.get(self.tok_text()) {
                self.bump();
                return Ok(ty);
            }
        }
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> DiagResult<Type> {
        match self.tok.kind {
            Tok::LParen => self.parse_function_type(),
            Tok::ExclaimIdent => self.parse_dialect_type(),
            Tok::BareIdent => {
                let t = self.tok;
                let text = self.tok_text();
                if let Some(&ty) = self.memo.keyword_types.get(text) {
                    self.bump();
                    return Ok(ty);
                }
                if let Some(kind) = ShapedKind::from_keyword(text) {
                    return self.parse_shaped_type(kind);
                }
                if text == "complex" || text == "tuple" {
                    return self.parse_complex_or_tuple();
                }
                let data = match text {
                    "index" => TypeData::Index,
                    "f16" => TypeData::Float(FloatKind::F16),
                    "bf16" => TypeData::Float(FloatKind::BF16),
                    "f32" => TypeData::Float(FloatKind::F32),
                    "f64" => TypeData::Float(FloatKind::F64),
                    "none" => TypeData::None,
                    _ => match int_type_parts(text) {
                        Some((signedness, digits)) => {
                            let width = digits.parse::<u64>().unwrap_or(u64::MAX);
                            if width > MAX_INT_WIDTH {
                                return Err(self.err_at(
                                    t.start,
                                    format!("integer bitwidth is limited to {MAX_INT_WIDTH} bits"),
                                ));
                            }
                            TypeData::Integer {
                                width: width as u32,
                                signedness,
                            }
                        }
                        None => return Err(self.err("expected non-function type")),
                    },
                };
                self.bump();
                let ty = self.ctx.intern_type(data);
                self.memo.keyword_types.insert(text, ty);
                Ok(ty)
            }
            _ => Err(self.err("expected type")),
        }
    }

    /// `(T, U) -> R` or `(T) -> (R, S)`. The component types are collected on a shared stack
    /// and the function type is memoized, so that a signature seen before allocates nothing.
    fn parse_function_type(&mut self) -> DiagResult<Type> {
        let base = self.memo.type_stack.len();
        let r = self.parse_function_type_parts(base);
        self.memo.type_stack.truncate(base);
        r
    }

    fn parse_function_type_parts(&mut self, base: usize) -> DiagResult<Type> {
        self.parse_paren_types()?;
        let n_in = self.memo.type_stack.len() - base;
        self.expect(Tok::Arrow, "expected '->' in function type")?;
        if self.at(Tok::LParen) {
            self.parse_paren_types()?;
        } else {
            let t = self.parse_type()?;
            self.memo.type_stack.push(t);
        }
        let tys = &self.memo.type_stack[base..];
        let key = &mut self.memo.fn_key;
        key.clear();
        key.push(n_in as u32);
        key.extend(tys.iter().map(|t| t.index() as u32));
        if let Some(&t) = self.memo.fn_types.get(key.as_slice()) {
            return Ok(t);
        }
        let (inputs, results) = tys.split_at(n_in);
        let t = self.ctx.function_type(inputs.to_vec(), results.to_vec());
        self.memo.fn_types.insert(key.clone(), t);
        Ok(t)
    }

    /// `(T, U)` pushed onto the type stack.
    fn parse_paren_types(&mut self) -> DiagResult<()> {
        self.expect(Tok::LParen, "expected '('")?;
        if self.eat(Tok::RParen) {
            return Ok(());
        }
        loop {
            let t = self.parse_type()?;
            self.memo.type_stack.push(t);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen, "expected ')' in type list")?;
        Ok(())
    }

    /// `!alias`, `!dialect.mnemonic<...>` or `!dialect<...>`.
    fn parse_dialect_type(&mut self) -> DiagResult<Type> {
        let t = self.tok;
        let ident = &self.tok_text()[1..];
        let trailing = self.src.as_bytes().get(t.end) == Some(&b'<');
        if !ident.contains('.') && !trailing {
            self.bump();
            return match self.type_aliases.get(ident) {
                Some(ty) => Ok(*ty),
                None => Err(self.err_at(t.start, format!("undefined symbol alias id '{ident}'"))),
            };
        }
        let (ns, mnemonic) = ident.split_once('.').unwrap_or((ident, ""));
        let hook = self.ctx.dialect(ns).map(|d| d.parse_type);
        match hook {
            Some(Some(parse)) => {
                if mnemonic.is_empty() {
                    return Err(self.err_at(t.start, "expected dialect type mnemonic after '.'"));
                }
                // The parser stands after `!dialect.mnemonic`; the hook parses the parameters.
                self.bump();
                let params = parse(self, mnemonic)?;
                let dialect = self.ctx.ident(ns);
                let mnemonic = self.ctx.ident(mnemonic);
                Ok(self.ctx.intern_type(TypeData::Dialect {
                    dialect,
                    mnemonic,
                    params,
                }))
            }
            Some(None) => Err(self.err_at(
                t.start,
                format!("dialect '{ns}' does not define types (in '!{ident}')"),
            )),
            None if self.ctx.allow_unregistered => {
                let body_start = t.start + 1 + ns.len() + (ident.len() > ns.len()) as usize;
                let mut end = t.end;
                if trailing {
                    end = lexer::scan_balanced(self.src.as_bytes(), t.end)
                        .map_err(|(off, msg)| self.err_at(off, msg))?;
                }
                self.reset_to(end);
                let body = self.src[body_start..end].to_string();
                let dialect = self.ctx.ident(ns);
                Ok(self.ctx.intern_type(TypeData::Opaque { dialect, body }))
            }
            None => Err(self.err_at(
                t.start,
                format!("unknown type '!{ident}': dialect '{ns}' is not registered"),
            )),
        }
    }
}

/// `i32` -> (Signless, "32"), `si8` -> (Signed, "8"), `ui1` -> (Unsigned, "1").
fn int_type_parts(s: &str) -> Option<(Signedness, &str)> {
    let (sign, digits) = if let Some(d) = s.strip_prefix("si") {
        (Signedness::Signed, d)
    } else if let Some(d) = s.strip_prefix("ui") {
        (Signedness::Unsigned, d)
    } else {
        (Signedness::Signless, s.strip_prefix('i')?)
    };
    (!digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())).then_some((sign, digits))
}
