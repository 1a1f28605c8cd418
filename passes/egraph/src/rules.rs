//! The algebraic rules. Every rule is an equality under the evaluator's semantics (saturating
//! i64 `+` and `*`, `a - b = max(a - b, 0)`) for every environment in which the variables lie
//! in their hulls, so that e-graph merges are sound; the side conditions are proved from the
//! classes' intervals (an `i128` computation shows that nothing saturates where exactness
//! needs it). Saturating `+` and `*` are commutative, but associative only without saturation
//! or when all operands have one sign; `(a - b) + b` is `max(a, b)`, not `a`.

use crate::analysis::{Data, SizeAnalysis};
use crate::lang::Sz;
use egg::{rewrite, Applier, EGraph, Id, Pattern, PatternAst, Rewrite, Subst, Symbol, Var};
use qd_adstack::size_expr::Interval;

pub type Rw = Rewrite<Sz, SizeAnalysis>;
type G = EGraph<Sz, SizeAnalysis>;

fn v(name: &str) -> Var {
    name.parse().expect("a pattern variable")
}

fn data<'a>(g: &'a G, s: &Subst, x: Var) -> &'a Data {
    &g[s[x]].data
}

fn iv(g: &G, s: &Subst, x: Var) -> Interval {
    data(g, s, x).iv
}

/// The literal a class holds, if any.
pub fn literal(g: &G, id: Id) -> Option<i64> {
    let d = &g[id].data;
    (d.iv.lo == d.iv.hi).then_some(d.iv.lo)
}

fn fits(lo: i128, hi: i128) -> bool {
    lo >= i64::MIN as i128 && hi <= i64::MAX as i128
}

/// The exact range of `a + b` (as i128).
fn add128(a: Interval, b: Interval) -> (i128, i128) {
    (a.lo as i128 + b.lo as i128, a.hi as i128 + b.hi as i128)
}

/// The exact range of `a - b` (as i128).
fn sub128(a: Interval, b: Interval) -> (i128, i128) {
    (a.lo as i128 - b.hi as i128, a.hi as i128 - b.lo as i128)
}

/// The exact range of `a * b`, when both are in the i64 range (corners of i64 values fit i128).
fn mul128(a: (i128, i128), b: (i128, i128)) -> (i128, i128) {
    let c = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1];
    (
        *c.iter().min().expect("four corners"),
        *c.iter().max().expect("four corners"),
    )
}

fn wide(a: Interval) -> (i128, i128) {
    (a.lo as i128, a.hi as i128)
}

fn same_sign(ivs: &[Interval]) -> bool {
    ivs.iter().all(|i| i.lo >= 0) || ivs.iter().all(|i| i.hi <= 0)
}

/// `(a + b) + c = a + (b + c)`: no partial sum saturates, or all operands have one sign (then
/// both sides saturate to the same bound).
fn add_assoc_exact(a: Interval, b: Interval, c: Interval) -> bool {
    if same_sign(&[a, b, c]) {
        return true;
    }
    let (ab, bc) = (add128(a, b), add128(b, c));
    fits(ab.0, ab.1) && fits(bc.0, bc.1) && fits(ab.0 + c.lo as i128, ab.1 + c.hi as i128)
}

/// `(a * b) * c = a * (b * c)`: no partial product saturates, or all operands are >= 0.
fn mul_assoc_exact(a: Interval, b: Interval, c: Interval) -> bool {
    if [a, b, c].iter().all(|i| i.lo >= 0) {
        return true;
    }
    let ab = mul128(wide(a), wide(b));
    let bc = mul128(wide(b), wide(c));
    fits(ab.0, ab.1) && fits(bc.0, bc.1) && {
        let abc = mul128(ab, wide(c));
        fits(abc.0, abc.1)
    }
}

/// `a*b + a*c = a * (b + c)`: nothing saturates on either side.
fn factor_exact(a: Interval, b: Interval, c: Interval) -> bool {
    let ab = mul128(wide(a), wide(b));
    let ac = mul128(wide(a), wide(c));
    let bc = add128(b, c);
    fits(ab.0, ab.1) && fits(ac.0, ac.1) && fits(ab.0 + ac.0, ab.1 + ac.1) && fits(bc.0, bc.1)
}

/// `max(a + k, 0) -> a - (-k)` for a literal `k < 0`.
struct MaxAddNeg {
    a: Var,
    k: Var,
}

impl Applier<Sz, SizeAnalysis> for MaxAddNeg {
    fn apply_one(
        &self,
        g: &mut G,
        eclass: Id,
        s: &Subst,
        _: Option<&PatternAst<Sz>>,
        _: Symbol,
    ) -> Vec<Id> {
        // `a + k` and `a - (-k)` saturate alike (the same true value, clamped alike).
        let Some(k) = literal(g, s[self.k]).filter(|&k| k < 0 && k != i64::MIN) else {
            return vec![];
        };
        let m = g.add(Sz::Num(-k));
        let sub = g.add(Sz::Sub([s[self.a], m]));
        if g.union(eclass, sub) {
            vec![sub]
        } else {
            vec![]
        }
    }
}

fn pat(s: &str) -> Pattern<Sz> {
    s.parse().expect("a rule pattern")
}

