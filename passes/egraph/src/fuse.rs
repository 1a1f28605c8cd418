//! The sub-of-MaxOverRange fusion (DESIGN §4): over the same loop,
//!
//! ```text
//! max(A(v) for v in range(b, e)) - max(B(v) for v in range(b, e'))
//!     ->  max(A(v) - B(v) for v in range(b, min(e, e')))
//! ```
//!
//! It is not an equality: the fused form is *at least* the original (with `v*` where `A` is
//! largest, `max A - max B <= A(v*) - B(v*)` as long as `v*` is in the subtrahend's range too),
//! so it may only replace a term where a larger value is a larger bound: in a positive
//! position (below), never in a subtrahend, a range bound or an index. It is therefore applied
//! to terms, between e-graph runs, and never merged into an e-graph.
//!
//! "The same loop": a size expression does not record which source loop a range came from (its
//! nodes carry a variable and a range, no loop identity), so the rule asks for what a range
//! over the same loop has: the same variable and the same begin (syntactically, in the
//! hash-consed form), and an end `e` that is the same as `e'` or provably at most `e'`, so that
//! `min(e, e') = e` and every index the fused body reads was read by the subtrahend too. The
//! min-cap of upstream's v1 for *different* ends (`e + e' - max(e, e')`) is unsound as a
//! rewrite of expressions: with `a = [0, 0, 0, 100]` and `b = [1, 1]`,
//! `max(a[v] for v in range(0, 4)) - max(b[v] for v in range(0, 2))` is 99 but the capped
//! fusion gives `max(a[v] - b[v] for v in range(0, 2)) = 0`; it is refused.
//!
//! Sums over the same loop fuse alike:
//!
//! ```text
//! sum(A(v) for v in range(b, e)) - sum(B(v) for v in range(b, e'))
//!     ->  sum(A(v) - B(v) for v in range(b, e))
//! ```
//!
//! with the same variable and begin, and `e` the same as `e'`, or provably at most `e'` *and*
//! `B >= 0` (its interval), so that the longer subtrahend is at least the sum of `B` over
//! `[b, e)`. Why it is an upper bound under saturation: one saturating step `s' = clamp(s + t)`
//! is monotone and 1-Lipschitz, so `clamp(s_A + a) - clamp(s_B + b) <= max(s_A - s_B, 0) +
//! max(a - b, 0)`, and by induction over the terms `max(sum A - sum B, 0) <= sum of max(a - b, 0)`
//! (true values); the fused body's terms are `max(a - b, 0)` clamped at `i64::MAX`, all `>= 0`,
//! so the fused sum is that sum clamped at `i64::MAX` (or `i64::MAX` if a term was clamped),
//! at least the left side either way. No sign of `A` is needed.
//!
//! Positive positions: under `+`, `max`, `min`, the minuend of `-`, the dividend of `/`, a
//! factor whose co-factor is `>= 0`, and the body of a max or a sum (a saturating sum is
//! monotone in each term).

use qd_adstack::size_expr::{BinOp, Node, NodeId, SizeExpr};
use std::collections::HashMap;

struct Fuser<'a> {
    e: &'a SizeExpr,
    iv: Vec<qd_adstack::size_expr::Interval>,
    out: Vec<Node>,
    memo: HashMap<(NodeId, bool), NodeId>,
    fused: usize,
}

