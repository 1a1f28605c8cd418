//! [`SizeExpr`]: a hash-consed DAG kept as its flat post-order node list, root last, operands
//! pointing backwards. The list is canonical: every constructor (and the parser, and the binary
//! decoder) produces the depth-first, left-to-right post-order of first occurrences with maximal
//! sharing, so that two equal expressions have equal lists and equal bytes.

use super::node::{BinOp, CmpPred, IntTy, Node, NodeId};
use std::collections::HashMap;

/// Bound variables are `v0` .. `v63` (the validity checks keep one bit per variable).
pub const MAX_BOUND_VARS: u32 = 64;
/// The deepest nesting an expression may have (the evaluator and printer recurse on it).
pub const MAX_DEPTH: usize = 256;
/// The most nodes in the flat list.
pub const MAX_NODES: usize = 1 << 16;
/// The most nodes of the tree with its shared nodes expanded (what the text spells out).
pub const MAX_TREE_NODES: u64 = 1 << 20;
/// The most indices of one read.
pub const MAX_INDICES: usize = 16;

/// A symbolic upper bound on an adstack's depth. See the module docs for the grammar.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SizeExpr {
    nodes: Vec<Node>,
}

/// Interns nodes: equal nodes get one id, new ones are appended (so ids stay post-order).
#[derive(Default)]
pub(crate) struct Builder {
    nodes: Vec<Node>,
    index: HashMap<Node, NodeId>,
}

impl Builder {
    pub(crate) fn intern(&mut self, n: Node) -> NodeId {
        if let Some(&id) = self.index.get(&n) {
            return id;
        }
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(n.clone());
        self.index.insert(n, id);
        id
    }

    /// Copies `e` in (sharing what is already here); returns its root here.
    pub(crate) fn import(&mut self, e: &SizeExpr) -> NodeId {
        let mut map: Vec<NodeId> = Vec::with_capacity(e.nodes.len());
        for n in &e.nodes {
            let id = self.intern(n.map_operands(|o| map[o.index()]));
            map.push(id);
        }
        *map.last().expect("a SizeExpr has a root")
    }

    /// The expression rooted at `root`: the canonical post-order of what `root` reaches.
    pub(crate) fn finish(self, root: NodeId) -> SizeExpr {
        if root.index() + 1 == self.nodes.len() && self.all_reachable(root) {
            return SizeExpr { nodes: self.nodes };
        }
        canonical_from(&self.nodes, root)
    }

    fn all_reachable(&self, root: NodeId) -> bool {
        let mut seen = vec![false; self.nodes.len()];
        seen[root.index()] = true;
        for i in (0..self.nodes.len()).rev() {
            if seen[i] {
                for o in self.nodes[i].operands() {
                    seen[o.index()] = true;
                }
            }
        }
        seen.iter().all(|&s| s)
    }
}

/// Rebuilds the canonical form of the sub-DAG of `nodes` rooted at `root` (operands must point
/// backwards; the depth is bounded by the caller's validation).
fn canonical_from(nodes: &[Node], root: NodeId) -> SizeExpr {
    fn visit(nodes: &[Node], id: NodeId, b: &mut Builder, memo: &mut [Option<NodeId>]) -> NodeId {
        if let Some(m) = memo[id.index()] {
            return m;
        }
        let n = &nodes[id.index()];
        let ops: Vec<NodeId> = n.operands();
        let mut mapped = Vec::with_capacity(ops.len());
        for o in ops {
            mapped.push(visit(nodes, o, b, memo));
        }
        let mut it = mapped.into_iter();
        let new = b.intern(n.map_operands(|_| it.next().expect("one mapped id per operand")));
        memo[id.index()] = Some(new);
        new
    }
    let mut b = Builder::default();
    let mut memo = vec![None; nodes.len()];
    let r = visit(nodes, root, &mut b, &mut memo);
    SizeExpr {
        nodes: {
            debug_assert_eq!(r.index() + 1, b.nodes.len());
            b.nodes
        },
    }
}

impl SizeExpr {
    // ----- leaves and raw constructors (no folding: the parser keeps what it reads) ---------

    fn single(n: Node) -> SizeExpr {
        SizeExpr { nodes: vec![n] }
    }

    pub fn constant(c: i64) -> SizeExpr {
        SizeExpr::single(Node::Const(c))
    }

    pub fn bound_var(v: u32) -> SizeExpr {
        SizeExpr::single(Node::BoundVar(v))
    }

    pub fn ndarray_shape(arg: u32, axis: u32) -> SizeExpr {
        SizeExpr::single(Node::NdarrayShape { arg, axis })
    }

    pub fn scalar_arg(arg: u32, ty: IntTy) -> SizeExpr {
        SizeExpr::single(Node::ScalarArg { arg, ty })
    }

