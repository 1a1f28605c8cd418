//! Tests of the IRDL emitter and the IRDL form on a small `tst` dialect: every arity, required
//! and optional properties, regions, declared types (with an op of the same name) and a typed
//! attribute. That upstream mlir-opt loads the IRDL and verifies the form is checked by the lit
//! tests of lit-tests/irdl.

use super::*;
use crate::attributes::DialectAttr;
use crate::op_def::{constraint, prop, TypeConstraint};
use crate::text::{print_op, PrintOptions};
use crate::{Context, DialectDef, TypeData, TypeParam};

fn is_cell(ctx: &Context, t: crate::Type) -> bool {
    matches!(ctx.type_data(t), TypeData::Dialect { mnemonic, .. } if ctx.ident_str(*mnemonic) == "cell")
}
const CELL: TypeConstraint =
    TypeConstraint::new("a !tst.cell", is_cell).irdl(Irdl::Dialect("tst", "cell"));
const CELL_OF_I32: TypeConstraint = TypeConstraint::new("a !tst.cell<i32>", is_cell)
    .irdl(Irdl::Parametric("tst", "cell", &[Irdl::Is("i32")]));
const NO_IRDL: TypeConstraint = TypeConstraint::new("a thing", is_cell);

crate::declare_op! {
    pub struct GetOp = "tst.get" {
        summary: "reads",
        operands: [cell: single(CELL), indices: variadic(constraint::I32)],
        results: [value: optional(constraint::FLOAT)],
        properties: [at: required(prop::NonNeg<i64>), note: optional(prop::Str)],
    }
}

crate::declare_op! {
    pub struct CellOp = "tst.cell" {
        summary: "a cell op, named like the type",
        operands: [values: variadic(constraint::ANY)],
        results: [cell: single(CELL_OF_I32), other: single(NO_IRDL)],
        regions: [body: single_block, rest: any],
        properties: [flag: required(prop::Flag), sym: required(prop::SymbolRef)],
    }
}

const TYPES: &[TypeDecl] = &[
    TypeDecl {
        mnemonic: "cell",
        summary: "a cell",
        params: &[ParamDecl::ty("elem")],
    },
    TypeDecl {
        mnemonic: "grid",
        summary: "a grid",
        params: &[
            ParamDecl::dims("shape"),
            ParamDecl::int("n"),
            ParamDecl::string("tag"),
            ParamDecl::rest("more"),
        ],
    },
];

#[derive(Debug, PartialEq, Eq, Hash)]
struct Note(String);
impl DialectAttr for Note {
    fn dialect(&self) -> &'static str {
        "tst"
    }
    fn print(&self, out: &mut String) {
        out.push_str("note<");
        out.push_str(&self.0);
        out.push('>');
    }
}

fn context() -> Context {
    let mut ctx = Context::new();
    let mut d = DialectDef::new("tst");
    d.ops = vec![GetOp::op_info(), CellOp::op_info()];
    d.types = TYPES;
    d.attrs = &[AttrDecl {
        mnemonic: "note",
        summary: "a note",
    }];
    ctx.register_dialect(d);
    ctx.allow_unregistered = true;
    ctx
}

fn irdl() -> String {
    let ctx = context();
    assert_eq!(irdl_dialects(&ctx), vec!["tst"], "builtin is upstream's");
    print_irdl(&ctx, &["tst"]).expect("emits")
}

/// The lines of `irdl.operation @name`'s body.
fn op_body(text: &str, name: &str) -> Vec<String> {
    let start = text
        .find(&format!("irdl.operation @{name} {{"))
        .unwrap_or_else(|| panic!("no @{name} in\n{text}"));
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.trim() != "}")
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn operands_results_and_attributes_follow_the_declaration() {
    let text = irdl();
    let get = op_body(&text, "get");
    let expect = [
        "%cell = irdl.base @tst::@cell_type",
        "%indices = irdl.is i32",
        "%value.0 = irdl.is f16",
        "%value = irdl.any_of(%value.0, %value.1, %value.2, %value.3)",
        "%at = irdl.base \"#builtin.integer\"  // wider than a non-negative i64 integer: \
         IRDL cannot require a non-negative i64",
        "irdl.operands(cell: %cell, indices: variadic %indices)",
        "irdl.results(value: optional %value)",
        "irdl.attributes {\"at\" = %at}",
        "// optional, so not listed (IRDL attributes are all required): note",
    ];
    for e in expect {
        assert!(get.iter().any(|l| l == e), "missing `{e}` in {get:#?}");
    }
    assert!(
        !get.iter().any(|l| l.starts_with("irdl.regions")),
        "{get:#?}"
    );
}

#[test]
fn regions_unknown_constraints_and_variadic_binding_are_commented() {
    let text = irdl();
    let cell = op_body(&text, "cell");
    let expect = [
        "%values = irdl.any",
        "// IRDL binds a variadic group's constraint to its first value: every value of 'values' \
         must have that value's type",
        "%cell.0 = irdl.is i32",
        "%cell = irdl.parametric @tst::@cell_type<%cell.0>",
        "%other = irdl.any  // widened: 'a thing' has no IRDL form",
        "%body = irdl.region  // at most one block: `with size 1` would reject an empty region",
        "%rest = irdl.region",
        "%flag = irdl.is unit",
        "irdl.regions(body: %body, rest: %rest)",
        "irdl.attributes {\"flag\" = %flag, \"sym\" = %sym}",
    ];
    for e in expect {
        assert!(cell.iter().any(|l| l == e), "missing `{e}` in {cell:#?}");
    }
}