impl Fuser<'_> {
    fn push(&mut self, n: Node) -> NodeId {
        self.out.push(n);
        NodeId(self.out.len() as u32 - 1)
    }

    /// Whether `x - y` fuses: two maxima, or two sums, over one variable from one begin, `x`'s
    /// end no later; the kind of range (true: a sum) and its variable, begin, end and bodies.
    fn fusable(&self, x: NodeId, y: NodeId) -> Option<(bool, u32, NodeId, NodeId, NodeId, NodeId)> {
        let (nx, ny) = (self.e.node(x), self.e.node(y));
        let sum = match (nx, ny) {
            (Node::MaxOverRange { .. }, Node::MaxOverRange { .. }) => false,
            (Node::SumOverRange { .. }, Node::SumOverRange { .. }) => true,
            _ => return None,
        };
        let ((v, b1, e1, a), (w, b2, e2, b)) = (nx.as_range()?, ny.as_range()?);
        let same_end = e1 == e2;
        let earlier = self.iv[e1.index()].hi <= self.iv[e2.index()].lo;
        // A longer sum is a larger one only when the extra terms are >= 0.
        let longer_is_larger = !sum || self.iv[b.index()].lo >= 0;
        (v == w && b1 == b2 && (same_end || (earlier && longer_is_larger)))
            .then_some((sum, v, b1, e1, a, b))
    }

    /// The rebuilt `id`; `pos`: whether a larger value here is a larger value of the root.
    fn go(&mut self, id: NodeId, pos: bool) -> NodeId {
        if let Some(&r) = self.memo.get(&(id, pos)) {
            return r;
        }
        let n = self.e.node(id).clone();
        let r = match n {
            Node::Binary(BinOp::Sub, x, y) => match self.fusable(x, y) {
                Some((sum, var, b, e, a, bb)) if pos => {
                    self.fused += 1;
                    let (b, e) = (self.go(b, false), self.go(e, false));
                    let a = self.go(a, true);
                    let bb = self.go(bb, false);
                    let body = self.push(Node::Binary(BinOp::Sub, a, bb));
                    self.push(if sum {
                        Node::SumOverRange {
                            var,
                            begin: b,
                            end: e,
                            body,
                        }
                    } else {
                        Node::MaxOverRange {
                            var,
                            begin: b,
                            end: e,
                            body,
                        }
                    })
                }
                _ => {
                    let (x, y) = (self.go(x, pos), self.go(y, false));
                    self.push(Node::Binary(BinOp::Sub, x, y))
                }
            },
            Node::Binary(BinOp::Mul, x, y) => {
                let px = pos && self.iv[y.index()].lo >= 0;
                let py = pos && self.iv[x.index()].lo >= 0;
                let (x, y) = (self.go(x, px), self.go(y, py));
                self.push(Node::Binary(BinOp::Mul, x, y))
            }
            // Rounding up is monotone in the dividend; the divisor is a literal.
            Node::Binary(BinOp::Div, x, y) => {
                let (x, y) = (self.go(x, pos), self.go(y, false));
                self.push(Node::Binary(BinOp::Div, x, y))
            }
            Node::Binary(op, x, y) => {
                let (x, y) = (self.go(x, pos), self.go(y, pos));
                self.push(Node::Binary(op, x, y))
            }
            // A larger body gives a larger max, and a larger sum (a saturating sum is monotone
            // in each term, whatever their signs); the bounds are not positive positions.
            Node::MaxOverRange { .. } | Node::SumOverRange { .. } => {
                let (begin, end, body) = match n.as_range() {
                    Some((_, b, e, y)) => (b, e, y),
                    None => unreachable!("a range node"),
                };
                let (b, e) = (self.go(begin, false), self.go(end, false));
                let y = self.go(body, pos);
                let mut it = [b, e, y].into_iter();
                self.push(n.map_operands(|_| it.next().expect("three operands")))
            }
            other => {
                let ops: Vec<NodeId> = other
                    .operands()
                    .into_iter()
                    .map(|o| self.go(o, false))
                    .collect();
                let mut it = ops.into_iter();
                self.push(other.map_operands(|_| it.next().expect("one per operand")))
            }
        };
        self.memo.insert((id, pos), r);
        r
    }
}

/// `e` with every fusable subtraction in a positive position fused, and how many were.
/// The result evaluates to at least `e`'s value under every environment.
pub fn fuse(e: &SizeExpr) -> (SizeExpr, usize) {
    let mut f = Fuser {
        e,
        iv: e.intervals(),
        out: Vec::new(),
        memo: HashMap::new(),
        fused: 0,
    };
    f.go(e.root(), true);
    if f.fused == 0 {
        return (e.clone(), 0);
    }
    let fused = f.fused;
    match SizeExpr::from_nodes(f.out) {
        Ok(r) => (r, fused),
        // Fusion keeps every variable's scope, so this does not happen; keep the input if it did.
        Err(_) => (e.clone(), 0),
    }
}
