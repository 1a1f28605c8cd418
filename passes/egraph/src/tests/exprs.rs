//! Proptest strategies of random closed size expressions over the environment of `env`: leaves
//! (literals, bound variables, field and ndarray reads, shapes, scalar arguments), operators,
//! divisions by positive literals, shared operands (what the cancellation and absorption rules
//! match), maxima and sums over ranges, and the fusion's shape over either. Every
//! choice shrinks towards the first (simplest) alternative, so a failure reports a small
//! expression.

use super::env::{ARRAYS, FIELDS, SCALARS};
use proptest::prelude::*;
use proptest::sample::select;
use qd_adstack::size_expr::{BinOp, IntTy, SizeExpr};

pub type Expr = BoxedStrategy<SizeExpr>;

/// The number of distinct bound variables (siblings may reuse one, as the capture does).
const VARS: u32 = 6;

pub fn constant(lo: i64, hi: i64) -> Expr {
    (lo..=hi).prop_map(SizeExpr::constant).boxed()
}

pub fn op() -> impl Strategy<Value = BinOp> + Clone {
    select(BinOp::ALL.to_vec())
}

/// A divisor: the grammar divides by positive literals only (which is why `BinOp::ALL`, what
/// `op` draws from, leaves `Div` out).
pub fn divisor() -> Expr {
    prop_oneof![3 => constant(1, 4), 1 => constant(7, 7)].boxed()
}

/// `max(...)` or, with `sum`, `sum(...)` of `body` over `v` in `range(b, e)`, as written.
pub fn range_of(sum: bool, v: u32, b: &SizeExpr, e: &SizeExpr, body: &SizeExpr) -> SizeExpr {
    if sum {
        SizeExpr::sum_over_range_raw(v, b, e, body)
    } else {
        SizeExpr::max_over_range_raw(v, b, e, body)
    }
}

/// A variable of `scope`, or `otherwise` when nothing is in scope.
fn var_or(scope: &[u32], otherwise: Expr) -> Expr {
    if scope.is_empty() {
        return otherwise;
    }
    select(scope.to_vec()).prop_map(SizeExpr::bound_var).boxed()
}

fn literal() -> Expr {
    let big = vec![i64::MAX, i64::MIN, 1 << 40, -(1 << 40), i64::MAX - 1];
    prop_oneof![
        96 => constant(-3, 8),
        4 => select(big).prop_map(SizeExpr::constant),
    ]
    .boxed()
}

/// An index: mostly a variable, a variable plus a literal, or a literal.
fn index(scope: &[u32]) -> Expr {
    let lit = constant(0, 4);
    let offset = match scope.is_empty() {
        true => lit.clone(),
        false => (var_or(scope, lit.clone()), -1i64..=2)
            .prop_map(|(v, k)| SizeExpr::binary(BinOp::Add, &v, &SizeExpr::constant(k)))
            .boxed(),
    };
    prop_oneof![
        1 => lit.clone(),
        1 => offset,
        2 => var_or(scope, lit),
    ]
    .boxed()
}

fn field_read(scope: &[u32]) -> Expr {
    let idx = index(scope);
    select(FIELDS.to_vec())
        .prop_flat_map(move |(name, ty, shape)| {
            proptest::collection::vec(idx.clone(), shape.len())
                .prop_map(move |i| SizeExpr::field_load(name, ty, &i))
        })
        .boxed()
}

fn ndarray_read(scope: &[u32]) -> Expr {
    let idx = index(scope);
    select(ARRAYS.to_vec())
        .prop_flat_map(move |(arg, ty, rank)| {
            proptest::collection::vec(idx.clone(), rank)
                .prop_map(move |i| SizeExpr::ndarray_read(arg, ty, &i))
        })
        .boxed()
}

fn shape() -> Expr {
    select(ARRAYS.to_vec())
        .prop_flat_map(|(arg, _, rank)| {
            (0..rank as u32).prop_map(move |axis| SizeExpr::ndarray_shape(arg, axis))
        })
        .boxed()
}

fn scalar_arg() -> Expr {
    select(SCALARS.to_vec())
        .prop_map(|(arg, ty)| SizeExpr::scalar_arg(arg, ty))
        .boxed()
}

pub fn leaf(scope: &[u32]) -> Expr {
    prop_oneof![
        2 => literal(),
        2 => var_or(scope, literal()),
        1 => field_read(scope),
        1 => ndarray_read(scope),
        1 => shape(),
        1 => scalar_arg(),
    ]
    .boxed()
}

fn bound_leaf(scope: &[u32]) -> Expr {
    let g = (0i64..=4)
        .prop_map(|i| SizeExpr::field_load("g", IntTy::U8, &[SizeExpr::constant(i)]))
        .boxed();
    prop_oneof![constant(0, 5), var_or(scope, constant(2, 2)), g].boxed()
}

