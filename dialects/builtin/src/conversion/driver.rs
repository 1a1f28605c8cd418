//! The conversion driver: [`apply_partial_conversion`], [`apply_full_conversion`] and
//! [`apply_analysis_conversion`] (MLIR's dialect conversion, without rollback).
//!
//! Ops are visited in pre-order (the root too, when it sits in a block; the final legality check
//! always covers it). A legal op is left (its nested ops are still visited); any
//! other is offered to the patterns rooted at its name (or at any op), in the given order, with
//! its converted operands. The ops a pattern inserts are legalized right away, before the next
//! original op, and never by a pattern already converting one of their creators (MLIR's guard
//! against unbounded recursion). Afterwards, the `unrealized_conversion_cast`s the driver built
//! are reconciled: unused ones are erased and a cast of a cast back to the original types folds
//! away.
//!
//! Partial conversion fails on an op left that is explicitly (or dynamically) illegal; full
//! conversion on any op left that is not legal, and on a cast still live. Each failure is a
//! located error in the Context's diagnostics; the first is returned. There is no rollback: on
//! failure the IR holds what the patterns did, and a pattern that fails must leave the IR as it
//! found it (the driver reports one that does not).

use super::pattern::ConversionPattern;
use super::rewriter::{ConversionRewriter, ConversionState};
use super::target::ConversionTarget;
use super::type_converter::TypeConverter;
use crate::builtin::UNREALIZED_CONVERSION_CAST;
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::entity::{OpId, OpName, Value};
use crate::fast_hash::{FastMap, FastSet};
use crate::mapping::IRMapping;
use crate::rewrite::{RecordingListener, RewriteEvent};
use crate::text::type_to_string;
use std::rc::Rc;

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConversionResult {
    /// Successful pattern applications.
    pub rewrites: usize,
    /// Materialization casts erased or folded away at the end.
    pub casts_removed: usize,
    /// Materialization casts still in the IR (only a partial conversion may leave some).
    pub casts_left: usize,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Mode {
    Partial,
    Full,
    Analysis,
}

/// Converts what the patterns can; fails if an op that the target marks illegal is left.
/// Ops of unknown legality may stay.
pub fn apply_partial_conversion(
    ctx: &mut Context,
    root: OpId,
    target: &ConversionTarget,
    patterns: &[Box<dyn ConversionPattern>],
    converter: &TypeConverter,
) -> Result<ConversionResult, Diagnostic> {
    run(ctx, root, target, patterns, converter, Mode::Partial).map(|(r, _)| r)
}

/// Converts every op nested in `root` (and `root`) to legal ops; fails if any op left is not
/// legal.
pub fn apply_full_conversion(
    ctx: &mut Context,
    root: OpId,
    target: &ConversionTarget,
    patterns: &[Box<dyn ConversionPattern>],
    converter: &TypeConverter,
) -> Result<ConversionResult, Diagnostic> {
    run(ctx, root, target, patterns, converter, Mode::Full).map(|(r, _)| r)
}

/// The ops nested in `root` (and `root`) that are legal or that a pattern converts, in
/// pre-order, without changing the IR: the conversion runs on a clone, which is then erased.
/// Errors are only a pattern's misbehaviour.
pub fn apply_analysis_conversion(
    ctx: &mut Context,
    root: OpId,
    target: &ConversionTarget,
    patterns: &[Box<dyn ConversionPattern>],
    converter: &TypeConverter,
) -> Result<Vec<OpId>, Diagnostic> {
    let originals = ctx.walk_pre_order(root);
    let mut map = IRMapping::new();
    let copy = ctx.clone_op(root, &mut map);
    // A scratch block holds the copy, so that patterns can insert next to it.
    let (_, scratch) = ctx.create_region_with_block(&[]);
    ctx.append_op(scratch, copy);
    let mut legal = Vec::new();
    for &o in &originals {
        if target.is_legal(ctx, o) {
            legal.push(o);
        }
    }
    let result = run(ctx, copy, target, patterns, converter, Mode::Analysis);
    for o in ctx.block_op_vec(scratch).into_iter().rev() {
        ctx.erase_op(o);
    }
    let (_, converted) = result?;
    let legal: FastSet<OpId> = legal.into_iter().collect();
    Ok(originals
        .into_iter()
        .filter(|&o| legal.contains(&o) || map.lookup(o).is_some_and(|c| converted.contains(&c)))
        .collect())
}

/// The target's legality of ops, decided once per op name where no dynamic rule applies (the
/// driver asks for every op it visits, and again for every op at the end).
struct Legalities<'t> {
    target: &'t ConversionTarget,
    /// By op name index: None not asked yet, Some(None) dynamic, Some(Some(l)) always `l`.
    by_name: Vec<Option<Option<Option<bool>>>>,
}

