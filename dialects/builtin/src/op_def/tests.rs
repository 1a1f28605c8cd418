//! Tests of `declare_op!` on a small `test` dialect: accessors, builders, verifier messages, the
//! format's round trip (custom and generic forms), inference, custom type forms, and declaration
//! errors.

use super::constraint::{self, TypeConstraint};
use super::prop;
use crate::asm::{OpAsmParser, OpAsmPrinter};
use crate::builtin::create_module;
use crate::text::{parse_source, print_op, PrintOptions};
use crate::verify_helpers::op_error;
use crate::{
    BlockId, Builder, Context, DiagResult, Diagnostic, DialectDef, Location, OpId, OpTraits,
    OperationState, Type, TypeData, Value,
};

/// A "box" of `T`: the function type `() -> T`, printed in formats as `T` (a stand-in for a
/// dialect type such as `!adstack.stack<T>`).
fn elem_of_box(ctx: &Context, t: Type) -> Option<Type> {
    match ctx.type_data(t) {
        TypeData::Function { inputs, results } if inputs.is_empty() && results.len() == 1 => {
            Some(results[0])
        }
        _ => None,
    }
}
fn is_box(ctx: &Context, t: Type) -> bool {
    elem_of_box(ctx, t).is_some()
}
fn box_of(ctx: &mut Context, t: Type) -> Type {
    ctx.function_type(vec![], vec![t])
}
fn unbox(ctx: &mut Context, t: Type) -> Type {
    elem_of_box(ctx, t).unwrap_or(t)
}
fn parse_box(p: &mut dyn OpAsmParser) -> DiagResult<Type> {
    let loc = p.current_loc();
    let t = p.parse_type()?;
    if is_box(p.ctx_ref(), t) {
        return Err(Diagnostic::error(
            loc,
            "expected an element type, not a box",
        ));
    }
    Ok(box_of(p.ctx(), t))
}
fn print_box(p: &mut dyn OpAsmPrinter, t: Type) {
    let e = elem_of_box(p.ctx(), t).unwrap_or(t);
    p.print_type(e)
}
const BOX: TypeConstraint = TypeConstraint::new("a box", is_box).syntax(parse_box, print_box);

fn verify_push(ctx: &Context, op: OpId) -> DiagResult<()> {
    let p = PushOp(op);
    let (b, v) = (ctx.value_type(p.boxed(ctx)), ctx.value_type(p.value(ctx)));
    if elem_of_box(ctx, b) != Some(v) {
        return Err(op_error(
            ctx,
            op,
            "expects the value to have the box's element type",
        ));
    }
    Ok(())
}

crate::declare_op! {
    /// `%b = test.make : f32 {limit = 3}`: a box (custom type form, props in the dict).
    pub struct MakeOp = "test.make" {
        summary: "makes a box",
        results: [result: single(BOX)],
        properties: [limit: optional(prop::NonNeg<i64>) => set_limit, note: optional(prop::AnyAttr)],
        format: "`:` type($result) attr-dict",
    }
}

crate::declare_op! {
    /// `test.push %b, %v : f32`: the box's type comes from the value's.
    pub struct PushOp = "test.push" {
        summary: "pushes",
        operands: [boxed: single(BOX) = box_of(value), value: single(constraint::ANY)],
        format: "$boxed `,` $value attr-dict `:` type($value)",
        verify: verify_push,
    }
}

crate::declare_op! {
    /// `%r = test.get @sym[%i, %j] : f32`: symbol, variadic i32 indices, inferred-free result.
    pub struct GetOp = "test.get" {
        summary: "reads",
        traits: [OpTraits::READ_ONLY],
        operands: [indices: variadic(constraint::I32)],
        results: [result: single(constraint::FLOAT)],
        properties: [target: required(prop::SymbolRef) => set_target],
        format: "$target `[` $indices `]` attr-dict `:` type($result)",
        verify_symbol_uses: verify_get_target,
    }
}

