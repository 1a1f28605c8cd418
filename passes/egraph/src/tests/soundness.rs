//! The contract, on random expressions and environments (seeded): the simplified expression
//! evaluates to at least the original wherever the original evaluates (and to exactly it when
//! no fusion applied, and always for the exact rules alone); it never fails where the original
//! succeeds; it is valid, deterministic, and a fixpoint.

use super::env::{random_env, Gen, Rng};
use crate::simplify::{simplify, simplify_exact, Limits};
use qd_adstack::size_expr::{BinOp, SizeExpr};

const EXPRESSIONS: usize = 600;
fn n_expr() -> usize { std::env::var("QD_N").ok().and_then(|v| v.parse().ok()).unwrap_or(EXPRESSIONS) }
fn seed() -> u64 { std::env::var("QD_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5EED_0001) }
const ENVIRONMENTS: usize = 12;

fn check(e: &SizeExpr, r: &mut Rng, stats: &mut [usize; 3]) {
    let limits = Limits::default();
    let s = simplify(e, limits);
    let x = simplify_exact(e, limits);
    assert!(s.expr.validate().is_ok(), "{e} -> invalid {}", s.expr);
    assert_eq!(simplify(e, limits), s, "not deterministic: {e}");
    // A run that saturated finds nothing cheaper from its own result.
    if s.limit_hits == 0 {
        assert_eq!(simplify(&s.expr, limits).expr, s.expr, "not a fixpoint: {e} -> {}", s.expr);
    }
    if s.expr != *e {
        stats[0] += 1;
    }
    stats[1] += usize::from(s.fused > 0);
    for _ in 0..ENVIRONMENTS {
        let env = random_env(r);
        let Ok(want) = e.eval(&env) else {
            continue;
        };
        stats[2] += 1;
        let got = s.expr.eval(&env).unwrap_or_else(|err| {
            panic!("{e}\n  -> {}\n  fails ({err}) where the input gives {want}\n  env {env:?}", s.expr)
        });
        assert!(got >= want, "{e}\n  -> {}\n  gives {got} < {want}\n  env {env:?}", s.expr);
        if s.fused == 0 {
            assert_eq!(got, want, "{e}\n  -> {}\n  not equal\n  env {env:?}", s.expr);
        }
        let got = x.expr.eval(&env).unwrap_or_else(|err| {
            panic!("{e}\n  -> (exact) {}\n  fails ({err}) where the input gives {want}", x.expr)
        });
        assert_eq!(got, want, "{e}\n  -> (exact) {}\n  not equal\n  env {env:?}", x.expr);
    }
}

#[test]
fn simplified_bounds_are_never_smaller() {
    let mut r = Rng::new(seed());
    let mut stats = [0usize; 3];
    for i in 0..n_expr() {
        let depth = 1 + r.below(4) as u32;
        let e = Gen::new(&mut r).expr(depth);
        let e = SizeExpr::from_nodes(e.nodes().to_vec()).expect("closed by construction");
        if std::env::var("QD_SHOW").is_ok() && i < 40 { eprintln!("{e}\n   => {}", simplify(&e, Limits::default()).expr); }
        check(&e, &mut r, &mut stats);
    }
    let [changed, fused, evaluated] = stats;
    eprintln!("changed {changed} fused {fused} evaluated {evaluated}");
    // The generator exercises what it is meant to.
    assert!(changed > EXPRESSIONS / 3, "only {changed} expressions changed");
    assert!(fused > 10, "only {fused} fusions");
    assert!(evaluated > EXPRESSIONS * ENVIRONMENTS / 4, "only {evaluated} evaluations");
}

/// Every two-operator shape with a shared operand (what cancellation, absorption and factoring
/// rules match), over random small operands.
#[test]
fn shared_operand_shapes_are_never_smaller() {
    let mut r = Rng::new(0x5EED_0002);
    let mut stats = [0usize; 3];
    for o1 in BinOp::ALL {
        for o2 in BinOp::ALL {
            for shape in 0..4 {
                for _ in 0..12 {
                    let mut g = Gen::new(&mut r);
                    let (x, y, z) = (g.expr(1), g.expr(1), g.expr(1));
                    let inner = SizeExpr::binary(o1, &x, &y);
                    let e = match shape {
                        0 => SizeExpr::binary(o2, &inner, &y),
                        1 => SizeExpr::binary(o2, &x, &inner),
                        2 => SizeExpr::binary(o2, &inner, &SizeExpr::binary(o1, &x, &z)),
                        _ => SizeExpr::binary(o2, &inner, &z),
                    };
                    check(&e, &mut r, &mut stats);
                }
            }
        }
    }
    assert!(stats[0] > 300, "only {} expressions changed", stats[0]);
}
