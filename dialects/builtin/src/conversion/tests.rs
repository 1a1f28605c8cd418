use super::*;
use crate::builder::OperationState;
use crate::context::Context;
use crate::entity::*;
use crate::text::{parse_source, print_op, PrintOptions};

fn ctx() -> Context {
    let mut c = Context::new();
    c.allow_unregistered = true;
    c
}

fn parse(ctx: &mut Context, src: &str) -> OpId {
    parse_source(ctx, src, "c.mlir").unwrap_or_else(|| panic!("{:?}", ctx.diagnostics()))
}

fn print(ctx: &Context, op: OpId) -> String {
    print_op(ctx, op, &PrintOptions::default())
}

/// The body of the printed module, without the `module {` and `}` lines and the indentation.
fn body(ctx: &Context, m: OpId) -> Vec<String> {
    let text = print(ctx, m);
    let lines: Vec<&str> = text.lines().collect();
    lines[1..lines.len() - 1]
        .iter()
        .map(|l| l.strip_prefix("  ").unwrap_or(l).to_string())
        .collect()
}

/// `from(...)` -> `to(...)` over the converted operands, result types converted 1:1 (kept when
/// they do not convert), attributes kept.
struct Rename {
    from: &'static str,
    to: &'static str,
}

impl ConversionPattern for Rename {
    fn name(&self) -> &'static str {
        "rename"
    }
    fn root(&self) -> Option<&'static str> {
        Some(self.from)
    }
    fn match_and_rewrite(
        &self,
        op: OpId,
        operands: &[Value],
        rw: &mut ConversionRewriter<'_>,
    ) -> bool {
        let types: Vec<Type> = rw
            .ctx()
            .results(op)
            .iter()
            .map(|&r| rw.ctx().value_type(r))
            .collect();
        let types: Vec<Type> = types
            .into_iter()
            .map(|t| rw.convert_type_1(t).unwrap_or(t))
            .collect();
        let mut st = OperationState::new(self.to, rw.ctx().loc(op))
            .operands(operands)
            .results(&types);
        st.attributes = rw.ctx().attrs(op).to_vec();
        rw.replace_op_with_new(op, st);
        true
    }
}

fn rename(from: &'static str, to: &'static str) -> Box<dyn ConversionPattern> {
    Box::new(Rename { from, to })
}

/// i32 -> i64, everything else kept.
fn widen() -> TypeConverter {
    let mut tc = TypeConverter::new();
    tc.add_identity_conversion().add_conversion(|ctx, ty| {
        (ctx.type_data(ty).bit_width() == Some(32)).then(|| ctx.i64_type())
    });
    tc
}

const SIMPLE: &str = r#"
%a = "x.arg"() : () -> i32
%b = "src.inc"(%a) : (i32) -> i32
%c = "x.other"(%b) : (i32) -> i32
"x.use"(%c) : (i32) -> ()
"#;

#[test]
fn partial_conversion_leaves_unknown_ops() {
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("lo").add_illegal_dialect("src");
    let patterns = vec![rename("src.inc", "lo.inc")];
    let r = apply_partial_conversion(&mut c, m, &target, &patterns, &TypeConverter::new()).unwrap();
    assert_eq!(r.rewrites, 1);
    assert_eq!(
        body(&c, m),
        [
            r#"%0 = "x.arg"() : () -> i32"#,
            r#"%1 = "lo.inc"(%0) : (i32) -> i32"#,
            r#"%2 = "x.other"(%1) : (i32) -> i32"#,
            r#""x.use"(%2) : (i32) -> ()"#,
        ]
    );
    assert!(c.diagnostics().is_empty());
}