#[test]
fn types_and_attributes_are_declared_with_their_irdl_names() {
    let text = irdl();
    // The type shares its name with the op `tst.cell`: IRDL's symbol table is shared.
    assert!(
        text.contains(
            "  irdl.type @cell_type {\n    %elem = irdl.any\n    irdl.parameters(elem: %elem)\n  }"
        ),
        "{text}"
    );
    assert!(text.contains(
        "    %shape = irdl.base \"#builtin.dense_array\"\n    %n = irdl.base \"#builtin.integer\"\n    \
         %tag = irdl.base \"#builtin.string\"\n    %more = irdl.base \"#builtin.array\"\n    \
         irdl.parameters(shape: %shape, n: %n, tag: %tag, more: %more)"
    ), "{text}");
    assert!(text.contains("  irdl.attribute @note {\n    %body = irdl.base \"#builtin.string\"\n    irdl.parameters(body: %body)\n  }"), "{text}");
    assert!(text.starts_with("// qd's dialects in IRDL"));
    assert!(text.trim_end().ends_with('}'));
}

#[test]
fn undeclared_ops_and_types_are_errors() {
    let mut ctx = context();
    let mut d = DialectDef::new("bad");
    d.ops = vec![crate::OpInfo::new("bad.hand_written", "no declaration")];
    ctx.register_dialect(d);
    let e = print_irdl(&ctx, &["bad"]).unwrap_err();
    assert!(
        e.contains("'bad.hand_written' is not declared with declare_op!"),
        "{e}"
    );
    // `tst` names its own types only; without the dialect that declares them, an error.
    let mut ctx = Context::new();
    let mut d = DialectDef::new("tst");
    d.ops = vec![GetOp::op_info()];
    ctx.register_dialect(d);
    let e = print_irdl(&ctx, &["tst"]).unwrap_err();
    assert!(
        e.contains("!tst.cell, which no emitted dialect declares"),
        "{e}"
    );
    assert!(print_irdl(&ctx, &["nope"])
        .unwrap_err()
        .contains("'nope' is not registered"));
}

fn tst_type(ctx: &mut Context, mnemonic: &str, params: Vec<TypeParam>) -> crate::Type {
    let dialect = ctx.ident("tst");
    let mnemonic = ctx.ident(mnemonic);
    ctx.intern_type(TypeData::Dialect {
        dialect,
        mnemonic,
        params,
    })
}

/// The IRDL form of a module with `tst.get` (properties, a typed attribute, dialect types in
/// block arguments, results and a function type) under an unregistered op and `tst.cell` with
/// regions.
#[test]
fn the_irdl_form_moves_properties_closes_blocks_and_encodes_types() {
    let mut ctx = context();
    let f32t = ctx.f32_type();
    let i32t = ctx.i32_type();
    let cell = tst_type(&mut ctx, "cell", vec![TypeParam::Type(f32t)]);
    let grid = tst_type(
        &mut ctx,
        "grid",
        vec![
            TypeParam::Dims(vec![Some(4), None]),
            TypeParam::Int(3),
            TypeParam::Str("t q".into()),
            TypeParam::Type(cell),
            TypeParam::Int(-1),
        ],
    );
    let bad = tst_type(&mut ctx, "grid", vec![TypeParam::Int(1)]);
    let note = ctx.typed_attr(Note("x + 1".into()));
    let fty = ctx.function_type(vec![grid], vec![]);
    let fattr = ctx.type_attr(fty);
    let loc = ctx.unknown_loc();
    let (module, body) = crate::builtin::create_module(&mut ctx, loc);
    let mut st = crate::OperationState::new("x.holder", loc);
    st.add_attr(&mut ctx, "sig", fattr);
    let (region, block) = ctx.create_region_with_block(&[(cell, loc), (bad, loc)]);
    st.regions.push(region);
    let holder = ctx.create_op(st);
    ctx.append_op(body, holder);
    let c = ctx.block_arg(block, 0);
    let mut b = crate::Builder::at_end(&mut ctx, block);
    let get = GetOp::build(&mut b, c, &[], Some(f32t), 2, Some("n"), loc);
    ctx.set_attr(get.0, "extra", note);
    let mut st = crate::OperationState::new("tst.cell", loc).results(&[i32t, i32t]);
    let (r1, _) = ctx.create_region_with_block(&[]);
    let r2 = ctx.create_region();
    st.regions.extend([r1, r2]);
    let cell_op = ctx.create_op(st);
    ctx.append_op(block, cell_op);

    to_irdl_form(&mut ctx, module, &["tst"]);
    let text = print_op(
        &ctx,
        module,
        &PrintOptions {
            generic: true,
            debug_info: false,
        },
    );
    let expect = [
        // The unregistered holder keeps its form; its attribute's types are encoded.
        "{sig = (!tst.grid<array<i64: 4, -9223372036854775808>, 3 : i64, \"t q\", [!tst.cell_type<f32>, -1 : i64]>) -> ()}",
        // A type that does not match its declaration stays as it was.
        "^bb0(%arg0: !tst.cell_type<f32>, %arg1: !tst.grid<1>):",
        // Properties become attributes; the typed attribute's text a string parameter.
        "\"tst.get\"(%arg0) {at = 2 : i64, extra = #tst.note<\"x + 1\">, note = \"n\"} : (!tst.cell_type<f32>) -> f32",
        // Each block of tst.cell's regions (one; the other has none) is closed.
        "\"tst.cell\"() ({\n      \"llvm.unreachable\"() : () -> ()\n    }, {\n    }) : () -> (i32, i32)",
    ];
    for e in expect {
        assert!(text.contains(e), "missing `{e}` in\n{text}");
    }
    // The holder is not ours: its block is not closed.
    assert_eq!(text.matches("llvm.unreachable").count(), 1, "{text}");
    assert!(!text.contains("<{"), "no properties left: {text}");
}
