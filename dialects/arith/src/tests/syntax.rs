//! Custom and generic syntax through qd-ir's text module: print(parse(x)) is stable in both
//! forms, the two forms denote the same ops, and the custom form is upstream's.

use qd_ir::text::{parse_source, print_op, PrintOptions};
use qd_ir::{Context, OpId};

const SOURCE: &str = r#"
"test.func"() ({
^bb0(%a: i32, %b: i32, %l: i64, %i: index, %c: i1, %x: f32, %y: f32, %d: f64, %h: f16):
  %0 = arith.constant 42 : i32
  %1 = arith.constant true
  %2 = arith.constant -1.5 : f32
  %3 = arith.constant 7 : index
  %4 = arith.addi %a, %b overflow<nsw> : i32
  %5 = arith.subi %a, %b : i32
  %6 = arith.muli %i, %i overflow<nsw, nuw> : index
  %7 = arith.divsi %a, %b : i32
  %8 = arith.divui %a, %b : i32
  %9 = arith.remsi %a, %b : i32
  %10 = arith.remui %a, %b : i32
  %11 = arith.minsi %a, %b : i32
  %12 = arith.maxsi %a, %b : i32
  %13 = arith.andi %c, %c : i1
  %14 = arith.ori %a, %b : i32
  %15 = arith.xori %a, %b {note} : i32
  %16 = arith.shli %a, %b : i32
  %17 = arith.shrsi %a, %b : i32
  %18 = arith.shrui %a, %b : i32
  %19 = arith.addf %x, %y fastmath<fast> : f32
  %20 = arith.subf %x, %y : f32
  %21 = arith.mulf %x, %y fastmath<nnan,ninf> : f32
  %22 = arith.divf %x, %y : f32
  %23 = arith.remf %x, %y : f32
  %24 = arith.negf %x : f32
  %25 = arith.minimumf %x, %y : f32
  %26 = arith.maximumf %x, %y : f32
  %27 = arith.cmpi sle, %a, %b : i32
  %28 = arith.cmpf une, %x, %y fastmath<nnan> : f32
  %29 = arith.select %c, %x, %y : f32
  %30 = arith.sitofp %a : i32 to f32
  %31 = arith.uitofp %a : i32 to f64
  %32 = arith.fptosi %x : f32 to i32
  %33 = arith.fptoui %d : f64 to i64
  %34 = arith.extf %h fastmath<none> : f16 to f32
  %35 = arith.truncf %d upward : f64 to f32
  %36 = arith.extsi %a : i32 to i64
  %37 = arith.extui %c : i1 to i32
  %38 = arith.trunci %l overflow<nuw> : i64 to i32
  %39 = arith.index_cast %i : index to i32
  %40 = arith.bitcast %x : f32 to i32
  %41 = arith.maxnumf %x, %y fastmath<nnan> : f32
  %42 = arith.minnumf %d, %d : f64
  %43 = arith.maxui %a, %b : i32
  %44 = arith.minui %i, %i : index
  %45 = arith.ceildivsi %a, %b : i32
  %46 = arith.floordivsi %a, %b : i32
  %47 = arith.ceildivui %i, %i : index
  %48 = arith.index_castui %a : i32 to index
  "test.end"() : () -> ()
}) : () -> ()
"#;

fn parse(ctx: &mut Context, src: &str) -> OpId {
    match parse_source(ctx, src, "test.mlir") {
        Some(m) => m,
        None => panic!("parse failed: {:?}\n{src}", ctx.take_diagnostics()),
    }
}

fn verify_all(ctx: &Context, m: OpId) {
    for op in ctx.walk_pre_order(m) {
        if let Some(v) = ctx.info(op).and_then(|i| i.verify) {
            if let Err(d) = v(ctx, op) {
                panic!("{}", d.message);
            }
        }
    }
}

fn ctx() -> Context {
    let mut ctx = Context::new();
    crate::register(&mut ctx);
    ctx.allow_unregistered = true;
    ctx
}

const CUSTOM: PrintOptions = PrintOptions {
    generic: false,
    debug_info: false,
};
const GENERIC: PrintOptions = PrintOptions {
    generic: true,
    debug_info: false,
};

#[test]
fn both_forms_are_stable_and_agree() {
    let mut c = ctx();
    let m = parse(&mut c, SOURCE);
    verify_all(&c, m);
    let custom = print_op(&c, m, &CUSTOM);
    let generic = print_op(&c, m, &GENERIC);

    let mut c2 = ctx();
    let m2 = parse(&mut c2, &custom);
    verify_all(&c2, m2);
    assert_eq!(print_op(&c2, m2, &CUSTOM), custom);
    assert_eq!(print_op(&c2, m2, &GENERIC), generic);

    let mut c3 = ctx();
    let m3 = parse(&mut c3, &generic);
    verify_all(&c3, m3);
    assert_eq!(print_op(&c3, m3, &GENERIC), generic);
    assert_eq!(print_op(&c3, m3, &CUSTOM), custom);
}