/// A range bound: small (a literal, a variable, a shape, a scalar field or a difference).
fn bound(scope: &[u32]) -> Expr {
    let ops = select(vec![BinOp::Add, BinOp::Sub, BinOp::Max, BinOp::Min]);
    let pair = (ops, bound_leaf(scope), bound_leaf(scope))
        .prop_map(|(o, a, b)| SizeExpr::binary(o, &a, &b))
        .boxed();
    prop_oneof![
        2 => constant(-1, 6),
        1 => var_or(scope, constant(3, 3)),
        1 => (0u32..2).prop_map(|a| SizeExpr::ndarray_shape(a, 0)),
        1 => Just(SizeExpr::field_load("n", IntTy::I32, &[])),
        1 => pair,
    ]
    .boxed()
}

/// A variable not in `scope`: the `k`-th free one.
fn fresh(scope: &[u32], k: u32) -> u32 {
    (0..VARS)
        .filter(|v| !scope.contains(v))
        .nth(k as usize)
        .expect("fewer binders than variables")
}

/// `max(body for v in range(b, e))` over a fresh `v`, with `bodies` bodies in its scope.
fn with_binder(
    scope: &[u32],
    bodies: usize,
    depth: u32,
) -> impl Strategy<Value = (u32, SizeExpr, SizeExpr, SizeExpr, Vec<SizeExpr>)> {
    let scope = scope.to_vec();
    let free = VARS - scope.len() as u32;
    (0..free, bound(&scope), bound(&scope), bound(&scope)).prop_flat_map(move |(k, b, e1, e2)| {
        let v = fresh(&scope, k);
        let mut inner = scope.clone();
        inner.push(v);
        let body = expr(depth, &inner);
        (
            Just((v, b, e1, e2)),
            proptest::collection::vec(body, bodies),
        )
            .prop_map(|((v, b, e1, e2), bodies)| (v, b, e1, e2, bodies))
    })
}

/// An expression of at most `depth` operator levels over the variables of `scope`.
pub fn expr(depth: u32, scope: &[u32]) -> Expr {
    if depth == 0 {
        return leaf(scope);
    }
    let sub = expr(depth - 1, scope);
    // Shared operands in two operators: what cancellation and absorption rules match, e.g.
    // (x - y) + y, max(x, min(x, y)), x * z + x * y.
    let shared = (
        op(),
        op(),
        sub.clone(),
        sub.clone(),
        sub.clone(),
        any::<bool>(),
        0..3,
    )
        .prop_map(|(o1, o2, x, y, z, take_y, form)| {
            let inner = SizeExpr::binary(o1, &x, &y);
            let shared = if take_y { y } else { x };
            match form {
                0 => SizeExpr::binary(o2, &inner, &shared),
                1 => SizeExpr::binary(o2, &shared, &inner),
                _ => SizeExpr::binary(o2, &inner, &SizeExpr::binary(o1, &shared, &z)),
            }
        });
    // Repeats make the cancellation rules fire.
    let binary = (op(), sub.clone(), sub, proptest::bool::weighted(0.15))
        .prop_map(|(o, a, b, repeat)| SizeExpr::binary(o, &a, if repeat { &a } else { &b }));
    // The fusion's shape: two ranges (maxima or sums) over one variable from one begin.
    let fusion = (
        with_binder(scope, 2, depth - 1),
        proptest::bool::weighted(0.6),
        any::<bool>(),
    )
        .prop_map(|((v, b, e1, e2, xy), same_end, sum)| {
            let e2 = if same_end { &e1 } else { &e2 };
            let l = range_of(sum, v, &b, &e1, &xy[0]);
            let r = range_of(sum, v, &b, e2, &xy[1]);
            SizeExpr::binary(BinOp::Sub, &l, &r)
        });
    let range = with_binder(scope, 1, depth - 1)
        .prop_map(|(v, b, e, _, body)| SizeExpr::max_over_range_raw(v, &b, &e, &body[0]));
    let sum = with_binder(scope, 1, depth - 1)
        .prop_map(|(v, b, e, _, body)| SizeExpr::sum_over_range_raw(v, &b, &e, &body[0]));
    let div =
        (expr(depth - 1, scope), divisor()).prop_map(|(a, c)| SizeExpr::binary(BinOp::Div, &a, &c));
    // The fusion's weight (5%) makes about a dozen of 600 expressions fuse.
    prop_oneof![
        60 => leaf(scope),
        140 => binary,
        40 => shared,
        50 => range,
        40 => sum,
        20 => div,
        15 => fusion,
    ]
    .boxed()
}

/// A closed expression of 1 to 4 levels, in the canonical node order.
pub fn closed_expr() -> impl Strategy<Value = SizeExpr> {
    (1u32..=4)
        .prop_flat_map(|depth| expr(depth, &[]))
        .prop_map(|e| SizeExpr::from_nodes(e.nodes().to_vec()).expect("closed by construction"))
}
