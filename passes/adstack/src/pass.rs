//! The `determine-ad-stack-size` pass: sizes every `adstack.alloca` nested in the op it runs on,
//! and gives each a stable `id`, unique within its kernel ([`assign_stack_ids`]: 0, 1, 2... in
//! pre-order, unless the kernel's ids are all there and unique already), by which the runtime's
//! per-launch plan and every device find the stack.
//!
//! Phase 1 ([`crate::bellman_ford`]) gives the exact depth when no loop pushes more than it
//! pops; otherwise phase 2 ([`crate::size_expr_capture`]) captures a symbolic bound. Each alloca
//! gets `size_expr = #adstack.size<...>`, and `max_size` when the bound is a literal (a symbolic
//! one is evaluated at launch). A stack whose bound is outside the grammar is an error at the
//! alloca naming the value at fault, unless the option `ad-stack-size=N` forces every stack to
//! `N` entries. A stack `minimize-tape` elided (`primal_elided`) gets `max_size = 0` and no
//! `size_expr`, forced or not, and its id like any other.

use crate::bellman_ford::{Phase1, StackGraph};
use crate::index::SizingIndex;
use crate::size_expr_capture::capture;
use crate::value_bound::Unbounded;
use crate::walk::ops_named;
use qd_adstack::size_expr::SizeExpr;
use qd_adstack::{stack_id_of, AllocaOp, ALLOCA_OP, MAX_SIZE, SIZE_EXPR};
use qd_frontend::KERNEL_OP;
use qd_ir::{Context, Diagnostic, OpId, ValueDef};
use qd_pass::{OptionDecl, Pass, PassFailure, PassInfo, PassOutcome, PassResult, Statistic};
use std::collections::HashSet;

pub const PASS_NAME: &str = "determine-ad-stack-size";
const DESCRIPTION: &str =
    "Size every adstack: exact depth by Bellman-Ford on the CFG, else a symbolic SizeExpr bound";
/// The option that forces every stack's capacity.
pub const FORCE_OPTION: &str = "ad-stack-size";

pub fn determine_ad_stack_size_pass_info() -> PassInfo {
    PassInfo::new(PASS_NAME, DESCRIPTION, |opts| {
        let n = opts.get_uint(FORCE_OPTION);
        let forced = (n > 0)
            .then(|| i64::try_from(n).map_err(|_| format!("{FORCE_OPTION}={n} is too large")))
            .transpose()?;
        Ok(Box::new(DetermineAdStackSize::new(forced)))
    })
    .option(OptionDecl::uint(
        FORCE_OPTION,
        0,
        "give every adstack this capacity instead of sizing it (0: size each stack)",
    ))
}

/// The pass. `forced`: the capacity every stack gets instead of being sized.
#[derive(Default)]
pub struct DetermineAdStackSize {
    forced: Option<i64>,
    exact: u64,
    symbolic: u64,
    forced_count: u64,
}

impl DetermineAdStackSize {
    pub fn new(forced: Option<i64>) -> Self {
        DetermineAdStackSize {
            forced,
            ..Default::default()
        }
    }
}

/// The `adstack.alloca` ops of `scope` in pre-order, without those of kernels nested in it: the
/// stacks whose ids must be unique together.
pub fn kernel_allocas(ctx: &Context, scope: OpId) -> Vec<OpId> {
    ops_named(ctx, scope, ALLOCA_OP)
        .into_iter()
        .filter(|&o| ctx.num_results(o) == 1 && id_scope(ctx, o) == scope)
        .collect()
}

/// The op within which the id of `alloca` is unique: its nearest enclosing `qd.kernel`, else the
/// outermost op above it.
pub fn id_scope(ctx: &Context, alloca: OpId) -> OpId {
    let mut op = alloca;
    while let Some(p) = ctx.parent_op(op) {
        if ctx.name(p) == KERNEL_OP {
            return p;
        }
        op = p;
    }
    op
}

