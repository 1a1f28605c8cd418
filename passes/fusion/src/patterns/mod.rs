//! Fused loss patterns: a registry of (matcher, planner) pairs that `fuse-elementwise` tries on
//! every op of a function before it groups the ops. A matcher recognises a known subgraph by its
//! root op (see [`expr`] for the tree patterns it is written in); its planner rewrites the match
//! into a form the fusion turns into better kernels (for the detection loss: one registered
//! primitive with an analytic backward, then one sum: a partial kernel, a reduce kernel, and a
//! backward kernel from that analytic rule). A subgraph that does not match exactly is left to
//! the generic fusion, which is always correct.

pub mod detection_loss;
pub mod expr;
pub mod log1p;

use qd_func::FuncOp;
use qd_ir::{Context, Diagnostic, OpId, Value};
use std::sync::{OnceLock, RwLock};

/// What a matcher found: the root op and the captured values.
#[derive(Clone, Debug)]
pub struct Match {
    pub root: OpId,
    pub captures: Vec<Value>,
}

/// One fused pattern.
#[derive(Copy, Clone)]
pub struct Pattern {
    pub name: &'static str,
    /// The match rooted at `op`, if any.
    pub matcher: fn(&Context, OpId) -> Option<Match>,
    /// Rewrites a match in place (the root's result is replaced).
    pub planner: fn(&mut Context, &Match) -> Result<(), Diagnostic>,
}

fn registry() -> &'static RwLock<Vec<Pattern>> {
    static R: OnceLock<RwLock<Vec<Pattern>>> = OnceLock::new();
    R.get_or_init(|| RwLock::new(vec![detection_loss::pattern()]))
}

/// Adds a pattern (tried after the earlier ones).
pub fn register_pattern(p: Pattern) {
    registry()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .push(p);
}

/// The registered patterns, in order.
pub fn patterns() -> Vec<Pattern> {
    registry().read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Applies every pattern to the ops of function `f`, last op first (roots are late); returns
/// the names of the patterns applied.
pub fn apply_patterns(ctx: &mut Context, f: OpId) -> Result<Vec<&'static str>, Diagnostic> {
    let Some(block) = FuncOp(f).entry_block(ctx) else {
        return Ok(Vec::new());
    };
    let pats = patterns();
    let mut applied = Vec::new();
    let mut op = ctx.last_op(block);
    while let Some(o) = op {
        let prev = ctx.prev_op(o);
        if let Some((p, m)) = pats
            .iter()
            .find_map(|p| (p.matcher)(ctx, o).map(|m| (p, m)))
        {
            (p.planner)(ctx, &m)?;
            applied.push(p.name);
            erase_dead(ctx, block);
            // The rewrite may have erased ops before `o`: start again from the end.
            op = ctx.last_op(block);
            continue;
        }
        op = prev;
    }
    Ok(applied)
}

/// Erases the unused pure ops of `block` (what a planner left behind), users first.
fn erase_dead(ctx: &mut Context, block: qd_ir::BlockId) {
    loop {
        let dead: Vec<OpId> = ctx
            .block_op_vec(block)
            .into_iter()
            .filter(|&o| {
                ctx.has_trait(o, qd_ir::OpTraits::PURE)
                    && ctx.num_results(o) > 0
                    && ctx.results(o).iter().all(|&r| !ctx.has_uses(r))
            })
            .collect();
        if dead.is_empty() {
            return;
        }
        for o in dead.into_iter().rev() {
            ctx.erase_op(o);
        }
    }
}
