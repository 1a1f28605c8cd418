//! The MLIR lexer. Tokens are byte ranges into the source (no per-token allocation); the lexer is
//! position-based so that the parser can re-lex from any offset (dimension lists, dialect bodies).

/// Token kinds. `Error` carries the lexer's message; the parser reports it when it meets it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Tok {
    Eof,
    Error(&'static str),
    /// `[a-zA-Z_][a-zA-Z0-9_$.]*`
    BareIdent,
    /// `%name`, `%0`
    PercentIdent,
    /// `^bb0`
    CaretIdent,
    /// `@name`, `@"quoted"`
    AtIdent,
    /// `#name`, `#dialect.attr`, `#0` (result number)
    HashIdent,
    /// `!name`, `!dialect.type`
    ExclaimIdent,
    /// decimal or `0x` hexadecimal
    Integer,
    /// `[0-9]+[.][0-9]*([eE][-+]?[0-9]+)?`
    Float,
    /// `"..."` with escapes, quotes included
    String,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LSquare,
    RSquare,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow,
    Question,
    Star,
    Plus,
    Minus,
    Ellipsis,
}

/// A token: its kind and byte range `[start, end)` in the source.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

pub(crate) fn is_bare_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

pub(crate) fn is_bare_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}

/// Characters of a suffix-id after `%`, `^`, `#`, `!` (MLIR allows `-` there too).
fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-')
}

/// Whether `s` lexes as one bare identifier (so it can be printed unquoted).
pub(crate) fn is_bare_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty() && is_bare_start(b[0]) && b[1..].iter().all(|&c| is_bare_continue(c))
}

/// Skips whitespace and `//` comments from `pos`.
pub(crate) fn skip_trivia(src: &[u8], mut pos: usize) -> usize {
    loop {
        match src.get(pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c') => pos += 1,
            Some(b'/') if src.get(pos + 1) == Some(&b'/') => {
                while pos < src.len() && src[pos] != b'\n' {
                    pos += 1;
                }
            }
            _ => return pos,
        }
    }
}

/// Lexes the token that starts at or after `pos`.
pub(crate) fn lex(src: &[u8], pos: usize) -> Token {
    let start = skip_trivia(src, pos);
    let tok = |kind, end| Token { kind, start, end };
    let Some(&c) = src.get(start) else {
        return tok(Tok::Eof, start);
    };
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    match c {
        b'(' => tok(Tok::LParen, start + 1),
        b')' => tok(Tok::RParen, start + 1),
        b'{' => tok(Tok::LBrace, start + 1),
        b'}' => tok(Tok::RBrace, start + 1),
        b'[' => tok(Tok::LSquare, start + 1),
        b']' => tok(Tok::RSquare, start + 1),
        b'<' => tok(Tok::Less, start + 1),
        b'>' => tok(Tok::Greater, start + 1),
        b',' => tok(Tok::Comma, start + 1),
        b':' => tok(Tok::Colon, start + 1),
        b'=' => tok(Tok::Equal, start + 1),
        b'?' => tok(Tok::Question, start + 1),
        b'*' => tok(Tok::Star, start + 1),
        b'+' => tok(Tok::Plus, start + 1),
        b'-' if at(start + 1) == b'>' => tok(Tok::Arrow, start + 2),
        b'-' => tok(Tok::Minus, start + 1),
        b'.' if at(start + 1) == b'.' && at(start + 2) == b'.' => tok(Tok::Ellipsis, start + 3),
        b'"' => lex_string(src, start),
        b'%' => lex_prefixed(src, start, Tok::PercentIdent),
        b'^' => lex_prefixed(src, start, Tok::CaretIdent),
        b'#' => lex_prefixed(src, start, Tok::HashIdent),
        b'!' => lex_prefixed(src, start, Tok::ExclaimIdent),
        b'@' => lex_at(src, start),
        b'0'..=b'9' => lex_number(src, start),
        c if is_bare_start(c) => {
            let mut end = start + 1;
            while end < src.len() && is_bare_continue(src[end]) {
                end += 1;
            }
            tok(Tok::BareIdent, end)
        }
        _ => {
            // Keep the token on a char boundary so that its text can be sliced.
            let mut end = start + 1;
            while end < src.len() && (src[end] & 0xC0) == 0x80 {
                end += 1;
            }
            tok(Tok::Error("unexpected character"), end)
        }
    }
}

fn lex_prefixed(src: &[u8], start: usize, kind: Tok) -> Token {
    let mut end = start + 1;
    match src.get(end) {
        Some(c) if c.is_ascii_digit() => {
            while end < src.len() && src[end].is_ascii_digit() {
                end += 1;
            }
        }
        Some(&c) if is_suffix_char(c) => {
            while end < src.len() && is_suffix_char(src[end]) {
                end += 1;
            }
        }
        _ => {
            let msg = match kind {
                Tok::PercentIdent => "invalid SSA name",
                Tok::CaretIdent => "invalid block name",
                Tok::HashIdent => "invalid attribute name",
                _ => "invalid type identifier",
            };
            return Token {
                kind: Tok::Error(msg),
                start,
                end: start + 1,
            };
        }
    }
    Token { kind, start, end }
}

