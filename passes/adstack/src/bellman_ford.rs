//! Phase 1: the exact maximum depth of a stack whose pushes sit in straight-line code, in
//! branches or in balanced loops, as a longest path on the control-flow graph.
//!
//! The graph covers what runs after the alloca in its block (executing the alloca again empties
//! the stack, so nothing around it matters): one node per straight-line segment, the branches of
//! a `qd.if` (the max, not the sum, since one runs), loop back edges and zero-trip exits, `while`
//! condition blocks, `break` and `continue`. Each node is weighted by what it does to the stack:
//! its net change, its peak, its dip and its largest rise.
//!
//! Pops saturate at 0, so the depth at a point is the largest rise `m_t - m_s` of the unclamped
//! count `m` over the points `s <= t` of the path (the alloca point included). That is a longest
//! path from a super-source that may enter the graph at any reachable point, found as a
//! shortest path on negated integer weights with SPFA (Bellman-Ford with a queue). A negative
//! cycle there is a loop that pushes more than it pops: the depth grows with its trip count, and
//! the stack goes to phase 2.

use crate::index::{Children, SizingIndex};
use crate::loops::mark_ancestors;
use petgraph::algo::spfa;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use qd_adstack::{POP_OP, PUSH_OP};
use qd_frontend::{BREAK_OP, CONTINUE_OP, IF_OP, RANGE_FOR_OP, STRUCT_FOR_OP, WHILE_OP};
use qd_ir::{BlockId, Context, OpId, Value};
use std::collections::HashSet;

/// What phase 1 found for one stack.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Phase1 {
    /// The exact maximum depth over every path of the graph.
    Exact(u64),
    /// A loop pushes more than it pops: the depth depends on trip counts.
    Unbounded,
}

/// What one straight-line segment does to the stack, from its start.
#[derive(Copy, Clone, Default, Debug)]
struct Seg {
    /// Net pushes minus pops.
    delta: i64,
    /// Highest running count (>= 0: the empty prefix counts).
    peak: i64,
    /// Lowest running count (<= 0).
    dip: i64,
    /// Largest `m_t - m_s` for points `s <= t` inside the segment.
    rise: i64,
}

impl Seg {
    fn step(&mut self, d: i64) {
        self.delta += d;
        self.peak = self.peak.max(self.delta);
        self.dip = self.dip.min(self.delta);
        self.rise = self.rise.max(self.delta - self.dip);
    }
}

struct Builder<'a> {
    ctx: &'a Context,
    index: &'a SizingIndex,
    stack: Value,
    g: DiGraph<Seg, ()>,
    /// Ops that hold a push or a pop, per block; with the ops that hold a break or a continue,
    /// the only ones the graph must see.
    relevant: Children,
    /// Enclosing loops being walked: (loop, where `continue` goes, where `break` goes).
    loops: Vec<(OpId, NodeIndex, NodeIndex)>,
    /// Where control leaves the graph (the end of the alloca's block, a jump out of it).
    exit: NodeIndex,
}

/// The maximum depth of the stack `alloca` defines.
pub fn max_depth(ctx: &Context, alloca: OpId) -> Phase1 {
    max_depth_in(ctx, alloca, &SizingIndex::around(ctx, alloca))
}

/// [`max_depth`] with the index of a scope that holds `alloca`.
pub(crate) fn max_depth_in(ctx: &Context, alloca: OpId, index: &SizingIndex) -> Phase1 {
    StackGraph::new(ctx, alloca, index).max_depth()
}

/// Whether no path pops the stack below the entries pushed since the alloca: then no pop
/// saturates, and every pop lowers the depth by exactly one (what lets phase 2 count pops).
/// A loop that pops more than it pushes, or a pop before its push, may saturate.
pub fn never_underflows(ctx: &Context, alloca: OpId) -> bool {
    StackGraph::new(ctx, alloca, &SizingIndex::around(ctx, alloca)).never_underflows()
}

/// The control-flow graph of one stack and its entry node (None outside a block), built once
/// for phase 1 and for the underflow check of phase 2.
pub(crate) struct StackGraph(Option<(DiGraph<Seg, ()>, NodeIndex)>);

