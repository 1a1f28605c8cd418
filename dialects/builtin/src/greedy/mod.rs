//! The greedy pattern driver: applies rewrite patterns and folders until a fixed point or a cap.
//!
//! As MLIR's `applyPatternsGreedily`: each sweep seeds a worklist with the ops nested in the root
//! (pre-order; the root itself is never rewritten), then pops ops one at a time. A trivially dead
//! op is erased; otherwise the op is folded, and if it does not fold, the patterns rooted at its
//! name (or at any op) are tried in the order given. Every op a rewrite creates or modifies goes
//! back on the worklist. After each sweep the ops that died are erased (MLIR's region DCE).
//! Sweeps repeat until one changes nothing (converged) or the iteration cap is hit. Constants made by folding go right before the folded op. With `cse_constants`, each
//! sweep starts by merging equal constants and hoisting them to the front of the entry block of
//! their insertion region (the nearest region whose parent is ISOLATED_FROM_ABOVE, unregistered,
//! or the root), as MLIR's driver does through `OperationFolder::insertKnownConstant`, so that
//! constants come out in mlir-opt's order.
//!
//! A pattern that keeps reporting a change on the op it rewrites never lets a sweep end: use
//! `max_rewrites` to bound such patterns.

mod dce;
mod effects;
mod fold;
mod listener;

pub use effects::{is_memory_effect_free, is_trivially_dead, would_op_be_trivially_dead};
pub use fold::{constant_value, fold_op, materialize_constant, op_constant_value};

use crate::context::Context;
use crate::entity::{Attribute, OpId, RegionId};
use crate::registry::{FoldResult, OpTraits};
use crate::rewrite::{RewritePattern, Rewriter};
use fold::{fold_op_with, is_movable_constant, stops_climb, Constants, Seeded, ValueKey};
use listener::Changes;

/// Limits and switches of [`apply_patterns_greedily`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GreedyConfig {
    /// Sweeps over the IR at most (default 10).
    pub max_iterations: usize,
    /// Successful pattern applications at most, over the whole run (default: no limit).
    pub max_rewrites: Option<usize>,
    /// Fold ops with their folders (default true).
    pub fold: bool,
    /// Merge equal constants and hoist them to the top of their region (default true).
    pub cse_constants: bool,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            max_iterations: 10,
            max_rewrites: None,
            fold: true,
            cse_constants: true,
        }
    }
}

/// What a run of [`apply_patterns_greedily`] did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GreedyResult {
    /// The IR changed.
    pub changed: bool,
    /// The last sweep changed nothing: a fixed point was reached.
    pub converged: bool,
    /// Successful pattern applications.
    pub rewrites: usize,
    /// Ops replaced by their fold results.
    pub folded: usize,
    /// Trivially dead ops erased (constants merged into equal ones included).
    pub erased: usize,
    /// Sweeps run.
    pub iterations: usize,
}

/// Applies `patterns` and folding to the ops nested in `root` until nothing changes or a limit
/// of `config` is reached. Deterministic for deterministic patterns.
pub fn apply_patterns_greedily(
    ctx: &mut Context,
    root: OpId,
    patterns: &[Box<dyn RewritePattern>],
    config: &GreedyConfig,
) -> GreedyResult {
    let mut d = Driver {
        root,
        patterns,
        config,
        by_name: Vec::new(),
        lists: Vec::new(),
        worklist: Vec::new(),
        in_list: Vec::new(),
        constants: Constants::default(),
        value_key: ValueKey::default(),
        consts: Vec::new(),
        result: GreedyResult::default(),
        out_of_budget: false,
    };
    for _ in 0..config.max_iterations {
        d.result.iterations += 1;
        let changed = d.sweep(ctx);
        d.result.changed |= changed;
        if d.out_of_budget {
            break;
        }
        if !changed {
            d.result.converged = true;
            break;
        }
    }
    d.result
}

