//! The `reverse-mode-ad` pass: picks the kernels, builds each gradient kernel (segment by
//! segment, see the crate docs) and records it in the module's `ad.reverse` declaration.

use crate::activity::Activity;
use crate::element::{Aggregates, ElementPlan};
use crate::emitter::{Anchor, Emitter, Facts};
use crate::field_set::FieldSet;
use crate::stacks::stacked_locals;
use crate::structure::{groups, kernel_ops, outside_parallel, write_of, Group, Jumps};
use qd_ad::{default_activity, gradient_arg_types, reverse_decls, ReverseOp};
use qd_frontend::{global_write, AtomicKind, GlobalWrite, WriteKind, WriteTarget};
use qd_frontend::{lookup_field_in, STRUCT_FOR_OP};
use qd_frontend::{KernelOp, RangeForOp, StructForOp, LOAD_OP, NDARRAY_LOAD_OP};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{BlockId, Builder, Context, Diagnostic, InsertPoint, OpId, Value};
use qd_pass::{
    OptionDecl, ParsedOptions, Pass, PassFailure, PassInfo, PassOutcome, PassResult, Statistic,
};
use std::collections::{HashMap, HashSet};

pub const PASS_NAME: &str = "reverse-mode-ad";
const DESCRIPTION: &str =
    "Build the reverse-mode gradient kernel @NAME_grad of each differentiable kernel";

/// The registry entry of `reverse-mode-ad`.
pub fn reverse_mode_ad_pass_info() -> PassInfo {
    PassInfo::new(PASS_NAME, DESCRIPTION, create)
        .option(OptionDecl::string_list(
            "kernels",
            "the kernels to differentiate (default: every kernel with an ad.reverse declaration or that reads and writes differentiable data)",
        ))
        .option(OptionDecl::string(
            "aggregates",
            "element",
            "how local arrays and structs are differentiated: 'element' (element-addressed loads and stores, only overwritten scalars saved) or 'ssa' (the naive whole-aggregate value, saved whole at every store; for comparison)",
        ))
}

fn create(opts: &ParsedOptions) -> Result<Box<dyn Pass>, String> {
    let aggregates = opts.get_string("aggregates");
    let Some(aggregates) = Aggregates::parse(aggregates) else {
        return Err(format!(
            "reverse-mode-ad: aggregates='{aggregates}' is not a mode; use 'element' (element-addressed, the default) or 'ssa' (whole-aggregate values)"
        ));
    };
    Ok(Box::new(ReverseModeAdPass {
        options: Options {
            kernels: opts.get_list("kernels").to_vec(),
            aggregates,
        },
        ..Default::default()
    }))
}

/// The pass's options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Kernels to differentiate; empty for the default choice.
    pub kernels: Vec<String>,
    /// How local arrays and structs are differentiated.
    pub aggregates: Aggregates,
}

/// What one run produced, per gradient kernel: (primal kernel, gradient kernel, adstacks).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub gradients: Vec<(String, String, usize)>,
}

#[derive(Default)]
pub struct ReverseModeAdPass {
    options: Options,
    num_kernels: u64,
    num_stacks: u64,
}

impl Pass for ReverseModeAdPass {
    fn name(&self) -> &'static str {
        PASS_NAME
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn display_name(&self) -> String {
        "ReverseModeAD".into()
    }
    fn anchor(&self) -> Option<&'static str> {
        Some("builtin.module")
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        let report = reverse_mode_ad(ctx, op, &self.options)?;
        self.num_kernels += report.gradients.len() as u64;
        self.num_stacks += report.gradients.iter().map(|g| g.2 as u64).sum::<u64>();
        Ok(PassOutcome::changed(!report.gradients.is_empty()))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-gradient-kernels",
                description: "Number of gradient kernels built",
                value: self.num_kernels,
            },
            Statistic {
                name: "num-adstacks",
                description: "Number of adstacks in the gradient kernels",
                value: self.num_stacks,
            },
        ]
    }
}

