//! The rules of `max(body for v in range(b, e))` (MOR below), whose value is 0 when `e <= b` and
//! otherwise the largest of 0 and `body(v)` for `v` in `[b, e)`. Each is an equality, and none
//! evaluates anything the input would not (a body is only evaluated where the input evaluates
//! it: at a point of a range proved non-empty, or, under an emptiness guard, when the body
//! reads no array element and has no range of its own, so it cannot fail: a scalar field
//! `@f[]` always has its one element and `argN.shape[k]` is always there, in any kernel that
//! names them):
//!
//! - `range-free-body`: a body free of `v`, range proved non-empty: `max(body, 0)`.
//! - `range-monotone`: a body proved non-decreasing in `v` is largest at `v = e - 1`
//!   (non-increasing: at `v = b`): `max(body[v := e + -1], 0)` when the range is proved
//!   non-empty; otherwise, for a body that cannot fail, `min(e - b, 1) * max(body[...], 0)`
//!   (`min(e - b, 1)` is 0 exactly when the range is empty).
//! - `range-split-max`: `MOR(max(x, y)) = max(MOR(x), MOR(y))`.
//! - `range-hoist-factor`: `MOR(c * x) = c * MOR(x)` for `c >= 0` free of `v` (a literal, or
//!   the range proved non-empty so that `c` is evaluated anyway).
//! - `range-hoist-term`: `MOR(c + x) = c + MOR(x)` for `c, x >= 0`, `c` free of `v`, the range
//!   proved non-empty.
//!
//! An empty range (`hi(e) <= lo(b)`) gives the interval `[0, 0]`, which folds to 0.

use crate::analysis::{var_bit, SizeAnalysis};
use crate::lang::Sz;
use crate::rules::{literal, Rw};
use egg::{
    Applier, EGraph, Id, Language, PatternAst, Rewrite, SearchMatches, Searcher, Subst, Symbol, Var,
};
use std::collections::HashMap;

type G = EGraph<Sz, SizeAnalysis>;

/// Which range rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    FreeBody,
    Monotone,
    SplitMax,
    HoistFactor,
    HoistTerm,
}

/// A rule over the range nodes of one kind (maxima or sums): it matches every e-class that holds
/// such a node and applies to each of them ([`NodeRule`] is the egg searcher and applier).
pub(crate) trait RangeRewrite: Copy + Send + Sync + 'static {
    /// The variable and children `[begin, end, body]` of a node this rule rewrites.
    fn range_of(n: &Sz) -> Option<(u32, [Id; 3])>;
    /// The terms equal to the node `(var, ops)` of class `class`.
    fn rewrite(&self, g: &mut G, class: Id, var: u32, ops: [Id; 3]) -> Vec<Id>;
}

/// The egg form of a [`RangeRewrite`].
pub(crate) struct NodeRule<R>(pub R);

impl<R: RangeRewrite> Searcher<Sz, SizeAnalysis> for NodeRule<R> {
    fn search_eclass_with_limit(
        &self,
        g: &G,
        eclass: Id,
        limit: usize,
    ) -> Option<SearchMatches<'_, Sz>> {
        let has = g[eclass].nodes.iter().any(|n| R::range_of(n).is_some());
        (has && limit > 0).then(|| SearchMatches {
            eclass,
            substs: vec![Subst::default()],
            ast: None,
        })
    }

    fn vars(&self) -> Vec<Var> {
        Vec::new()
    }
}

impl<R: RangeRewrite> Applier<Sz, SizeAnalysis> for NodeRule<R> {
    fn apply_one(
        &self,
        g: &mut G,
        eclass: Id,
        _: &Subst,
        _: Option<&PatternAst<Sz>>,
        _: Symbol,
    ) -> Vec<Id> {
        let eclass = g.find(eclass);
        let ranges: Vec<(u32, [Id; 3])> = g[eclass].nodes.iter().filter_map(R::range_of).collect();
        let mut changed = Vec::new();
        for (var, ops) in ranges {
            for new in self.0.rewrite(g, eclass, var, ops) {
                if g.union(eclass, new) {
                    changed.push(new);
                }
            }
        }
        changed
    }
}

