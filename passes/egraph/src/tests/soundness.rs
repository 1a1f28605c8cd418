//! The contract, on random expressions and environments (proptest, fixed seeds, shrinking to a
//! minimal failing expression): the simplified expression evaluates to at least the original
//! wherever the original evaluates (and to exactly it when no fusion applied, and always for the
//! exact rules alone); it never fails where the original succeeds; it is valid, deterministic,
//! and a fixpoint.

use super::env::{env, Array, Env};
use super::exprs::{closed_expr, constant, divisor, expr, range_of};
use super::{forall, sample};
use crate::simplify::{simplify, simplify_exact, Limits};
use proptest::prelude::*;
use proptest::sample::select;
use qd_adstack::size_expr::{BinOp, IntTy, SizeExpr};
use std::cell::Cell;

const EXPRESSIONS: u32 = 600;
const ENVIRONMENTS: usize = 12;

/// What a batch of checks exercised: expressions the simplifier changed, expressions where a
/// fusion applied, evaluations compared.
#[derive(Default)]
struct Stats {
    changed: Cell<usize>,
    fused: Cell<usize>,
    evaluated: Cell<usize>,
    /// Inputs with a sum whose result has none (a closed form replaced every sum).
    closed_sums: Cell<usize>,
    /// Fusions in inputs with a sum.
    fused_sums: Cell<usize>,
}

fn has_sum(e: &SizeExpr) -> bool {
    e.nodes()
        .iter()
        .any(|n| matches!(n, qd_adstack::size_expr::Node::SumOverRange { .. }))
}

fn bump(c: &Cell<usize>) {
    c.set(c.get() + 1);
}

fn envs() -> impl Strategy<Value = Vec<Env>> {
    proptest::collection::vec(env(), ENVIRONMENTS)
}

fn check(e: &SizeExpr, envs: &[Env], stats: &Stats) -> Result<(), TestCaseError> {
    let limits = Limits::default();
    let s = simplify(e, limits);
    let x = simplify_exact(e, limits);
    prop_assert!(s.expr.validate().is_ok(), "{e} -> invalid {}", s.expr);
    prop_assert!(simplify(e, limits) == s, "not deterministic: {e}");
    // A run that saturated finds nothing cheaper from its own result.
    if s.limit_hits == 0 {
        let again = simplify(&s.expr, limits).expr;
        prop_assert!(
            again == s.expr,
            "not a fixpoint: {e} -> {} -> {again}",
            s.expr
        );
    }
    if s.expr != *e {
        bump(&stats.changed);
    }
    if s.fused > 0 {
        bump(&stats.fused);
        if has_sum(e) {
            bump(&stats.fused_sums);
        }
    }
    if has_sum(e) && !has_sum(&s.expr) {
        bump(&stats.closed_sums);
    }
    for env in envs {
        let Ok(want) = e.eval(env) else {
            continue;
        };
        bump(&stats.evaluated);
        let got = s.expr.eval(env).map_err(|err| {
            TestCaseError::fail(format!(
                "{e}\n  -> {}\n  fails ({err}) where the input gives {want}\n  env {env:?}",
                s.expr
            ))
        })?;
        prop_assert!(
            got >= want,
            "{e}\n  -> {}\n  gives {got} < {want}\n  env {env:?}",
            s.expr
        );
        if s.fused == 0 {
            prop_assert!(
                got == want,
                "{e}\n  -> {}\n  gives {got}, not {want}\n  env {env:?}",
                s.expr
            );
        }
        let got = x.expr.eval(env).map_err(|err| {
            TestCaseError::fail(format!(
                "{e}\n  -> (exact) {}\n  fails ({err}) where the input gives {want}",
                x.expr
            ))
        })?;
        prop_assert!(
            got == want,
            "{e}\n  -> (exact) {}\n  gives {got}, not {want}\n  env {env:?}",
            x.expr
        );
    }
    Ok(())
}

/// A distinct seed for each enumerated case, so that each gets its own random operands.
fn seed(base: u64, ops: [BinOp; 2], shape: u64) -> u64 {
    let code = |o| BinOp::ALL.iter().position(|&x| x == o).unwrap_or(0) as u64;
    base + ((code(ops[0]) * 5 + code(ops[1])) * 8 + shape) * 0x1_0000
}