/// A resolved target must be a `test.def` (an unresolved one is the generic check's business).
fn verify_get_target(
    ctx: &Context,
    op: OpId,
    symbols: &mut crate::symbol_table::SymbolTableCollection,
) -> DiagResult<()> {
    let target = GetOp(op).target(ctx);
    match symbols.lookup_symbol_from(ctx, op, target) {
        Some(d) if ctx.name(d) != DefOp::NAME => Err(op_error(
            ctx,
            op,
            format!("expects @{target} to be a 'test.def'"),
        )),
        _ => Ok(()),
    }
}

crate::declare_op! {
    /// `test.step %a, %b (to %c)? by 2 {...}`: an optional operand, an inline integer, a region.
    pub struct StepOp = "test.step" {
        summary: "steps",
        operands: [lo: single(constraint::I32), hi: single(constraint::I32), end: optional(constraint::I32)],
        results: [old: optional(constraint::I32) = same(lo)],
        regions: [body: single_block],
        properties: [by: required(prop::Int), name: optional(prop::Str)],
        builder: create,
        format: "$lo `,` $hi (`to` $end^)? `by` $by $body attr-dict",
    }
}

crate::declare_op! {
    /// `test.tag (@x)? {...}`: optional-anchor group on a property; hand-written nothing else.
    pub struct TagOp = "test.tag" {
        summary: "tags",
        properties: [sym as symbol: optional(prop::SymbolRef), kind as _: optional(prop::TypeAttr), flags: optional(prop::BoolArray)],
        format: "(`sym` $sym^)? attr-dict",
    }
}

crate::declare_op! {
    /// `test.def @s`: a symbol.
    pub struct DefOp = "test.def" {
        summary: "defines a symbol",
        traits: [OpTraits::SYMBOL],
        properties: [sym_name: required(prop::SymbolName)],
        format: "$sym_name attr-dict",
    }
}

crate::declare_op! {
    /// `test.region {...} {...}`: renamed and hand-written region getters, no builder.
    pub struct TwoRegionOp = "test.regions" {
        summary: "two regions",
        regions: [first as first_region: any, second as _: any],
        properties: [type as _: optional(prop::TypeAttr)],
        builder: none,
        format: "$first $second attr-dict",
    }
}

crate::declare_op! {
    /// Generic form only.
    pub struct PlainOp = "test.plain" {
        summary: "plain",
        operands: [xs: variadic(constraint::ANY), last: single(constraint::ANY)],
        results: [ys: variadic(constraint::ANY)],
        properties: [path: optional(prop::DenseI64Array)],
    }
}

fn same(_: &mut Context, t: Type) -> Type {
    t
}

fn dialect() -> DialectDef {
    let mut d = DialectDef::new("test");
    d.ops = vec![
        MakeOp::op_info(),
        PushOp::op_info(),
        GetOp::op_info(),
        StepOp::op_info(),
        TagOp::op_info(),
        PlainOp::op_info(),
        DefOp::op_info(),
        TwoRegionOp::op_info(),
    ];
    d
}

struct Fx {
    ctx: Context,
    loc: Location,
    module: OpId,
    body: BlockId,
}

impl Fx {
    fn new() -> Self {
        let mut ctx = Context::new();
        ctx.register_dialect(dialect());
        ctx.allow_unregistered = true;
        let loc = ctx.file_loc("t.mlir", 1, 1);
        let (module, body) = create_module(&mut ctx, loc);
        Fx {
            ctx,
            loc,
            module,
            body,
        }
    }
    fn b(&mut self) -> Builder<'_> {
        Builder::at_end(&mut self.ctx, self.body)
    }
    fn value(&mut self, ty: Type) -> Value {
        let st = OperationState::new("x.value", self.loc).results(&[ty]);
        self.b().insert_value(st)
    }
    fn verify(&self) -> Option<String> {
        crate::verifier::verify(&self.ctx, self.module)
            .err()
            .map(|d| d[0].message.clone())
    }
}

