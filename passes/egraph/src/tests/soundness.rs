//! The contract, on random expressions and environments (seeded): the simplified expression
//! evaluates to at least the original wherever the original evaluates (and to exactly it when
//! no fusion applied, and always for the exact rules alone); it never fails where the original
//! succeeds; it is valid, deterministic, and a fixpoint.

use super::env::{random_env, Array, Env, Gen, Rng};
use crate::simplify::{simplify, simplify_exact, Limits};
use qd_adstack::size_expr::{BinOp, IntTy, SizeExpr};

const EXPRESSIONS: usize = 600;
const ENVIRONMENTS: usize = 12;

fn check(e: &SizeExpr, r: &mut Rng, stats: &mut [usize; 3]) {
    check_with(e, r, stats, random_env)
}

fn check_with(e: &SizeExpr, r: &mut Rng, stats: &mut [usize; 3], env_of: fn(&mut Rng) -> Env) {
    let limits = Limits::default();
    let s = simplify(e, limits);
    let x = simplify_exact(e, limits);
    assert!(s.expr.validate().is_ok(), "{e} -> invalid {}", s.expr);
    assert_eq!(simplify(e, limits), s, "not deterministic: {e}");
    // A run that saturated finds nothing cheaper from its own result.
    if s.limit_hits == 0 {
        assert_eq!(
            simplify(&s.expr, limits).expr,
            s.expr,
            "not a fixpoint: {e} -> {}",
            s.expr
        );
    }
    if s.expr != *e {
        stats[0] += 1;
    }
    stats[1] += usize::from(s.fused > 0);
    for _ in 0..ENVIRONMENTS {
        let env = env_of(r);
        let Ok(want) = e.eval(&env) else {
            continue;
        };
        stats[2] += 1;
        let got = s.expr.eval(&env).unwrap_or_else(|err| {
            panic!(
                "{e}\n  -> {}\n  fails ({err}) where the input gives {want}\n  env {env:?}",
                s.expr
            )
        });
        assert!(
            got >= want,
            "{e}\n  -> {}\n  gives {got} < {want}\n  env {env:?}",
            s.expr
        );
        if s.fused == 0 {
            assert_eq!(
                got, want,
                "{e}\n  -> {}\n  not equal\n  env {env:?}",
                s.expr
            );
        }
        let got = x.expr.eval(&env).unwrap_or_else(|err| {
            panic!(
                "{e}\n  -> (exact) {}\n  fails ({err}) where the input gives {want}",
                x.expr
            )
        });
        assert_eq!(
            got, want,
            "{e}\n  -> (exact) {}\n  not equal\n  env {env:?}",
            x.expr
        );
    }
}