#[test]
fn simplified_bounds_are_never_smaller() {
    let stats = Stats::default();
    forall(
        EXPRESSIONS,
        0x5EED_0001,
        (closed_expr(), envs()),
        |(e, envs)| check(&e, &envs, &stats),
    );
    let (changed, fused, evaluated) = (
        stats.changed.get(),
        stats.fused.get(),
        stats.evaluated.get(),
    );
    let n = EXPRESSIONS as usize;
    let (closed, fused_sums) = (stats.closed_sums.get(), stats.fused_sums.get());
    eprintln!(
        "{changed} of {n} expressions changed, {fused} fused ({fused_sums} with sums), \
         {closed} sums closed, {evaluated} evaluations"
    );
    // The generator exercises what it is meant to.
    assert!(changed > n / 3, "only {changed} expressions changed");
    assert!(fused > 5, "only {fused} fusions");
    assert!(closed > 20, "only {closed} sums closed");
    assert!(
        evaluated > n * ENVIRONMENTS / 4,
        "only {evaluated} evaluations"
    );
}

/// Every two-operator shape with a shared operand (what cancellation, absorption and factoring
/// rules match), over random small operands.
#[test]
fn shared_operand_shapes_are_never_smaller() {
    let stats = Stats::default();
    for o1 in BinOp::ALL {
        for o2 in BinOp::ALL {
            for shape in 0..4 {
                let operand = || expr(1, &[]);
                let strategy = (operand(), operand(), operand(), envs());
                forall(
                    8,
                    seed(0x5EED_0002, [o1, o2], shape),
                    strategy,
                    |(x, y, z, envs)| {
                        let inner = SizeExpr::binary(o1, &x, &y);
                        let e = match shape {
                            0 => SizeExpr::binary(o2, &inner, &y),
                            1 => SizeExpr::binary(o2, &x, &inner),
                            2 => SizeExpr::binary(o2, &inner, &SizeExpr::binary(o1, &x, &z)),
                            _ => SizeExpr::binary(o2, &inner, &z),
                        };
                        check(&e, &envs, &stats)
                    },
                );
            }
        }
    }
    assert!(
        stats.changed.get() > 200,
        "only {} expressions changed",
        stats.changed.get()
    );
}

/// A body term over `v`: the variable, offsets and multiples of it, literals, scalar fields,
/// and reads at `v` or at a literal (which may be out of bounds).
fn range_leaf(v: u32) -> BoxedStrategy<SizeExpr> {
    let var = move || SizeExpr::bound_var(v);
    let lit = || constant(-4, 6);
    prop_oneof![
        Just(var()),
        lit().prop_map(move |k| SizeExpr::binary(BinOp::Add, &var(), &k)),
        lit().prop_map(move |k| SizeExpr::binary(BinOp::Mul, &var(), &k)),
        lit(),
        Just(SizeExpr::field_load("n", IntTy::I32, &[])),
        Just(SizeExpr::field_load("f", IntTy::I8, &[var()])),
        lit().prop_map(|k| SizeExpr::ndarray_read(0, IntTy::I8, &[k])),
        Just(SizeExpr::ndarray_read(1, IntTy::U8, &[var()])),
        lit().prop_map(move |k| SizeExpr::binary(BinOp::Sub, &k, &var())),
    ]
    .boxed()
}

/// A range bound: literals (some ranges surely empty or non-empty), shapes, scalar fields.
fn range_bound() -> BoxedStrategy<SizeExpr> {
    prop_oneof![
        2 => constant(-2, 5),
        1 => (0u32..2).prop_map(|a| SizeExpr::ndarray_shape(a, 0)),
        1 => Just(SizeExpr::field_load("n", IntTy::I32, &[])),
        1 => Just(SizeExpr::field_load("m", IntTy::U16, &[])),
    ]
    .boxed()
}

