use super::*;
use crate::attributes::AttrData;
use crate::entity::{Attribute, BlockId};
use crate::registry::{DialectDef, OpInfo};
use crate::verifier::test_dialect::{self as td, constant, func, op, region_op};
use crate::verifier::verify;

/// module { test.func @f(%arg0) { <body> } }: returns (module, func, entry).
fn setup(ctx: &mut Context) -> (OpId, OpId, BlockId) {
    let (m, body) = td::module(ctx);
    let (f, entry) = func(ctx, body, "f", 1, 2);
    (m, f, entry)
}

/// The ops of a block as text: name, constant value, and operands as `%argN` or `#i` (the
/// position of the defining op in the block).
fn show(ctx: &Context, block: BlockId) -> Vec<String> {
    let ops = ctx.block_op_vec(block);
    ops.iter()
        .map(|&o| {
            let mut s = ctx.name(o).to_string();
            if let Some(v) = op_constant_value(ctx, o).and_then(|a| ctx.attr_data(a).as_int()) {
                s += &format!(" {v}");
            }
            let args: Vec<String> = ctx
                .operands(o)
                .map(|v| match ctx.defining_op(v) {
                    Some(d) => match ops.iter().position(|&x| x == d) {
                        Some(i) => format!("#{i}"),
                        None => "outer".to_string(),
                    },
                    None => "%arg".to_string(),
                })
                .collect();
            if !args.is_empty() {
                s += &format!("({})", args.join(", "));
            }
            s
        })
        .collect()
}

fn run(ctx: &mut Context, root: OpId, patterns: &[Box<dyn RewritePattern>]) -> GreedyResult {
    apply_patterns_greedily(ctx, root, patterns, &GreedyConfig::default())
}

#[test]
fn folds_constants_and_removes_dead_ones() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let c1 = constant(&mut ctx, entry, 1, 3);
    let c2 = constant(&mut ctx, entry, 2, 4);
    let s = op(&mut ctx, entry, "test.add", &[c1, c2], 1, 5);
    let sv = ctx.result(s, 0);
    let t = op(&mut ctx, entry, "test.add", &[a, sv], 1, 6);
    let tv = ctx.result(t, 0);
    op(&mut ctx, entry, "test.ret", &[tv], 0, 7);
    let r = run(&mut ctx, m, &[]);
    assert_eq!(
        show(&ctx, entry),
        ["test.constant 3", "test.add(%arg, #0)", "test.ret(#1)"]
    );
    assert!(r.changed && r.converged);
    assert_eq!((r.folded, r.erased, r.rewrites), (1, 2, 0));
    assert_eq!(r.iterations, 2);
    // The folded constant carries the folded op's location.
    let c3 = ctx.first_op(entry).unwrap();
    assert_eq!(ctx.file_line_col(ctx.loc(c3)), Some(("t.mlir", 5, 1)));
    assert_eq!(verify(&ctx, m), Ok(()));
    // A second run finds nothing to do.
    let again = run(&mut ctx, m, &[]);
    assert!(!again.changed && again.converged);
    assert_eq!(again.iterations, 1);
}

#[test]
fn fold_to_existing_value() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let z = constant(&mut ctx, entry, 0, 3);
    let s = op(&mut ctx, entry, "test.add", &[a, z], 1, 4);
    let sv = ctx.result(s, 0);
    let n = op(&mut ctx, entry, "test.neg", &[sv], 1, 5);
    let nv = ctx.result(n, 0);
    op(&mut ctx, entry, "test.ret", &[nv], 0, 6);
    let r = run(&mut ctx, m, &[]);
    assert_eq!(show(&ctx, entry), ["test.neg(%arg)", "test.ret(#0)"]);
    assert_eq!(r.folded, 1);
}

#[test]
fn chains_of_folds_in_one_sweep() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let c = constant(&mut ctx, entry, 5, 3);
    let n1 = op(&mut ctx, entry, "test.neg", &[c], 1, 4);
    let n1v = ctx.result(n1, 0);
    let n2 = op(&mut ctx, entry, "test.add", &[n1v, n1v], 1, 5);
    let n2v = ctx.result(n2, 0);
    op(&mut ctx, entry, "test.ret", &[n2v], 0, 6);
    let r = run(&mut ctx, m, &[]);
    assert_eq!(show(&ctx, entry), ["test.constant -10", "test.ret(#0)"]);
    assert_eq!(r.folded, 2);
}