impl StackGraph {
    /// The graph of the stack `alloca` defines, with the index of a scope that holds it.
    pub(crate) fn new(ctx: &Context, alloca: OpId, index: &SizingIndex) -> StackGraph {
        StackGraph(graph(ctx, alloca, index))
    }

    /// Phase 1's answer: see [`max_depth`].
    pub(crate) fn max_depth(&self) -> Phase1 {
        match &self.0 {
            Some((g, entry)) => solve(g, *entry),
            None => Phase1::Exact(0),
        }
    }

    /// See [`never_underflows`].
    pub(crate) fn never_underflows(&self) -> bool {
        let Some((g, entry)) = &self.0 else {
            return true;
        };
        // Shortest paths of the unclamped count from the alloca: u -> v costs delta(u).
        let mut h: DiGraph<(), i64> = DiGraph::new();
        for _ in 0..g.node_count() {
            h.add_node(());
        }
        for e in g.edge_references() {
            h.add_edge(e.source(), e.target(), g[e.source()].delta);
        }
        let Ok(paths) = spfa(&h, *entry, |e| *e.weight()) else {
            return false;
        };
        g.node_indices().all(|n| {
            let d = paths.distances[n.index()];
            d == i64::MAX || d.saturating_add(g[n].dip) >= 0
        })
    }
}

/// The control-flow graph after `alloca` and its entry node (None outside a block).
fn graph(
    ctx: &Context,
    alloca: OpId,
    index: &SizingIndex,
) -> Option<(DiGraph<Seg, ()>, NodeIndex)> {
    let block = ctx.parent_block(alloca)?;
    let stack = ctx.result(alloca, 0);
    let mut marked = HashSet::new();
    for u in ctx.users(stack) {
        if matches!(ctx.name(u), PUSH_OP | POP_OP) {
            mark_ancestors(ctx, u, block, &mut marked);
        }
    }
    let mut g = DiGraph::new();
    let entry = g.add_node(Seg::default());
    let exit = g.add_node(Seg::default());
    let mut b = Builder {
        ctx,
        index,
        stack,
        g,
        relevant: index.by_block(ctx, &marked),
        loops: Vec::new(),
        exit,
    };
    let at = index.pos(alloca);
    let after: Vec<OpId> = b
        .relevant_ops(block)
        .into_iter()
        .filter(|&o| index.pos(o) > at)
        .collect();
    if let Some(end) = b.walk_ops(&after, entry) {
        b.g.add_edge(end, exit, ());
    }
    Some((b.g, entry))
}