#[test]
fn custom_and_generic_text_is_upstreams() {
    let mut c = ctx();
    let m = parse(&mut c, SOURCE);
    let custom = print_op(&c, m, &CUSTOM);
    let generic = print_op(&c, m, &GENERIC);
    for line in [
        "%c42_i32 = arith.constant 42 : i32",
        "%true = arith.constant true",
        "%c7 = arith.constant 7 : index",
        "%0 = arith.addi %arg0, %arg1 overflow<nsw> : i32",
        "%2 = arith.muli %arg3, %arg3 overflow<nsw, nuw> : index",
        "%11 = arith.xori %arg0, %arg1 {note} : i32",
        "%17 = arith.mulf %arg5, %arg6 fastmath<nnan,ninf> : f32",
        "%24 = arith.cmpf une, %arg5, %arg6 fastmath<nnan> : f32",
        "%25 = arith.select %arg4, %arg5, %arg6 : f32",
        "%30 = arith.extf %arg8 fastmath<none> : f16 to f32",
        "%31 = arith.truncf %arg7 upward : f64 to f32",
        "%34 = arith.trunci %arg2 overflow<nuw> : i64 to i32",
        "%37 = arith.maxnumf %arg5, %arg6 fastmath<nnan> : f32",
        "%38 = arith.minnumf %arg7, %arg7 : f64",
        "%39 = arith.maxui %arg0, %arg1 : i32",
        "%40 = arith.minui %arg3, %arg3 : index",
        "%41 = arith.ceildivsi %arg0, %arg1 : i32",
        "%42 = arith.floordivsi %arg0, %arg1 : i32",
        "%43 = arith.ceildivui %arg3, %arg3 : index",
        "%44 = arith.index_castui %arg0 : i32 to index",
    ] {
        assert!(custom.contains(line), "missing `{line}` in\n{custom}");
    }
    for line in [
        r#"%0 = "arith.constant"() <{value = 42 : i32}> : () -> i32"#,
        r#"%1 = "arith.constant"() <{value = true}> : () -> i1"#,
        r#"%4 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32"#,
        r#"%5 = "arith.subi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32"#,
        r#"%7 = "arith.divsi"(%arg0, %arg1) : (i32, i32) -> i32"#,
        r#"%20 = "arith.subf"(%arg5, %arg6) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32"#,
        r#"%27 = "arith.cmpi"(%arg0, %arg1) <{predicate = 3 : i64}> : (i32, i32) -> i1"#,
        r#"%28 = "arith.cmpf"(%arg5, %arg6) <{fastmath = #arith.fastmath<nnan>, predicate = 13 : i64}> : (f32, f32) -> i1"#,
        r#"%30 = "arith.sitofp"(%arg0) : (i32) -> f32"#,
        r#"%35 = "arith.truncf"(%arg7) <{roundingmode = 2 : i32}> : (f64) -> f32"#,
        r#"%38 = "arith.trunci"(%arg2) <{overflowFlags = #arith.overflow<nuw>}> : (i64) -> i32"#,
        r#"%41 = "arith.maxnumf"(%arg5, %arg6) <{fastmath = #arith.fastmath<nnan>}> : (f32, f32) -> f32"#,
        r#"%42 = "arith.minnumf"(%arg7, %arg7) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64"#,
        r#"%43 = "arith.maxui"(%arg0, %arg1) : (i32, i32) -> i32"#,
        r#"%45 = "arith.ceildivsi"(%arg0, %arg1) : (i32, i32) -> i32"#,
        r#"%47 = "arith.ceildivui"(%arg3, %arg3) : (index, index) -> index"#,
        r#"%48 = "arith.index_castui"(%arg0) : (i32) -> index"#,
    ] {
        assert!(generic.contains(line), "missing `{line}` in\n{generic}");
    }
}

#[test]
fn parse_errors_are_diagnostics() {
    for (src, want) in [
        ("%0 = arith.addi %a overflow<nsw> : i32", "expected ','"),
        (
            "%a = \"test.v\"() : () -> i32\n%0 = arith.addi %a, %a overflow<wrap> : i32",
            "IntegerOverflowFlags",
        ),
        (
            "%0 = arith.constant \"s\"",
            "expected an integer, index or float constant",
        ),
        (
            "%a = \"test.v\"() : () -> i32\n%0 = arith.cmpi lt, %a, %a : i32",
            "enum values for attribute 'predicate'",
        ),
        (
            "%a = \"test.v\"() : () -> f32\n%0 = arith.sitofp %a : f32 f64",
            "expected 'to'",
        ),
        (
            "%a = \"test.v\"() : () -> i1\n%0 = arith.select %a, %a : i1",
            "expected ','",
        ),
    ] {
        let mut c = ctx();
        assert!(parse_source(&mut c, src, "bad.mlir").is_none(), "{src}");
        let d = c.take_diagnostics();
        assert!(d.iter().any(|d| d.message.contains(want)), "{src}: {d:?}");
    }
}