#[test]
fn dead_code_removal_follows_effects() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    op(&mut ctx, entry, "test.pure", &[a], 1, 3);
    op(&mut ctx, entry, "test.read", &[a], 1, 4);
    op(&mut ctx, entry, "test.effect", &[a], 1, 5);
    // Pure with recursive effects, holding an effect: kept.
    let (_, b1) = region_op(&mut ctx, entry, "test.pure_region", &[], 0, 6);
    op(&mut ctx, b1, "test.effect", &[], 0, 7);
    op(&mut ctx, b1, "test.yield", &[], 0, 8);
    // Recursive effects, holding only pure ops: erased.
    let (_, b2) = region_op(&mut ctx, entry, "test.recursive", &[], 0, 9);
    op(&mut ctx, b2, "test.pure", &[], 0, 10);
    // Unregistered ops are never dead.
    ctx.allow_unregistered = true;
    op(&mut ctx, entry, "x.op", &[], 1, 11);
    op(&mut ctx, entry, "test.ret", &[], 0, 12);
    let r = run(&mut ctx, m, &[]);
    assert_eq!(
        show(&ctx, entry),
        ["test.effect(%arg)", "test.pure_region", "x.op", "test.ret"]
    );
    assert_eq!(r.erased, 3);
    assert_eq!(show(&ctx, b1), ["test.effect", "test.yield"]);
}

#[test]
fn effect_queries() {
    let mut ctx = td::ctx();
    let (_, f, entry) = setup(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let p = op(&mut ctx, entry, "test.pure", &[a], 1, 3);
    let rd = op(&mut ctx, entry, "test.read", &[a], 1, 4);
    let eff = op(&mut ctx, entry, "test.effect", &[], 0, 5);
    let (pr, b) = region_op(&mut ctx, entry, "test.pure_region", &[], 0, 6);
    op(&mut ctx, b, "test.yield", &[], 0, 7);
    let (rec, rb) = region_op(&mut ctx, entry, "test.recursive", &[], 0, 8);
    let inner_read = op(&mut ctx, rb, "test.read", &[], 1, 9);
    let ret = op(&mut ctx, entry, "test.ret", &[], 0, 10);
    assert!(is_memory_effect_free(&ctx, p));
    assert!(!is_memory_effect_free(&ctx, rd));
    assert!(!is_memory_effect_free(&ctx, eff));
    assert!(is_memory_effect_free(&ctx, pr));
    assert!(!is_memory_effect_free(&ctx, rec), "it holds a read");
    assert!(would_op_be_trivially_dead(&ctx, p));
    assert!(would_op_be_trivially_dead(&ctx, rd));
    assert!(would_op_be_trivially_dead(&ctx, rec), "reads only");
    assert!(!would_op_be_trivially_dead(&ctx, eff));
    assert!(!would_op_be_trivially_dead(&ctx, ret), "terminators stay");
    assert!(!would_op_be_trivially_dead(&ctx, f), "symbols stay");
    assert!(is_trivially_dead(&ctx, p));
    let rv = ctx.result(inner_read, 0);
    op(&mut ctx, rb, "test.pure", &[rv], 0, 11);
    assert!(!is_trivially_dead(&ctx, inner_read), "it has a use");
    // Constants.
    let c = constant(&mut ctx, entry, 4, 12);
    assert_eq!(
        constant_value(&ctx, c).and_then(|v| ctx.attr_data(v).as_int()),
        Some(4)
    );
    assert_eq!(constant_value(&ctx, a), None);
    assert_eq!(constant_value(&ctx, ctx.result(p, 0)), None);
}

#[test]
fn fold_op_helper() {
    let mut ctx = td::ctx();
    let (_, _, entry) = setup(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let c = constant(&mut ctx, entry, 2, 3);
    let s = op(&mut ctx, entry, "test.add", &[c, c], 1, 4);
    let t = op(&mut ctx, entry, "test.add", &[a, c], 1, 5);
    let p = op(&mut ctx, entry, "test.pure", &[], 1, 6);
    let four = td::int_attr(&mut ctx, 4);
    assert_eq!(fold_op(&mut ctx, s), Some(vec![FoldResult::Attr(four)]));
    assert_eq!(fold_op(&mut ctx, t), None);
    assert_eq!(fold_op(&mut ctx, p), None, "no folder");
    // Folding does not touch the IR.
    assert_eq!(ctx.block_len(entry), 4);
    // Materializing through the dialect.
    let i32 = ctx.i32_type();
    let l = td::loc(&mut ctx, 7);
    let k = materialize_constant(&mut ctx, "test", four, i32, l).unwrap();
    assert_eq!(ctx.parent_block(k), None);
    assert_eq!(op_constant_value(&ctx, k), Some(four));
    assert_eq!(
        materialize_constant(&mut ctx, "builtin", four, i32, l),
        None
    );
    assert_eq!(materialize_constant(&mut ctx, "nope", four, i32, l), None);
}

/// Marks an op with `by = <name>` once.
struct Mark {
    name: &'static str,
    root: Option<&'static str>,
}

impl RewritePattern for Mark {
    fn name(&self) -> &'static str {
        self.name
    }
    fn root(&self) -> Option<&'static str> {
        self.root
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        if rw.ctx().attr(op, "by").is_some() || rw.ctx().num_results(op) == 0 {
            return false;
        }
        let s = rw.intern(|ctx| ctx.string_attr(self.name));
        rw.set_attr(op, "by", s);
        true
    }
}