fn lex_at(src: &[u8], start: usize) -> Token {
    match src.get(start + 1) {
        Some(b'"') => {
            let s = lex_string(src, start + 1);
            Token {
                kind: if s.kind == Tok::String {
                    Tok::AtIdent
                } else {
                    s.kind
                },
                start,
                end: s.end,
            }
        }
        Some(&c) if is_bare_start(c) => {
            let mut end = start + 2;
            while end < src.len() && is_bare_continue(src[end]) {
                end += 1;
            }
            Token {
                kind: Tok::AtIdent,
                start,
                end,
            }
        }
        _ => Token {
            kind: Tok::Error("@ identifier expected to start with letter or '_'"),
            start,
            end: start + 1,
        },
    }
}

fn lex_number(src: &[u8], start: usize) -> Token {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    let mut end = start + 1;
    // `0x` followed by a hex digit is a hexadecimal literal; `0xf32` too (as MLIR).
    if src[start] == b'0' && at(end) == b'x' && at(end + 1).is_ascii_hexdigit() {
        end += 2;
        while at(end).is_ascii_hexdigit() {
            end += 1;
        }
        return Token {
            kind: Tok::Integer,
            start,
            end,
        };
    }
    while at(end).is_ascii_digit() {
        end += 1;
    }
    if at(end) != b'.' {
        return Token {
            kind: Tok::Integer,
            start,
            end,
        };
    }
    end += 1;
    while at(end).is_ascii_digit() {
        end += 1;
    }
    if matches!(at(end), b'e' | b'E') {
        let d = at(end + 1);
        if d.is_ascii_digit() || (matches!(d, b'-' | b'+') && at(end + 2).is_ascii_digit()) {
            end += 2;
            while at(end).is_ascii_digit() {
                end += 1;
            }
        }
    }
    Token {
        kind: Tok::Float,
        start,
        end,
    }
}

/// Lexes a string literal starting at the opening quote, validating its escapes.
fn lex_string(src: &[u8], start: usize) -> Token {
    let mut i = start + 1;
    let err = |msg, end| Token {
        kind: Tok::Error(msg),
        start,
        end,
    };
    loop {
        match src.get(i) {
            None | Some(b'\n' | b'\r' | b'\x0b' | b'\x0c') => {
                return err("expected '\"' in string literal", i)
            }
            Some(b'"') => {
                return Token {
                    kind: Tok::String,
                    start,
                    end: i + 1,
                }
            }
            Some(b'\\') => match src.get(i + 1) {
                Some(b'"' | b'\\' | b'n' | b't') => i += 2,
                Some(c)
                    if c.is_ascii_hexdigit()
                        && src.get(i + 2).is_some_and(u8::is_ascii_hexdigit) =>
                {
                    i += 3
                }
                _ => return err("unknown escape in string literal", i + 1),
            },
            Some(_) => i += 1,
        }
    }
}

fn hex_val(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

/// The value of a lexed string token's text (quotes included). Returns None when the escapes
/// produce bytes that are not UTF-8.
pub(crate) fn unescape(text: &str) -> Option<std::borrow::Cow<'_, str>> {
    let inner = &text[1..text.len() - 1];
    if !inner.contains('\\') {
        return Some(std::borrow::Cow::Borrowed(inner));
    }
    let b = inner.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match b.get(i + 1).copied().unwrap_or(b'\\') {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'"' => out.push(b'"'),
            b'\\' => out.push(b'\\'),
            h => {
                let l = b.get(i + 2).copied().unwrap_or(b'0');
                out.push(hex_val(h) << 4 | hex_val(l));
                i += 1;
            }
        }
        i += 2;
    }
    String::from_utf8(out).ok().map(std::borrow::Cow::Owned)
}

/// Appends `s` as an MLIR string literal: printable ASCII as is (except `"` and `\`), everything
/// else as `\XX` (as LLVM's printEscapedString).
pub(crate) fn escape_into(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('"');
    for &c in s.as_bytes() {
        if c == b'\\' {
            out.push_str("\\\\");
        } else if (0x20..0x7f).contains(&c) && c != b'"' {
            out.push(c as char);
        } else {
            out.push('\\');
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
        }
    }
    out.push('"');
}

/// Scans a balanced dialect body (`<...>` and nested brackets, strings skipped) starting at the
/// opening `<` at `start`; returns the offset after the closing `>`, or an error offset.
pub(crate) fn scan_balanced(src: &[u8], start: usize) -> Result<usize, (usize, &'static str)> {
    let mut stack: Vec<u8> = Vec::new();
    let mut i = start;
    while i < src.len() {
        let c = src[i];
        match c {
            b'<' | b'(' | b'[' | b'{' => stack.push(c),
            b'>' if i > start && src[i - 1] == b'-' => {} // `->` inside a body
            b'>' | b')' | b']' | b'}' => {
                let open = match c {
                    b'>' => b'<',
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if stack.pop() != Some(open) {
                    return Err((i, "unbalanced delimiter in dialect body"));
                }
                if stack.is_empty() {
                    return Ok(i + 1);
                }
            }
            b'"' => {
                let t = lex_string(src, i);
                if t.kind != Tok::String {
                    return Err((i, "unterminated string in dialect body"));
                }
                i = t.end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Err((src.len(), "unexpected end of file in dialect body"))
}