#[test]
fn full_conversion_fails_on_every_op_not_legal() {
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    let mut target = ConversionTarget::new();
    target
        .add_legal_dialect("lo")
        .add_legal_op("builtin.module")
        .add_legal_op("x.arg");
    let patterns = vec![rename("src.inc", "lo.inc")];
    let err =
        apply_full_conversion(&mut c, m, &target, &patterns, &TypeConverter::new()).unwrap_err();
    assert_eq!(err.message, "failed to legalize operation 'x.other'");
    assert_eq!(c.file_line_col(err.loc), Some(("c.mlir", 4, 6)));
    let msgs: Vec<&str> = c.diagnostics().iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "failed to legalize operation 'x.other'",
            "failed to legalize operation 'x.use'"
        ]
    );
    // With those legal too, it succeeds.
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    target.add_legal_dialect("x");
    apply_full_conversion(&mut c, m, &target, &patterns, &TypeConverter::new()).unwrap();
    assert!(c.diagnostics().is_empty());
}

#[test]
fn a_leftover_illegal_op_is_a_located_error() {
    let mut c = ctx();
    let m = parse(
        &mut c,
        r#"
%a = "x.arg"() : () -> i32
"src.load"(%a) : (i32) -> ()
"#,
    );
    let mut target = ConversionTarget::new();
    target.add_illegal_dialect("src");
    let err = apply_partial_conversion(&mut c, m, &target, &[], &TypeConverter::new()).unwrap_err();
    assert_eq!(
        err.message,
        "failed to legalize operation 'src.load' that was explicitly marked illegal"
    );
    assert_eq!(c.file_line_col(err.loc), Some(("c.mlir", 3, 1)));
    assert_eq!(c.diagnostics(), [err]);
}

#[test]
fn type_conversion_bridges_with_materializations() {
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("lo").add_illegal_dialect("src");
    let patterns = vec![rename("src.inc", "lo.inc")];
    let r = apply_partial_conversion(&mut c, m, &target, &patterns, &widen()).unwrap();
    // The operand gets a target materialization, the unconverted user a source one.
    assert_eq!(
        body(&c, m),
        [
            r#"%0 = "x.arg"() : () -> i32"#,
            r#"%1 = unrealized_conversion_cast %0 : i32 to i64"#,
            r#"%2 = "lo.inc"(%1) : (i64) -> i64"#,
            r#"%3 = unrealized_conversion_cast %2 : i64 to i32"#,
            r#"%4 = "x.other"(%3) : (i32) -> i32"#,
            r#""x.use"(%4) : (i32) -> ()"#,
        ]
    );
    assert_eq!((r.rewrites, r.casts_left, r.casts_removed), (1, 2, 0));
    // A full conversion reports the casts that stay live.
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    target.add_legal_dialect("x").add_legal_op("builtin.module");
    let err = apply_full_conversion(&mut c, m, &target, &patterns, &widen()).unwrap_err();
    assert_eq!(
        err.message,
        "failed to legalize unresolved materialization from (i32) to (i64) that remained live after conversion"
    );
    assert_eq!(c.diagnostics().len(), 2);
    // Unless the target accepts them.
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    target.add_legal_op("builtin.unrealized_conversion_cast");
    apply_full_conversion(&mut c, m, &target, &patterns, &widen()).unwrap();
}

#[test]
fn converted_users_see_converted_values_and_dead_casts_go() {
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("lo").add_illegal_dialect("src");
    let patterns = vec![rename("src.inc", "lo.inc"), rename("x.other", "lo.other")];
    let r = apply_partial_conversion(&mut c, m, &target, &patterns, &widen()).unwrap();
    assert_eq!(
        body(&c, m),
        [
            r#"%0 = "x.arg"() : () -> i32"#,
            r#"%1 = unrealized_conversion_cast %0 : i32 to i64"#,
            r#"%2 = "lo.inc"(%1) : (i64) -> i64"#,
            r#"%3 = "lo.other"(%2) : (i64) -> i64"#,
            r#"%4 = unrealized_conversion_cast %3 : i64 to i32"#,
            r#""x.use"(%4) : (i32) -> ()"#,
        ]
    );
    assert_eq!((r.rewrites, r.casts_left, r.casts_removed), (2, 2, 1));
}