#[test]
fn simplified_bounds_are_never_smaller() {
    let mut r = Rng::new(0x5EED_0001);
    let mut stats = [0usize; 3];
    for _ in 0..EXPRESSIONS {
        let depth = 1 + r.below(4) as u32;
        let e = Gen::new(&mut r).expr(depth);
        let e = SizeExpr::from_nodes(e.nodes().to_vec()).expect("closed by construction");
        check(&e, &mut r, &mut stats);
    }
    let [changed, fused, evaluated] = stats;
    // The generator exercises what it is meant to.
    assert!(
        changed > EXPRESSIONS / 3,
        "only {changed} expressions changed"
    );
    assert!(fused > 5, "only {fused} fusions");
    assert!(
        evaluated > EXPRESSIONS * ENVIRONMENTS / 4,
        "only {evaluated} evaluations"
    );
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
                for _ in 0..8 {
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
    assert!(stats[0] > 200, "only {} expressions changed", stats[0]);
}

/// A body term over `v`: the variable, offsets and multiples of it, literals, scalar fields,
/// and reads at `v` or at a literal (which may be out of bounds).
fn range_leaf(r: &mut Rng, v: u32) -> SizeExpr {
    let var = SizeExpr::bound_var(v);
    let lit = |r: &mut Rng| SizeExpr::constant(r.range(-4, 6));
    match r.below(9) {
        0 => var,
        1 => SizeExpr::binary(BinOp::Add, &var, &lit(r)),
        2 => SizeExpr::binary(BinOp::Mul, &var, &lit(r)),
        3 => lit(r),
        4 => SizeExpr::field_load("n", IntTy::I32, &[]),
        5 => SizeExpr::field_load("f", IntTy::I8, &[var]),
        6 => SizeExpr::ndarray_read(0, IntTy::I8, &[lit(r)]),
        7 => SizeExpr::ndarray_read(1, IntTy::U8, &[var]),
        _ => SizeExpr::binary(BinOp::Sub, &lit(r), &var),
    }
}

/// A range bound: literals (some ranges surely empty or non-empty), shapes, scalar fields.
fn range_bound(r: &mut Rng) -> SizeExpr {
    match r.below(5) {
        0 | 1 => SizeExpr::constant(r.range(-2, 5)),
        2 => SizeExpr::ndarray_shape(r.below(2) as u32, 0),
        3 => SizeExpr::field_load("n", IntTy::I32, &[]),
        _ => SizeExpr::field_load("m", IntTy::U16, &[]),
    }
}

/// `max(x op y for v in range(b, e))` and one more operator around the body: what the range
/// rules (free body, monotone body, max splitting, hoisting) match, over ranges that may be
/// empty and reads that may be out of bounds.
#[test]
fn range_shapes_are_never_smaller() {
    let mut r = Rng::new(0x5EED_0003);
    let mut stats = [0usize; 3];
    for o1 in BinOp::ALL {
        for o2 in BinOp::ALL {
            for _ in 0..16 {
                let v = r.below(3) as u32;
                let (x, y, z) = (
                    range_leaf(&mut r, v),
                    range_leaf(&mut r, v),
                    range_leaf(&mut r, v),
                );
                let inner = SizeExpr::binary(o1, &x, &y);
                let body = if r.chance(50) {
                    inner
                } else {
                    SizeExpr::binary(o2, &inner, &z)
                };
                let (b, e) = (range_bound(&mut r), range_bound(&mut r));
                let m = SizeExpr::max_over_range_raw(v, &b, &e, &body);
                let e = match r.below(3) {
                    0 => m,
                    1 => SizeExpr::binary(o2, &m, &range_bound(&mut r)),
                    _ => SizeExpr::binary(BinOp::Sub, &SizeExpr::constant(9), &m),
                };
                check(&e, &mut r, &mut stats);
            }
        }
    }
    assert!(stats[0] > 200, "only {} expressions changed", stats[0]);
}

/// The fusion's shape in every kind of position: it may apply only where a larger value is a
/// larger bound.
#[test]
fn fusion_shapes_in_every_position_are_never_smaller() {
    let mut r = Rng::new(0x5EED_0004);
    let mut stats = [0usize; 3];
    for position in 0..7 {
        for _ in 0..40 {
            let v = r.below(2) as u32;
            let b = range_bound(&mut r);
            let e1 = range_bound(&mut r);
            let e2 = if r.chance(60) {
                e1.clone()
            } else {
                range_bound(&mut r)
            };
            // Bodies that read at the variable: the e-graph cannot remove these ranges.
            let read = |r: &mut Rng| {
                let at = [SizeExpr::bound_var(v)];
                match r.below(3) {
                    0 => SizeExpr::field_load("f", IntTy::I8, &at),
                    1 => SizeExpr::ndarray_read(1, IntTy::U8, &at),
                    _ => SizeExpr::binary(
                        BinOp::Add,
                        &SizeExpr::ndarray_read(0, IntTy::I8, &at),
                        &range_leaf(r, v),
                    ),
                }
            };
            let (x, y) = (read(&mut r), read(&mut r));
            let f = SizeExpr::binary(
                BinOp::Sub,
                &SizeExpr::max_over_range_raw(v, &b, &e1, &x),
                &SizeExpr::max_over_range_raw(v, &b, &e2, &y),
            );
            let k = SizeExpr::constant(r.range(-3, 12));
            let e = match position {
                0 => f,
                1 => SizeExpr::binary(BinOp::Sub, &k, &f),
                2 => SizeExpr::binary(BinOp::Mul, &f, &SizeExpr::constant(-2)),
                3 => SizeExpr::binary(BinOp::Mul, &f, &SizeExpr::field_load("n", IntTy::I32, &[])),
                4 => SizeExpr::binary(BinOp::Min, &k, &f),
                5 => SizeExpr::field_load("f", IntTy::I8, &[f]),
                _ => SizeExpr::max_over_range_raw(2, &f, &k, &SizeExpr::bound_var(2)),
            };
            check(&e, &mut r, &mut stats);
        }
    }
    assert!(stats[1] > 20, "only {} fusions", stats[1]);
}

/// Values where saturating `+` and `*` saturate.
const EDGES: [i64; 12] = [
    i64::MIN,
    i64::MIN + 1,
    -(1 << 62),
    -(1 << 32),
    -5,
    -1,
    0,
    1,
    3,
    1 << 32,
    1 << 62,
    i64::MAX,
];

fn edge_env(r: &mut Rng) -> Env {
    let mut env = random_env(r);
    for (name, a) in &mut env.fields {
        if name == "w" || name == "u" {
            *a = Array::new(&[], &[EDGES[r.below(EDGES.len() as u64) as usize]]);
        }
    }
    env
}

/// Operator pairs over i64 fields and literals at the edges of the i64 range: associativity,
/// factoring and cancellation rules must respect saturation.
#[test]
fn saturating_shapes_are_never_smaller() {
    let mut r = Rng::new(0x5EED_0005);
    let mut stats = [0usize; 3];
    let leaf = |r: &mut Rng| match r.below(4) {
        0 => SizeExpr::field_load("w", IntTy::I64, &[]),
        1 => SizeExpr::field_load("u", IntTy::I64, &[]),
        2 => SizeExpr::constant(EDGES[r.below(EDGES.len() as u64) as usize]),
        _ => SizeExpr::constant(r.range(-3, 3)),
    };
    for o1 in BinOp::ALL {
        for o2 in BinOp::ALL {
            for shape in 0..5 {
                for _ in 0..8 {
                    let (x, y, z) = (leaf(&mut r), leaf(&mut r), leaf(&mut r));
                    let inner = SizeExpr::binary(o1, &x, &y);
                    let e = match shape {
                        0 => SizeExpr::binary(o2, &inner, &y),
                        1 => SizeExpr::binary(o2, &inner, &z),
                        2 => SizeExpr::binary(o2, &z, &inner),
                        3 => SizeExpr::binary(o2, &inner, &SizeExpr::binary(o1, &x, &z)),
                        _ => SizeExpr::binary(o1, &inner, &SizeExpr::binary(o2, &x, &z)),
                    };
                    check_with(&e, &mut r, &mut stats, edge_env);
                }
            }
        }
    }
    assert!(stats[0] > 200, "only {} expressions changed", stats[0]);
}

/// The result depends on the expression alone: not on what the process simplified before, nor
/// on the thread.
#[test]
fn results_do_not_depend_on_history() {
    let exprs: Vec<SizeExpr> = {
        let mut r = Rng::new(0x5EED_0006);
        (0..40).map(|_| Gen::new(&mut r).expr(3)).collect()
    };
    let run = |warm: bool| {
        let exprs = exprs.clone();
        std::thread::spawn(move || {
            if warm {
                let mut r = Rng::new(99);
                for _ in 0..20 {
                    simplify(&Gen::new(&mut r).expr(3), Limits::default());
                }
            }
            exprs
                .iter()
                .map(|e| simplify(e, Limits::default()).expr.to_string())
                .collect::<Vec<_>>()
        })
        .join()
        .expect("no panic")
    };
    assert_eq!(run(false), run(true));
}

/// One class under binders of different ranges (and a variable reused by sibling ranges):
/// extraction keeps every variable bound, once.
#[test]
fn extraction_keeps_variables_in_scope() {
    for s in [
        "max(v0 + 0 for v0 in range(0, 3)) + max(v0 * 1 + arg0[v0]:i8 for v0 in range(5, 9))",
        "max(max(v1 + v0 * 0 for v1 in range(v0, 4)) for v0 in range(0, @n[]:i32)) + max(v1 for v1 in range(0, @n[]:i32))",
        "max(max(v0 - v0 + arg0[v1]:i8 for v0 in range(0, 2)) for v1 in range(0, 3))",
    ] {
        let e = super::p(s);
        let out = simplify(&e, Limits::default()).expr;
        assert!(out.validate().is_ok(), "{s} -> {out}");
        let mut r = Rng::new(7);
        for _ in 0..20 {
            let env = random_env(&mut r);
            if let Ok(want) = e.eval(&env) {
                assert_eq!(out.eval(&env), Ok(want), "{s} -> {out}");
            }
        }
    }
}

/// The limits bound the work: a long sum (associativity and commutativity never saturate)
/// stops near the node limit, and reports that it did; the result is still exact.
#[test]
fn limits_bound_the_e_graph() {
    let terms: Vec<SizeExpr> = (0..12)
        .map(|i| {
            let t = format!(
                "{} * max(arg1[v0]:ui8 + {i} for v0 in range(0, arg1.shape[0]))",
                i % 3 + 1
            );
            super::p(&t)
        })
        .collect();
    let e = SizeExpr::sum(&terms);
    for node_limit in [200, 1000] {
        let s = simplify(
            &e,
            Limits {
                iter_limit: 30,
                node_limit,
            },
        );
        assert!(s.limit_hits > 0);
        assert!(
            s.egraph_nodes < node_limit + 100,
            "{} e-nodes",
            s.egraph_nodes
        );
        let mut r = Rng::new(3);
        for _ in 0..10 {
            let env = random_env(&mut r);
            let want = e.eval(&env).expect("in bounds");
            assert_eq!(s.expr.eval(&env), Ok(want));
        }
    }
    let none = simplify(
        &e,
        Limits {
            iter_limit: 0,
            node_limit: 1000,
        },
    );
    assert_eq!(none.expr, e);
}