impl Builder<'_> {
    fn node(&mut self) -> NodeIndex {
        self.g.add_node(Seg::default())
    }

    fn edge(&mut self, a: NodeIndex, b: NodeIndex) {
        self.g.add_edge(a, b, ());
    }

    /// The ops of `block` the graph must see (those that hold a push or pop of the stack, a
    /// break or a continue), in block order: every other op leaves the graph as it is.
    fn relevant_ops(&self, block: BlockId) -> Vec<OpId> {
        let mut ops: Vec<OpId> = self.relevant.of(block).to_vec();
        let jumps = self.index.jump_children(block);
        if !jumps.is_empty() {
            ops.extend_from_slice(jumps);
            ops.sort_by_key(|&o| self.index.pos(o));
            ops.dedup();
        }
        ops
    }

    /// Walks a region's entry block from a new node entered from `from`; returns that node and
    /// the node where the region falls through.
    fn region(
        &mut self,
        op: OpId,
        index: usize,
        from: NodeIndex,
    ) -> (NodeIndex, Option<NodeIndex>) {
        let start = self.node();
        self.edge(from, start);
        let block = self
            .ctx
            .regions(op)
            .get(index)
            .and_then(|&r| self.ctx.entry_block(r));
        let end = match block {
            Some(b) => {
                let ops = self.relevant_ops(b);
                self.walk_ops(&ops, start)
            }
            None => Some(start),
        };
        (start, end)
    }

    /// Walks `ops` from node `cur`; returns the node where control falls through, or None when
    /// it cannot (after a `break` or `continue`).
    fn walk_ops(&mut self, ops: &[OpId], mut cur: NodeIndex) -> Option<NodeIndex> {
        for &op in ops {
            let ctx = self.ctx;
            match ctx.name(op) {
                PUSH_OP | POP_OP if ctx.operand(op, 0) == self.stack => {
                    let d = if ctx.name(op) == PUSH_OP { 1 } else { -1 };
                    self.g[cur].step(d);
                }
                BREAK_OP | CONTINUE_OP => {
                    let target = crate::loops::enclosing_loop(ctx, op);
                    let jump = self
                        .loops
                        .iter()
                        .rev()
                        .find(|(l, _, _)| Some(*l) == target)
                        .map(|&(_, cont, brk)| if ctx.name(op) == BREAK_OP { brk } else { cont })
                        .unwrap_or(self.exit);
                    self.edge(cur, jump);
                    return None;
                }
                IF_OP => {
                    let join = self.node();
                    for i in 0..2 {
                        if let (_, Some(end)) = self.region(op, i, cur) {
                            self.edge(end, join);
                        }
                    }
                    cur = join;
                }
                RANGE_FOR_OP | STRUCT_FOR_OP => {
                    let (latch, exit) = (self.node(), self.node());
                    self.edge(cur, exit);
                    self.loops.push((op, latch, exit));
                    let (body, end) = self.region(op, 0, cur);
                    self.loops.pop();
                    if let Some(e) = end {
                        self.edge(e, latch);
                    }
                    self.edge(latch, body);
                    self.edge(latch, exit);
                    cur = exit;
                }
                WHILE_OP => {
                    let cond = self.node();
                    self.edge(cur, cond);
                    let exit = self.node();
                    // The condition runs before every iteration: `continue` goes back to it.
                    if let (_, Some(ce)) = self.region(op, 0, cond) {
                        self.edge(ce, exit);
                        self.loops.push((op, cond, exit));
                        let (_, end) = self.region(op, 1, ce);
                        self.loops.pop();
                        if let Some(e) = end {
                            self.edge(e, cond);
                        }
                    }
                    cur = exit;
                }
                _ if !ctx.regions(op).is_empty() => {
                    // An op we do not know: each region may run any number of times, in any order.
                    let hub = self.node();
                    self.edge(cur, hub);
                    let after = self.node();
                    for i in 0..ctx.regions(op).len() {
                        if let (_, Some(e)) = self.region(op, i, hub) {
                            self.edge(e, hub);
                        }
                    }
                    self.edge(hub, after);
                    cur = after;
                }
                _ => {}
            }
        }
        Some(cur)
    }
}

/// The largest rise over the paths from `entry` (see the module docs).
fn solve(g: &DiGraph<Seg, ()>, entry: NodeIndex) -> Phase1 {
    let mut reach = vec![false; g.node_count()];
    let mut dfs = petgraph::visit::Dfs::new(g, entry);
    while let Some(n) = dfs.next(g) {
        reach[n.index()] = true;
    }
    // Edge weights are negated gains: u -> v costs -delta(u); from the super-source, entering v
    // after the best start point inside a predecessor u costs -(delta(u) - dip(u)).
    let mut h: DiGraph<(), i64> = DiGraph::new();
    for _ in 0..g.node_count() {
        h.add_node(());
    }
    let source = h.add_node(());
    h.add_edge(source, entry, 0);
    for e in g.edge_references() {
        let (u, v) = (e.source(), e.target());
        if !reach[u.index()] {
            continue;
        }
        let s = g[u];
        h.add_edge(u, v, -s.delta);
        h.add_edge(source, v, -(s.delta - s.dip));
    }
    let Ok(paths) = spfa(&h, source, |e| *e.weight()) else {
        return Phase1::Unbounded;
    };
    let mut best = 0i64;
    for n in g.node_indices() {
        if !reach[n.index()] {
            continue;
        }
        let s = g[n];
        best = best.max(s.rise);
        let d = paths.distances[n.index()];
        if d != i64::MAX {
            best = best.max(s.peak - d);
        }
    }
    Phase1::Exact(best.max(0) as u64)
}