#[test]
fn a_cast_of_a_cast_back_folds_away() {
    // Two conversions in a row: the second one's target materialization of the first one's
    // source materialization is a round trip.
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("lo").add_illegal_dialect("src");
    let first = vec![rename("src.inc", "lo.inc")];
    apply_partial_conversion(&mut c, m, &target, &first, &widen()).unwrap();
    let second = vec![rename("x.other", "lo.other")];
    let r = apply_partial_conversion(&mut c, m, &target, &second, &widen()).unwrap();
    assert_eq!(
        body(&c, m),
        [
            r#"%0 = "x.arg"() : () -> i32"#,
            r#"%1 = unrealized_conversion_cast %0 : i32 to i64"#,
            r#"%2 = "lo.inc"(%1) : (i64) -> i64"#,
            r#"%3 = "lo.other"(%2) : (i64) -> i64"#,
            r#"%4 = unrealized_conversion_cast %3 : i64 to i32"#,
            r#""x.use"(%4) : (i32) -> ()"#,
        ]
    );
    // The folded cast and the first run's cast it made dead.
    assert_eq!(r.casts_removed, 2);
}

/// `src.region` -> `lo.region`, its block signatures converted (checked before any change).
struct RegionPat;

impl ConversionPattern for RegionPat {
    fn name(&self) -> &'static str {
        "region"
    }
    fn root(&self) -> Option<&'static str> {
        Some("src.region")
    }
    fn match_and_rewrite(&self, op: OpId, _: &[Value], rw: &mut ConversionRewriter<'_>) -> bool {
        let region = rw.ctx().region(op, 0);
        if !rw.convert_region_types(region) {
            return false;
        }
        let to = rw.create_region();
        let st = OperationState::new("lo.region", rw.ctx().loc(op)).region(to);
        rw.create_before(op, st);
        rw.inline_region_before(region, to, None);
        rw.erase_op(op);
        true
    }
}

const REGION: &str = r#"
"src.region"() ({
^bb0(%x: i32, %y: i128, %z: index):
  %0 = "src.inc"(%x) : (i32) -> i32
  "x.use"(%x, %y) : (i32, i128) -> ()
  "x.term"() : () -> ()
}) : () -> ()
"#;

/// i32 -> i64, i128 -> (i64, i64), index dropped, the rest kept.
fn split() -> TypeConverter {
    let mut tc = widen();
    tc.add_conversion_n(|ctx, ty| {
        (ctx.type_data(ty).bit_width() == Some(128)).then(|| vec![ctx.i64_type(); 2])
    })
    .add_conversion_n(|ctx, ty| ctx.type_data(ty).is_index().then(Vec::new));
    tc
}

#[test]
fn region_signatures_convert_one_to_one_one_to_many_and_dropped() {
    let mut c = ctx();
    let m = parse(&mut c, REGION);
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("lo").add_illegal_dialect("src");
    let patterns: Vec<Box<dyn ConversionPattern>> =
        vec![Box::new(RegionPat), rename("src.inc", "lo.inc")];
    let r = apply_partial_conversion(&mut c, m, &target, &patterns, &split()).unwrap();
    assert_eq!(r.rewrites, 2);
    assert_eq!(
        body(&c, m),
        [
            r#""lo.region"() ({"#,
            r#"^bb0(%arg0: i64, %arg1: i64, %arg2: i64):"#,
            r#"  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32"#,
            r#"  %1 = builtin.unrealized_conversion_cast %arg1, %arg2 : i64, i64 to i128"#,
            r#"  %2 = "lo.inc"(%arg0) : (i64) -> i64"#,
            r#"  "x.use"(%0, %1) : (i32, i128) -> ()"#,
            r#"  "x.term"() : () -> ()"#,
            r#"}) : () -> ()"#,
        ]
    );
    // New arguments take the location of the argument they come from (%y for the third).
    let lo = c.first_op(crate::builtin::module_body(&c, m)).unwrap();
    let b = c.entry_block(c.region(lo, 0)).unwrap();
    let at = |i| c.file_line_col(c.value_loc(c.block_arg(b, i)));
    assert_eq!(at(0), Some(("c.mlir", 3, 6)));
    assert_eq!(at(2), Some(("c.mlir", 3, 15)));
}

