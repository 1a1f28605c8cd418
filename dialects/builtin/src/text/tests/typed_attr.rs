//! Typed dialect attributes: a toy `pair` dialect whose `#pair<a, b>` and `#pair.swap<a, b>`
//! parse once into a `Pair` value that the Context interns.

use super::{parse, parse_error_in, FILE};
use crate::attributes::{AttrData, DialectAttr};
use crate::context::Context;
use crate::entity::*;
use crate::registry::DialectDef;
use crate::text::{attr_to_string, parse_source};

#[derive(Debug, PartialEq, Eq, Hash)]
struct Pair {
    swap: bool,
    a: i64,
    b: i64,
}

impl DialectAttr for Pair {
    fn dialect(&self) -> &'static str {
        "pair"
    }
    fn print(&self, out: &mut String) {
        let m = if self.swap { "swap" } else { "" };
        out.push_str(&format!("{m}<{}, {}>", self.a, self.b));
    }
}

/// Another value type with equal fields: never equal to a `Pair`.
#[derive(Debug, PartialEq, Eq, Hash)]
struct Liar(Pair);

impl DialectAttr for Liar {
    fn dialect(&self) -> &'static str {
        "pair"
    }
    fn print(&self, out: &mut String) {
        self.0.print(out)
    }
}

fn parse_pair(_: &Context, body: &str) -> Result<Box<dyn DialectAttr>, String> {
    let (swap, rest) = match body.strip_prefix("swap") {
        Some(r) => (true, r),
        None => (false, body),
    };
    let inner = rest
        .strip_prefix('<')
        .and_then(|r| r.strip_suffix('>'))
        .ok_or_else(|| format!("expected '<a, b>' in '#pair{body}'"))?;
    let num = |s: &str| {
        s.trim()
            .parse::<i64>()
            .map_err(|_| format!("bad number '{s}'"))
    };
    let (a, b) = inner.split_once(',').ok_or("expected two numbers")?;
    Ok(Box::new(Pair {
        swap,
        a: num(a)?,
        b: num(b)?,
    }))
}

/// A hook that answers with a value of another dialect (a dialect bug, reported not panicking).
fn parse_wrong(_: &Context, _: &str) -> Result<Box<dyn DialectAttr>, String> {
    Ok(Box::new(Pair {
        swap: false,
        a: 0,
        b: 0,
    }))
}

fn pair_ctx() -> Context {
    let mut c = Context::new();
    let mut d = DialectDef::new("pair");
    d.parse_attr = Some(parse_pair);
    c.register_dialect(d);
    let mut w = DialectDef::new("wrong");
    w.parse_attr = Some(parse_wrong);
    c.register_dialect(w);
    c
}

fn attr_of(c: &mut Context, text: &str) -> Attribute {
    let src = format!("\"builtin.module\"() ({{\n}}) {{x = {text}}} : () -> ()\n");
    let m = parse(c, &src);
    attr_x(c, m)
}

/// The `x` attribute of the one op that has one.
fn attr_x(c: &Context, m: OpId) -> Attribute {
    c.walk_pre_order(m)
        .into_iter()
        .find_map(|o| c.attr(o, "x"))
        .expect("an op with x")
}

#[test]
fn a_typed_attribute_is_parsed_once_and_interned_by_value() {
    let mut c = pair_ctx();
    let a = attr_of(&mut c, "#pair<1, 2>");
    assert!(matches!(c.attr_data(a), AttrData::Typed(_)));
    let want = Pair {
        swap: false,
        a: 1,
        b: 2,
    };
    assert_eq!(c.dialect_attr::<Pair>(a), Some(&want));
    assert_eq!(c.dialect_attr::<Liar>(a), None);
    // However it is spelled, the same value is the same handle.
    assert_eq!(attr_of(&mut c, "#pair<1, 2>"), a);
    assert_eq!(attr_of(&mut c, "#pair< 1,2 >"), a);
    let built = c.typed_attr(Pair {
        swap: false,
        a: 1,
        b: 2,
    });
    assert_eq!(built, a);
    let swapped = attr_of(&mut c, "#pair.swap<1, 2>");
    assert_ne!(swapped, a);
    assert!(c.dialect_attr::<Pair>(swapped).is_some_and(|p| p.swap));
    // A value of another type never equals a Pair, even when it prints the same.
    let liar = c.typed_attr(Liar(want));
    assert_ne!(liar, a);
    assert_eq!(attr_to_string(&c, liar), attr_to_string(&c, a));
}

#[test]
fn a_typed_attribute_prints_from_its_value() {
    let mut c = pair_ctx();
    for (text, printed) in [
        ("#pair<3, -4>", "#pair<3, -4>"),
        ("#pair.swap<3,4>", "#pair.swap<3, 4>"),
        ("#pair< 5 , 6>", "#pair<5, 6>"),
    ] {
        let a = attr_of(&mut c, text);
        assert_eq!(attr_to_string(&c, a), printed);
        assert_eq!(attr_of(&mut c, printed), a);
    }
    let built = c.typed_attr(Pair {
        swap: true,
        a: 3,
        b: 4,
    });
    assert_eq!(attr_to_string(&c, built), "#pair.swap<3, 4>");
}

#[test]
fn a_malformed_typed_attribute_is_a_located_error() {
    let src = "\"builtin.module\"() ({\n}) {x = #pair<1; 2>} : () -> ()\n";
    assert_eq!(
        parse_error_in(pair_ctx(), src),
        (2, 9, "expected two numbers".to_string())
    );
    let src = "\"builtin.module\"() ({\n}) {x = #wrong.thing<1>} : () -> ()\n";
    assert_eq!(
        parse_error_in(pair_ctx(), src),
        (
            2,
            9,
            "dialect 'wrong' parsed '#wrong.thing<1>' as an attribute of dialect 'pair'"
                .to_string()
        )
    );
}

#[test]
fn an_unregistered_dialect_attribute_stays_text() {
    let mut c = pair_ctx();
    c.allow_unregistered = true;
    let src = "\"builtin.module\"() ({\n}) {x = #nope.thing< 1,2 >} : () -> ()\n";
    let m = parse_source(&mut c, src, FILE).expect("parses");
    let a = attr_x(&c, m);
    assert!(matches!(c.attr_data(a), AttrData::Dialect { body, .. } if body == "thing< 1,2 >"));
    assert_eq!(attr_to_string(&c, a), "#nope.thing< 1,2 >");
    assert_eq!(c.dialect_attr::<Pair>(a), None);
}