/// `max(x op y for v in range(b, e))` and one more operator around the body: what the range
/// rules (free body, monotone body, max splitting, hoisting) match, over ranges that may be
/// empty and reads that may be out of bounds.
#[test]
fn range_shapes_are_never_smaller() {
    let stats = Stats::default();
    for o1 in BinOp::ALL {
        for o2 in BinOp::ALL {
            let nest = (0u32..3).prop_flat_map(move |v| {
                let body = (range_leaf(v), range_leaf(v), range_leaf(v), any::<bool>()).prop_map(
                    move |(x, y, z, plain)| {
                        let inner = SizeExpr::binary(o1, &x, &y);
                        if plain {
                            inner
                        } else {
                            SizeExpr::binary(o2, &inner, &z)
                        }
                    },
                );
                (Just(v), body, range_bound(), range_bound())
                    .prop_map(|(v, body, b, e)| SizeExpr::max_over_range_raw(v, &b, &e, &body))
            });
            let strategy = (nest, 0..3, range_bound(), envs());
            forall(
                16,
                seed(0x5EED_0003, [o1, o2], 0),
                strategy,
                |(m, around, k, envs)| {
                    let e = match around {
                        0 => m,
                        1 => SizeExpr::binary(o2, &m, &k),
                        _ => SizeExpr::binary(BinOp::Sub, &SizeExpr::constant(9), &m),
                    };
                    check(&e, &envs, &stats)
                },
            );
        }
    }
    assert!(
        stats.changed.get() > 200,
        "only {} expressions changed",
        stats.changed.get()
    );
}

/// `sum(x op y for v in range(b, e))`, with one more operator or a division around the body,
/// and an operator around the sum: what the sum rules (free body, series, reflection, splitting,
/// hoisting) match, over ranges that may be empty and reads that may be out of bounds.
#[test]
fn sum_shapes_are_never_smaller() {
    let stats = Stats::default();
    for o1 in BinOp::ALL {
        for o2 in BinOp::ALL {
            let nest = (0u32..3).prop_flat_map(move |v| {
                let body = (range_leaf(v), range_leaf(v), range_leaf(v), 0..3, divisor()).prop_map(
                    move |(x, y, z, form, c)| {
                        let inner = SizeExpr::binary(o1, &x, &y);
                        match form {
                            0 => inner,
                            1 => SizeExpr::binary(o2, &inner, &z),
                            _ => SizeExpr::binary(BinOp::Div, &inner, &c),
                        }
                    },
                );
                (Just(v), body, range_bound(), range_bound())
                    .prop_map(|(v, body, b, e)| SizeExpr::sum_over_range_raw(v, &b, &e, &body))
            });
            let strategy = (nest, 0..4, range_bound(), divisor(), envs());
            forall(
                16,
                seed(0x5EED_0007, [o1, o2], 0),
                strategy,
                |(m, around, k, c, envs)| {
                    let e = match around {
                        0 => m,
                        1 => SizeExpr::binary(o2, &m, &k),
                        2 => SizeExpr::binary(BinOp::Div, &m, &c),
                        _ => SizeExpr::binary(BinOp::Sub, &SizeExpr::constant(9), &m),
                    };
                    check(&e, &envs, &stats)
                },
            );
        }
    }
    let (changed, closed) = (stats.changed.get(), stats.closed_sums.get());
    eprintln!("{changed} of 400 sums changed, {closed} closed");
    assert!(changed > 150, "only {changed} expressions changed");
    assert!(closed > 100, "only {closed} sums closed");
}