#[test]
fn builders_and_accessors() {
    let mut fx = Fx::new();
    let (f32t, i32t) = (fx.ctx.f32_type(), fx.ctx.i32_type());
    let loc = fx.loc;
    let v = fx.value(f32t);
    let (i, j) = (fx.value(i32t), fx.value(i32t));
    let boxed = box_of(&mut fx.ctx, f32t);
    let mut b = fx.b();
    for s in ["sym", "other"] {
        let d = DefOp::build(&mut b, s, loc);
        assert_eq!(d.sym_name(b.ctx), s);
    }
    let make = MakeOp::build(&mut b, boxed, Some(3), None, loc);
    let bx = make.result(b.ctx);
    let push = PushOp::build(&mut b, bx, v, loc);
    let get = GetOp::build(&mut b, &[i, j], f32t, "sym", loc);
    let step = StepOp::create(&mut b, i, j, None, true, 2, Some("s"), loc);
    let step2 = StepOp::create(&mut b, i, j, Some(i), false, -1, None, loc);
    let ctx = &fx.ctx;
    assert_eq!(make.limit(ctx), Some(3));
    assert_eq!(make.note(ctx), None);
    assert_eq!((push.boxed(ctx), push.value(ctx)), (bx, v));
    assert_eq!(get.indices(ctx), vec![i, j]);
    assert_eq!(get.target(ctx), "sym");
    assert_eq!(ctx.value_type(get.result(ctx)), f32t);
    assert_eq!((step.lo(ctx), step.hi(ctx), step.end(ctx)), (i, j, None));
    assert_eq!(step2.end(ctx), Some(i));
    // The optional result is inferred from `lo`, created on request.
    assert_eq!(ctx.value_type(step.old(ctx).unwrap()), i32t);
    assert_eq!(step2.old(ctx), None);
    assert_eq!(
        (step.by(ctx), step.name(ctx), step2.by(ctx)),
        (2, Some("s"), -1)
    );
    assert_eq!(ctx.regions(step.0).len(), 1);
    assert_eq!(step.body(ctx), ctx.region(step.0, 0));
    assert!(MakeOp::from_op(ctx, push.0).is_none());
    assert_eq!(PushOp::from_op(ctx, push.0), Some(push));
    assert_eq!(GetOp::NAME, "test.get");
    assert!(ctx
        .lookup_op_info("test.get")
        .unwrap()
        .has_trait(OpTraits::READ_ONLY));
    assert_eq!(fx.verify(), None);
    // Setters.
    make.set_limit(&mut fx.ctx, Some(9));
    get.set_target(&mut fx.ctx, "other");
    assert_eq!(
        (make.limit(&fx.ctx), get.target(&fx.ctx)),
        (Some(9), "other")
    );
    make.set_limit(&mut fx.ctx, None);
    assert_eq!(make.limit(&fx.ctx), None);
}

impl TagOp {
    /// A hand-written accessor in place of the generated one (`kind as _`).
    fn kind(self, ctx: &Context) -> Option<Type> {
        ctx.prop(self.0, "kind")
            .and_then(|a| <prop::TypeAttr as super::PropKind>::get(ctx, a))
    }
}

