//! Folding constructors: what the sizing pass builds with. Each folds only where the result is
//! equal under every environment (literals, neutral elements, and facts the operands' intervals
//! prove), so that `a.sub(b)` evaluates exactly as `Sub(a, b)` would. Heavier rewriting is the
//! job of `simplify-size-expr`.

use super::expr::{var_bit, Builder, SizeExpr, MAX_BOUND_VARS};
use super::interval::Interval;
use super::node::{BinOp, CmpPred, Node, NodeId};
use std::borrow::Cow;
use std::collections::HashMap;

/// How much work folding a range that reads nothing into a literal may take.
const FOLD_STEPS: u64 = 1 << 16;

impl SizeExpr {
    /// `a + b`; `(x + c1) + c2` becomes `x + (c1 + c2)` when the literals have one sign and
    /// their sum fits (saturation cannot then tell the two apart).
    pub fn add(&self, b: &SizeExpr) -> SizeExpr {
        if let (Some(c2), Node::Binary(BinOp::Add, x, y)) = (b.as_const(), self.root_node()) {
            if let Some(c1) = self.subexpr(*y).as_const() {
                if let Some(c) = c1.checked_add(c2).filter(|_| (c1 >= 0) == (c2 >= 0)) {
                    return self.subexpr(*x).add(&SizeExpr::constant(c));
                }
            }
        }
        match (self.as_const(), b.as_const()) {
            (Some(x), Some(y)) => SizeExpr::constant(BinOp::Add.apply(x, y)),
            (Some(0), _) => b.clone(),
            (_, Some(0)) => self.clone(),
            _ => SizeExpr::binary(BinOp::Add, self, b),
        }
    }

    /// `max(a - b, 0)`.
    pub fn sub(&self, b: &SizeExpr) -> SizeExpr {
        if let (Some(x), Some(y)) = (self.as_const(), b.as_const()) {
            return SizeExpr::constant(BinOp::Sub.apply(x, y));
        }
        if self == b {
            return SizeExpr::constant(0);
        }
        let (ia, ib) = (self.interval(), b.interval());
        if ia.hi <= ib.lo {
            return SizeExpr::constant(0);
        }
        if b.as_const() == Some(0) && ia.is_non_negative() {
            return self.clone();
        }
        SizeExpr::binary(BinOp::Sub, self, b)
    }

    /// `a * b`.
    pub fn mul(&self, b: &SizeExpr) -> SizeExpr {
        match (self.as_const(), b.as_const()) {
            (Some(x), Some(y)) => SizeExpr::constant(BinOp::Mul.apply(x, y)),
            (Some(0), _) | (_, Some(0)) => SizeExpr::constant(0),
            (Some(1), _) => b.clone(),
            (_, Some(1)) => self.clone(),
            _ => SizeExpr::binary(BinOp::Mul, self, b),
        }
    }

    /// `max(a, b)`.
    pub fn max(&self, b: &SizeExpr) -> SizeExpr {
        self.extremum(b, BinOp::Max)
    }

    /// `min(a, b)`.
    pub fn min(&self, b: &SizeExpr) -> SizeExpr {
        self.extremum(b, BinOp::Min)
    }

    fn extremum(&self, b: &SizeExpr, op: BinOp) -> SizeExpr {
        if let (Some(x), Some(y)) = (self.as_const(), b.as_const()) {
            return SizeExpr::constant(op.apply(x, y));
        }
        if self == b {
            return self.clone();
        }
        let (ia, ib) = (self.interval(), b.interval());
        let a_wins = match op {
            BinOp::Max => (ia.lo >= ib.hi)
                .then_some(true)
                .or((ib.lo >= ia.hi).then_some(false)),
            _ => (ia.hi <= ib.lo)
                .then_some(true)
                .or((ib.hi <= ia.lo).then_some(false)),
        };
        match a_wins {
            Some(true) => self.clone(),
            Some(false) => b.clone(),
            None => SizeExpr::binary(op, self, b),
        }
    }