/// Sums and divisions at the edges of the i64 range: bodies and bounds over the i64 fields `w`
/// and `u`, so that terms, partial sums, products and the closed forms' factors saturate.
#[test]
fn saturating_sums_are_never_smaller() {
    let stats = Stats::default();
    let w = || SizeExpr::field_load("w", IntTy::I64, &[]);
    let u = || SizeExpr::field_load("u", IntTy::I64, &[]);
    let edge = || select(EDGES.to_vec()).prop_map(SizeExpr::constant);
    let body = move |v: u32| {
        let var = move || SizeExpr::bound_var(v);
        prop_oneof![
            Just(var()),
            Just(w()),
            edge(),
            Just(SizeExpr::binary(BinOp::Mul, &var(), &w())),
            Just(SizeExpr::binary(BinOp::Add, &var(), &u())),
            Just(SizeExpr::binary(BinOp::Sub, &w(), &var())),
            edge().prop_map(move |k| SizeExpr::binary(BinOp::Mul, &k, &var())),
            edge().prop_map(move |k| SizeExpr::binary(BinOp::Add, &var(), &k)),
            edge().prop_map(move |k| SizeExpr::binary(BinOp::Sub, &k, &var())),
        ]
    };
    // max(w, 0) + k: proved >= 0, and near the top of i64 for an edge w: short ranges whose
    // closed forms' factors overflow while the sum itself may not.
    let high = move || {
        (0i64..=3).prop_map(move |k| {
            let top = SizeExpr::binary(BinOp::Max, &w(), &SizeExpr::constant(0));
            SizeExpr::binary(BinOp::Add, &top, &SizeExpr::constant(k))
        })
    };
    let bound = move || {
        prop_oneof![
            2 => constant(-2, 5),
            1 => Just(w()),
            1 => Just(u()),
            1 => edge(),
            3 => high(),
        ]
    };
    let edge_envs = proptest::collection::vec(edge_env(), ENVIRONMENTS);
    for shape in 0..6u64 {
        let sum = (0u32..2)
            .prop_flat_map(move |v| (Just(v), body(v), body(v), bound(), bound(), divisor()));
        forall(
            60,
            0x5EED_0008 + shape,
            (sum, edge(), edge_envs.clone()),
            |((v, x, y, b, e, c), k, envs)| {
                let body = match shape {
                    0 | 1 => x,
                    2 => SizeExpr::binary(BinOp::Add, &x, &y),
                    3 => SizeExpr::binary(BinOp::Mul, &x, &k),
                    4 => SizeExpr::binary(BinOp::Div, &x, &c),
                    _ => SizeExpr::binary(BinOp::Add, &SizeExpr::binary(BinOp::Mul, &k, &x), &y),
                };
                let s = SizeExpr::sum_over_range_raw(v, &b, &e, &body);
                let e = match shape {
                    1 => SizeExpr::binary(BinOp::Div, &s, &c),
                    _ => s,
                };
                check(&e, &envs, &stats)
            },
        );
    }
    let (changed, closed) = (stats.changed.get(), stats.closed_sums.get());
    eprintln!("{changed} of 360 saturating sums changed, {closed} closed");
    assert!(changed > 100, "only {changed} expressions changed");
    assert!(closed > 50, "only {closed} sums closed");
}

/// Bodies that read at the variable: the e-graph cannot remove these ranges.
fn read_at(v: u32) -> BoxedStrategy<SizeExpr> {
    let at = [SizeExpr::bound_var(v)];
    let sum = range_leaf(v).prop_map(move |t| {
        SizeExpr::binary(
            BinOp::Add,
            &SizeExpr::ndarray_read(0, IntTy::I8, &[SizeExpr::bound_var(v)]),
            &t,
        )
    });
    prop_oneof![
        Just(SizeExpr::field_load("f", IntTy::I8, &at)),
        Just(SizeExpr::ndarray_read(1, IntTy::U8, &at)),
        sum,
    ]
    .boxed()
}