/// The binary nodes `op(x, y)` of class `id` that `pick` selects.
pub(crate) fn nodes_of(g: &G, id: Id, pick: fn(&Sz) -> Option<[Id; 2]>) -> Vec<[Id; 2]> {
    g[id].nodes.iter().filter_map(pick).collect()
}

/// A rule over MOR nodes.
#[derive(Copy, Clone)]
struct RangeRule(Kind);

impl RangeRewrite for RangeRule {
    fn range_of(n: &Sz) -> Option<(u32, [Id; 3])> {
        match n {
            Sz::Mor { var, ops } => Some((*var, *ops)),
            _ => None,
        }
    }

    /// The terms equal to `MOR(var, ops)` this rule finds.
    fn rewrite(&self, g: &mut G, class: Id, var: u32, [b, e, y]: [Id; 3]) -> Vec<Id> {
        let (ib, ie) = (g[b].data.iv, g[e].data.iv);
        let non_empty = ie.lo > ib.hi;
        let body = g[y].data.clone();
        let mor = |g: &mut G, body: Id| {
            g.add(Sz::Mor {
                var,
                ops: [b, e, body],
            })
        };
        let zero = |g: &mut G| g.add(Sz::Num(0));
        match self.0 {
            Kind::FreeBody if body.is_free_of(var) && non_empty => {
                let z = zero(g);
                vec![g.add(Sz::Max([y, z]))]
            }
            Kind::Monotone if !body.is_free_of(var) => {
                let bit = var_bit(var);
                let point = if body.inc & bit != 0 {
                    let m1 = g.add(Sz::Num(-1));
                    g.add(Sz::Add([e, m1]))
                } else if body.dec & bit != 0 {
                    b
                } else {
                    return vec![];
                };
                let allowed = g[class].data.free;
                let mut sub = Subst1 {
                    var,
                    point,
                    total: !non_empty,
                    allowed,
                    memo: HashMap::new(),
                    budget: SUBST_BUDGET,
                };
                let Some(at) = sub.term(g, y, 0) else {
                    return vec![];
                };
                let z = zero(g);
                let top = g.add(Sz::Max([at, z]));
                if non_empty {
                    return vec![top];
                }
                let span = g.add(Sz::Sub([e, b]));
                let one = g.add(Sz::Num(1));
                let guard = g.add(Sz::Min([span, one]));
                vec![g.add(Sz::Mul([guard, top]))]
            }
            Kind::SplitMax => nodes_of(g, y, |n| match n {
                Sz::Max(c) => Some(*c),
                _ => None,
            })
            .into_iter()
            .map(|[p, q]| {
                let (mp, mq) = (mor(g, p), mor(g, q));
                g.add(Sz::Max([mp, mq]))
            })
            .collect(),
            Kind::HoistFactor => {
                let mut out = Vec::new();
                for [p, q] in nodes_of(g, y, |n| match n {
                    Sz::Mul(c) => Some(*c),
                    _ => None,
                }) {
                    for (c, x) in [(p, q), (q, p)] {
                        let d = &g[c].data;
                        let safe = non_empty || literal(g, c).is_some();
                        if d.is_free_of(var) && d.iv.lo >= 0 && safe {
                            let m = mor(g, x);
                            out.push(g.add(Sz::Mul([c, m])));
                        }
                    }
                }
                out
            }
            Kind::HoistTerm if non_empty => {
                let mut out = Vec::new();
                for [p, q] in nodes_of(g, y, |n| match n {
                    Sz::Add(c) => Some(*c),
                    _ => None,
                }) {
                    for (c, x) in [(p, q), (q, p)] {
                        let (dc, dx) = (&g[c].data, &g[x].data);
                        if dc.is_free_of(var) && dc.iv.lo >= 0 && dx.iv.lo >= 0 {
                            let m = mor(g, x);
                            out.push(g.add(Sz::Add([c, m])));
                        }
                    }
                }
                out
            }
            _ => vec![],
        }
    }
}