#[test]
fn renamed_and_hand_written_getters() {
    let mut ctx = Context::new();
    ctx.register_dialect(dialect());
    let m = parse_source(
        &mut ctx,
        "test.def @f\ntest.tag sym @f {kind = i1}",
        "t.mlir",
    )
    .unwrap();
    let body = ctx.entry_block(ctx.region(m, 0)).unwrap();
    let tag = ctx
        .block_ops(body)
        .find_map(|o| TagOp::from_op(&ctx, o))
        .unwrap();
    assert_eq!(tag.symbol(&ctx), Some("f"));
    let i1 = ctx.i1_type();
    assert_eq!(tag.kind(&ctx), Some(i1));
    assert_eq!(tag.flags(&ctx), None);
    // Regions: a renamed getter; a property named by a keyword (`type`) with its own accessor.
    let m = parse_source(
        &mut ctx,
        "test.regions {\n} {\n  \"x.op\"() : () -> ()\n} {type = i1}",
        "t.mlir",
    );
    assert!(
        m.is_none(),
        "x.op is not registered and unregistered ops are not allowed"
    );
    ctx.allow_unregistered = true;
    let m = parse_source(
        &mut ctx,
        "test.regions {\n} {\n  \"x.op\"() : () -> ()\n} {type = i1}",
        "t.mlir",
    )
    .unwrap();
    let body = ctx.entry_block(ctx.region(m, 0)).unwrap();
    let two = ctx
        .block_ops(body)
        .find_map(|o| TwoRegionOp::from_op(&ctx, o))
        .unwrap();
    assert_eq!(two.first_region(&ctx), ctx.region(two.0, 0));
    assert!(ctx.prop(two.0, "type").is_some());
    let text = print_op(&ctx, m, &PrintOptions::default());
    assert!(
        text.contains("test.regions {\n  } {\n    \"x.op\"() : () -> ()\n  } {type = i1}"),
        "{text}"
    );
}

#[test]
fn segments_split_variadic_groups() {
    use super::{segment, Arity::*};
    assert_eq!(segment(&[Single, Single], 1, 2), 1..2);
    assert_eq!(segment(&[Variadic, Single], 0, 3), 0..2);
    assert_eq!(segment(&[Variadic, Single], 1, 3), 2..3);
    assert_eq!(segment(&[Single, Optional, Single], 1, 2), 1..1);
    assert_eq!(segment(&[Single, Optional, Single], 2, 3), 2..3);
    // Too few values: ranges stay in order and never underflow.
    assert_eq!(segment(&[Single, Variadic, Single], 1, 1), 1..1);
    let mut fx = Fx::new();
    let f = fx.ctx.f32_type();
    let loc = fx.loc;
    let (a, b2, c) = (fx.value(f), fx.value(f), fx.value(f));
    let p = PlainOp::build(&mut fx.b(), &[a, b2], c, &[f, f, f], Some(vec![1, 2]), loc);
    let ctx = &fx.ctx;
    assert_eq!((p.xs(ctx), p.last(ctx)), (vec![a, b2], c));
    assert_eq!(p.ys(ctx).len(), 3);
    assert_eq!(p.path(ctx), Some(vec![1, 2]));
}

fn round_trip(src: &str) -> String {
    let mut ctx = Context::new();
    ctx.register_dialect(dialect());
    ctx.allow_unregistered = true;
    let m = parse_source(&mut ctx, src, "t.mlir").unwrap_or_else(|| panic!("parses: {src}"));
    if let Err(d) = crate::verifier::verify(&ctx, m) {
        panic!("{}: {src}", d[0].message);
    }
    let once = print_op(&ctx, m, &PrintOptions::default());
    let mut ctx2 = Context::new();
    ctx2.register_dialect(dialect());
    ctx2.allow_unregistered = true;
    let m2 = parse_source(&mut ctx2, &once, "t2.mlir").expect("reparses");
    assert_eq!(print_op(&ctx2, m2, &PrintOptions::default()), once);
    // The generic form parses back to the same custom text.
    let generic = PrintOptions {
        generic: true,
        ..Default::default()
    };
    let g = print_op(&ctx2, m2, &generic);
    let mut ctx3 = Context::new();
    ctx3.register_dialect(dialect());
    ctx3.allow_unregistered = true;
    let m3 = parse_source(&mut ctx3, &g, "t3.mlir").expect("generic reparses");
    assert_eq!(print_op(&ctx3, m3, &PrintOptions::default()), once);
    once
}