fn marked_by(ctx: &Context, op: OpId) -> Option<String> {
    match ctx.attr_data(ctx.attr(op, "by")?) {
        AttrData::String(s) => Some(s.clone()),
        _ => None,
    }
}

#[test]
fn patterns_apply_in_given_order() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let p = op(&mut ctx, entry, "test.pure", &[a], 1, 3);
    let q = op(&mut ctx, entry, "test.effect", &[a], 1, 4);
    let pv = ctx.result(p, 0);
    op(&mut ctx, entry, "test.ret", &[pv], 0, 5);
    let patterns: Vec<Box<dyn RewritePattern>> = vec![
        Box::new(Mark {
            name: "only-effect",
            root: Some("test.effect"),
        }),
        Box::new(Mark {
            name: "any",
            root: None,
        }),
        Box::new(Mark {
            name: "pure-late",
            root: Some("test.pure"),
        }),
    ];
    let r = run(&mut ctx, m, &patterns);
    assert_eq!(marked_by(&ctx, q).as_deref(), Some("only-effect"));
    assert_eq!(marked_by(&ctx, p).as_deref(), Some("any"));
    assert_eq!(r.rewrites, 2);
    assert!(r.converged);
}

/// Flips a `flag` on the outermost op (the driver's root, which is never revisited) each time
/// it sees a test.effect: every sweep changes the IR, and no sweep loops.
struct Flip;

impl RewritePattern for Flip {
    fn name(&self) -> &'static str {
        "flip"
    }
    fn root(&self) -> Option<&'static str> {
        Some("test.effect")
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let mut top = op;
        while let Some(p) = rw.ctx().parent_op(top) {
            top = p;
        }
        if rw.remove_attr(top, "flag").is_none() {
            let u = rw.intern(|ctx| ctx.unit_attr());
            rw.set_attr(top, "flag", u);
        }
        true
    }
}

/// Reports a change on its op and asks to be revisited: never lets a sweep end by itself.
struct Spin;

impl RewritePattern for Spin {
    fn name(&self) -> &'static str {
        "spin"
    }
    fn root(&self) -> Option<&'static str> {
        Some("test.effect")
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        rw.modified(op);
        true
    }
}

