//! Lexer tokens.

use crate::text::lexer::{escape_into, lex, unescape, Tok};

fn tokens(src: &str) -> Vec<(Tok, &str)> {
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let t = lex(src.as_bytes(), pos);
        if t.kind == Tok::Eof {
            return out;
        }
        out.push((t.kind, &src[t.start..t.end]));
        pos = t.end;
    }
}

#[test]
fn identifiers_and_prefixed_names() {
    use Tok::*;
    assert_eq!(
        tokens("arith.addf %x %0 %a#1 %foo-bar ^bb0 @sym @\"a b\" #map #arith.fastmath !t !qd.field a_$.b"),
        vec![
            (BareIdent, "arith.addf"),
            (PercentIdent, "%x"),
            (PercentIdent, "%0"),
            (PercentIdent, "%a"),
            (HashIdent, "#1"),
            (PercentIdent, "%foo-bar"),
            (CaretIdent, "^bb0"),
            (AtIdent, "@sym"),
            (AtIdent, "@\"a b\""),
            (HashIdent, "#map"),
            (HashIdent, "#arith.fastmath"),
            (ExclaimIdent, "!t"),
            (ExclaimIdent, "!qd.field"),
            (BareIdent, "a_$.b"),
        ]
    );
}

#[test]
fn multi_result_definition() {
    use Tok::*;
    assert_eq!(
        tokens("%r:2 ="),
        vec![
            (PercentIdent, "%r"),
            (Colon, ":"),
            (Integer, "2"),
            (Equal, "=")
        ]
    );
}

#[test]
fn numbers() {
    use Tok::*;
    assert_eq!(
        tokens("42 0x1F 1.0 -2.5e-3 1. 3.5E+2 0xf32 0xi32 16xf32"),
        vec![
            (Integer, "42"),
            (Integer, "0x1F"),
            (Float, "1.0"),
            (Minus, "-"),
            (Float, "2.5e-3"),
            (Float, "1."),
            (Float, "3.5E+2"),
            (Integer, "0xf32"),
            (Integer, "0"),
            (BareIdent, "xi32"),
            (Integer, "16"),
            (BareIdent, "xf32"),
        ]
    );
    // An exponent needs digits; otherwise `e` starts an identifier.
    assert_eq!(tokens("1.e"), vec![(Float, "1."), (BareIdent, "e")]);
}

#[test]
fn punctuation_and_comments() {
    use Tok::*;
    let src = "( ) { } [ ] < > , : = -> ? * + - ... // comment\n}";
    let kinds: Vec<Tok> = tokens(src).into_iter().map(|t| t.0).collect();
    assert_eq!(
        kinds,
        vec![
            LParen, RParen, LBrace, RBrace, LSquare, RSquare, Less, Greater, Comma, Colon, Equal,
            Arrow, Question, Star, Plus, Minus, Ellipsis, RBrace
        ]
    );
}

#[test]
fn strings_and_escapes() {
    use Tok::*;
    let src = r#""a\"b\\c\n\t\41""#;
    assert_eq!(tokens(src), vec![(String, src)]);
    assert_eq!(unescape(src).unwrap(), "a\"b\\c\n\tA");
    // Escaped output re-lexes to the same value.
    let mut out = std::string::String::new();
    escape_into(&mut out, "q\"\\\n\té");
    assert_eq!(out, r#""q\22\\\0A\09\C3\A9""#);
    assert_eq!(unescape(&out).unwrap(), "q\"\\\n\té");
    // Escapes that do not form UTF-8 are rejected by unescape.
    assert!(unescape(r#""\FF""#).is_none());
}

#[test]
fn lexer_errors() {
    let err = |s: &str| match lex(s.as_bytes(), 0).kind {
        Tok::Error(m) => m,
        k => panic!("expected an error for {s:?}, got {k:?}"),
    };
    assert_eq!(err("\"abc"), "expected '\"' in string literal");
    assert_eq!(err("\"ab\ncd\""), "expected '\"' in string literal");
    assert_eq!(err(r#""\q""#), "unknown escape in string literal");
    assert_eq!(err("%"), "invalid SSA name");
    assert_eq!(err("^ "), "invalid block name");
    assert_eq!(
        err("@1"),
        "@ identifier expected to start with letter or '_'"
    );
    assert_eq!(err("é"), "unexpected character");
    assert_eq!(err("&"), "unexpected character");
}
