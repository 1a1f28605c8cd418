//! The text of a size expression and its attribute `#adstack.size<EXPR>`.
//!
//! ```text
//! expr  := term (('+' | '-') term)*            left-associative; '-' saturates at 0
//! term  := atom (('*' | '/') atom)*             '/' rounds up; its divisor is a positive literal
//! atom  := INT                                 a literal, e.g. 7 or -3
//!        | 'v' N                               a bound variable
//!        | '@' SYMBOL '[' [expr (',' expr)*] ']' ':' TYPE    a field element (TYPE: i8 i16 i32
//!        | 'arg' N '[' expr (',' expr)* ']' ':' TYPE         i64 ui8 ui16 ui32); an ndarray
//!        | 'arg' N '.shape' '[' N ']'                        element; an ndarray dimension;
//!        | 'arg' N ':' TYPE                                  an integer scalar argument
//!        | 'max' '(' expr ',' expr ')' | 'min' '(' expr ',' expr ')'
//!        | 'max' '(' expr 'for' 'v' N 'in' 'range' '(' expr ',' expr ')' ')'
//!        | 'sum' '(' expr 'for' 'v' N 'in' 'range' '(' expr ',' expr ')' ')'
//!        | 'select' '(' expr ('<' | '<=' | '==' | '!=') expr ',' expr ',' expr ')'
//!        | '(' expr ')'
//! ```
//!
//! `SYMBOL` is a bare MLIR symbol name (`[A-Za-z_$.][A-Za-z0-9_$.]*`) or a quoted string. The
//! printer emits the fewest parentheses that keep the tree: `a - (b + c)`, `(a + b) * c`. Text
//! and node list round-trip exactly: `parse(print(e)) == e`.

use super::expr::{SizeExpr, MAX_DEPTH};
use super::node::{BinOp, CmpPred, IntTy, Node, NodeId};
use qd_ir::{Attribute, Context, DialectAttr};
use std::fmt;

/// The adstack dialect's name, as attributes spell it.
pub const DIALECT: &str = "adstack";
/// The attribute's mnemonic: `#adstack.size<...>`.
pub const MNEMONIC: &str = "size";

/// A syntax error: a message and the byte offset in the expression text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at offset {})", self.message, self.offset)
    }
}

// ----- attribute --------------------------------------------------------------------------

/// `#adstack.size<EXPR>` is a typed attribute: parsed once (by [`parse_attr`]) into the SizeExpr
/// that the Context interns, and printed back from it.
impl DialectAttr for SizeExpr {
    fn dialect(&self) -> &'static str {
        DIALECT
    }
    fn print(&self, out: &mut String) {
        out.push_str(MNEMONIC);
        out.push('<');
        write_node(self, self.root(), 0, out);
        out.push('>');
    }
}

impl SizeExpr {
    /// The attribute `#adstack.size<self>` (equal expressions share one attribute).
    pub fn to_attr(&self, ctx: &mut Context) -> Attribute {
        ctx.typed_attr(self.clone())
    }

    /// The expression of an `#adstack.size<...>` attribute, as the Context holds it.
    pub fn from_attr(ctx: &Context, attr: Attribute) -> Result<&SizeExpr, String> {
        ctx.dialect_attr::<SizeExpr>(attr).ok_or_else(|| {
            format!(
                "expected a #{DIALECT}.{MNEMONIC}<...> attribute, got {}",
                qd_ir::text::attr_to_string(ctx, attr)
            )
        })
    }
}

/// Parses the body of an adstack attribute (the text after `#adstack.`): `size<EXPR>`.
pub fn parse_attr_body(body: &str) -> Result<SizeExpr, String> {
    let inner = body
        .strip_prefix(MNEMONIC)
        .and_then(|r| r.strip_prefix('<'))
        .and_then(|r| r.strip_suffix('>'))
        .ok_or_else(|| {
            format!("unknown {DIALECT} attribute '#{DIALECT}.{body}' (expected #{DIALECT}.{MNEMONIC}<...>)")
        })?;
    SizeExpr::parse(inner).map_err(|e| format!("invalid #{DIALECT}.{MNEMONIC}: {e}"))
}