#[test]
fn iteration_cap_reports_not_converged() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    op(&mut ctx, entry, "test.effect", &[], 0, 3);
    op(&mut ctx, entry, "test.ret", &[], 0, 4);
    let patterns: Vec<Box<dyn RewritePattern>> = vec![Box::new(Flip)];
    let r = run(&mut ctx, m, &patterns);
    assert!(r.changed && !r.converged);
    assert_eq!((r.iterations, r.rewrites), (10, 10));
    let cfg = GreedyConfig {
        max_iterations: 3,
        ..GreedyConfig::default()
    };
    let r = apply_patterns_greedily(&mut ctx, m, &patterns, &cfg);
    assert_eq!((r.iterations, r.rewrites, r.converged), (3, 3, false));
    let none = GreedyConfig {
        max_iterations: 0,
        ..GreedyConfig::default()
    };
    let r = apply_patterns_greedily(&mut ctx, m, &patterns, &none);
    assert_eq!(r, GreedyResult::default());
}

#[test]
fn rewrite_cap_stops_endless_patterns() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    op(&mut ctx, entry, "test.effect", &[], 0, 3);
    op(&mut ctx, entry, "test.ret", &[], 0, 4);
    let patterns: Vec<Box<dyn RewritePattern>> = vec![Box::new(Spin)];
    let cfg = GreedyConfig {
        max_rewrites: Some(5),
        ..GreedyConfig::default()
    };
    let r = apply_patterns_greedily(&mut ctx, m, &patterns, &cfg);
    assert_eq!((r.rewrites, r.iterations, r.converged), (5, 1, false));
    assert!(r.changed);
}

#[test]
fn constants_merge_and_hoist() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let c7 = constant(&mut ctx, entry, 7, 3);
    let u1 = op(&mut ctx, entry, "test.effect", &[a, c7], 0, 4);
    let c8 = constant(&mut ctx, entry, 8, 5);
    let (_, inner) = region_op(&mut ctx, entry, "test.region", &[], 0, 6);
    let c7b = constant(&mut ctx, inner, 7, 7);
    let u2 = op(&mut ctx, inner, "test.effect", &[c7b, c8], 0, 8);
    op(&mut ctx, inner, "test.yield", &[], 0, 9);
    op(&mut ctx, entry, "test.ret", &[], 0, 10);
    let r = run(&mut ctx, m, &[]);
    // As mlir-opt: 7 leads the block and stays; 8 follows an op that is not a constant, so it
    // moves to the front; the inner 7 merges into the outer one, which loses its location.
    assert_eq!(
        show(&ctx, entry),
        [
            "test.constant 8",
            "test.constant 7",
            "test.effect(%arg, #1)",
            "test.region",
            "test.ret"
        ]
    );
    assert_eq!(
        show(&ctx, inner),
        ["test.effect(outer, outer)", "test.yield"]
    );
    assert_eq!(ctx.operand(u2, 0), ctx.operand(u1, 1));
    let c7_op = ctx.defining_op(c7).unwrap();
    assert_eq!(
        ctx.loc_data(ctx.loc(c7_op)),
        &crate::location::LocData::Unknown
    );
    let c8_op = ctx.defining_op(c8).unwrap();
    assert_ne!(
        ctx.loc_data(ctx.loc(c8_op)),
        &crate::location::LocData::Unknown
    );
    assert_eq!(r.erased, 1);
    assert!(r.converged);
    assert_eq!(verify(&ctx, m), Ok(()));
}

#[test]
fn folded_constants_come_first_in_reverse_order() {
    // mlir-opt materializes a fold's constant where the op was and hoists it when the next
    // sweep starts, to the front: constants made later come out first, above the older ones.
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let c1 = constant(&mut ctx, entry, 1, 3);
    op(&mut ctx, entry, "test.effect", &[a], 0, 4);
    let s = op(&mut ctx, entry, "test.add", &[c1, c1], 1, 5);
    let c5 = constant(&mut ctx, entry, 5, 6);
    let t = op(&mut ctx, entry, "test.add", &[c5, c5], 1, 7);
    let (sv, tv) = (ctx.result(s, 0), ctx.result(t, 0));
    op(&mut ctx, entry, "test.ret", &[sv, tv, c1], 0, 8);
    let r = run(&mut ctx, m, &[]);
    assert_eq!(
        show(&ctx, entry),
        [
            "test.constant 10",
            "test.constant 2",
            "test.constant 1",
            "test.effect(%arg)",
            "test.ret(#1, #0, #2)"
        ]
    );
    // Sweep 1 folds, sweep 2 hoists and changes nothing else: hoisting alone does not call
    // for a third.
    assert_eq!((r.iterations, r.converged, r.folded), (2, true, 2));
    assert_eq!(verify(&ctx, m), Ok(()));
}