#[test]
fn an_unconvertible_signature_leaves_the_op() {
    let mut c = ctx();
    let m = parse(&mut c, REGION);
    let before = print(&c, m);
    let mut target = ConversionTarget::new();
    target.add_illegal_op("src.region");
    let patterns: Vec<Box<dyn ConversionPattern>> = vec![Box::new(RegionPat)];
    // Only i32 converts (no identity rule): the pattern declines and changes nothing.
    let mut tc = TypeConverter::new();
    tc.add_conversion(|ctx, ty| {
        (ctx.type_data(ty).bit_width() == Some(32)).then(|| ctx.i64_type())
    });
    let err = apply_partial_conversion(&mut c, m, &target, &patterns, &tc).unwrap_err();
    assert_eq!(
        err.message,
        "failed to legalize operation 'src.region' that was explicitly marked illegal"
    );
    assert_eq!(print(&c, m), before);
}

/// Removes the `bad` attribute of `x.op`.
struct Fix;

impl ConversionPattern for Fix {
    fn name(&self) -> &'static str {
        "fix"
    }
    fn root(&self) -> Option<&'static str> {
        Some("x.op")
    }
    fn match_and_rewrite(&self, op: OpId, _: &[Value], rw: &mut ConversionRewriter<'_>) -> bool {
        if rw.ctx().attr(op, "fixable").is_none() {
            return false;
        }
        rw.modify_op_in_place(op, |ctx| {
            ctx.remove_attr(op, "bad");
            ctx.remove_attr(op, "fixable");
        });
        true
    }
}