/// The adstack dialect's attribute parse hook (`DialectDef::parse_attr`).
pub fn parse_attr(_: &Context, body: &str) -> Result<Box<dyn DialectAttr>, String> {
    Ok(Box::new(parse_attr_body(body)?))
}

// ----- printing ---------------------------------------------------------------------------

impl fmt::Display for SizeExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_node(self, self.root(), 0, &mut out);
        f.write_str(&out)
    }
}

/// Precedence: sums 1, products 2, atoms 3.
fn prec(n: &Node) -> u8 {
    match n {
        Node::Binary(BinOp::Add | BinOp::Sub, ..) => 1,
        Node::Binary(BinOp::Mul | BinOp::Div, ..) => 2,
        _ => 3,
    }
}

fn write_node(e: &SizeExpr, id: NodeId, min_prec: u8, out: &mut String) {
    let n = e.node(id);
    let paren = prec(n) < min_prec;
    if paren {
        out.push('(');
    }
    match n {
        Node::Const(c) => out.push_str(&c.to_string()),
        Node::BoundVar(v) => out.push_str(&format!("v{v}")),
        Node::NdarrayShape { arg, axis } => out.push_str(&format!("arg{arg}.shape[{axis}]")),
        Node::ScalarArg { arg, ty } => out.push_str(&format!("arg{arg}:{}", ty.name())),
        Node::FieldLoad { field, ty, indices } => {
            out.push('@');
            write_symbol(field, out);
            write_indices(e, indices, out);
            out.push(':');
            out.push_str(ty.name());
        }
        Node::NdarrayRead { arg, ty, indices } => {
            out.push_str(&format!("arg{arg}"));
            write_indices(e, indices, out);
            out.push(':');
            out.push_str(ty.name());
        }
        Node::Select {
            pred,
            lhs,
            rhs,
            then,
            other,
        } => {
            out.push_str("select(");
            write_node(e, *lhs, 0, out);
            out.push(' ');
            out.push_str(pred.symbol());
            out.push(' ');
            write_node(e, *rhs, 0, out);
            out.push_str(", ");
            write_node(e, *then, 0, out);
            out.push_str(", ");
            write_node(e, *other, 0, out);
            out.push(')');
        }
        Node::Binary(op @ (BinOp::Max | BinOp::Min), a, b) => {
            out.push_str(if *op == BinOp::Max { "max(" } else { "min(" });
            write_node(e, *a, 0, out);
            out.push_str(", ");
            write_node(e, *b, 0, out);
            out.push(')');
        }
        Node::Binary(op, a, b) => {
            let (p, sym) = match op {
                BinOp::Add => (1, " + "),
                BinOp::Sub => (1, " - "),
                BinOp::Div => (2, " / "),
                _ => (2, " * "),
            };
            write_node(e, *a, p, out);
            out.push_str(sym);
            write_node(e, *b, p + 1, out);
        }
        Node::MaxOverRange {
            var,
            begin,
            end,
            body,
        }
        | Node::SumOverRange {
            var,
            begin,
            end,
            body,
        } => {
            out.push_str(super::expr::range_word(n));
            out.push('(');
            write_node(e, *body, 0, out);
            out.push_str(&format!(" for v{var} in range("));
            write_node(e, *begin, 0, out);
            out.push_str(", ");
            write_node(e, *end, 0, out);
            out.push_str("))");
        }
    }
    if paren {
        out.push(')');
    }
}

fn write_indices(e: &SizeExpr, indices: &[NodeId], out: &mut String) {
    out.push('[');
    for (k, &i) in indices.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        write_node(e, i, 0, out);
    }
    out.push(']');
}

fn is_bare_symbol(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || "_$.".contains(c))
        && cs.all(|c| c.is_ascii_alphanumeric() || "_$.".contains(c))
}

fn write_symbol(s: &str, out: &mut String) {
    if is_bare_symbol(s) {
        out.push_str(s);
        return;
    }
    out.push('"');
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:02X}")),
        }
    }
    out.push('"');
}

// ----- parsing ----------------------------------------------------------------------------