/// Runs reverse-mode AD on `module` (a `builtin.module`). Errors are emitted into the context;
/// `Err` when there was any (kernels that could be differentiated still are).
pub fn reverse_mode_ad(
    ctx: &mut Context,
    module: OpId,
    options: &Options,
) -> Result<Report, PassFailure> {
    let Some(body) = ctx
        .regions(module)
        .first()
        .and_then(|&r| ctx.entry_block(r))
    else {
        return Ok(Report::default());
    };
    // Looked up per kernel, so built once: the declaration of each kernel (the first, as
    // `qd_ad::find_reverse`).
    let mut decls: HashMap<String, ReverseOp> = HashMap::new();
    for d in reverse_decls(ctx, body) {
        decls.entry(d.kernel_name(ctx)).or_insert(d);
    }
    // Field lookups (per struct_for) resolve through tables built once (fields do not change),
    // the module's among them, which also answers whether a gradient kernel's name is taken and
    // gains each gradient kernel as it is made.
    let mut symbols = SymbolTableCollection::new();
    let needs_grad = FieldSet::of_module(ctx, symbols.table(ctx, module), body);
    let kernels = match select(ctx, module, body, options, &needs_grad, &decls) {
        Ok(k) => k,
        Err(d) => {
            for d in d {
                ctx.emit(d);
            }
            return Err(PassFailure);
        }
    };
    let mut report = Report::default();
    let mut failed = false;
    for k in kernels {
        let decl = decls.get(k.name(ctx)).copied();
        match differentiate(
            ctx,
            module,
            &mut symbols,
            decl,
            k,
            &needs_grad,
            options.aggregates,
        ) {
            Ok(entry) => report.gradients.push(entry),
            Err(diags) => {
                failed = true;
                for d in diags {
                    ctx.emit(d);
                }
            }
        }
    }
    if failed {
        Err(PassFailure)
    } else {
        Ok(report)
    }
}

/// The kernels to differentiate, in module order.
fn select(
    ctx: &Context,
    module: OpId,
    body: BlockId,
    options: &Options,
    needs_grad: &FieldSet,
    decls: &HashMap<String, ReverseOp>,
) -> Result<Vec<KernelOp>, Vec<Diagnostic>> {
    let kernels: Vec<KernelOp> = ctx
        .block_ops(body)
        .filter_map(|o| KernelOp::from_op(ctx, o))
        .collect();
    let gradients: HashSet<String> = reverse_decls(ctx, body)
        .iter()
        .filter_map(|d| d.gradient_name(ctx))
        .collect();
    let done = |k: KernelOp| {
        decls
            .get(k.name(ctx))
            .is_some_and(|d| d.gradient_name(ctx).is_some())
    };
    if !options.kernels.is_empty() {
        let mut out = Vec::new();
        let mut errs = Vec::new();
        for name in &options.kernels {
            match kernels.iter().find(|k| k.name(ctx) == name) {
                Some(&k) if !done(k) => out.push(k),
                Some(_) => {}
                None => errs.push(Diagnostic::error(
                    ctx.loc(module),
                    format!("reverse-mode-ad: no kernel named @{name} (given in kernels=)"),
                )),
            }
        }
        return if errs.is_empty() { Ok(out) } else { Err(errs) };
    }
    Ok(kernels
        .into_iter()
        .filter(|&k| {
            let name = k.name(ctx);
            if gradients.contains(name) || done(k) {
                return false;
            }
            decls.contains_key(name) || interacts(ctx, k, needs_grad)
        })
        .collect())
}

/// Whether a kernel reads and writes differentiable data (needs_grad fields, float ndarrays).
fn interacts(ctx: &Context, k: KernelOp, needs_grad: &FieldSet) -> bool {
    let arrays = active_arrays(ctx, k, &default_activity(ctx, &k.arg_types(ctx)));
    let (mut reads, mut writes) = (false, false);
    for op in kernel_ops(ctx, k) {
        if let Some((_, array)) = write_of(ctx, op) {
            writes |= match array {
                None => needs_grad.has_field_of(ctx, op),
                Some(a) => arrays.contains(&a),
            };
            continue;
        }
        match ctx.name(op) {
            LOAD_OP => reads |= needs_grad.has_field_of(ctx, op),
            NDARRAY_LOAD_OP => reads |= arrays.contains(&ctx.operand(op, 0)),
            _ => {}
        }
    }
    reads && writes
}

/// Whether `w` writes differentiable memory: a needs_grad field or an active ndarray.
fn differentiable(
    ctx: &Context,
    w: &GlobalWrite,
    needs_grad: &FieldSet,
    arrays: &HashSet<Value>,
) -> bool {
    match w.target {
        WriteTarget::Field(_) => needs_grad.has_field_of(ctx, w.op),
        WriteTarget::Ndarray(a) => arrays.contains(&a),
    }
}

/// The kernel's ndarray arguments marked active.
fn active_arrays(ctx: &Context, k: KernelOp, activity: &[bool]) -> HashSet<Value> {
    k.args(ctx)
        .into_iter()
        .zip(activity)
        .filter(|(_, &a)| a)
        .map(|(v, _)| v)
        .collect()
}