#[test]
fn dynamic_legality() {
    let src = r#"
"x.op"() {bad, fixable} : () -> ()
"x.op"() : () -> ()
"src.keep"() : () -> ()
%0 = "y.a"() : () -> i32
"#;
    let target = || {
        let mut t = ConversionTarget::new();
        t.add_dynamically_legal_op("x.op", |ctx, op| ctx.attr(op, "bad").is_none())
            .add_illegal_dialect("src")
            .add_legal_op("src.keep")
            .mark_unknown_op_dynamically_legal(|ctx, op| ctx.num_results(op) == 0);
        t
    };
    let mut c = ctx();
    let m = parse(&mut c, src);
    let patterns: Vec<Box<dyn ConversionPattern>> = vec![Box::new(Fix)];
    let t = target();
    assert_eq!(t.legality(&c, m), Some(true), "unknown, no results: legal");
    let y = c.last_op(crate::builtin::module_body(&c, m)).unwrap();
    assert_eq!(t.legality(&c, y), Some(false));
    let r = apply_partial_conversion(&mut c, m, &t, &patterns, &TypeConverter::new());
    // The fixed op is legal; `y.a` is dynamically illegal and no pattern converts it.
    let err = r.unwrap_err();
    assert_eq!(
        err.message,
        "failed to legalize operation 'y.a' that was explicitly marked illegal"
    );
    assert_eq!(c.diagnostics().len(), 1);
    assert_eq!(
        body(&c, m),
        [
            r#""x.op"() : () -> ()"#,
            r#""x.op"() : () -> ()"#,
            r#""src.keep"() : () -> ()"#,
            r#"%0 = "y.a"() : () -> i32"#,
        ]
    );
    // A still-bad op (no `fixable`) is illegal.
    let mut c = ctx();
    let m = parse(&mut c, r#""x.op"() {bad} : () -> ()"#);
    let err =
        apply_full_conversion(&mut c, m, &target(), &patterns, &TypeConverter::new()).unwrap_err();
    assert_eq!(err.message, "failed to legalize operation 'x.op'");
}

#[test]
fn materialization_hooks_are_tried_last_added_first() {
    let mut tc = widen();
    tc.add_source_materialization(|b, ty, inputs, loc| {
        let st = OperationState::new("lo.narrow", loc)
            .operands(inputs)
            .results(&[ty]);
        Some(b.insert_value(st))
    })
    .add_source_materialization(|_, _, _, _| None)
    .add_target_materialization(|_, _, _, _| None);
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("lo").add_illegal_dialect("src");
    let patterns = vec![rename("src.inc", "lo.inc")];
    let r = apply_partial_conversion(&mut c, m, &target, &patterns, &tc).unwrap();
    assert_eq!(
        body(&c, m),
        [
            r#"%0 = "x.arg"() : () -> i32"#,
            r#"%1 = unrealized_conversion_cast %0 : i32 to i64"#,
            r#"%2 = "lo.inc"(%1) : (i64) -> i64"#,
            r#"%3 = "lo.narrow"(%2) : (i64) -> i32"#,
            r#"%4 = "x.other"(%3) : (i32) -> i32"#,
            r#""x.use"(%4) : (i32) -> ()"#,
        ]
    );
    assert_eq!(r.casts_left, 1);
}

#[test]
fn ops_created_by_patterns_are_legalized_without_recursion() {
    let src = r#"
%0 = "src.a"() : () -> i32
"src.loop"() : () -> ()
"#;
    let mut c = ctx();
    let m = parse(&mut c, src);
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("lo").add_illegal_dialect("src");
    // src.a -> src.b -> lo.b in one run; src.loop -> src.loop is not applied to its own result.
    let patterns = vec![
        rename("src.a", "src.b"),
        rename("src.b", "lo.b"),
        rename("src.loop", "src.loop"),
    ];
    let err =
        apply_partial_conversion(&mut c, m, &target, &patterns, &TypeConverter::new()).unwrap_err();
    assert_eq!(
        err.message,
        "failed to legalize operation 'src.loop' that was explicitly marked illegal"
    );
    assert_eq!(
        body(&c, m),
        [r#"%0 = "lo.b"() : () -> i32"#, r#""src.loop"() : () -> ()"#]
    );
}

/// Sets an attribute, then fails: breaks the contract.
struct Sloppy;

impl ConversionPattern for Sloppy {
    fn name(&self) -> &'static str {
        "sloppy"
    }
    fn root(&self) -> Option<&'static str> {
        None
    }
    fn match_and_rewrite(&self, op: OpId, _: &[Value], rw: &mut ConversionRewriter<'_>) -> bool {
        let u = rw.intern(|ctx| ctx.unit_attr());
        rw.set_attr(op, "touched", u);
        false
    }
}

#[test]
fn a_pattern_that_fails_after_changing_the_ir_is_reported() {
    let mut c = ctx();
    let m = parse(&mut c, r#""src.x"() : () -> ()"#);
    let mut target = ConversionTarget::new();
    target.add_illegal_dialect("src");
    let patterns: Vec<Box<dyn ConversionPattern>> = vec![Box::new(Sloppy)];
    let err =
        apply_partial_conversion(&mut c, m, &target, &patterns, &TypeConverter::new()).unwrap_err();
    assert_eq!(
        err.message,
        "pattern 'sloppy' changed the IR and then failed on 'src.x'"
    );
}

#[test]
fn failed_patterns_leave_no_adaptor_casts() {
    struct Never;
    impl ConversionPattern for Never {
        fn name(&self) -> &'static str {
            "never"
        }
        fn root(&self) -> Option<&'static str> {
            Some("src.inc")
        }
        fn match_and_rewrite(
            &self,
            _: OpId,
            ops: &[Value],
            rw: &mut ConversionRewriter<'_>,
        ) -> bool {
            // The operand arrives converted.
            assert_eq!(rw.ctx().value_type(ops[0]), rw.intern(|c| c.i64_type()));
            false
        }
    }
    let mut c = ctx();
    let m = parse(&mut c, SIMPLE);
    let before = print(&c, m);
    let target = ConversionTarget::new();
    let patterns: Vec<Box<dyn ConversionPattern>> = vec![Box::new(Never)];
    apply_partial_conversion(&mut c, m, &target, &patterns, &widen()).unwrap();
    assert_eq!(print(&c, m), before);
}