/// The fusion's shape in every kind of position: it may apply only where a larger value is a
/// larger bound.
#[test]
fn fusion_shapes_in_every_position_are_never_smaller() {
    let stats = Stats::default();
    let fusion = (0u32..2).prop_flat_map(|v| {
        let ends = (range_bound(), range_bound(), proptest::bool::weighted(0.6));
        (
            Just(v),
            range_bound(),
            ends,
            read_at(v),
            read_at(v),
            any::<bool>(),
        )
            .prop_map(|(v, b, (e1, e2, same_end), x, y, sum)| {
                let e2 = if same_end { &e1 } else { &e2 };
                SizeExpr::binary(
                    BinOp::Sub,
                    &range_of(sum, v, &b, &e1, &x),
                    &range_of(sum, v, &b, e2, &y),
                )
            })
    });
    for position in 0..10u64 {
        let strategy = (fusion.clone(), -3i64..=12, envs());
        forall(40, 0x5EED_0004 + position, strategy, |(f, k, envs)| {
            let k = SizeExpr::constant(k);
            let e = match position {
                0 => f,
                1 => SizeExpr::binary(BinOp::Sub, &k, &f),
                2 => SizeExpr::binary(BinOp::Mul, &f, &SizeExpr::constant(-2)),
                3 => SizeExpr::binary(BinOp::Mul, &f, &SizeExpr::field_load("n", IntTy::I32, &[])),
                4 => SizeExpr::binary(BinOp::Min, &k, &f),
                5 => SizeExpr::field_load("f", IntTy::I8, &[f]),
                6 => SizeExpr::max_over_range_raw(2, &f, &k, &SizeExpr::bound_var(2)),
                // A sum's body is positive, its bounds are not; a dividend is positive.
                7 => SizeExpr::sum_over_range_raw(2, &SizeExpr::constant(0), &k, &f),
                8 => SizeExpr::sum_over_range_raw(2, &f, &k, &SizeExpr::bound_var(2)),
                _ => SizeExpr::binary(BinOp::Div, &f, &SizeExpr::constant(3)),
            };
            check(&e, &envs, &stats)
        });
    }
    let (fused, sums) = (stats.fused.get(), stats.fused_sums.get());
    eprintln!("{fused} fused, {sums} of them sums");
    assert!(fused > 20, "only {fused} fusions");
    assert!(sums > 10, "only {sums} fusions of sums");
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

/// A random environment whose i64 fields `w` and `u` sit at the edges of the i64 range.
fn edge_env() -> BoxedStrategy<Env> {
    (env(), select(EDGES.to_vec()), select(EDGES.to_vec()))
        .prop_map(|(mut env, w, u)| {
            for (name, a) in &mut env.fields {
                match name.as_str() {
                    "w" => *a = Array::new(&[], &[w]),
                    "u" => *a = Array::new(&[], &[u]),
                    _ => {}
                }
            }
            env
        })
        .boxed()
}

/// Operator pairs over i64 fields and literals at the edges of the i64 range: associativity,
/// factoring and cancellation rules must respect saturation.
#[test]
fn saturating_shapes_are_never_smaller() {
    let stats = Stats::default();
    let leaf = || {
        prop_oneof![
            Just(SizeExpr::field_load("w", IntTy::I64, &[])),
            Just(SizeExpr::field_load("u", IntTy::I64, &[])),
            select(EDGES.to_vec()).prop_map(SizeExpr::constant),
            constant(-3, 3),
        ]
    };
    let edge_envs = proptest::collection::vec(edge_env(), ENVIRONMENTS);
    for o1 in BinOp::ALL {
        for o2 in BinOp::ALL {
            for shape in 0..5 {
                let strategy = (leaf(), leaf(), leaf(), edge_envs.clone());
                forall(
                    8,
                    seed(0x5EED_0005, [o1, o2], shape),
                    strategy,
                    |(x, y, z, envs)| {
                        let inner = SizeExpr::binary(o1, &x, &y);
                        let e = match shape {
                            0 => SizeExpr::binary(o2, &inner, &y),
                            1 => SizeExpr::binary(o2, &inner, &z),
                            2 => SizeExpr::binary(o2, &z, &inner),
                            3 => SizeExpr::binary(o2, &inner, &SizeExpr::binary(o1, &x, &z)),
                            _ => SizeExpr::binary(o1, &inner, &SizeExpr::binary(o2, &x, &z)),
                        };
                        check(&e, &envs, &stats)
                    },
                );
            }
        }
    }
    assert!(
        stats.changed.get() > 200,
        "only {} expressions changed",
        stats.changed.get()
    );
}

/// The result depends on the expression alone: not on what the process simplified before, nor
/// on the thread.
#[test]
fn results_do_not_depend_on_history() {
    let exprs = sample(40, 0x5EED_0006, expr(3, &[]));
    let run = |warm: bool| {
        let exprs = exprs.clone();
        std::thread::spawn(move || {
            if warm {
                for e in sample(20, 99, expr(3, &[])) {
                    simplify(&e, Limits::default());
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
        for env in sample(20, 7, env()) {
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
        for env in sample(10, 3, env()) {
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