impl<'t> Legalities<'t> {
    fn new(target: &'t ConversionTarget) -> Self {
        Legalities {
            target,
            by_name: Vec::new(),
        }
    }

    /// As [`ConversionTarget::legality`].
    fn legality(&mut self, ctx: &Context, op: OpId) -> Option<bool> {
        let name = ctx.op_name_of(op);
        let i = name.index();
        if i >= self.by_name.len() {
            self.by_name.resize(i + 1, None);
        }
        let target = self.target;
        let fixed =
            *self.by_name[i].get_or_insert_with(|| target.legality_of_name(ctx.op_name_str(name)));
        match fixed {
            Some(l) => l,
            None => target.legality(ctx, op),
        }
    }

    fn is_legal(&mut self, ctx: &Context, op: OpId) -> bool {
        self.legality(ctx, op) == Some(true)
    }
}

/// An op waiting to be legalized, with the patterns that created it (not to be reapplied;
/// shared by the ops one application inserted).
struct Pending {
    op: OpId,
    active: Option<Rc<[usize]>>,
}

fn run(
    ctx: &mut Context,
    root: OpId,
    target: &ConversionTarget,
    patterns: &[Box<dyn ConversionPattern>],
    converter: &TypeConverter,
    mode: Mode,
) -> Result<(ConversionResult, FastSet<OpId>), Diagnostic> {
    let mut state = ConversionState::default();
    let mut result = ConversionResult::default();
    // Only the analysis driver reports which ops were converted.
    let mut converted = FastSet::default();
    let ops = ctx.walk_pre_order(root);
    let skip_root = ctx.parent_block(root).is_none();
    // The walk's ops are taken in order, each after the ops the patterns inserted so far, which
    // wait on a stack of their own: a copy of the walk as one stack of `Pending`s was 24 bytes
    // an op of fresh memory (at a million ops, a page fault per 170 ops) for a conversion that
    // may rewrite few of them.
    let mut walk = ops.iter().copied().filter(|&o| o != root || !skip_root);
    let mut stack: Vec<Pending> = Vec::new();
    // The patterns that may apply to each op name, in order (found once per name, not by
    // comparing every pattern's root with every op's name).
    let mut by_name: FastMap<OpName, Rc<[usize]>> = FastMap::default();
    let mut rec = RecordingListener::default();
    let mut seen = FastSet::default();
    let mut legalities = Legalities::new(target);
    while let Some(Pending { op, active }) = stack
        .pop()
        .or_else(|| walk.next().map(|op| Pending { op, active: None }))
    {
        if !ctx.is_alive(op) || state.is_cast(ctx, op) || legalities.is_legal(ctx, op) {
            continue;
        }
        let name = ctx.op_name_of(op);
        let candidates = by_name
            .entry(name)
            .or_insert_with(|| {
                let s = ctx.op_name_str(name);
                (0..patterns.len())
                    .filter(|&k| patterns[k].root().is_none_or(|r| r == s))
                    .collect()
            })
            .clone();
        for &k in candidates.iter() {
            if active.as_deref().is_some_and(|a| a.contains(&k)) {
                continue;
            }
            let p = &patterns[k];
            let mark = state.casts.len();
            rec.events.clear();
            let ok = {
                let mut rw = ConversionRewriter::new(ctx, &mut rec, &mut state, converter);
                let operands = rw.adaptor(op);
                p.match_and_rewrite(op, &operands, &mut rw)
            };
            if !ok {
                let adaptor_casts: Vec<OpId> = state.casts.drain(mark..).collect();
                let misbehaved = rec.events.iter().any(|e| match e {
                    RewriteEvent::Inserted(o) => !adaptor_casts.contains(o),
                    _ => true,
                });
                for c in adaptor_casts.into_iter().rev() {
                    state.cast_set.remove(&c);
                    if ctx.is_alive(c) && !ctx.has_uses(ctx.result(c, 0)) {
                        ctx.erase_op(c);
                    }
                }
                if misbehaved {
                    let d = Diagnostic::error(
                        ctx.loc(op),
                        format!(
                            "pattern '{}' changed the IR and then failed on '{}'",
                            p.name(),
                            ctx.op_name_str(name)
                        ),
                    );
                    ctx.emit(d.clone());
                    return Err(d);
                }
                continue;
            }
            result.rewrites += 1;
            if mode == Mode::Analysis {
                converted.insert(op);
            }
            seen.clear();
            let inserted: Vec<OpId> = rec
                .events
                .iter()
                .filter_map(|e| match e {
                    RewriteEvent::Inserted(o) if !state.is_cast(ctx, *o) => Some(*o),
                    _ => None,
                })
                .filter(|o| seen.insert(*o))
                .collect();
            if !inserted.is_empty() {
                let mut chain = active.as_deref().unwrap_or(&[]).to_vec();
                chain.push(k);
                let chain: Rc<[usize]> = chain.into();
                for o in inserted.into_iter().rev() {
                    stack.push(Pending {
                        op: o,
                        active: Some(chain.clone()),
                    });
                }
            }
            break;
        }
    }
    reconcile_casts(ctx, &mut state, &mut result);
    if mode == Mode::Analysis {
        return Ok((result, converted));
    }
    let mut errors = Vec::new();
    if ctx.is_alive(root) {
        for op in ctx.walk_pre_order(root) {
            let message = if state.is_cast(ctx, op) {
                if mode != Mode::Full || legalities.is_legal(ctx, op) {
                    continue;
                }
                unresolved_cast_message(ctx, op)
            } else {
                match (mode, legalities.legality(ctx, op)) {
                    (_, Some(true)) | (Mode::Partial, None) => continue,
                    (Mode::Partial, Some(false)) => format!(
                        "failed to legalize operation '{}' that was explicitly marked illegal",
                        ctx.name(op)
                    ),
                    _ => format!("failed to legalize operation '{}'", ctx.name(op)),
                }
            };
            errors.push(Diagnostic::error(ctx.loc(op), message));
        }
    }
    let Some(first) = errors.first().cloned() else {
        return Ok((result, converted));
    };
    for e in errors {
        ctx.emit(e);
    }
    Err(first)
}

