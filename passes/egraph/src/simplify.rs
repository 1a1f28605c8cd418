//! The driver: e-graph rounds (equalities only) alternating with the sub-of-MaxOverRange
//! fusion (an upper-bound rewrite on terms), until nothing changes.

use crate::analysis::SizeAnalysis;
use crate::cost::{Cost, SizeCost};
use crate::extract::extract;
use crate::fuse::fuse;
use crate::lang::{to_rec_expr, Sz};
use crate::range::range_rules;
use crate::rules::{algebraic_rules, Rw};
use crate::sum::sum_rules;
use egg::{Applier, CostFunction, EGraph, Id, PatternAst, Runner, StopReason, Subst, Symbol, Var};
use qd_adstack::size_expr::SizeExpr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The e-graph's limits, per run. There is deliberately no time limit: results must not
/// depend on the machine's speed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rewrite iterations per e-graph run.
    pub iter_limit: usize,
    /// E-nodes an e-graph run may reach: rules stop applying there (and egg stops the run).
    pub node_limit: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            iter_limit: DEFAULT_ITER_LIMIT,
            node_limit: DEFAULT_NODE_LIMIT,
        }
    }
}

pub const DEFAULT_ITER_LIMIT: usize = 16;
pub const DEFAULT_NODE_LIMIT: usize = 4096;
/// E-graph runs (each followed by a fusion pass) per expression.
const MAX_ROUNDS: usize = 4;

/// What [`simplify`] made of an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simplified {
    /// At least the input under every environment (equal when `fused == 0`).
    pub expr: SizeExpr,
    /// Sub-of-MaxOverRange fusions applied.
    pub fused: usize,
    /// E-graph runs stopped by a limit rather than by saturation.
    pub limit_hits: usize,
    /// The most e-nodes an e-graph run held.
    pub egraph_nodes: usize,
}

/// An applier that applies only while the e-graph is under its e-node budget. egg checks its
/// node limit between rules only, and one rule (associativity over a long sum) can add tens of
/// thousands of e-nodes in one go; this bounds the e-graph to about the limit.
struct Capped(Arc<dyn Applier<Sz, SizeAnalysis> + Sync + Send>);

impl Applier<Sz, SizeAnalysis> for Capped {
    fn apply_one(
        &self,
        g: &mut EGraph<Sz, SizeAnalysis>,
        eclass: Id,
        subst: &Subst,
        ast: Option<&PatternAst<Sz>>,
        rule: Symbol,
    ) -> Vec<Id> {
        if g.total_size() >= g.analysis.node_limit {
            g.analysis.capped = true;
            return Vec::new();
        }
        self.0.apply_one(g, eclass, subst, ast, rule)
    }

    fn vars(&self) -> Vec<Var> {
        self.0.vars()
    }
}

pub(crate) fn rules() -> &'static [Rw] {
    static RULES: OnceLock<Vec<Rw>> = OnceLock::new();
    RULES.get_or_init(|| {
        let mut r = algebraic_rules();
        r.extend(range_rules());
        r.extend(sum_rules());
        for rw in &mut r {
            rw.applier = Arc::new(Capped(rw.applier.clone()));
        }
        r
    })
}

/// The names of the rules, in the order they run.
pub fn rule_names() -> Vec<String> {
    rules().iter().map(|r| r.name.to_string()).collect()
}

/// The cost of `e` as extraction measures it.
pub fn cost_of(e: &SizeExpr) -> Cost {
    SizeCost.cost_rec(&to_rec_expr(e).0)
}

/// One e-graph run: the cheapest expression equal to `e` (under every environment), whether a
/// limit stopped the run, and the e-graph's size.
fn egraph_round(e: &SizeExpr, limits: Limits) -> (SizeExpr, bool, usize) {
    let (rec, fields) = to_rec_expr(e);
    let mut analysis = SizeAnalysis::new(e);
    analysis.node_limit = limits.node_limit;
    let runner = Runner::<Sz, SizeAnalysis, ()>::new(analysis)
        .with_iter_limit(limits.iter_limit)
        .with_node_limit(limits.node_limit)
        .with_time_limit(Duration::MAX)
        .with_expr(&rec)
        .run(rules());
    let hit =
        runner.egraph.analysis.capped || !matches!(runner.stop_reason, Some(StopReason::Saturated));
    let nodes = runner.egraph.total_size();
    let best = runner
        .roots
        .first()
        .and_then(|&root| extract(&runner.egraph, root, &fields))
        // Ties keep the input, so that a result that was already the cheapest stays as it is.
        .filter(|(_, cost)| *cost < cost_of(e))
        .map(|(x, _)| x)
        .unwrap_or_else(|| e.clone());
    (best, hit, nodes)
}

fn run(e: &SizeExpr, limits: Limits, with_fusion: bool) -> Simplified {
    let mut out = unchanged(e);
    for _ in 0..MAX_ROUNDS {
        let (x, hit, nodes) = egraph_round(&out.expr, limits);
        out.limit_hits += usize::from(hit);
        out.egraph_nodes = out.egraph_nodes.max(nodes);
        let (x, n) = if with_fusion { fuse(&x) } else { (x, 0) };
        out.fused += n;
        // Until a fixpoint, so that simplifying the result again changes nothing.
        let done = x == out.expr;
        out.expr = x;
        if done {
            break;
        }
    }
    out
}

/// Simplifies `e`: the result is at least `e` under every environment, and equal to it unless
/// a sub-of-MaxOverRange fusion applied. An expression that fails `validate` is returned as is.
pub fn simplify(e: &SizeExpr, limits: Limits) -> Simplified {
    if e.validate().is_err() {
        return unchanged(e);
    }
    run(e, limits, true)
}

fn unchanged(e: &SizeExpr) -> Simplified {
    Simplified {
        expr: e.clone(),
        fused: 0,
        limit_hits: 0,
        egraph_nodes: 0,
    }
}

/// The e-graph rounds alone (no fusion): the result equals `e` under every environment.
pub fn simplify_exact(e: &SizeExpr, limits: Limits) -> Simplified {
    if e.validate().is_err() {
        return unchanged(e);
    }
    run(e, limits, false)
}