#[test]
fn format_round_trips() {
    let text = round_trip(
        "test.def @s\n\
         test.def @f {x}\n\
         %v = \"x.v\"() : () -> f32\n\
         %i = \"x.i\"() : () -> i32\n\
         %b = test.make : f32 {limit = 4, note = \"n\", z}\n\
         test.push %b, %v {k = 1 : i32} : f32\n\
         %r = test.get @s[%i, %i] : f32\n\
         %e = test.get @s[] : f32\n\
         test.step %i, %i by 2 {\n}\n\
         %o = test.step %i, %i to %i by -1 {\n  \"x.op\"() : () -> ()\n} {name = \"n\"}\n\
         test.tag\n\
         test.tag sym @f {flags = [true, false], kind = i1}\n",
    );
    for want in [
        "test.make : f32 {limit = 4, note = \"n\", z}",
        "test.push %2, %0 {k = 1 : i32} : f32",
        "test.get @s[%1, %1] : f32",
        "test.get @s[] : f32",
        "test.step %1, %1 by 2 {",
        "= test.step %1, %1 to %1 by -1 {",
        "} {name = \"n\"}",
        "test.tag sym @f {kind = i1, flags = [true, false]}",
        "test.def @f {x}",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
}

#[test]
fn generic_form_is_the_storage() {
    let mut ctx = Context::new();
    ctx.register_dialect(dialect());
    ctx.allow_unregistered = true;
    let m = parse_source(
        &mut ctx,
        "test.def @s\n%b = test.make : f32 {limit = 4}\n%r = test.get @s[] : f32\n",
        "t.mlir",
    )
    .unwrap();
    let g = print_op(
        &ctx,
        m,
        &PrintOptions {
            generic: true,
            ..Default::default()
        },
    );
    assert!(
        g.contains("\"test.make\"() <{limit = 4 : i64}> : () -> (() -> f32)"),
        "{g}"
    );
    assert!(
        g.contains("\"test.get\"() <{target = @s}> : () -> f32"),
        "{g}"
    );
}

#[test]
fn verifier_messages() {
    let cases: &[(&str, &str)] = &[
        (
            "%v = \"x.v\"() : () -> f32\n\"test.push\"(%v) : (f32) -> ()",
            "'test.push' op expects 2 operands, got 1",
        ),
        (
            "%v = \"x.v\"() : () -> f32\n\"test.push\"(%v, %v) : (f32, f32) -> ()",
            "'test.push' op expects operand 0 to be a box, got f32",
        ),
        (
            "%v = \"x.v\"() : () -> f32\n%b = test.make : i32\n\"test.push\"(%b, %v) : (() -> i32, f32) -> ()",
            "'test.push' op expects the value to have the box's element type",
        ),
        (
            "%v = \"x.v\"() : () -> f32\n\"test.make\"() : () -> f32",
            "'test.make' op expects its result to be a box, got f32",
        ),
        (
            "\"test.make\"() : () -> ()",
            "'test.make' op expects 1 result, got 0",
        ),
        (
            "\"test.make\"() <{limit = -1 : i64}> : () -> (() -> f32)",
            "'test.make' op property 'limit' must be a non-negative i64 integer",
        ),
        (
            "\"test.make\"() <{limit = 1 : i32}> : () -> (() -> f32)",
            "'test.make' op property 'limit' must be a non-negative i64 integer",
        ),
        (
            "\"test.make\"() <{max_size = 1 : i64}> : () -> (() -> f32)",
            "'test.make' op has unknown property 'max_size'",
        ),
        (
            "\"test.make\"() ({\n}) : () -> (() -> f32)",
            "'test.make' op expects no regions, got 1",
        ),
        (
            "\"test.get\"() : () -> f32",
            "'test.get' op requires property 'target'",
        ),
        (
            "\"test.get\"() <{target = \"s\"}> : () -> f32",
            "'test.get' op property 'target' must be a flat symbol reference",
        ),
        (
            "test.def @s\n%v = \"x.v\"() : () -> f32\n\"test.get\"(%v) <{target = @s}> : (f32) -> f32",
            "'test.get' op expects operand 0 to be i32, got f32",
        ),
        (
            "test.def @s\n\"test.get\"() <{target = @s}> : () -> (f32, f32)",
            "'test.get' op expects 1 result, got 2",
        ),
        (
            "%i = \"x.i\"() : () -> i32\n\"test.step\"(%i) <{by = 1 : i64}> ({\n}) : (i32) -> ()",
            "'test.step' op expects 2 to 3 operands, got 1",
        ),
        (
            "%i = \"x.i\"() : () -> i32\n\"test.step\"(%i, %i) <{by = 1 : i64}> ({\n}) : (i32, i32) -> (i32, i32)",
            "'test.step' op expects 0 to 1 results, got 2",
        ),
        (
            "%i = \"x.i\"() : () -> i32\n\"test.step\"(%i, %i) <{by = 1 : i64}> : (i32, i32) -> ()",
            "'test.step' op expects 1 region, got 0",
        ),
        (
            "%i = \"x.i\"() : () -> i32\n\"test.step\"(%i, %i) <{by = 1 : i64}> ({\n^a:\n  \"x.op\"() : () -> ()\n^b:\n  \"x.op\"() : () -> ()\n}) : (i32, i32) -> ()",
            "'test.step' op expects its body region to have at most one block, got 2",
        ),
        (
            "%i = \"x.i\"() : () -> i32\n\"test.step\"(%i, %i) <{by = 1.0 : f32}> ({\n}) : (i32, i32) -> ()",
            "'test.step' op property 'by' must be an integer",
        ),
        (
            "\"test.tag\"() <{flags = [1]}> : () -> ()",
            "'test.tag' op property 'flags' must be an array of booleans",
        ),
        (
            "\"test.tag\"() <{kind = 1}> : () -> ()",
            "'test.tag' op property 'kind' must be a type",
        ),
        (
            "%v = \"x.v\"() : () -> f32\n\"test.plain\"() : () -> ()",
            "'test.plain' op expects at least 1 operand, got 0",
        ),
        (
            "%v = \"x.v\"() : () -> f32\n\"test.plain\"(%v) <{path = [1]}> : (f32) -> ()",
            "'test.plain' op property 'path' must be an array<i64: ...>",
        ),
    ];
    for (src, want) in cases {
        let mut ctx = Context::new();
        ctx.register_dialect(dialect());
        ctx.allow_unregistered = true;
        let m = parse_source(&mut ctx, src, "t.mlir").unwrap_or_else(|| panic!("parses: {src}"));
        let got = crate::verifier::verify(&ctx, m)
            .err()
            .map(|d| d[0].message.clone());
        assert_eq!(got.as_deref(), Some(*want), "{src}");
        // Ill-formed ops still print (generically: they fail their verifier).
        let _ = print_op(&ctx, m, &PrintOptions::default());
    }
}

#[test]
fn custom_form_makes_the_results_the_text_names() {
    // `test.get` without `%r =` has no result: the verifier, not the parser, reports it.
    let mut fx = Fx::new();
    let m = parse_source(&mut fx.ctx, "test.def @s\ntest.get @s[] : f32", "t.mlir").unwrap();
    let e = crate::verifier::verify(&fx.ctx, m).unwrap_err();
    assert_eq!(e[0].message, "'test.get' op expects 1 result, got 0");
    // An extra name gets a `none` result.
    let m = parse_source(&mut fx.ctx, "%a = test.tag", "t.mlir").unwrap();
    let e = crate::verifier::verify(&fx.ctx, m).unwrap_err();
    assert_eq!(e[0].message, "'test.tag' op expects 0 results, got 1");
}

#[test]
fn malformed_custom_text_is_a_diagnostic() {
    for (src, want) in [
        ("%b = test.make f32", "expected ':'"),
        (
            "%b = test.make : () -> f32",
            "expected an element type, not a box",
        ),
        (
            "%v = \"x.v\"() : () -> f32\n%b = test.make : f32\ntest.push %b %v : f32",
            "expected ','",
        ),
        ("%r = test.get s[] : f32", "expected"),
        ("%r = test.get @s[ : f32", "expected"),
        (
            "%i = \"x.i\"() : () -> f32\n%r = test.get @s[%i] : f32",
            "use of value '%i' expects different type than prior uses",
        ),
        (
            "%i = \"x.i\"() : () -> i32\ntest.step %i, %i to by 1 {\n}",
            "expected SSA operand",
        ),
        (
            "%i = \"x.i\"() : () -> i32\ntest.step %i, %i by x {\n}",
            "integer",
        ),
    ] {
        let mut ctx = Context::new();
        ctx.register_dialect(dialect());
        ctx.allow_unregistered = true;
        assert!(parse_source(&mut ctx, src, "t.mlir").is_none(), "{src}");
        let msgs: Vec<String> = ctx
            .diagnostics()
            .iter()
            .map(|d| d.message.clone())
            .collect();
        assert!(msgs.iter().any(|m| m.contains(want)), "{src}: {msgs:?}");
    }
}

#[test]
fn unbox_inference_is_available_to_dialects() {
    let mut ctx = Context::new();
    let f = ctx.f32_type();
    let b = box_of(&mut ctx, f);
    assert_eq!(unbox(&mut ctx, b), f);
}

crate::declare_op! {
    pub struct BadFormatOp = "test.bad" {
        summary: "an operand missing from its format",
        operands: [a: single(constraint::ANY)],
        format: "attr-dict",
    }
}

crate::declare_op! {
    pub struct UntypedOp = "test.untyped" {
        summary: "a type the format does not determine",
        operands: [a: single(constraint::ANY)],
        format: "$a attr-dict",
    }
}

crate::declare_op! {
    pub struct TwoVariadicOp = "test.two" {
        summary: "two variadic groups",
        operands: [a: variadic(constraint::ANY), b: variadic(constraint::ANY)],
    }
}

crate::declare_op! {
    pub struct HooklessUserOp = "test.hookless" {
        summary: "a symbol user without its hook",
        traits: [OpTraits::SYMBOL_USER],
    }
}

#[test]
fn symbol_use_hook_resolves_through_the_verifier() {
    let info = GetOp::op_info();
    assert!(info.verify_symbol_uses.is_some() && info.verify.is_some());
    for (src, want) in [
        ("test.def @s\n%r = test.get @s[] : f32", None),
        (
            "\"x.sym\"() {sym_name = \"u\"} : () -> ()\n%r = test.get @u[] : f32",
            Some("'test.get' op expects @u to be a 'test.def'"),
        ),
        (
            "%r = test.get @nope[] : f32",
            Some("'test.get' op '@nope' does not reference a valid symbol"),
        ),
    ] {
        let mut ctx = Context::new();
        ctx.register_dialect(dialect());
        ctx.allow_unregistered = true;
        let m = parse_source(&mut ctx, src, "t.mlir").expect(src);
        let got = crate::verifier::verify(&ctx, m)
            .err()
            .map(|d| d.iter().map(|d| d.message.clone()).collect::<Vec<_>>());
        assert_eq!(got, want.map(|w| vec![w.to_string()]), "{src}");
    }
}

#[test]
fn malformed_declarations_panic_at_registration() {
    for (f, want) in [
        (
            BadFormatOp::op_info as fn() -> crate::OpInfo,
            "operand 'a' must appear exactly once",
        ),
        (UntypedOp::op_info, "the type of 'a' is not determined"),
        (
            TwoVariadicOp::op_info,
            "at most one optional or variadic operand group",
        ),
        (
            HooklessUserOp::op_info,
            "a SYMBOL_USER op needs a verify_symbol_uses hook",
        ),
    ] {
        let msg = std::panic::catch_unwind(f)
            .err()
            .and_then(|e| e.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        assert!(msg.contains(want), "{msg}");
    }
}