/// `term[var := point]` for a representative term of `class` that cannot fail (scalar field
/// reads only, no range) and mentions only `allowed` variables; None when the class has none.
pub(crate) fn total_term(g: &mut G, class: Id, var: u32, point: Id, allowed: u64) -> Option<Id> {
    let mut sub = Subst1 {
        var,
        point,
        total: true,
        allowed,
        memo: HashMap::new(),
        budget: SUBST_BUDGET,
    };
    sub.term(g, class, 0)
}

/// How many classes one substitution may visit.
const SUBST_BUDGET: usize = 4096;
/// How deep a substituted term may be.
const SUBST_DEPTH: usize = 64;

/// `term[var := point]` for a representative term of a class. With `total`, the term may read
/// scalar fields only and hold no range (so evaluating it cannot fail), and mention only
/// `allowed` variables (so that it can stand wherever the range stood).
struct Subst1 {
    var: u32,
    point: Id,
    total: bool,
    allowed: u64,
    memo: HashMap<Id, Option<Id>>,
    budget: usize,
}

impl Subst1 {
    fn term(&mut self, g: &mut G, class: Id, depth: usize) -> Option<Id> {
        let class = g.find(class);
        if let Some(r) = self.memo.get(&class) {
            return *r;
        }
        if self.budget == 0 || depth > SUBST_DEPTH {
            return None;
        }
        self.budget -= 1;
        let r = self.compute(g, class, depth);
        self.memo.insert(class, r);
        r
    }

    fn compute(&mut self, g: &mut G, class: Id, depth: usize) -> Option<Id> {
        let data = g[class].data.clone();
        if data.is_free_of(self.var) && !self.total {
            return Some(class);
        }
        // Representatives in order of size; a child must be strictly smaller than the class so
        // that the recursion ends.
        let mut cands: Vec<(u64, usize, Sz)> = g[class]
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.children().iter().all(|&c| g[c].data.size < data.size))
            .map(|(i, n)| {
                let s = n
                    .children()
                    .iter()
                    .fold(1u64, |acc, &c| acc.saturating_add(g[c].data.size));
                (s, i, n.clone())
            })
            .collect();
        cands.sort_by_key(|(s, i, _)| (*s, *i));
        let point_free = g[self.point].data.free;
        'nodes: for (_, _, n) in cands {
            match &n {
                Sz::Var(u) if *u == self.var => return Some(self.point),
                Sz::Var(u) if self.total && self.allowed & var_bit(*u) == 0 => continue,
                // Rebinding the variable, capturing one of the point, or (total) a range.
                Sz::Mor { var: u, .. } | Sz::Sor { var: u, .. }
                    if self.total || *u == self.var || point_free & var_bit(*u) != 0 =>
                {
                    continue
                }
                // A scalar field always has its one element; other reads may be out of bounds.
                Sz::Field { idx, .. } if self.total && !idx.is_empty() => continue,
                Sz::Read { .. } if self.total => continue,
                _ => {}
            }
            let mut kids = Vec::with_capacity(n.children().len());
            for &c in n.children() {
                match self.term(g, c, depth + 1) {
                    Some(k) => kids.push(k),
                    None => continue 'nodes,
                }
            }
            let mut it = kids.into_iter();
            let node = n.map_children(|_| it.next().expect("one term per child"));
            return Some(g.add(node));
        }
        None
    }
}

/// The range rules.
pub fn range_rules() -> Vec<Rw> {
    [
        ("range-free-body", Kind::FreeBody),
        ("range-monotone", Kind::Monotone),
        ("range-split-max", Kind::SplitMax),
        ("range-hoist-factor", Kind::HoistFactor),
        ("range-hoist-term", Kind::HoistTerm),
    ]
    .into_iter()
    .map(|(name, k)| {
        Rewrite::new(name, NodeRule(RangeRule(k)), NodeRule(RangeRule(k)))
            .expect("a well-formed rule")
    })
    .collect()
}