#[test]
fn analysis_reports_legalizable_ops_and_changes_nothing() {
    let src = r#"
%a = "x.arg"() : () -> i32
%b = "src.inc"(%a) : (i32) -> i32
"src.bad"(%b) : (i32) -> ()
"x.use"(%b) : (i32) -> ()
"#;
    let mut c = ctx();
    let m = parse(&mut c, src);
    let before = print(&c, m);
    let mut target = ConversionTarget::new();
    target
        .add_legal_dialect("lo")
        .add_illegal_dialect("src")
        .add_legal_op("x.arg");
    let patterns = vec![rename("src.inc", "lo.inc")];
    let ops = apply_analysis_conversion(&mut c, m, &target, &patterns, &widen()).unwrap();
    let names: Vec<&str> = ops.iter().map(|&o| c.name(o)).collect();
    assert_eq!(names, ["x.arg", "src.inc"]);
    assert_eq!(print(&c, m), before);
    assert!(c.diagnostics().is_empty());
    let body = crate::builtin::module_body(&c, m);
    assert_eq!(c.block_op_vec(body)[..2], ops[..]);
}

#[test]
fn deterministic() {
    let run = || {
        let mut c = ctx();
        let m = parse(&mut c, REGION);
        let mut target = ConversionTarget::new();
        target.add_legal_dialect("lo").add_illegal_dialect("src");
        let patterns: Vec<Box<dyn ConversionPattern>> =
            vec![Box::new(RegionPat), rename("src.inc", "lo.inc")];
        apply_partial_conversion(&mut c, m, &target, &patterns, &split()).unwrap();
        print(&c, m)
    };
    assert_eq!(run(), run());
}

#[test]
fn signature_conversion_can_remap_to_a_value() {
    struct Remap;
    impl ConversionPattern for Remap {
        fn name(&self) -> &'static str {
            "remap"
        }
        fn root(&self) -> Option<&'static str> {
            Some("src.region")
        }
        fn match_and_rewrite(
            &self,
            op: OpId,
            _: &[Value],
            rw: &mut ConversionRewriter<'_>,
        ) -> bool {
            let b = rw.ctx().entry_block(rw.ctx().region(op, 0)).unwrap();
            let l = rw.ctx().loc(op);
            let k = rw.create_before(
                op,
                OperationState::new("lo.k", l)
                    .results(&[rw.ctx().value_type(rw.ctx().block_arg(b, 0))]),
            );
            let kv = rw.ctx().result(k, 0);
            let mut sig = SignatureConversion::new(1);
            sig.remap_input(0, kv);
            assert!(sig.converted_types(rw.ctx(), b).is_empty());
            rw.apply_signature_conversion(b, &sig);
            let u = rw.intern(|c| c.unit_attr());
            rw.set_attr(op, "done", u);
            true
        }
    }
    let mut c = ctx();
    let m = parse(
        &mut c,
        r#"
"src.region"() ({
^bb0(%x: i32):
  "x.use"(%x) : (i32) -> ()
}) : () -> ()
"#,
    );
    let mut target = ConversionTarget::new();
    target.add_dynamically_legal_op("src.region", |ctx, op| ctx.attr(op, "done").is_some());
    let patterns: Vec<Box<dyn ConversionPattern>> = vec![Box::new(Remap)];
    apply_partial_conversion(&mut c, m, &target, &patterns, &TypeConverter::new()).unwrap();
    assert_eq!(
        body(&c, m),
        [
            r#"%0 = "lo.k"() : () -> i32"#,
            r#""src.region"() ({"#,
            r#"  "x.use"(%0) : (i32) -> ()"#,
            r#"}) {done} : () -> ()"#,
        ]
    );
}