    pub fn field_load(field: &str, ty: IntTy, indices: &[SizeExpr]) -> SizeExpr {
        let mut b = Builder::default();
        let ids = indices.iter().map(|i| b.import(i)).collect();
        let r = b.intern(Node::FieldLoad {
            field: field.to_string(),
            ty,
            indices: ids,
        });
        b.finish(r)
    }

    pub fn ndarray_read(arg: u32, ty: IntTy, indices: &[SizeExpr]) -> SizeExpr {
        let mut b = Builder::default();
        let ids = indices.iter().map(|i| b.import(i)).collect();
        let r = b.intern(Node::NdarrayRead {
            arg,
            ty,
            indices: ids,
        });
        b.finish(r)
    }

    /// `a op b`, as written (see [`SizeExpr::add`] and friends for the folding forms).
    pub fn binary(op: BinOp, a: &SizeExpr, b: &SizeExpr) -> SizeExpr {
        SizeExpr::over(&[a, b], |o| Node::Binary(op, o[0], o[1]))
    }

    /// `max(body for v in range(begin, end))`, as written.
    pub fn max_over_range_raw(
        var: u32,
        begin: &SizeExpr,
        end: &SizeExpr,
        body: &SizeExpr,
    ) -> SizeExpr {
        SizeExpr::over(&[begin, end, body], |o| Node::MaxOverRange {
            var,
            begin: o[0],
            end: o[1],
            body: o[2],
        })
    }

    /// `sum(body for v in range(begin, end))`, as written.
    pub fn sum_over_range_raw(
        var: u32,
        begin: &SizeExpr,
        end: &SizeExpr,
        body: &SizeExpr,
    ) -> SizeExpr {
        SizeExpr::over(&[begin, end, body], |o| Node::SumOverRange {
            var,
            begin: o[0],
            end: o[1],
            body: o[2],
        })
    }

    /// `select(a PRED b, then, other)`, as written.
    pub fn select_raw(
        pred: CmpPred,
        a: &SizeExpr,
        b: &SizeExpr,
        then: &SizeExpr,
        other: &SizeExpr,
    ) -> SizeExpr {
        SizeExpr::over(&[a, b, then, other], |o| Node::Select {
            pred,
            lhs: o[0],
            rhs: o[1],
            then: o[2],
            other: o[3],
        })
    }

    /// The expression whose root is `make(ids)`, `ids` the roots of `operands` imported in order.
    fn over(operands: &[&SizeExpr], make: impl FnOnce(&[NodeId]) -> Node) -> SizeExpr {
        let mut bl = Builder::default();
        let ids: Vec<NodeId> = operands.iter().map(|e| bl.import(e)).collect();
        let r = bl.intern(make(&ids));
        bl.finish(r)
    }

    // ----- the flat form --------------------------------------------------------------------

    /// The nodes in post-order; the root is last and every operand points backwards.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    pub fn root(&self) -> NodeId {
        NodeId(self.nodes.len() as u32 - 1)
    }

    pub fn root_node(&self) -> &Node {
        self.node(self.root())
    }

    /// How many nodes the flat form has (shared nodes once).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true: an expression has at least its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The value when the expression is a literal.
    pub fn as_const(&self) -> Option<i64> {
        match self.root_node() {
            Node::Const(c) => Some(*c),
            _ => None,
        }
    }

    /// The sub-expression rooted at `id`, in canonical form.
    pub fn subexpr(&self, id: NodeId) -> SizeExpr {
        canonical_from(&self.nodes, id)
    }

    /// Checks a flat node list (from a cache, a device, another tool) and returns it in canonical
    /// form: operands point backwards, limits hold, every bound variable is bound by an
    /// enclosing `MaxOverRange` or `SumOverRange` and none is rebound inside its own scope; a
    /// `Div` divides by a positive literal. Nodes the root does not
    /// reach are dropped.
    pub fn from_nodes(nodes: Vec<Node>) -> Result<SizeExpr, String> {
        check_nodes(&nodes)?;
        let root = NodeId(nodes.len() as u32 - 1);
        Ok(canonical_from(&nodes, root))
    }

    /// Checks the invariants [`SizeExpr::from_nodes`] checks (constructed expressions may break
    /// the scoping rules, e.g. a free `v0`).
    pub fn validate(&self) -> Result<(), String> {
        check_nodes(&self.nodes)
    }

    /// Per node: the set of its free bound variables, one bit per variable (variables at or above
    /// [`MAX_BOUND_VARS`] are not representable and are reported by [`SizeExpr::validate`]).
    pub fn free_var_sets(&self) -> Vec<u64> {
        let mut free = vec![0u64; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            free[i] = match (n, n.as_range()) {
                (Node::BoundVar(v), _) => var_bit(*v),
                (_, Some((var, begin, end, body))) => {
                    free[begin.index()] | free[end.index()] | (free[body.index()] & !var_bit(var))
                }
                _ => n.operands().iter().fold(0, |acc, o| acc | free[o.index()]),
            };
        }
        free
    }

    /// Whether `v` occurs free in the expression.
    pub fn mentions_var(&self, v: u32) -> bool {
        self.free_var_sets().last().copied().unwrap_or(0) & var_bit(v) != 0
    }

    /// The free bound variables, ascending.
    pub fn free_vars(&self) -> Vec<u32> {
        let set = self.free_var_sets().last().copied().unwrap_or(0);
        (0..MAX_BOUND_VARS)
            .filter(|&v| set & var_bit(v) != 0)
            .collect()
    }

    /// The nesting depth (a leaf has depth 1).
    pub fn depth(&self) -> usize {
        let mut d = vec![0usize; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            d[i] = 1 + n.operands().iter().map(|o| d[o.index()]).max().unwrap_or(0);
        }
        d.last().copied().unwrap_or(0)
    }
}