    /// `max(body for v in range(begin, end))`: 0 over a range that is surely empty; the body
    /// itself when it does not depend on `v`, the range is surely non-empty and the body is
    /// surely non-negative; its value when nothing in it reads memory (and it is cheap to
    /// compute).
    /// A max over `v` in a body that already binds `v` (an expression built elsewhere and
    /// placed here) has those inner binders renamed, so that no variable is bound twice.
    pub fn max_over_range(var: u32, begin: &SizeExpr, end: &SizeExpr, body: &SizeExpr) -> SizeExpr {
        let unbound = body.without_binder_of(var, &[begin, end]);
        let body: &SizeExpr = &unbound;
        let (ib, ie) = (begin.interval(), end.interval());
        if ie.hi <= ib.lo {
            return SizeExpr::constant(0);
        }
        if !body.mentions_var(var) {
            let iy = body.interval();
            if iy.hi <= 0 {
                return SizeExpr::constant(0);
            }
            if ie.lo > ib.hi && iy.is_non_negative() {
                return body.clone();
            }
        }
        let e = SizeExpr::max_over_range_raw(var, begin, end, body);
        match e.eval_literal(FOLD_STEPS) {
            Some(c) => SizeExpr::constant(c),
            None => e,
        }
    }

    /// `sum(body for v in range(begin, end))`: 0 over a range that is surely empty; `(end -
    /// begin) * body` when the body does not depend on `v` (what the evaluator computes for
    /// it) and evaluating it cannot fail where the sum would not; its value when nothing in it reads memory (and it is cheap to compute). Inner binders
    /// of `v` are renamed as [`SizeExpr::max_over_range`] does.
    pub fn sum_over_range(var: u32, begin: &SizeExpr, end: &SizeExpr, body: &SizeExpr) -> SizeExpr {
        let unbound = body.without_binder_of(var, &[begin, end]);
        let body: &SizeExpr = &unbound;
        let (ib, ie) = (begin.interval(), end.interval());
        if ie.hi <= ib.lo || body.as_const() == Some(0) {
            return SizeExpr::constant(0);
        }
        // The product evaluates the body even over an empty range, where the sum does not: only
        // where the range is surely non-empty or the body reads nothing that could fail.
        let safe = ie.lo > ib.hi || !body.reads_elements();
        if !body.mentions_var(var) && safe {
            return end.sub(begin).mul(body);
        }
        let e = SizeExpr::sum_over_range_raw(var, begin, end, body);
        match e.eval_literal(FOLD_STEPS) {
            Some(c) => SizeExpr::constant(c),
            None => e,
        }
    }

    /// Whether evaluating reads a field or ndarray element at an index (a read that may be out
    /// of bounds; a scalar field and a shape cannot fail).
    pub fn reads_elements(&self) -> bool {
        self.nodes().iter().any(|n| match n {
            Node::FieldLoad { indices, .. } => !indices.is_empty(),
            Node::NdarrayRead { .. } => true,
            _ => false,
        })
    }

    /// `select(a PRED b, then, other)`: the branch the operands' intervals decide, or the one
    /// value when both branches are equal.
    pub fn select(
        pred: CmpPred,
        a: &SizeExpr,
        b: &SizeExpr,
        then: &SizeExpr,
        other: &SizeExpr,
    ) -> SizeExpr {
        if then == other {
            return then.clone();
        }
        match pred.decide(a.interval(), b.interval()) {
            Some(true) => then.clone(),
            Some(false) => other.clone(),
            None => SizeExpr::select_raw(pred, a, b, then, other),
        }
    }

    /// `a / c`, rounded up, for a positive literal `c`.
    pub fn div_const(&self, c: i64) -> SizeExpr {
        debug_assert!(c > 0, "the grammar divides by positive literals only");
        match self.as_const() {
            Some(x) => SizeExpr::constant(BinOp::Div.apply(x, c)),
            None if c == 1 => self.clone(),
            None => SizeExpr::binary(BinOp::Div, self, &SizeExpr::constant(c)),
        }
    }