/// Two allocas of `scope` with the same id (the first two found in pre-order), and the id.
pub fn duplicate_stack_id(ctx: &Context, scope: OpId) -> Option<(OpId, OpId, u32)> {
    let mut seen: Vec<(u32, OpId)> = Vec::new();
    for a in kernel_allocas(ctx, scope) {
        let Some(id) = stack_id_of(ctx, a) else {
            continue;
        };
        if let Some(&(_, first)) = seen.iter().find(|(i, _)| *i == id) {
            return Some((first, a, id));
        }
        seen.push((id, a));
    }
    None
}

/// Gives the stacks of `scope` (a kernel) their ids: kept when every alloca has one and they are
/// unique, else 0, 1, 2... in pre-order. Devices and the runtime's per-launch plan find a stack
/// by its id, never by its position. Returns whether an id changed.
pub fn assign_stack_ids(ctx: &mut Context, scope: OpId) -> bool {
    let allocas = kernel_allocas(ctx, scope);
    assign_ids(ctx, &allocas)
}

/// [`assign_stack_ids`] on `allocas`, the stacks of one scope in pre-order.
fn assign_ids(ctx: &mut Context, allocas: &[OpId]) -> bool {
    let mut seen = HashSet::new();
    let keep = allocas
        .iter()
        .all(|&a| stack_id_of(ctx, a).is_some_and(|id| seen.insert(id)));
    if keep {
        return false;
    }
    let mut changed = false;
    for (i, &a) in allocas.iter().enumerate() {
        let id = u32::try_from(i).unwrap_or(u32::MAX);
        if stack_id_of(ctx, a) != Some(id) {
            AllocaOp(a).set_id(ctx, id);
            changed = true;
        }
    }
    changed
}

/// The bound of the stack `alloca` defines: phase 1's exact depth (and `true`), else phase 2's
/// expression (and `false`); an error diagnostic when it is outside the grammar.
pub fn stack_bound(ctx: &Context, alloca: OpId) -> Result<(SizeExpr, bool), Diagnostic> {
    stack_bound_in(ctx, alloca, &SizingIndex::around(ctx, alloca))
}

/// [`stack_bound`] with the index of a scope that holds `alloca` (one for all its stacks).
fn stack_bound_in(
    ctx: &Context,
    alloca: OpId,
    index: &SizingIndex,
) -> Result<(SizeExpr, bool), Diagnostic> {
    if ctx.name(alloca) != ALLOCA_OP || ctx.num_results(alloca) != 1 {
        return Err(Diagnostic::error(
            ctx.loc(alloca),
            format!(
                "'{}' is not an adstack.alloca with one result",
                ctx.name(alloca)
            ),
        ));
    }
    let graph = StackGraph::new(ctx, alloca, index);
    let (e, exact) = match graph.max_depth() {
        Phase1::Exact(n) => (SizeExpr::constant(n.min(i64::MAX as u64) as i64), true),
        Phase1::Unbounded => capture(ctx, alloca, index, &graph)
            .map(|e| (e.tidy(), false))
            .map_err(|u| diagnostic(ctx, alloca, &u))?,
    };
    // Every construction keeps the invariants; a bound that broke one would fail at launch, so
    // it is reported here instead.
    e.validate().map_err(|m| {
        Diagnostic::error(
            ctx.loc(alloca),
            format!("internal error: the captured adstack bound {e} is invalid: {m}"),
        )
    })?;
    Ok((e, exact))
}