#[test]
fn folded_constants_reuse_existing_ones() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let c3 = constant(&mut ctx, entry, 3, 3);
    let c1 = constant(&mut ctx, entry, 1, 4);
    let c2 = constant(&mut ctx, entry, 2, 5);
    op(&mut ctx, entry, "test.effect", &[c3], 0, 6);
    let (_, inner) = region_op(&mut ctx, entry, "test.region", &[], 0, 7);
    let s = op(&mut ctx, inner, "test.add", &[c1, c2], 1, 8);
    let sv = ctx.result(s, 0);
    op(&mut ctx, inner, "test.effect", &[sv], 0, 9);
    op(&mut ctx, inner, "test.yield", &[], 0, 10);
    op(&mut ctx, entry, "test.ret", &[], 0, 11);
    run(&mut ctx, m, &[]);
    assert_eq!(
        show(&ctx, entry),
        [
            "test.constant 3",
            "test.effect(#0)",
            "test.region",
            "test.ret"
        ]
    );
    assert_eq!(show(&ctx, inner), ["test.effect(outer)", "test.yield"]);
}

#[test]
fn constants_stay_in_their_isolated_region() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let mut entries = Vec::new();
    for (name, line) in [("f", 2), ("g", 6)] {
        let (_, e) = func(&mut ctx, body, name, 0, line);
        let c = constant(&mut ctx, e, 9, line + 1);
        op(&mut ctx, e, "test.effect", &[c], 0, line + 2);
        op(&mut ctx, e, "test.ret", &[], 0, line + 3);
        entries.push(e);
    }
    let r = run(&mut ctx, m, &[]);
    assert!(!r.changed);
    for e in entries {
        assert_eq!(
            show(&ctx, e),
            ["test.constant 9", "test.effect(#0)", "test.ret"]
        );
    }
}

/// The constants of an isolated op nested in a function are forgotten once its nest is seeded,
/// and only those: a later constant of the function still merges into the function's own (and
/// those of the isolated ops stay theirs).
#[test]
fn constants_of_a_nested_isolated_op_are_forgotten_without_the_outer_ones() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let c7 = constant(&mut ctx, entry, 7, 3);
    op(&mut ctx, entry, "test.effect", &[c7], 0, 4);
    let mut inner = Vec::new();
    for (name, line) in [("g", 5), ("h", 9)] {
        let (_, e) = func(&mut ctx, entry, name, 0, line);
        let c = constant(&mut ctx, e, 7, line + 1);
        op(&mut ctx, e, "test.effect", &[c], 0, line + 2);
        op(&mut ctx, e, "test.ret", &[], 0, line + 3);
        inner.push(e);
    }
    let c7b = constant(&mut ctx, entry, 7, 13);
    op(&mut ctx, entry, "test.effect", &[c7b], 0, 14);
    op(&mut ctx, entry, "test.ret", &[], 0, 15);
    let r = run(&mut ctx, m, &[]);
    assert!(r.changed);
    assert_eq!(
        show(&ctx, entry),
        [
            "test.constant 7",
            "test.effect(#0)",
            "test.func",
            "test.func",
            "test.effect(#0)",
            "test.ret"
        ]
    );
    for e in inner {
        assert_eq!(
            show(&ctx, e),
            ["test.constant 7", "test.effect(#0)", "test.ret"]
        );
    }
}

