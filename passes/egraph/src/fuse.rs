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
//! position (under `+`, `max`, `min`, the minuend of `-`, a factor whose co-factor is `>= 0`,
//! a range's body), never in a subtrahend, a range bound or an index. It is therefore applied
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

    /// Whether `x - y` fuses: both ranges over one variable from one begin, `x`'s end no later.
    fn fusable(&self, x: NodeId, y: NodeId) -> Option<(u32, NodeId, NodeId, NodeId, NodeId)> {
        match (self.e.node(x), self.e.node(y)) {
            (
                Node::MaxOverRange {
                    var: v,
                    begin: b1,
                    end: e1,
                    body: a,
                },
                Node::MaxOverRange {
                    var: w,
                    begin: b2,
                    end: e2,
                    body: b,
                },
            ) if v == w
                && b1 == b2
                && (e1 == e2 || self.iv[e1.index()].hi <= self.iv[e2.index()].lo) =>
            {
                Some((*v, *b1, *e1, *a, *b))
            }
            _ => None,
        }
    }

    /// The rebuilt `id`; `pos`: whether a larger value here is a larger value of the root.
    fn go(&mut self, id: NodeId, pos: bool) -> NodeId {
        if let Some(&r) = self.memo.get(&(id, pos)) {
            return r;
        }
        let n = self.e.node(id).clone();
        let r = match n {
            Node::Binary(BinOp::Sub, x, y) => match self.fusable(x, y) {
                Some((var, b, e, a, bb)) if pos => {
                    self.fused += 1;
                    let (b, e) = (self.go(b, false), self.go(e, false));
                    let a = self.go(a, true);
                    let bb = self.go(bb, false);
                    let body = self.push(Node::Binary(BinOp::Sub, a, bb));
                    self.push(Node::MaxOverRange {
                        var,
                        begin: b,
                        end: e,
                        body,
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
            Node::Binary(op, x, y) => {
                let (x, y) = (self.go(x, pos), self.go(y, pos));
                self.push(Node::Binary(op, x, y))
            }
            Node::MaxOverRange {
                var,
                begin,
                end,
                body,
            } => {
                let (begin, end) = (self.go(begin, false), self.go(end, false));
                let body = self.go(body, pos);
                self.push(Node::MaxOverRange {
                    var,
                    begin,
                    end,
                    body,
                })
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