impl Pass for DetermineAdStackSize {
    fn name(&self) -> &'static str {
        PASS_NAME
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        let allocas: Vec<OpId> = ops_named(ctx, op, ALLOCA_OP)
            .into_iter()
            .filter(|&o| ctx.num_results(o) == 1)
            .collect();
        let mut sized = Vec::with_capacity(allocas.len());
        // Built once, for every stack; nothing changes the IR until every stack is sized.
        let index =
            (self.forced.is_none() && !allocas.is_empty()).then(|| SizingIndex::new(ctx, op));
        let mut errors = Vec::new();
        let mut changed = false;
        for &a in &allocas {
            // A stack minimize-tape elided keeps no entries: no bound, capacity 0, even forced.
            if AllocaOp(a).is_primal_elided(ctx) {
                changed |= ctx.remove_prop(a, SIZE_EXPR).is_some();
                let i64t = ctx.i64_type();
                let zero = ctx.integer_attr(0, i64t);
                changed |= ctx.prop(a, MAX_SIZE) != Some(zero);
                ctx.set_prop(a, MAX_SIZE, zero);
                continue;
            }
            let r = match self.forced {
                Some(n) => {
                    self.forced_count += 1;
                    Ok(SizeExpr::constant(n))
                }
                None => stack_bound_in(ctx, a, index.as_ref().expect("built unless forced")).map(
                    |(e, exact)| {
                        if exact {
                            self.exact += 1;
                        } else {
                            self.symbolic += 1;
                        }
                        e
                    },
                ),
            };
            match r {
                Ok(e) => sized.push((a, e)),
                Err(d) => errors.push(d),
            }
        }
        if !errors.is_empty() {
            for d in errors {
                ctx.emit(d);
            }
            return Err(PassFailure);
        }
        // Ids first: each kernel's stacks, numbered over the whole kernel.
        let scope_of: Vec<OpId> = allocas.iter().map(|&a| id_scope(ctx, a)).collect();
        let mut scopes: Vec<OpId> = Vec::new();
        for &scope in &scope_of {
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        for scope in scopes {
            changed |= if scope == op {
                // The usual case (the pass runs on a kernel): its stacks are those found above
                // whose scope it is, in the same pre-order; no second walk of the kernel.
                let own: Vec<OpId> = (allocas.iter().zip(&scope_of))
                    .filter(|&(_, &s)| s == op)
                    .map(|(&a, _)| a)
                    .collect();
                assign_ids(ctx, &own)
            } else {
                assign_stack_ids(ctx, scope)
            };
        }
        for (a, e) in sized {
            let attr = e.to_attr(ctx);
            changed |= ctx.prop(a, SIZE_EXPR) != Some(attr);
            ctx.set_prop(a, SIZE_EXPR, attr);
            match e.as_const() {
                Some(c) => {
                    let i64t = ctx.i64_type();
                    let n = ctx.integer_attr(c.max(0), i64t);
                    changed |= ctx.prop(a, MAX_SIZE) != Some(n);
                    ctx.set_prop(a, MAX_SIZE, n);
                }
                None => changed |= ctx.remove_prop(a, MAX_SIZE).is_some(),
            }
        }
        Ok(PassOutcome::changed(changed))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-exact",
                description: "Number of stacks sized exactly by Bellman-Ford",
                value: self.exact,
            },
            Statistic {
                name: "num-symbolic",
                description: "Number of stacks sized by a captured SizeExpr",
                value: self.symbolic,
            },
            Statistic {
                name: "num-forced",
                description: "Number of stacks given the forced ad-stack-size",
                value: self.forced_count,
            },
        ]
    }
}

/// The error for a stack that cannot be sized, at the alloca, with a note at the value.
fn diagnostic(ctx: &Context, alloca: OpId, u: &Unbounded) -> Diagnostic {
    let mut root = alloca;
    while let Some(p) = ctx.parent_op(root) {
        root = p;
    }
    let hint = format!("(force a size with the pass option {FORCE_OPTION}=N)");
    match u.value {
        Some(v) => {
            let name = qd_ir::text::value_name(ctx, root, v);
            let source = match ctx.value_def(v) {
                ValueDef::OpResult { op, .. } => format!("the result of '{}'", ctx.name(op)),
                ValueDef::BlockArg { block, index } => match ctx.block_parent_op(block) {
                    Some(o) => format!("argument {index} of '{}'", ctx.name(o)),
                    None => format!("block argument {index}"),
                },
            };
            Diagnostic::error(
                ctx.loc(alloca),
                format!(
                    "cannot size this adstack: {name} ({source}) cannot be bounded: {} {hint}",
                    u.reason
                ),
            )
            .with_note(ctx.value_loc(v), format!("{name} is defined here"))
        }
        None => {
            let at = u.op.map(|o| ctx.loc(o)).unwrap_or(ctx.loc(alloca));
            let what =
                u.op.map(|o| format!(" ('{}')", ctx.name(o)))
                    .unwrap_or_default();
            Diagnostic::error(
                ctx.loc(alloca),
                format!("cannot size this adstack: {}{what} {hint}", u.reason),
            )
            .with_note(at, "here")
        }
    }
}