#[test]
fn without_constant_cse_folds_in_place() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let c1 = constant(&mut ctx, entry, 1, 3);
    op(&mut ctx, entry, "test.effect", &[c1], 0, 4);
    let c1b = constant(&mut ctx, entry, 1, 5);
    let s = op(&mut ctx, entry, "test.add", &[c1, c1b], 1, 6);
    let sv = ctx.result(s, 0);
    op(&mut ctx, entry, "test.ret", &[sv], 0, 7);
    let cfg = GreedyConfig {
        cse_constants: false,
        ..GreedyConfig::default()
    };
    apply_patterns_greedily(&mut ctx, m, &[], &cfg);
    assert_eq!(
        show(&ctx, entry),
        [
            "test.constant 1",
            "test.effect(#0)",
            "test.constant 2",
            "test.ret(#2)"
        ]
    );
}

#[test]
fn folding_can_be_disabled() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let c1 = constant(&mut ctx, entry, 1, 3);
    let s = op(&mut ctx, entry, "test.add", &[c1, c1], 1, 4);
    let sv = ctx.result(s, 0);
    op(&mut ctx, entry, "test.ret", &[sv], 0, 5);
    let cfg = GreedyConfig {
        fold: false,
        ..GreedyConfig::default()
    };
    let r = apply_patterns_greedily(&mut ctx, m, &[], &cfg);
    assert!(!r.changed && r.converged);
    assert_eq!(
        show(&ctx, entry),
        ["test.constant 1", "test.add(#0, #0)", "test.ret(#1)"]
    );
}

fn fold_to_attr(ctx: &mut Context, _: OpId, _: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Attr(td::int_attr(ctx, 1))])
}

/// Replaces `nomat.one` by `test.pure` (to see that patterns run when a fold cannot).
struct ToPure;

impl RewritePattern for ToPure {
    fn name(&self) -> &'static str {
        "to-pure"
    }
    fn root(&self) -> Option<&'static str> {
        Some("nomat.one")
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let l = rw.ctx().loc(op);
        let ty = rw.ctx().value_type(rw.ctx().result(op, 0));
        let st = crate::builder::OperationState::new("test.pure", l).results(&[ty]);
        rw.replace_op_with_new(op, st);
        true
    }
}

#[test]
fn fold_without_materializer_falls_back_to_patterns() {
    let mut ctx = td::ctx();
    let mut d = DialectDef::new("nomat");
    d.ops = vec![OpInfo::new("nomat.one", "folds to 1, cannot materialize").fold(fold_to_attr)];
    ctx.register_dialect(d);
    let (m, _, entry) = setup(&mut ctx);
    let o = op(&mut ctx, entry, "nomat.one", &[], 1, 3);
    let ov = ctx.result(o, 0);
    op(&mut ctx, entry, "test.effect", &[ov], 0, 4);
    op(&mut ctx, entry, "test.ret", &[], 0, 5);
    let before = ctx.num_op_slots();
    let r = run(&mut ctx, m, &[]);
    assert!(!r.changed);
    assert_eq!(
        show(&ctx, entry),
        ["nomat.one", "test.effect(#0)", "test.ret"]
    );
    assert_eq!(ctx.num_op_slots(), before, "nothing was created");
    let patterns: Vec<Box<dyn RewritePattern>> = vec![Box::new(ToPure)];
    let r = run(&mut ctx, m, &patterns);
    assert_eq!(r.rewrites, 1);
    assert_eq!(
        show(&ctx, entry),
        ["test.pure", "test.effect(#0)", "test.ret"]
    );
}

/// Rewrites `test.pure(x)` (with one operand) to `test.add(x, x)` so that folding continues on
/// the created op.
struct Double;

impl RewritePattern for Double {
    fn name(&self) -> &'static str {
        "double"
    }
    fn root(&self) -> Option<&'static str> {
        Some("test.pure")
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        if ctx.num_operands(op) != 1 || ctx.num_results(op) != 1 {
            return false;
        }
        let x = ctx.operand(op, 0);
        let l = ctx.loc(op);
        let ty = ctx.value_type(x);
        let st = crate::builder::OperationState::new("test.add", l)
            .operands(&[x, x])
            .results(&[ty]);
        rw.replace_op_with_new(op, st);
        true
    }
}