fn unresolved_cast_message(ctx: &Context, op: OpId) -> String {
    let list = |vs: Vec<Value>| {
        vs.into_iter()
            .map(|v| type_to_string(ctx, ctx.value_type(v)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "failed to legalize unresolved materialization from ({}) to ({}) that remained live after conversion",
        list(ctx.operand_vec(op)),
        list(ctx.results(op).to_vec())
    )
}

/// Erases unused driver casts and folds `cast(cast(x : A) : B) : A` to `x`, to a fixed point.
fn reconcile_casts(ctx: &mut Context, state: &mut ConversionState, result: &mut ConversionResult) {
    let mut changed = true;
    while changed {
        changed = false;
        for &c in state.casts.iter().rev() {
            if !ctx.is_alive(c) {
                continue;
            }
            let results = ctx.results(c).to_vec();
            if results.iter().all(|&r| !ctx.has_uses(r)) {
                ctx.erase_op(c);
                result.casts_removed += 1;
                changed = true;
                continue;
            }
            if let Some((inner, inputs)) = fold_cast_of_cast(ctx, c) {
                for (r, i) in results.into_iter().zip(inputs) {
                    ctx.replace_all_uses_with(r, i);
                }
                ctx.erase_op(c);
                result.casts_removed += 1;
                // The inner cast may be another run's: erase it here once it is dead.
                if ctx.results(inner).iter().all(|&r| !ctx.has_uses(r)) {
                    ctx.erase_op(inner);
                    result.casts_removed += 1;
                }
                changed = true;
            }
        }
    }
    state.casts.retain(|&c| ctx.is_alive(c));
    state.cast_set = state.casts.iter().copied().collect();
    result.casts_left = state.casts.len();
}

/// When `c` takes exactly the results of another cast, whose inputs have `c`'s result types:
/// that cast and its inputs.
fn fold_cast_of_cast(ctx: &Context, c: OpId) -> Option<(OpId, Vec<Value>)> {
    let operands = ctx.operand_vec(c);
    let inner = ctx.defining_op(*operands.first()?)?;
    if ctx.name(inner) != UNREALIZED_CONVERSION_CAST || ctx.results(inner) != operands.as_slice() {
        return None;
    }
    let inputs = ctx.operand_vec(inner);
    let same = inputs.len() == ctx.num_results(c)
        && inputs
            .iter()
            .zip(ctx.results(c))
            .all(|(&i, &r)| ctx.value_type(i) == ctx.value_type(r));
    same.then_some((inner, inputs))
}
