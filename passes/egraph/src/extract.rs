//! Scope-aware, deterministic extraction of the cheapest [`SizeExpr`] of an e-class.
//!
//! An e-class is a function of the bound variables, and the same class may occur under
//! different binders, so a plain per-class choice could pick a term that mentions a variable
//! no enclosing `MaxOverRange` binds, or that rebinds one already in scope. Here the choice is
//! made per `(class, variables in scope)`: a variable node needs its variable in scope, a
//! `MaxOverRange` over `v` needs `v` out of scope and puts it in scope for its body only. A
//! body whose value does not depend on its variable is extracted without it where possible,
//! so that the evaluator sees it as loop-free (as the input was). Costs are [`Cost`]s; ties
//! go to the first e-node in the class's (sorted) order.

use crate::analysis::{var_bit, SizeAnalysis};
use crate::cost::Cost;
use crate::lang::{to_node, FieldTable, Sz};
use egg::{EGraph, Id, Language};
use indexmap::IndexMap;
use qd_adstack::size_expr::{Node, NodeId, SizeExpr, MAX_DEPTH};
use std::collections::{HashMap, HashSet};

/// A class in a scope (the set of bound variables, one bit each).
type Key = (Id, u64);

/// The most `(class, scope)` pairs an extraction considers.
const MAX_KEYS: usize = 1 << 17;
/// The most passes of the cost fixpoint (any finite choice is already valid; more passes only
/// find cheaper ones).
const MAX_PASSES: usize = 256;

struct Extractor<'a> {
    eg: &'a EGraph<Sz, SizeAnalysis>,
    /// Per key: the best cost and the index of its e-node in the class, once one is known.
    best: IndexMap<Key, Option<(Cost, usize)>>,
}

impl Extractor<'_> {
    fn admissible(node: &Sz, scope: u64) -> bool {
        match node {
            Sz::Var(v) => scope & var_bit(*v) != 0,
            Sz::Mor { var, .. } | Sz::Sor { var, .. } => {
                var_bit(*var) != 0 && scope & var_bit(*var) == 0
            }
            _ => true,
        }
    }

    /// The scopes a child may be extracted in, preferred first.
    fn child_scopes(&self, node: &Sz, k: usize, scope: u64) -> Vec<u64> {
        match node {
            Sz::Mor { var, ops } | Sz::Sor { var, ops } if k == 2 => {
                let inner = scope | var_bit(*var);
                if self.eg[ops[2]].data.is_free_of(*var) {
                    vec![scope, inner]
                } else {
                    vec![inner]
                }
            }
            _ => vec![scope],
        }
    }

    /// The key and cost a child resolves to (its first scope with a known cost).
    fn child(&self, node: &Sz, k: usize, scope: u64) -> Option<(Key, Cost)> {
        let c = self.eg.find(node.children()[k]);
        self.child_scopes(node, k, scope).into_iter().find_map(|s| {
            let key = (c, s);
            self.best
                .get(&key)
                .copied()
                .flatten()
                .map(|(cost, _)| (key, cost))
        })
    }

    fn discover(&mut self, root: Key) -> bool {
        self.best.insert(root, None);
        let mut i = 0;
        while i < self.best.len() {
            let (c, scope) = *self.best.get_index(i).expect("in range").0;
            for node in &self.eg[c].nodes {
                if !Self::admissible(node, scope) {
                    continue;
                }
                for k in 0..node.children().len() {
                    let child = self.eg.find(node.children()[k]);
                    for s in self.child_scopes(node, k, scope) {
                        self.best.entry((child, s)).or_insert(None);
                    }
                }
            }
            if self.best.len() > MAX_KEYS {
                return false;
            }
            i += 1;
        }
        true
    }

    fn node_cost(&self, node: &Sz, scope: u64) -> Option<Cost> {
        if !Self::admissible(node, scope) {
            return None;
        }
        let mut costs = Vec::with_capacity(node.children().len());
        for k in 0..node.children().len() {
            costs.push(self.child(node, k, scope)?.1);
        }
        Some(Cost::of(node, costs))
    }

    fn solve(&mut self) {
        for _ in 0..MAX_PASSES {
            let mut changed = false;
            // Children are discovered after their parents: go backwards for fewer passes.
            for i in (0..self.best.len()).rev() {
                let ((c, scope), cur) = self
                    .best
                    .get_index(i)
                    .map(|(k, v)| (*k, *v))
                    .expect("in range");
                let mut best = cur;
                for (j, node) in self.eg[c].nodes.iter().enumerate() {
                    if let Some(cost) = self.node_cost(node, scope) {
                        if best.is_none_or(|(b, _)| cost < b) {
                            best = Some((cost, j));
                        }
                    }
                }
                if best != cur {
                    self.best[i] = best;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn build(
        &self,
        key: Key,
        fields: &FieldTable,
        out: &mut Vec<Node>,
        memo: &mut HashMap<Key, NodeId>,
        path: &mut HashSet<Key>,
    ) -> Option<NodeId> {
        if let Some(&id) = memo.get(&key) {
            return Some(id);
        }
        // A cycle (only possible once costs saturate) or a term too deep to be valid.
        if path.len() > MAX_DEPTH || !path.insert(key) {
            return None;
        }
        let (_, j) = self.best.get(&key).copied().flatten()?;
        let node = &self.eg[key.0].nodes[j];
        let mut ops = Vec::with_capacity(node.children().len());
        for k in 0..node.children().len() {
            let (child, _) = self.child(node, k, key.1)?;
            ops.push(self.build(child, fields, out, memo, path)?);
        }
        path.remove(&key);
        let id = NodeId(out.len() as u32);
        out.push(to_node(node, fields, &ops)?);
        memo.insert(key, id);
        Some(id)
    }
}

/// The cheapest closed term of class `root`, with its cost; None when the search is too large
/// or the term is not a valid expression (too deep or too big), for the caller to keep its input.
pub fn extract(
    eg: &EGraph<Sz, SizeAnalysis>,
    root: Id,
    fields: &FieldTable,
) -> Option<(SizeExpr, Cost)> {
    let mut ex = Extractor {
        eg,
        best: IndexMap::new(),
    };
    let root = (eg.find(root), 0);
    if !ex.discover(root) {
        return None;
    }
    ex.solve();
    let (cost, _) = ex.best.get(&root).copied().flatten()?;
    let mut out = Vec::new();
    ex.build(
        root,
        fields,
        &mut out,
        &mut HashMap::new(),
        &mut HashSet::new(),
    )?;
    let e = SizeExpr::from_nodes(out).ok()?;
    Some((e, cost))
}