    /// The sum of `terms` as a balanced tree of `Add`s (shallow for the evaluator), 0 when empty.
    pub fn sum(terms: &[SizeExpr]) -> SizeExpr {
        let terms: Vec<&SizeExpr> = terms.iter().filter(|t| t.as_const() != Some(0)).collect();
        fn go(ts: &[&SizeExpr]) -> SizeExpr {
            match ts {
                [] => SizeExpr::constant(0),
                [t] => (*t).clone(),
                _ => {
                    let (l, r) = ts.split_at(ts.len() / 2);
                    go(l).add(&go(r))
                }
            }
        }
        // Literals first, folded together, so that `2 + x + 3` reads `5 + x`.
        let c: i64 = terms
            .iter()
            .filter_map(|t| t.as_const())
            .fold(0, |a, b| a.saturating_add(b));
        let rest: Vec<&SizeExpr> = terms
            .iter()
            .copied()
            .filter(|t| t.as_const().is_none())
            .collect();
        let body = go(&rest);
        if c == 0 {
            body
        } else {
            SizeExpr::constant(c).add(&body)
        }
    }

    /// The product of `factors`, 1 when empty.
    pub fn product(factors: &[SizeExpr]) -> SizeExpr {
        factors
            .iter()
            .fold(SizeExpr::constant(1), |acc, f| acc.mul(f))
    }

    /// Rewrites what the intervals of the whole expression prove, node by node: a node whose
    /// interval is one value becomes that literal; `x - 0` with `x >= 0` becomes `x`; `a - b`
    /// with `a <= b` becomes 0; a `max`/`min` whose operands' intervals do not overlap becomes
    /// the winner; `x + 0`, `x * 1` become `x`. Each rewrite keeps the node's value under every
    /// environment, so the expression evaluates as before. Run it on a closed expression: its
    /// variables then have the ranges of their binders.
    pub fn tidy(&self) -> SizeExpr {
        let iv = self.intervals();
        let mut b = Builder::default();
        let mut map: Vec<NodeId> = Vec::with_capacity(self.len());
        for (i, n) in self.nodes().iter().enumerate() {
            let at = |id: &NodeId| iv[id.index()];
            let id = if iv[i].lo == iv[i].hi && !matches!(n, Node::Const(_)) {
                b.intern(Node::Const(iv[i].lo))
            } else {
                let zero = Interval::point(0);
                let one = Interval::point(1);
                let keep = match n {
                    Node::Binary(BinOp::Sub, x, y) if at(y) == zero && at(x).lo >= 0 => {
                        Some(map[x.index()])
                    }
                    Node::Binary(BinOp::Add, x, y) if at(y) == zero => Some(map[x.index()]),
                    Node::Binary(BinOp::Add, x, y) if at(x) == zero => Some(map[y.index()]),
                    Node::Binary(BinOp::Mul, x, y) if at(y) == one => Some(map[x.index()]),
                    Node::Binary(BinOp::Mul, x, y) if at(x) == one => Some(map[y.index()]),
                    Node::Binary(BinOp::Max, x, y) if at(x).lo >= at(y).hi => Some(map[x.index()]),
                    Node::Binary(BinOp::Max, x, y) if at(y).lo >= at(x).hi => Some(map[y.index()]),
                    Node::Binary(BinOp::Min, x, y) if at(x).hi <= at(y).lo => Some(map[x.index()]),
                    Node::Binary(BinOp::Min, x, y) if at(y).hi <= at(x).lo => Some(map[y.index()]),
                    Node::Select {
                        pred,
                        lhs,
                        rhs,
                        then,
                        other,
                    } => pred
                        .decide(at(lhs), at(rhs))
                        .map(|holds| map[if holds { then } else { other }.index()]),
                    _ => None,
                };
                match keep {
                    Some(id) => id,
                    None => b.intern(n.map_operands(|o| map[o.index()])),
                }
            };
            map.push(id);
        }
        let root = *map.last().expect("a SizeExpr has a root");
        b.finish(root)
    }