/// The algebraic rules (the range rules are in [`crate::range`]).
pub fn algebraic_rules() -> Vec<Rw> {
    let (a, b, c, x) = (v("?a"), v("?b"), v("?c"), v("?x"));
    let mut rules: Vec<Rw> = vec![
        // Neutral and absorbing elements.
        rewrite!("add-zero"; "(+ ?a 0)" => "?a"),
        rewrite!("mul-one"; "(* ?a 1)" => "?a"),
        rewrite!("mul-zero"; "(* ?a 0)" => "0"),
        rewrite!("sub-zero"; "(- ?a 0)" => "(max ?a 0)"),
        rewrite!("sub-self"; "(- ?a ?a)" => "0"),
        // ceil(a / 1) = a, and a saturated a stays itself.
        rewrite!("div-one"; "(/ ?a 1)" => "?a"),
        rewrite!("add-self"; "(+ ?a ?a)" => "(* ?a 2)"),
        // Commutativity (saturation is symmetric).
        rewrite!("add-comm"; "(+ ?a ?b)" => "(+ ?b ?a)"),
        rewrite!("mul-comm"; "(* ?a ?b)" => "(* ?b ?a)"),
        rewrite!("max-comm"; "(max ?a ?b)" => "(max ?b ?a)"),
        rewrite!("min-comm"; "(min ?a ?b)" => "(min ?b ?a)"),
        // max/min: idempotence, associativity, absorption.
        rewrite!("max-self"; "(max ?a ?a)" => "?a"),
        rewrite!("min-self"; "(min ?a ?a)" => "?a"),
        rewrite!("max-assoc"; "(max (max ?a ?b) ?c)" => "(max ?a (max ?b ?c))"),
        rewrite!("min-assoc"; "(min (min ?a ?b) ?c)" => "(min ?a (min ?b ?c))"),
        rewrite!("max-absorb"; "(max ?a (min ?a ?b))" => "?a"),
        rewrite!("min-absorb"; "(min ?a (max ?a ?b))" => "?a"),
        // Monotone operations commute with max and min.
        rewrite!("max-add-factor"; "(max (+ ?a ?b) (+ ?a ?c))" => "(+ ?a (max ?b ?c))"),
        rewrite!("min-add-factor"; "(min (+ ?a ?b) (+ ?a ?c))" => "(+ ?a (min ?b ?c))"),
        rewrite!("max-sub-factor"; "(max (- ?a ?c) (- ?b ?c))" => "(- (max ?a ?b) ?c)"),
        rewrite!("min-sub-factor"; "(min (- ?a ?c) (- ?b ?c))" => "(- (min ?a ?b) ?c)"),
    ];
    rules.extend([
        rewrite!("max-dominant"; "(max ?a ?b)" => "?a"
            if move |g: &mut G, _: Id, s: &Subst| iv(g, s, a).lo >= iv(g, s, b).hi),
        rewrite!("min-dominant"; "(min ?a ?b)" => "?a"
            if move |g: &mut G, _: Id, s: &Subst| iv(g, s, a).hi <= iv(g, s, b).lo),
        rewrite!("add-assoc"; "(+ (+ ?a ?b) ?c)" => "(+ ?a (+ ?b ?c))"
            if move |g: &mut G, _: Id, s: &Subst| add_assoc_exact(iv(g, s, a), iv(g, s, b), iv(g, s, c))),
        rewrite!("mul-assoc"; "(* (* ?a ?b) ?c)" => "(* ?a (* ?b ?c))"
            if move |g: &mut G, _: Id, s: &Subst| mul_assoc_exact(iv(g, s, a), iv(g, s, b), iv(g, s, c))),
        rewrite!("max-mul-factor"; "(max (* ?a ?b) (* ?a ?c))" => "(* ?a (max ?b ?c))"
            if move |g: &mut G, _: Id, s: &Subst| iv(g, s, a).lo >= 0),
        rewrite!("min-mul-factor"; "(min (* ?a ?b) (* ?a ?c))" => "(* ?a (min ?b ?c))"
            if move |g: &mut G, _: Id, s: &Subst| iv(g, s, a).lo >= 0),
        rewrite!("mul-add-factor"; "(+ (* ?a ?b) (* ?a ?c))" => "(* ?a (+ ?b ?c))"
            if move |g: &mut G, _: Id, s: &Subst| factor_exact(iv(g, s, a), iv(g, s, b), iv(g, s, c))),
        // max(a - b, 0) + b = max(a, b) when a - b does not saturate.
        rewrite!("sub-add-cancel"; "(+ (- ?a ?b) ?b)" => "(max ?a ?b)"
            if move |g: &mut G, _: Id, s: &Subst| { let (lo, hi) = sub128(iv(g, s, a), iv(g, s, b)); fits(lo, hi) }),
        // max((a + b) - b, 0) = max(a, 0) when a + b does not saturate.
        rewrite!("add-sub-cancel"; "(- (+ ?a ?b) ?b)" => "(max ?a 0)"
            if move |g: &mut G, _: Id, s: &Subst| { let (lo, hi) = add128(iv(g, s, a), iv(g, s, b)); fits(lo, hi) }),
        // The emptiness guards of the range rules: min(x, 1) * x = x for x >= 0, and
        // min(a - b, 1) * (a - c) = a - c when b <= c (a <= b makes both 0).
        rewrite!("guard-self"; "(* (min ?x 1) ?x)" => "?x"
            if move |g: &mut G, _: Id, s: &Subst| iv(g, s, x).lo >= 0),
        rewrite!("guard-sub"; "(* (min (- ?a ?b) 1) (- ?a ?c))" => "(- ?a ?c)"
            if move |g: &mut G, _: Id, s: &Subst| iv(g, s, b).hi <= iv(g, s, c).lo),
    ]);
    rules.push(
        Rewrite::new(
            "max-add-neg",
            pat("(max (+ ?a ?k) 0)"),
            MaxAddNeg { a, k: v("?k") },
        )
        .expect("a well-formed rule"),
    );
    rules
}