#[test]
fn created_ops_are_revisited() {
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let c = constant(&mut ctx, entry, 21, 3);
    let p = op(&mut ctx, entry, "test.pure", &[c], 1, 4);
    let pv = ctx.result(p, 0);
    op(&mut ctx, entry, "test.ret", &[pv], 0, 5);
    let patterns: Vec<Box<dyn RewritePattern>> = vec![Box::new(Double)];
    let r = run(&mut ctx, m, &patterns);
    assert_eq!(show(&ctx, entry), ["test.constant 42", "test.ret(#0)"]);
    assert_eq!((r.rewrites, r.folded), (1, 1));
    assert_eq!(r.iterations, 2);
}

#[test]
fn root_is_never_rewritten() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    // An unused pure op with a region, used as the root: its body is cleaned, it stays.
    let (root, b) = region_op(&mut ctx, body, "test.pure_region", &[], 0, 2);
    op(&mut ctx, b, "test.pure", &[], 1, 3);
    op(&mut ctx, b, "test.yield", &[], 0, 4);
    let r = run(&mut ctx, root, &[]);
    assert_eq!(r.erased, 1);
    assert!(ctx.is_alive(root));
    assert_eq!(show(&ctx, b), ["test.yield"]);
    // Run on the module, it goes.
    run(&mut ctx, m, &[]);
    assert!(!ctx.is_alive(root));
}

#[test]
fn deterministic() {
    let build = || {
        let mut ctx = td::ctx();
        let (m, _, entry) = setup(&mut ctx);
        let a = ctx.block_arg(entry, 0);
        let mut v = a;
        for i in 0..50 {
            let c = constant(&mut ctx, entry, i % 7, 3);
            let s = op(&mut ctx, entry, "test.add", &[v, c], 1, 4);
            let cc = op(&mut ctx, entry, "test.add", &[c, c], 1, 5);
            let (sv, ccv) = (ctx.result(s, 0), ctx.result(cc, 0));
            let t = op(&mut ctx, entry, "test.add", &[sv, ccv], 1, 6);
            v = ctx.result(t, 0);
        }
        op(&mut ctx, entry, "test.ret", &[v], 0, 7);
        run(&mut ctx, m, &[]);
        assert_eq!(verify(&ctx, m), Ok(()));
        show(&ctx, entry)
    };
    let first = build();
    assert_eq!(first, build());
    assert!(
        first
            .iter()
            .filter(|s| s.starts_with("test.constant"))
            .count()
            <= 7 * 2
    );
}

/// Makes `test.effect` use the block's first argument instead of its operand, in place: the old
/// operand's defining op is not revisited.
struct UseArg;

impl RewritePattern for UseArg {
    fn name(&self) -> &'static str {
        "use-arg"
    }
    fn root(&self) -> Option<&'static str> {
        Some("test.effect")
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        let Some(block) = ctx.parent_block(op) else {
            return false;
        };
        let a = ctx.block_arg(block, 0);
        if ctx.num_operands(op) != 1 || ctx.operand(op, 0) == a {
            return false;
        }
        rw.set_operand(op, 0, a);
        true
    }
}

#[test]
fn ops_that_die_are_erased_at_the_end_of_the_sweep() {
    // As MLIR's region DCE after each iteration: the chain of pure ops the pattern leaves unused goes
    // in the same sweep (users first), so the second sweep changes nothing.
    let mut ctx = td::ctx();
    let (m, _, entry) = setup(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let n1 = op(&mut ctx, entry, "test.pure", &[a], 1, 3);
    let n1v = ctx.result(n1, 0);
    let n2 = op(&mut ctx, entry, "test.pure", &[n1v], 1, 4);
    let n2v = ctx.result(n2, 0);
    op(&mut ctx, entry, "test.effect", &[n2v], 0, 5);
    op(&mut ctx, entry, "test.ret", &[], 0, 6);
    let patterns: Vec<Box<dyn RewritePattern>> = vec![Box::new(UseArg)];
    let r = run(&mut ctx, m, &patterns);
    assert_eq!(show(&ctx, entry), ["test.effect(%arg)", "test.ret"]);
    assert_eq!((r.iterations, r.converged, r.erased), (2, true, 2));
}