/// Builds `@NAME_grad` for kernel `k`; returns (name, gradient name, adstacks).
fn differentiate(
    ctx: &mut Context,
    module: OpId,
    symbols: &mut SymbolTableCollection,
    decl: Option<ReverseOp>,
    k: KernelOp,
    needs_grad: &FieldSet,
    aggregates: Aggregates,
) -> Result<(String, String, usize), Vec<Diagnostic>> {
    // Element and member accesses of local aggregates become addressed loads and stores.
    crate::element_access::rewrite_element_accesses(ctx, k.0);
    let name = k.name(ctx).to_string();
    let arg_types = k.arg_types(ctx);
    let activity = match decl {
        Some(d) => d.activity(ctx, &arg_types),
        None => default_activity(ctx, &arg_types),
    };
    let arrays = active_arrays(ctx, k, &activity);
    // The kernel's ops, walked once for every analysis (the walk of a million-op kernel's
    // nested regions is a cache miss per op).
    let ops = kernel_ops(ctx, k);
    let mut diags = crate::global_rules::check(ctx, k, &ops);
    let act = Activity::compute(ctx, &ops, needs_grad, &arrays);
    diags.extend(crate::access_rule::check(ctx, k, &ops, &act));
    diags.extend(check_active_uses(ctx, k, &ops, &act, needs_grad, &arrays));
    let elements = match crate::element::plan(ctx, &ops, &act, aggregates) {
        Ok(p) => p,
        Err(d) => {
            diags.extend(d);
            ElementPlan::default()
        }
    };
    let grad_name = format!("{name}_grad");
    if symbols.table_mut(ctx, module).contains(ctx, &grad_name) {
        diags.push(Diagnostic::error(
            ctx.loc(k.0),
            format!("reverse-mode-ad: cannot name the gradient kernel of @{name}: the symbol @{grad_name} already exists"),
        ));
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    // The gradient kernel, right after the primal one.
    let loc = ctx.loc(k.0);
    let grad_types = gradient_arg_types(&arg_types, &activity);
    let grad = {
        let mut b = Builder::new(ctx, InsertPoint::After(k.0));
        KernelOp::build(&mut b, &grad_name, &grad_types, loc)
    };
    symbols
        .table_mut(ctx, module)
        .insert(ctx, &grad_name, grad.0);
    let gbody = grad.ensure_body(ctx);
    // A kernel whose body is an empty region computes nothing: its gradient is empty too.
    let stacks = match k.body(ctx) {
        Some(kbody) => emit_gradient(
            ctx, symbols, k, &ops, kbody, grad, gbody, act, elements, needs_grad, &activity,
        ),
        None => 0,
    };
    // Record the gradient kernel in the declaration (made when missing).
    let decl = match decl {
        Some(d) => d,
        None => {
            let mut b = Builder::new(ctx, InsertPoint::After(grad.0));
            ReverseOp::build(&mut b, &name, loc)
        }
    };
    decl.set_gradient(ctx, &grad_name);
    decl.set_active(ctx, &activity);
    Ok((name, grad_name, stacks))
}

/// Fills gradient kernel `grad` of kernel `k`; returns the number of adstacks.
#[allow(clippy::too_many_arguments)]
fn emit_gradient(
    ctx: &mut Context,
    fields: &mut SymbolTableCollection,
    k: KernelOp,
    ops: &[OpId],
    kbody: BlockId,
    grad: KernelOp,
    gbody: BlockId,
    act: Activity,
    elements: ElementPlan,
    needs_grad: &FieldSet,
    activity: &[bool],
) -> usize {
    let struct_for_shapes = ops
        .iter()
        .copied()
        .filter(|&o| ctx.name(o) == STRUCT_FOR_OP)
        .map(|o| {
            let name = StructForOp(o).field_name(ctx).to_string();
            let shape = lookup_field_in(ctx, fields, o, &name).map(|f| f.shape(ctx));
            (o, shape.unwrap_or_default())
        })
        .collect();
    let facts = Facts {
        body: kbody,
        needs_grad,
        struct_for_shapes,
        stacked: stacked_locals(ctx, ops, &act),
        act,
        jumps: Jumps::analyze(ctx, ops),
        elements,
    };
    let mut em = Emitter::new(&facts, gbody);
    let gargs = grad.args(ctx);
    let kargs = k.args(ctx);
    for (i, &a) in kargs.iter().enumerate() {
        em.fwd.insert(a, gargs[i]);
    }
    let mut adj = kargs.len();
    for (i, &a) in kargs.iter().enumerate() {
        if activity.get(i).copied().unwrap_or(false) {
            em.adj_arrays.insert(a, gargs[adj]);
            adj += 1;
        }
    }
    emit_kernel(ctx, &mut em, kbody, gbody);
    let stacks = em.num_stacks;
    crate::cleanup::remove_dead(ctx, grad.0);
    stacks
}

/// Fills the gradient kernel: the loose statements' forward replay (the prologue), then each
/// top-level group reversed, last group first.
fn emit_kernel(ctx: &mut Context, em: &mut Emitter<'_>, kbody: BlockId, gbody: BlockId) {
    let groups = groups(ctx, kbody);
    em.push_scope(Some(kbody), gbody);
    for g in &groups {
        if let Group::Loose(ops) = g {
            em.replay_ops(ctx, ops, gbody);
        }
    }
    for g in groups.iter().rev() {
        match g {
            Group::Loose(ops) => em.reverse_ops(ctx, ops),
            Group::Parallel(p) => emit_parallel(ctx, em, *p, gbody),
        }
    }
    em.pop_scope();
}

/// A parallel loop: the same loop, whose body replays the original body and then reverses it.
fn emit_parallel(ctx: &mut Context, em: &mut Emitter<'_>, p: OpId, gbody: BlockId) {
    let loc = ctx.loc(p);
    let (orig_body, new_body) = if let Some(r) = RangeForOp::from_op(ctx, p) {
        let (lo, hi) = (em.fwd(r.lower(ctx)), em.fwd(r.upper(ctx)));
        let mut b = Builder::at_end(ctx, gbody);
        let n = RangeForOp::build(&mut b, lo, hi, loc);
        em.fwd.insert(r.induction_var(ctx), n.induction_var(ctx));
        (r.body(ctx), n.body(ctx))
    } else {
        let s = StructForOp(p);
        let Some(ob) = s.body(ctx) else {
            return;
        };
        let field = s.field_name(ctx).to_string();
        let ivs = s.induction_vars(ctx);
        let mut b = Builder::at_end(ctx, gbody);
        let n = StructForOp::build(&mut b, &field, ivs.len(), loc);
        for (o, nv) in ivs.into_iter().zip(n.induction_vars(ctx)) {
            em.fwd.insert(o, nv);
        }
        let nb = n.ensure_body(ctx);
        (ob, nb)
    };
    let saved = (em.hoist, em.seg_root);
    em.hoist = Anchor::new(new_body);
    em.seg_root = orig_body;
    em.replay_block(ctx, orig_body, new_body);
    em.push_scope(Some(orig_body), new_body);
    let ops = ctx.block_op_vec(orig_body);
    em.reverse_ops(ctx, &ops);
    em.pop_scope();
    (em.hoist, em.seg_root) = saved;
}

/// Errors that depend on activity: non-differentiable writes of active values (atomic min/max
/// into needs_grad fields and active ndarrays), and active
/// values that cross from the kernel's top level into a parallel loop.
fn check_active_uses(
    ctx: &Context,
    k: KernelOp,
    ops: &[OpId],
    act: &Activity,
    needs_grad: &FieldSet,
    arrays: &HashSet<Value>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let outside = outside_parallel(ctx, k);
    for &op in ops {
        // Atomic min and max pick one contribution: no derivative into differentiable memory.
        let picks = |w: &GlobalWrite| {
            matches!(
                w.kind,
                WriteKind::Atomic(AtomicKind::Min) | WriteKind::Atomic(AtomicKind::Max)
            ) && differentiable(ctx, w, needs_grad, arrays)
                && act.is_active(w.value)
        };
        if let Some(w) = global_write(ctx, op).filter(picks) {
            let what = match w.target {
                WriteTarget::Field(f) => format!(
                    "needs_grad field @{f} is not differentiable; reverse-mode-ad supports qd.store and qd.atomic_add into differentiable fields"
                ),
                WriteTarget::Ndarray(_) => "a differentiable ndarray is not differentiable; reverse-mode-ad supports qd.ndarray_store, qd.ndarray_atomic_add and qd.ndarray_atomic_sub into differentiable ndarrays".to_string(),
            };
            out.push(Diagnostic::error(
                ctx.loc(op),
                format!("'{}' on {what}", ctx.name(op)),
            ));
        }
        if outside.contains(op) {
            for &r in ctx.results(op) {
                if act.is_active(r) && ctx.users(r).any(|u| !outside.contains(u)) {
                    out.push(Diagnostic::error(
                        ctx.loc(op),
                        "this differentiable value is computed at the kernel's top level and used inside a parallel loop; compute it inside the loop (its adjoint would be accumulated by every thread)",
                    ));
                }
            }
        }
    }
    out
}