    /// `self`, with every range inside that binds `var` rebound to a variable none of `self`
    /// and `others` uses (so that a range over `var` can be put around it).
    fn without_binder_of(&self, var: u32, others: &[&SizeExpr]) -> Cow<'_, SizeExpr> {
        match self.unused_var_if_binds(var, others) {
            Some(fresh) => Cow::Owned(self.rebind(var, fresh)),
            None => Cow::Borrowed(self),
        }
    }

    /// When some range of `self` binds `var`: a variable that none of `self` and
    /// `others` uses (free or bound), the highest such.
    fn unused_var_if_binds(&self, var: u32, others: &[&SizeExpr]) -> Option<u32> {
        let mentioned = |e: &SizeExpr| -> u64 {
            e.nodes().iter().fold(0, |acc, n| match (n, n.as_range()) {
                (Node::BoundVar(v), _) => acc | var_bit(*v),
                (_, Some((v, ..))) => acc | var_bit(v),
                _ => acc,
            })
        };
        let binds = self
            .nodes()
            .iter()
            .any(|n| matches!(n.as_range(), Some((v, ..)) if v == var));
        if !binds {
            return None;
        }
        let used = others
            .iter()
            .fold(mentioned(self), |acc, e| acc | mentioned(e));
        (0..MAX_BOUND_VARS).rev().find(|&v| used & var_bit(v) == 0)
    }

    /// The expression with every free occurrence of `var` replaced by `fresh`; None when a
    /// range inside binds `fresh` around such an occurrence (it would capture it).
    pub fn rename_free_var(&self, var: u32, fresh: u32) -> Option<SizeExpr> {
        let binds_fresh = self
            .nodes()
            .iter()
            .any(|n| matches!(n.as_range(), Some((v, ..)) if v == fresh));
        if binds_fresh && self.mentions_var(var) {
            return None;
        }
        // With no binder of `fresh`, only a binder of `var` can shadow: rename those first.
        let unshadowed = self.without_binder_of(var, &[&SizeExpr::bound_var(fresh)]);
        let mut b = Builder::default();
        let mut map: Vec<NodeId> = Vec::with_capacity(unshadowed.len());
        for n in unshadowed.nodes() {
            let id = match n {
                Node::BoundVar(v) if *v == var => b.intern(Node::BoundVar(fresh)),
                _ => b.intern(n.map_operands(|o| map[o.index()])),
            };
            map.push(id);
        }
        let root = *map.last().expect("a SizeExpr has a root");
        Some(b.finish(root))
    }

    /// Renames every `MaxOverRange` over `var` to one over `fresh`, with the occurrences it
    /// binds; free occurrences of `var` stay.
    fn rebind(&self, var: u32, fresh: u32) -> SizeExpr {
        fn go(
            e: &SizeExpr,
            id: NodeId,
            inside: bool,
            ren: (u32, u32),
            b: &mut Builder,
            memo: &mut HashMap<(NodeId, bool), NodeId>,
        ) -> NodeId {
            if let Some(&m) = memo.get(&(id, inside)) {
                return m;
            }
            let (var, fresh) = ren;
            let node = e.node(id);
            let new = match (node, node.as_range()) {
                (Node::BoundVar(v), _) if *v == var && inside => b.intern(Node::BoundVar(fresh)),
                (_, Some((v, begin, end, body))) if v == var => {
                    let begin = go(e, begin, inside, ren, b, memo);
                    let end = go(e, end, inside, ren, b, memo);
                    let body = go(e, body, true, ren, b, memo);
                    b.intern(match node {
                        Node::SumOverRange { .. } => Node::SumOverRange {
                            var: fresh,
                            begin,
                            end,
                            body,
                        },
                        _ => Node::MaxOverRange {
                            var: fresh,
                            begin,
                            end,
                            body,
                        },
                    })
                }
                (n, _) => {
                    let ops: Vec<NodeId> = n
                        .operands()
                        .into_iter()
                        .map(|o| go(e, o, inside, ren, b, memo))
                        .collect();
                    let mut it = ops.into_iter();
                    b.intern(n.map_operands(|_| it.next().expect("one id per operand")))
                }
            };
            memo.insert((id, inside), new);
            new
        }
        let mut b = Builder::default();
        let root = go(
            self,
            self.root(),
            false,
            (var, fresh),
            &mut b,
            &mut HashMap::new(),
        );
        b.finish(root)
    }
}