pub(crate) fn var_bit(v: u32) -> u64 {
    if v < MAX_BOUND_VARS {
        1u64 << v
    } else {
        0
    }
}

fn check_nodes(nodes: &[Node]) -> Result<(), String> {
    if nodes.is_empty() {
        return Err("a size expression needs at least one node".into());
    }
    if nodes.len() > MAX_NODES {
        return Err(format!(
            "a size expression has at most {MAX_NODES} nodes, got {}",
            nodes.len()
        ));
    }
    let n = nodes.len();
    let mut depth = vec![0usize; n];
    let mut tree = vec![0u64; n];
    let mut free = vec![0u64; n];
    let mut binders = vec![0u64; n];
    for (i, node) in nodes.iter().enumerate() {
        let ops = node.operands();
        for o in &ops {
            if o.index() >= i {
                return Err(format!(
                    "node {i} ({}) has operand {} that does not point backwards",
                    node.kind_name(),
                    o.0
                ));
            }
        }
        match node {
            Node::FieldLoad { field, indices, .. } => {
                if field.is_empty() {
                    return Err(format!("node {i} (FieldLoad) has an empty field name"));
                }
                if indices.len() > MAX_INDICES {
                    return Err(format!(
                        "node {i} (FieldLoad) has more than {MAX_INDICES} indices"
                    ));
                }
            }
            Node::NdarrayRead { indices, .. }
                if indices.is_empty() || indices.len() > MAX_INDICES =>
            {
                return Err(format!(
                    "node {i} (NdarrayRead) needs 1 to {MAX_INDICES} indices, got {}",
                    indices.len()
                ));
            }
            Node::BoundVar(v)
            | Node::MaxOverRange { var: v, .. }
            | Node::SumOverRange { var: v, .. }
                if *v >= MAX_BOUND_VARS =>
            {
                return Err(format!(
                    "node {i} ({}) uses v{v}: bound variables are v0 to v{}",
                    node.kind_name(),
                    MAX_BOUND_VARS - 1
                ));
            }
            Node::Binary(BinOp::Div, _, b) if !matches!(nodes[b.index()], Node::Const(c) if c > 0) =>
            {
                return Err(format!(
                    "node {i} (Div) divides by node {}, which is not a positive literal",
                    b.0
                ));
            }
            _ => {}
        }
        depth[i] = 1 + ops.iter().map(|o| depth[o.index()]).max().unwrap_or(0);
        if depth[i] > MAX_DEPTH {
            return Err(format!("a size expression nests at most {MAX_DEPTH} deep"));
        }
        tree[i] = ops
            .iter()
            .fold(1u64, |acc, o| acc.saturating_add(tree[o.index()]));
        if tree[i] > MAX_TREE_NODES {
            return Err(format!(
                "a size expression spells out at most {MAX_TREE_NODES} nodes"
            ));
        }
        let union = |set: &[u64]| ops.iter().fold(0u64, |acc, o| acc | set[o.index()]);
        match (node, node.as_range()) {
            (Node::BoundVar(v), _) => free[i] = var_bit(*v),
            (_, Some((var, begin, end, body))) => {
                let bit = var_bit(var);
                let what = range_word(node);
                if binders[body.index()] & bit != 0 {
                    return Err(format!(
                        "v{var} is bound again inside the body of the {what} over v{var}"
                    ));
                }
                if (free[begin.index()] | free[end.index()]) & bit != 0 {
                    return Err(format!(
                        "the range of the {what} over v{var} refers to an outer v{var}"
                    ));
                }
                free[i] = free[begin.index()] | free[end.index()] | (free[body.index()] & !bit);
                binders[i] = union(&binders) | bit;
            }
            _ => {
                free[i] = union(&free);
                binders[i] = union(&binders);
            }
        }
    }
    let root_free = free[n - 1];
    if root_free != 0 {
        let v = root_free.trailing_zeros();
        return Err(format!(
            "v{v} is not bound by an enclosing max or sum over a range"
        ));
    }
    Ok(())
}

/// How messages name a range node: "max" or "sum".
pub(crate) fn range_word(n: &Node) -> &'static str {
    match n {
        Node::SumOverRange { .. } => "sum",
        _ => "max",
    }
}
