//! `#adstack.size<...>` as a typed attribute: parsed once into the SizeExpr the Context interns.

use super::*;
use qd_ir::text::{attr_to_string, parse_source, print_op};
use qd_ir::{AttrData, Attribute, Context, LocData};

fn adstack_ctx() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(crate::dialect());
    ctx.allow_unregistered = true;
    ctx
}

fn p(s: &str) -> SizeExpr {
    SizeExpr::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The `s` attribute of the one `test.op` in `src`.
fn parse_attr_of(ctx: &mut Context, src: &str) -> Attribute {
    let m = parse_source(ctx, src, "t.mlir")
        .unwrap_or_else(|| panic!("{src}: {:?}", ctx.take_diagnostics()));
    let op = ctx
        .walk_pre_order(m)
        .into_iter()
        .find(|&o| ctx.name(o) == "test.op")
        .expect("a test.op");
    ctx.attr(op, "s").expect("an attribute s")
}

fn op_with(body: &str) -> String {
    format!("\"test.op\"() {{s = #adstack.{body}}} : () -> ()\n")
}

#[test]
fn equal_expressions_share_one_attribute() {
    let mut ctx = adstack_ctx();
    let e = p("max(@starts[v0 + 1]:i32 for v0 in range(0, arg0.shape[0])) + 1");
    let a = e.to_attr(&mut ctx);
    assert_eq!(p(&e.to_string()).to_attr(&mut ctx), a);
    // Text spelled as the value prints interns to the same handle.
    assert_eq!(parse_attr_of(&mut ctx, &op_with(&format!("size<{e}>"))), a);
    // Text spelled otherwise is the same value, so the same handle.
    let spaced = "size< max( @starts[v0+1]:i32 for v0 in range(0,arg0.shape[0]) )+1 >";
    assert_eq!(parse_attr_of(&mut ctx, &op_with(spaced)), a);
    let other = p("@n[]:i32 + 2").to_attr(&mut ctx);
    assert_ne!(other, a);
    assert_ne!(p("2 + @n[]:i32").to_attr(&mut ctx), other);
}

#[test]
fn the_parsed_value_is_read_without_parsing_again() {
    let mut ctx = adstack_ctx();
    let a = parse_attr_of(&mut ctx, &op_with("size<@n[]:i32 * 2 + 1>"));
    assert!(matches!(ctx.attr_data(a), AttrData::Typed(_)));
    let held = ctx.dialect_attr::<SizeExpr>(a).expect("a typed SizeExpr");
    assert_eq!(held, &p("@n[]:i32 * 2 + 1"));
    // from_attr hands out the Context's own value, not a fresh parse.
    let got = SizeExpr::from_attr(&ctx, a).expect("a size attribute");
    assert!(std::ptr::eq(got, held));
    // Another attribute kind is neither a SizeExpr nor a typed value.
    let s = ctx.string_attr("size<1>");
    assert_eq!(ctx.dialect_attr::<SizeExpr>(s), None);
    assert!(SizeExpr::from_attr(&ctx, s).is_err());
}

#[test]
fn text_spelled_otherwise_prints_from_its_value() {
    let mut ctx = adstack_ctx();
    for (text, printed) in [
        ("size<(@w[]:i64 + 1) + -1>", "size<@w[]:i64 + 1 + -1>"),
        ("size< 1+2 >", "size<1 + 2>"),
        ("size<@w[]:i64 + (1 + -1)>", "size<@w[]:i64 + (1 + -1)>"),
    ] {
        let a = parse_attr_of(&mut ctx, &op_with(text));
        assert_eq!(attr_to_string(&ctx, a), format!("#adstack.{printed}"));
    }
}

#[test]
fn printing_round_trips_byte_identically() {
    let mut ctx = adstack_ctx();
    for text in [
        "size<0>",
        "size<-3>",
        "size<@n[]:i32 + 2>",
        "size<@n[]:i32 - (1 + arg0.shape[0])>",
        "size<(@a[]:i64 + 1) * arg1.shape[2]>",
        "size<max(arg2[v0, 3]:ui16 for v0 in range(0, @n[]:i32))>",
        "size<min(@\"odd name\"[1]:i8, 4) - 1>",
    ] {
        let src = op_with(text);
        let a = parse_attr_of(&mut ctx, &src);
        assert_eq!(attr_to_string(&ctx, a), format!("#adstack.{text}"));
        let m = parse_source(&mut ctx, &src, "t.mlir").expect("parses");
        let printed = print_op(&ctx, m, &Default::default());
        assert!(
            printed.contains(&format!("{{s = #adstack.{text}}}")),
            "{printed}"
        );
        // text -> attr -> text -> attr gives the same handle.
        assert_eq!(parse_attr_of(&mut ctx, &printed), a);
    }
}

#[test]
fn without_the_dialect_the_attribute_stays_opaque_text() {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let body = "size< 1+2 >";
    let a = parse_attr_of(&mut ctx, &op_with(body));
    match ctx.attr_data(a) {
        AttrData::Dialect { dialect, body: b } => {
            assert_eq!(ctx.ident_str(*dialect), "adstack");
            assert_eq!(b, body);
        }
        d => panic!("expected opaque text, got {d:?}"),
    }
    assert_eq!(attr_to_string(&ctx, a), format!("#adstack.{body}"));
    assert_eq!(ctx.dialect_attr::<SizeExpr>(a), None);
    let msg = SizeExpr::from_attr(&ctx, a).unwrap_err();
    assert!(
        msg.contains("expected a #adstack.size<...> attribute"),
        "{msg}"
    );
    // Without allow_unregistered, it is an error.
    let mut strict = Context::new();
    strict.allow_unregistered = false;
    let src = "\"builtin.module\"() ({\n}) {s = #adstack.size<1>} : () -> ()\n";
    assert!(parse_source(&mut strict, src, "t.mlir").is_none());
    let msg = strict.take_diagnostics().pop().unwrap().message;
    assert!(msg.contains("unregistered dialect 'adstack'"), "{msg}");
}

#[test]
fn a_malformed_body_is_an_error_at_the_attribute() {
    let mut ctx = adstack_ctx();
    for (body, want) in [
        ("size<1 +>", "invalid #adstack.size: expected an expression"),
        ("size<v3>", "invalid #adstack.size: v3 is not bound"),
        ("other<1>", "unknown adstack attribute '#adstack.other<1>'"),
    ] {
        let src = format!("// a comment\n  \"test.op\"() {{s = #adstack.{body}}} : () -> ()\n");
        assert!(parse_source(&mut ctx, &src, "t.mlir").is_none(), "{body}");
        let d = ctx.take_diagnostics().pop().expect("a diagnostic");
        assert!(d.message.contains(want), "{body}: {}", d.message);
        match ctx.loc_data(d.loc) {
            LocData::FileLineCol { line, col, .. } => {
                assert_eq!((*line, *col), (2, 20), "{body}");
            }
            l => panic!("{body}: unlocated diagnostic {l:?}"),
        }
    }
}
