//! The pass on IR: rewrites `size_expr`, sets `max_size` for literal bounds, reports `changed`
//! honestly, keeps statistics, and rejects malformed bounds with a diagnostic.

use crate::pass::{simplify_size_expr_pass_info, SimplifySizeExpr};
use crate::simplify::Limits;
use qd_adstack::{MAX_SIZE, SIZE_EXPR};
use qd_ir::text::{parse_source, print_op, PrintOptions};
use qd_ir::{Context, OpId};
use qd_pass::{Pass, PassManager, PassRegistry};

fn parse(src: &str) -> (Context, OpId) {
    let (ctx, m) = parse_unverified(src);
    assert!(qd_ir::verifier::verify(&ctx, m).is_ok(), "verifies");
    (ctx, m)
}

fn parse_unverified(src: &str) -> (Context, OpId) {
    let mut ctx = qd_dialects::context();
    let m = parse_source(&mut ctx, src, "input.mlir").expect("parses");
    (ctx, m)
}

fn kernel(bounds: &[&str]) -> String {
    let mut s = String::from("qd.field @n : !qd.field<i32>\nqd.kernel @k(%v: f32) {\n");
    for (i, b) in bounds.iter().enumerate() {
        match b {
            &"" => s.push_str(&format!("  %s{i} = adstack.alloca : f32\n")),
            b => s.push_str(&format!(
                "  %s{i} = adstack.alloca : f32 {{size_expr = #adstack.size<{b}>}}\n"
            )),
        }
        s.push_str(&format!("  adstack.push %s{i}, %v : f32\n"));
    }
    s.push_str("}\n");
    s
}

fn allocas(ctx: &Context, m: OpId) -> Vec<OpId> {
    ctx.walk_pre_order(m)
        .into_iter()
        .filter(|&o| ctx.name(o) == qd_adstack::ALLOCA_OP)
        .collect()
}

fn bound(ctx: &Context, a: OpId) -> Option<String> {
    let attr = ctx.prop(a, SIZE_EXPR)?;
    Some(
        qd_adstack::size_expr::SizeExpr::from_attr(ctx, attr)
            .ok()?
            .to_string(),
    )
}

fn max_size(ctx: &Context, a: OpId) -> Option<i64> {
    ctx.prop(a, MAX_SIZE)
        .and_then(|x| ctx.attr_data(x).as_int())
}

#[test]
fn rewrites_bounds_and_sets_literal_capacities() {
    let (mut ctx, m) = parse(&kernel(&[
        "6 * max(6 - v0 for v0 in range(0, 6))",
        "max(v0 for v0 in range(0, @n[]:i32))",
        "",
        "@n[]:i32 + 1",
    ]));
    let mut pass = SimplifySizeExpr::new(Limits::default());
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(true));
    let a = allocas(&ctx, m);
    assert_eq!(bound(&ctx, a[0]).as_deref(), Some("36"));
    assert_eq!(max_size(&ctx, a[0]), Some(36));
    assert_eq!(bound(&ctx, a[1]).as_deref(), Some("@n[]:i32 - 1"));
    assert_eq!(max_size(&ctx, a[1]), None);
    assert_eq!((bound(&ctx, a[2]), max_size(&ctx, a[2])), (None, None));
    assert_eq!(bound(&ctx, a[3]).as_deref(), Some("@n[]:i32 + 1"));
    let stats: Vec<(&str, u64)> = pass
        .statistics()
        .iter()
        .map(|s| (s.name, s.value))
        .collect();
    // 6 * max(6 - v0 ...): 6, 0, v0, -, range, * = 6 nodes (6 shared); v0-range: 4; n + 1: 3.
    assert_eq!(
        stats,
        [
            ("num-simplified", 2),
            ("nodes-before", 6 + 4 + 3),
            ("nodes-after", 1 + 3 + 3),
            ("num-fused", 0),
            ("num-limit-hits", stats[4].1),
        ]
    );
    // A second run finds nothing to do, and says so.
    let before = print_op(&ctx, m, &PrintOptions::default());
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(false));
    assert_eq!(print_op(&ctx, m, &PrintOptions::default()), before);
}

#[test]
fn a_literal_bound_gets_its_capacity_even_when_unchanged() {
    let (mut ctx, m) = parse(&kernel(&["7", "-2"]));
    let mut pass = SimplifySizeExpr::new(Limits::default());
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(true));
    let a = allocas(&ctx, m);
    assert_eq!(max_size(&ctx, a[0]), Some(7));
    assert_eq!(max_size(&ctx, a[1]), Some(0));
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(false));
}

