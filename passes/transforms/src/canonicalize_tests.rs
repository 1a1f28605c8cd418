use super::*;
use crate::test_dialect::{names, setup, B};
use qd_pass::{PassManager, PassRegistry};

fn registry() -> PassRegistry {
    let mut r = PassRegistry::new();
    r.register(canonicalize_pass_info());
    r
}

#[test]
fn applies_op_patterns_and_folders() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let x = b.val("t.effect", &[]);
    let n1 = b.val("t.neg", &[x]);
    let n2 = b.val("t.neg", &[n1]);
    let zero = b.konst(0);
    let s = b.val("t.add", &[n2, zero]);
    let user = b.op("t.effect", &[s], &[]);
    let mut pass = CanonicalizePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    // neg(neg(x)) -> x, then x + 0 folds to x; the dead ops are gone.
    assert_eq!(ctx.operand_vec(user), [x]);
    assert_eq!(names(&ctx, body), ["t.effect", "t.effect"]);
    let stats = pass.statistics();
    assert_eq!((stats[0].value, stats[1].value), (1, 1));
    // Nothing left to do: the second run reports no change.
    assert!(!pass.run(&mut ctx, m).unwrap().changed);
}

#[test]
fn patterns_come_from_every_registered_op() {
    let (ctx, _, _) = setup();
    let patterns = collect_canonicalization_patterns(&ctx);
    let names: Vec<_> = patterns.iter().map(|p| p.name()).collect();
    assert_eq!(names, ["neg-neg"]);
}

#[test]
fn options_are_validated() {
    let r = registry();
    let e = PassManager::parse(&r, "builtin.module(canonicalize{max-iterations=0})")
        .err()
        .unwrap();
    assert_eq!(
        e.message,
        "cannot create pass 'canonicalize': max-iterations must be at least 1, got 0"
    );
    let e = PassManager::parse(&r, "builtin.module(canonicalize{max-num-rewrites=-2})")
        .err()
        .unwrap();
    assert!(e
        .message
        .contains("max-num-rewrites must be -1 or non-negative"));
    let e = PassManager::parse(&r, "builtin.module(canonicalize{max-iterations=abc})")
        .err()
        .unwrap();
    assert_eq!(
        e.message,
        "invalid value 'abc' for option 'max-iterations': expected an integer"
    );
    let e = PassManager::parse(&r, "builtin.module(canonicalize{x=1})")
        .err()
        .unwrap();
    assert_eq!(
        e.message,
        "unknown option 'x' for pass 'canonicalize'; known options: max-iterations, \
         max-num-rewrites, disable-patterns, enable-patterns, test-convergence"
    );
    let pm = PassManager::parse(
        &r,
        "builtin.module(canonicalize{max-iterations=4 max-num-rewrites=7 test-convergence})",
    )
    .unwrap();
    assert_eq!(
        pm.to_pipeline_string(),
        "builtin.module(canonicalize{max-iterations=4 max-num-rewrites=7 disable-patterns={} \
         enable-patterns={} test-convergence=true})"
    );
}

/// A chain of `n` nested negations of `x`, used once.
fn neg_chain(n: usize) -> (Context, OpId, OpId) {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let mut v = b.val("t.effect", &[]);
    for _ in 0..n {
        v = b.val("t.neg", &[v]);
    }
    let user = b.op("t.effect", &[v], &[]);
    (ctx, m, user)
}

#[test]
fn test_convergence_fails_when_capped() {
    let (mut ctx, m, _) = neg_chain(40);
    let mut pass = CanonicalizePass {
        max_iterations: 1,
        max_rewrites: Some(1),
        test_convergence: true,
        ..CanonicalizePass::default()
    };
    assert!(pass.run(&mut ctx, m).is_err());
    assert_eq!(
        ctx.diagnostics()[0].message,
        "canonicalizer failed to converge within 1 iterations"
    );
}

#[test]
fn runs_through_the_pass_manager() {
    let (mut ctx, m, user) = neg_chain(4);
    let mut pm = PassManager::new("builtin.module");
    pm.add_pass_by_name(&registry(), "canonicalize").unwrap();
    assert_eq!(pm.run(&mut ctx, m), Ok(true));
    let x = ctx.operand(user, 0);
    assert_eq!(ctx.name(ctx.defining_op(x).unwrap()), "t.effect");
    assert_eq!(pm.run(&mut ctx, m), Ok(false));
}

#[test]
fn patterns_can_be_disabled_or_selected() {
    let r = registry();
    for (pipeline, rewritten) in [
        (
            "builtin.module(canonicalize{disable-patterns=neg-neg})",
            false,
        ),
        ("builtin.module(canonicalize{enable-patterns=other})", false),
        (
            "builtin.module(canonicalize{enable-patterns=other,neg-neg})",
            true,
        ),
    ] {
        let (mut ctx, m, user) = neg_chain(2);
        let mut pm = PassManager::parse(&r, pipeline).unwrap();
        assert_eq!(pm.run(&mut ctx, m), Ok(rewritten), "{pipeline}");
        let x = ctx.operand(user, 0);
        let def = ctx.name(ctx.defining_op(x).unwrap());
        assert_eq!(
            def,
            if rewritten { "t.effect" } else { "t.neg" },
            "{pipeline}"
        );
    }
}