impl SizeExpr {
    /// Parses an expression (the text between `#adstack.size<` and `>`), then checks it as
    /// [`SizeExpr::validate`] does.
    pub fn parse(text: &str) -> Result<SizeExpr, ParseError> {
        let mut p = Parser {
            s: text.as_bytes(),
            pos: 0,
            depth: 0,
        };
        let (e, _) = p.expr()?;
        p.skip_ws();
        if p.pos != p.s.len() {
            return Err(p.err("expected '+', '-', '*', '/' or the end of the expression"));
        }
        e.validate()
            .map_err(|message| ParseError { offset: 0, message })?;
        Ok(e)
    }
}

/// A parsed sub-expression and its depth.
type Parsed = (SizeExpr, usize);

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, m: impl Into<String>) -> ParseError {
        ParseError {
            offset: self.pos,
            message: m.into(),
        }
    }

    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), ParseError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(format!("expected '{}'", c as char)))
        }
    }

    /// An identifier `[A-Za-z_][A-Za-z0-9_]*`, or None (nothing consumed).
    fn ident(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.pos;
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_')
        {
            if self.pos == start && self.s[self.pos].is_ascii_digit() {
                break;
            }
            self.pos += 1;
        }
        (self.pos > start).then(|| String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
    }

    fn keyword(&mut self, kw: &str) -> Result<(), ParseError> {
        let at = self.pos;
        match self.ident() {
            Some(w) if w == kw => Ok(()),
            _ => {
                self.pos = at;
                Err(self.err(format!("expected '{kw}'")))
            }
        }
    }

    /// A decimal integer, with an optional leading '-'.
    fn int(&mut self) -> Result<i64, ParseError> {
        self.skip_ws();
        let start = self.pos;
        if self.s.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let digits = self.pos;
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        if self.pos == digits {
            self.pos = start;
            return Err(self.err("expected an integer"));
        }
        let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
        text.parse::<i64>().map_err(|_| ParseError {
            offset: start,
            message: format!("integer {text} does not fit in i64"),
        })
    }

    /// The number after a `v` or `arg` prefix (`v12` -> 12).
    fn suffix_number(
        &self,
        word: &str,
        prefix: &str,
        at: usize,
    ) -> Option<Result<u32, ParseError>> {
        let rest = word.strip_prefix(prefix)?;
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(rest.parse::<u32>().map_err(|_| ParseError {
            offset: at,
            message: format!("'{word}' is out of range"),
        }))
    }

    /// Checks the depth of a node built from operands of depths `ds` (the tree must stay within
    /// [`MAX_DEPTH`] while it is built, so that long chains cannot make parsing quadratic).
    fn node_depth(&self, ds: &[usize]) -> Result<usize, ParseError> {
        let d = 1 + ds.iter().copied().max().unwrap_or(0);
        if d > MAX_DEPTH {
            return Err(self.err(format!("expression nests deeper than {MAX_DEPTH}")));
        }
        Ok(d)
    }

    fn expr(&mut self) -> Result<Parsed, ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(format!("expression nests deeper than {MAX_DEPTH}")));
        }
        let mut lhs = self.term()?;
        loop {
            let op = if self.eat(b'+') {
                BinOp::Add
            } else if self.eat(b'-') {
                BinOp::Sub
            } else {
                break;
            };
            let rhs = self.term()?;
            let d = self.node_depth(&[lhs.1, rhs.1])?;
            lhs = (SizeExpr::binary(op, &lhs.0, &rhs.0), d);
        }
        self.depth -= 1;
        Ok(lhs)
    }

    fn term(&mut self) -> Result<Parsed, ParseError> {
        let mut lhs = self.atom()?;
        loop {
            let op = if self.eat(b'*') {
                BinOp::Mul
            } else if self.eat(b'/') {
                BinOp::Div
            } else {
                break;
            };
            let rhs = self.atom()?;
            let d = self.node_depth(&[lhs.1, rhs.1])?;
            lhs = (SizeExpr::binary(op, &lhs.0, &rhs.0), d);
        }
        Ok(lhs)
    }

    fn atom(&mut self) -> Result<Parsed, ParseError> {
        match self.peek() {
            None => Err(self.err("expected an expression")),
            Some(b'(') => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(b')')?;
                Ok(e)
            }
            Some(b'-' | b'0'..=b'9') => Ok((SizeExpr::constant(self.int()?), 1)),
            Some(b'@') => {
                self.pos += 1;
                let field = self.symbol()?;
                let (indices, ds) = self.index_list(true)?;
                let ty = self.elem_type()?;
                let d = self.node_depth(&ds)?;
                Ok((SizeExpr::field_load(&field, ty, &indices), d))
            }
            Some(_) => {
                let at = self.pos;
                let word = self
                    .ident()
                    .ok_or_else(|| self.err("expected an expression"))?;
                if let Some(v) = self.suffix_number(&word, "v", at) {
                    return Ok((SizeExpr::bound_var(v?), 1));
                }
                if let Some(arg) = self.suffix_number(&word, "arg", at) {
                    return self.ndarray(arg?);
                }
                match word.as_str() {
                    "max" => self.max_form(),
                    "select" => self.select_form(),
                    "sum" => {
                        self.expect(b'(')?;
                        let body = self.expr()?;
                        self.keyword("for")?;
                        self.range_form(body, SizeExpr::sum_over_range_raw)
                    }
                    "min" => {
                        self.expect(b'(')?;
                        let a = self.expr()?;
                        self.expect(b',')?;
                        let b = self.expr()?;
                        self.expect(b')')?;
                        let d = self.node_depth(&[a.1, b.1])?;
                        Ok((SizeExpr::binary(BinOp::Min, &a.0, &b.0), d))
                    }
                    _ => Err(ParseError {
                        offset: at,
                        message: format!("unknown name '{word}'"),
                    }),
                }
            }
        }
    }

    /// After `argN`: `.shape[axis]`, `[indices]:TYPE` or (a scalar argument) `:TYPE`.
    fn ndarray(&mut self, arg: u32) -> Result<Parsed, ParseError> {
        if self.peek() == Some(b':') {
            let ty = self.elem_type()?;
            return Ok((SizeExpr::scalar_arg(arg, ty), 1));
        }
        if self.eat(b'.') {
            self.keyword("shape")?;
            self.expect(b'[')?;
            let at = self.pos;
            let axis = self.int()?;
            let axis = u32::try_from(axis).map_err(|_| ParseError {
                offset: at,
                message: format!("axis {axis} is out of range"),
            })?;
            self.expect(b']')?;
            return Ok((SizeExpr::ndarray_shape(arg, axis), 1));
        }
        let (indices, ds) = self.index_list(false)?;
        let ty = self.elem_type()?;
        let d = self.node_depth(&ds)?;
        Ok((SizeExpr::ndarray_read(arg, ty, &indices), d))
    }

    /// `max(a, b)` or `max(body for vN in range(b, e))`, after `max`.
    fn max_form(&mut self) -> Result<Parsed, ParseError> {
        self.expect(b'(')?;
        let first = self.expr()?;
        if self.eat(b',') {
            let b = self.expr()?;
            self.expect(b')')?;
            let d = self.node_depth(&[first.1, b.1])?;
            return Ok((SizeExpr::binary(BinOp::Max, &first.0, &b.0), d));
        }
        self.keyword("for")
            .map_err(|_| self.err("expected ',' or 'for'"))?;
        self.range_form(first, SizeExpr::max_over_range_raw)
    }

    /// `select(a PRED b, x, y)`, after `select`.
    fn select_form(&mut self) -> Result<Parsed, ParseError> {
        self.expect(b'(')?;
        let a = self.expr()?;
        let pred = self.cmp_pred()?;
        let b = self.expr()?;
        self.expect(b',')?;
        let x = self.expr()?;
        self.expect(b',')?;
        let y = self.expr()?;
        self.expect(b')')?;
        let d = self.node_depth(&[a.1, b.1, x.1, y.1])?;
        Ok((SizeExpr::select_raw(pred, &a.0, &b.0, &x.0, &y.0), d))
    }

    /// `<`, `<=`, `==` or `!=`.
    fn cmp_pred(&mut self) -> Result<CmpPred, ParseError> {
        self.skip_ws();
        let rest = &self.s[self.pos..];
        let (pred, len) = if rest.starts_with(b"<=") {
            (CmpPred::Le, 2)
        } else if rest.starts_with(b"==") {
            (CmpPred::Eq, 2)
        } else if rest.starts_with(b"!=") {
            (CmpPred::Ne, 2)
        } else if rest.starts_with(b"<") {
            (CmpPred::Lt, 1)
        } else {
            return Err(self.err("expected a comparison ('<', '<=', '==' or '!=')"));
        };
        self.pos += len;
        Ok(pred)
    }

    /// `vN in range(b, e))` after `max(body for` or `sum(body for`; `build` makes the node.
    fn range_form(
        &mut self,
        first: Parsed,
        build: fn(u32, &SizeExpr, &SizeExpr, &SizeExpr) -> SizeExpr,
    ) -> Result<Parsed, ParseError> {
        let at = self.pos;
        let var = self
            .ident()
            .and_then(|w| self.suffix_number(&w, "v", at))
            .ok_or_else(|| ParseError {
                offset: at,
                message: "expected a bound variable 'vN'".into(),
            })??;
        self.keyword("in")?;
        self.keyword("range")?;
        self.expect(b'(')?;
        let begin = self.expr()?;
        self.expect(b',')?;
        let end = self.expr()?;
        self.expect(b')')?;
        self.expect(b')')?;
        let d = self.node_depth(&[begin.1, end.1, first.1])?;
        Ok((build(var, &begin.0, &end.0, &first.0), d))
    }

    /// `[e, ...]` and the depth of each index; empty only when `allow_empty` (a scalar field).
    fn index_list(&mut self, allow_empty: bool) -> Result<(Vec<SizeExpr>, Vec<usize>), ParseError> {
        self.expect(b'[')?;
        let (mut out, mut ds) = (Vec::new(), Vec::new());
        if self.eat(b']') {
            if !allow_empty {
                return Err(self.err("an ndarray read needs at least one index"));
            }
            return Ok((out, ds));
        }
        loop {
            let (e, d) = self.expr()?;
            out.push(e);
            ds.push(d);
            if self.eat(b']') {
                return Ok((out, ds));
            }
            self.expect(b',')
                .map_err(|_| self.err("expected ',' or ']'"))?;
        }
    }

    /// `:TYPE`.
    fn elem_type(&mut self) -> Result<IntTy, ParseError> {
        self.expect(b':')?;
        let at = self.pos;
        let w = self.ident().unwrap_or_default();
        IntTy::from_name(&w).ok_or_else(|| ParseError {
            offset: at,
            message: format!(
                "expected an element type (i8, i16, i32, i64, ui8, ui16, ui32), got '{w}'"
            ),
        })
    }

    /// A symbol name after `@`: bare or quoted.
    fn symbol(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        if self.s.get(self.pos) == Some(&b'"') {
            return self.quoted();
        }
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || b"_$.".contains(&self.s[self.pos]))
        {
            self.pos += 1;
        }
        let name = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
        if !is_bare_symbol(&name) {
            self.pos = start;
            return Err(self.err("expected a field name after '@'"));
        }
        Ok(name)
    }

    fn quoted(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.pos) else {
                self.pos = start;
                return Err(self.err("unterminated field name"));
            };
            self.pos += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let hex = |c: u8| (c as char).to_digit(16);
                    match self.s.get(self.pos).copied() {
                        Some(e @ (b'"' | b'\\')) => {
                            bytes.push(e);
                            self.pos += 1;
                        }
                        Some(b'n') => {
                            bytes.push(b'\n');
                            self.pos += 1;
                        }
                        Some(b't') => {
                            bytes.push(b'\t');
                            self.pos += 1;
                        }
                        Some(h) if hex(h).is_some() => {
                            let l = self.s.get(self.pos + 1).and_then(|&c| hex(c));
                            let Some(l) = l else {
                                return Err(self.err("bad escape in field name"));
                            };
                            bytes.push((hex(h).unwrap_or(0) * 16 + l) as u8);
                            self.pos += 2;
                        }
                        _ => return Err(self.err("bad escape in field name")),
                    }
                }
                _ => bytes.push(c),
            }
        }
        String::from_utf8(bytes).map_err(|_| ParseError {
            offset: start,
            message: "field name is not UTF-8".into(),
        })
    }
}