/// Stacks with equal bounds (in one kernel or in several, one run each) get what a pass of
/// their own would give them, and the statistics count every stack; the e-graph runs once per
/// distinct bound.
#[test]
fn equal_bounds_are_simplified_once_and_counted_per_stack() {
    let b = ["6 * max(6 - v0 for v0 in range(0, 6))", "@n[]:i32 + 1", "4"];
    let src = kernel(&[b[0], b[1], b[0], b[2], b[2]]);
    let (mut ctx, m) = parse(&src);
    let mut pass = SimplifySizeExpr::new(Limits::default());
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(true));
    assert_eq!(pass.distinct_bounds(), 3);
    let (mut ctx2, m2) = parse(&src);
    assert_eq!(pass.run(&mut ctx2, m2).map(|o| o.changed), Ok(true));
    assert_eq!(pass.distinct_bounds(), 3);
    let opts = PrintOptions::default();
    assert_eq!(print_op(&ctx2, m2, &opts), print_op(&ctx, m, &opts));
    let got: Vec<_> = allocas(&ctx, m)
        .into_iter()
        .map(|a| (bound(&ctx, a), max_size(&ctx, a)))
        .collect();
    let mut want = Vec::new();
    for e in [b[0], b[1], b[0], b[2], b[2]] {
        let (mut one, m1) = parse(&kernel(&[e]));
        SimplifySizeExpr::new(Limits::default())
            .run(&mut one, m1)
            .expect("simplifies");
        let a = allocas(&one, m1)[0];
        want.push((bound(&one, a), max_size(&one, a)));
    }
    assert_eq!(got, want);
    let stats: Vec<(&str, u64)> = pass
        .statistics()
        .iter()
        .map(|s| (s.name, s.value))
        .collect();
    // Two runs over 6 + 3 + 6 + 1 + 1 nodes, of which the two 6s and the 1 + 3 simplify.
    assert_eq!(stats[0], ("num-simplified", 2 * 2));
    assert_eq!(stats[1], ("nodes-before", 2 * (6 + 3 + 6 + 1 + 1)));
    assert_eq!(stats[2], ("nodes-after", 2 * (1 + 3 + 1 + 1 + 1)));
}

#[test]
fn fusions_are_counted() {
    let (mut ctx, m) = parse(
        "qd.kernel @k(%a: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xi32>, %v: f32) {\n  \
         %s = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 4))>}\n  \
         adstack.push %s, %v : f32\n}\n",
    );
    let mut pass = SimplifySizeExpr::new(Limits::default());
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(true));
    assert_eq!(
        bound(&ctx, allocas(&ctx, m)[0]).as_deref(),
        Some("max(arg0[v0]:i32 - arg1[v0]:i32 for v0 in range(0, 4))")
    );
    assert_eq!(pass.statistics()[3].value, 1);
}

#[test]
fn a_malformed_bound_is_an_error_at_its_alloca() {
    // The verifier rejects this too; the pass does not rely on it.
    let src = "qd.kernel @k(%v: f32) {\n  %s = adstack.alloca : f32 {size_expr = 3 : i64}\n  adstack.push %s, %v : f32\n}\n";
    let (mut ctx, m) = parse_unverified(src);
    assert!(qd_ir::verifier::verify(&ctx, m).is_err());
    let before = print_op(&ctx, m, &PrintOptions::default());
    let mut pass = SimplifySizeExpr::new(Limits::default());
    assert!(pass.run(&mut ctx, m).is_err());
    let d = &ctx.diagnostics()[0];
    assert!(
        d.message.contains("cannot simplify its size_expr"),
        "{}",
        d.message
    );
    assert_eq!(print_op(&ctx, m, &PrintOptions::default()), before);
}

#[test]
fn options_are_typed_and_bounded() {
    let mut reg = PassRegistry::new();
    reg.register(simplify_size_expr_pass_info());
    assert!(PassManager::parse(
        &reg,
        "builtin.module(simplify-size-expr{iter-limit=3 node-limit=100})"
    )
    .is_ok());
    assert!(PassManager::parse(&reg, "builtin.module(simplify-size-expr{iter-limit=x})").is_err());
    let err = PassManager::parse(
        &reg,
        "builtin.module(simplify-size-expr{node-limit=99999999})",
    )
    .err()
    .expect("too large");
    assert!(
        err.to_string().contains("node-limit=99999999 is too large"),
        "{err}"
    );
    // No iterations: only the analysis' constant folding.
    let (mut ctx, m) = parse(&kernel(&["2 + 3", "max(v0 for v0 in range(0, @n[]:i32))"]));
    let mut pm = PassManager::parse(&reg, "builtin.module(simplify-size-expr{iter-limit=0})")
        .expect("parses");
    assert_eq!(pm.run(&mut ctx, m), Ok(true));
    let a = allocas(&ctx, m);
    assert_eq!(bound(&ctx, a[0]).as_deref(), Some("5"));
    assert_eq!(
        bound(&ctx, a[1]).as_deref(),
        Some("max(v0 for v0 in range(0, @n[]:i32))")
    );
}