struct Driver<'p> {
    root: OpId,
    patterns: &'p [Box<dyn RewritePattern>],
    config: &'p GreedyConfig,
    /// Op name (by index) -> index in `lists` of the patterns to try on it, in the given order.
    by_name: Vec<Option<usize>>,
    lists: Vec<Vec<usize>>,
    /// A stack: the top is processed next.
    worklist: Vec<OpId>,
    in_list: Vec<bool>,
    constants: Constants,
    value_key: ValueKey,
    /// Scratch: the constant operands of the op being folded.
    consts: Vec<Option<Attribute>>,
    result: GreedyResult,
    out_of_budget: bool,
}

impl Driver<'_> {
    /// Puts the ops nested in `op` on the worklist in pre-order, merging or hoisting movable
    /// constants on the way (see [`Constants::seed`]). Follows the block links instead of collecting every op first
    /// (`walk_pre_order`), which costs two vectors as long as the IR. Safe while seeding: a
    /// merged constant is erased and a hoisted one goes to the top of an enclosing entry block,
    /// both after its successor is taken; such constants have no regions, and the front of an
    /// enclosing entry block comes before them in pre-order, so they are not visited twice.
    ///
    /// `insertion` is the insertion region of `op`'s own ops (None for the root): the region a
    /// constant of `op`'s regions goes to is that one, or the region itself where `op` stops the
    /// climb ([`stops_climb`]), found on the way down instead of climbing from each constant.
    /// The constants of an op that stops the climb are forgotten once its nest is seeded.
    fn seed_nested(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        insertion: Option<RegionId>,
        changed: &mut bool,
    ) {
        let stops = insertion.is_none() || stops_climb(ctx, op, self.root);
        let mark = self.constants.mark();
        for ri in 0..ctx.regions(op).len() {
            let region = ctx.region(op, ri);
            let ins = match insertion {
                Some(r) if !stops => r,
                _ => region,
            };
            for bi in 0..ctx.region_blocks(region).len() {
                let mut cur = ctx.first_op(ctx.region_blocks(region)[bi]);
                while let Some(o) = cur {
                    cur = ctx.next_op(o);
                    if self.config.cse_constants && is_movable_constant(ctx, o, &mut self.value_key)
                    {
                        match self.constants.seed(ctx, o, ins, &mut self.value_key) {
                            Seeded::Merged => {
                                self.result.erased += 1;
                                *changed = true;
                                continue;
                            }
                            Seeded::Moved => *changed = true,
                            Seeded::Kept => {}
                        }
                    }
                    self.worklist.push(o);
                    self.in_list[o.index()] = true;
                    if !ctx.regions(o).is_empty() {
                        self.seed_nested(ctx, o, Some(ins), changed);
                    }
                }
            }
        }
        if stops {
            self.constants.forget_since(mark);
        }
    }

    /// One sweep; returns whether the IR changed.
    fn sweep(&mut self, ctx: &mut Context) -> bool {
        self.constants.clear();
        self.worklist.clear();
        self.in_list.clear();
        self.in_list.resize(ctx.num_op_slots(), false);
        // As MLIR, merging and hoisting constants while seeding changes the IR but does not call
        // for another sweep: every op it affects is on this sweep's worklist.
        let mut seeded = false;
        self.seed_nested(ctx, self.root, None, &mut seeded);
        self.result.changed |= seeded;
        let mut changed = false;
        // Pop in pre-order.
        self.worklist.reverse();
        while let Some(op) = self.worklist.pop() {
            self.in_list[op.index()] = false;
            if !ctx.is_alive(op) {
                continue;
            }
            if self
                .config
                .max_rewrites
                .is_some_and(|m| self.result.rewrites >= m)
            {
                self.out_of_budget = true;
                break;
            }
            changed |= self.process(ctx, op);
        }
        // As MLIR's driver after each iteration: erase what died (a change that calls for
        // another sweep, as there).
        let dead = dce::erase_dead_ops(ctx, self.root);
        self.result.erased += dead;
        changed || dead > 0
    }

    /// Erases, folds or rewrites `op`; returns whether anything changed.
    fn process(&mut self, ctx: &mut Context, op: OpId) -> bool {
        if is_trivially_dead(ctx, op) {
            let mut changes = Changes::default();
            Rewriter::with_listener(ctx, &mut changes).erase_op(op);
            self.result.erased += 1;
            self.handle(ctx, &changes);
            return true;
        }
        if self.config.fold && self.try_fold(ctx, op) {
            self.result.folded += 1;
            return true;
        }
        let list = self.patterns_for(ctx, op);
        for k in 0..self.lists[list].len() {
            let pattern = &self.patterns[self.lists[list][k]];
            let mut changes = Changes::default();
            let matched =
                pattern.match_and_rewrite(op, &mut Rewriter::with_listener(ctx, &mut changes));
            // A pattern that changed the IR but says it did not still changed it.
            if matched || changes.any {
                self.result.rewrites += 1;
                self.handle(ctx, &changes);
                return true;
            }
        }
        false
    }

    /// Index in `lists` of the patterns for `op`'s name: rooted there or anywhere, in order.
    fn patterns_for(&mut self, ctx: &Context, op: OpId) -> usize {
        let name = ctx.op_name_of(op).index();
        if let Some(&Some(i)) = self.by_name.get(name) {
            return i;
        }
        let s = ctx.name(op);
        let list = self
            .patterns
            .iter()
            .enumerate()
            .filter(|(_, p)| p.root().is_none_or(|r| r == s))
            .map(|(i, _)| i)
            .collect();
        self.lists.push(list);
        if self.by_name.len() <= name {
            self.by_name.resize(name + 1, None);
        }
        self.by_name[name] = Some(self.lists.len() - 1);
        self.lists.len() - 1
    }

    /// Puts the ops a change touched (nested in the root, still alive) back on the worklist.
    fn handle(&mut self, ctx: &Context, changes: &Changes) {
        for &o in &changes.revisit {
            self.push(ctx, o);
        }
    }

    fn push(&mut self, ctx: &Context, op: OpId) {
        if op == self.root || !ctx.is_alive(op) || !ctx.is_ancestor(self.root, op) {
            return;
        }
        if op.index() >= self.in_list.len() {
            self.in_list
                .resize(ctx.num_op_slots().max(op.index() + 1), false);
        }
        if !self.in_list[op.index()] {
            self.in_list[op.index()] = true;
            self.worklist.push(op);
        }
    }

    /// Folds `op` and replaces it by its fold results, materializing constants right before
    /// `op` (as MLIR: they are merged and hoisted when the next sweep is seeded). Constant ops
    /// are not folded (they would only fold to themselves).
    fn try_fold(&mut self, ctx: &mut Context, op: OpId) -> bool {
        if ctx.num_results(op) == 0 || ctx.has_trait(op, OpTraits::CONSTANT_LIKE) {
            return false;
        }
        let Some(folded) = fold_op_with(ctx, op, &mut self.value_key, &mut self.consts) else {
            return false;
        };
        let results = ctx.results(op).to_vec();
        for (&r, f) in results.iter().zip(&folded) {
            if let FoldResult::Value(v) = *f {
                // Folding to its own result means "unchanged"; a type change would break users.
                if ctx.defining_op(v) == Some(op) || ctx.value_type(v) != ctx.value_type(r) {
                    return false;
                }
            }
        }
        let dialect = ctx.dialect_of(op).to_string();
        let loc = ctx.loc(op);
        let mut created: Vec<OpId> = Vec::new();
        let mut replacements = Vec::with_capacity(results.len());
        for (&r, f) in results.iter().zip(&folded) {
            let v = match *f {
                FoldResult::Value(v) => Some(v),
                FoldResult::Attr(a) => {
                    let ty = ctx.value_type(r);
                    materialize_constant(ctx, &dialect, a, ty, loc).map(|c| {
                        ctx.insert_op_before(op, c);
                        created.push(c);
                        ctx.result(c, 0)
                    })
                }
            };
            match v {
                Some(v) => replacements.push(v),
                None => {
                    // Could not materialize: undo the constants made for this fold.
                    for c in created.into_iter().rev() {
                        ctx.erase_op(c);
                    }
                    return false;
                }
            }
        }
        let mut changes = Changes::default();
        Rewriter::with_listener(ctx, &mut changes).replace_op(op, &replacements);
        changes.revisit.extend(created);
        self.handle(ctx, &changes);
        true
    }
}

#[cfg(test)]
mod tests;
