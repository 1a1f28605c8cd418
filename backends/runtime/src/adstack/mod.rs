//! Adstack sizing: every stack of a kernel is sized exactly, per launch, from the launch's data.
//! The runtime computes the sizes once for every device ([`AdstackPlan`]), and each device
//! gives each stack exactly its planned depth; a push past it is an overflow.
//!
//! - Ids: a stack is known by the `id` property of its `adstack.alloca` (set by
//!   `determine-ad-stack-size`, or by the runtime's compile pipeline for IR that never went
//!   through it; unique within the kernel), never by its position: a device finds the stack's
//!   entry in the plan with [`AdstackPlan::stack`]. The plan lists the stacks by ascending id.
//! - Compile time ([`KernelStacks::collect`], when the program compiles a kernel): each stack's
//!   element type, `max_size` and `size_expr` (`#adstack.size<...>`: the SizeExpr the Context
//!   holds, parsed once with the IR, checked against the module's fields and the kernel's
//!   parameters, see `check`). A stack with neither bound
//!   (IR that did not go through `determine-ad-stack-size`, e.g. a gradient kernel launched
//!   straight after `reverse-mode-ad`) is given one by the pass's own analysis
//!   (`qd_adstack_passes::stack_bound`), so that no stack is ever unbounded; a stack the analysis
//!   cannot bound is a compile error at its alloca, unless the size is forced.
//! - Launch time ([`KernelStacks::plan`], before every launch): a stack's depth is
//!   [`crate::ProgramConfig::ad_stack_size`] when forced, else its `size_expr` evaluated against
//!   the launch's field values and ndarray arguments ([`LaunchEnv`], saturating i64, negative
//!   values give 0), else its `max_size`. An evaluation that fails (an index out of bounds, a
//!   `MaxOverRange` past its cap) is an error at the alloca naming the kernel, and nothing runs.
//! - Elided stacks (`primal_kept == false`: `minimize-tape` replaced the stack by locals, its
//!   alloca marked `primal_elided` stays as the record): listed like any stack, always depth 0
//!   (source `MaxSize`, whatever is forced) and 0 bytes, since lowering drops their allocas.
//! - Memory ([`StackPlan::bytes_per_thread`]): what a device reserves per thread for a stack:
//!   an 8-byte count header plus `depth` entries; an entry of a float stack holds the primal and
//!   the adjoint (`2 * sizeof(T)`), of an integer or i1 stack the primal only (`sizeof(T)`, i1
//!   as 1 byte in the host layout; a device that widens it, as SPIR-V does to i32, says so
//!   through `Device::adstack_entry_bytes`). A kernel's total is the sum over its stacks.
//! - Measured peaks ([`StackPlan::measured_peak`]): after a launch, the program copies into the
//!   launch's plan each stack's peak as the device measured it, where the device measures
//!   (`Device::adstack_peaks`); the plan of the last launch ([`crate::Program::last_adstack_plan`])
//!   thus holds each stack's bound next to what it really needed.

mod check;
mod env;
pub mod host_heap;
pub mod layout;

pub use env::LaunchEnv;

use crate::device::Arg;
use crate::memory::Memory;
use crate::program::ParamType;
use crate::value::DType;
use qd_adstack::size_expr::SizeExpr;
use qd_adstack::{max_size_of, stack_id_of, AllocaOp, SIZE_EXPR};
use qd_frontend::KernelOp;
use qd_ir::{Context, Diagnostic, Location, OpId};

/// Bytes of the per-stack count header.
pub const COUNT_HEADER_BYTES: u64 = 8;

/// The `adstack.alloca` ops of a kernel (in pre-order; a stack is known by its id, not by its
/// place in this list).
pub fn kernel_allocas(ctx: &Context, kernel: OpId) -> Vec<OpId> {
    qd_adstack_passes::kernel_allocas(ctx, kernel)
}

/// Makes sure that every stack of `kernel` has an id, unique within it: ids already there are
/// kept when they are all present and unique; two allocas with the same id are an error at the
/// second (a note at the first); a kernel whose allocas lack ids (IR that never went through
/// `determine-ad-stack-size`) gets 0, 1, 2... in pre-order. Returns whether an id was set.
pub fn ensure_stack_ids(ctx: &mut Context, kernel: OpId) -> Result<bool, Diagnostic> {
    if let Some((first, second, id)) = qd_adstack_passes::duplicate_stack_id(ctx, kernel) {
        let name = KernelOp::from_op(ctx, kernel)
            .map(|k| format!("@{}", k.name(ctx)))
            .unwrap_or_else(|| format!("'{}'", ctx.name(kernel)));
        return Err(Diagnostic::error(
            ctx.loc(second),
            format!("adstack id {id} is used twice in kernel {name}: stack ids must be unique"),
        )
        .with_note(ctx.loc(first), format!("adstack id {id} first used here")));
    }
    Ok(qd_adstack_passes::assign_stack_ids(ctx, kernel))
}

/// Bytes of one entry in the host layout: primal and adjoint for a float stack, the primal only
/// for an integer or i1 stack (i1 as one byte).
pub fn default_entry_bytes(elem: DType) -> u64 {
    let size = elem.size_bytes() as u64;
    if elem.is_float() {
        2 * size
    } else {
        size
    }
}

/// Where a stack's depth came from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DepthSource {
    /// `ProgramConfig::ad_stack_size`.
    Forced,
    /// The stack's `size_expr`, evaluated for this launch.
    SizeExpr,
    /// The stack's `max_size`.
    MaxSize,
}

/// What the program knows of one stack once its kernel is compiled.
#[derive(Clone, PartialEq, Debug)]
pub struct StackInfo {
    /// The stack's id in its kernel (its alloca's `id`).
    pub id: u32,
    pub alloca: OpId,
    pub loc: Location,
    pub elem: DType,
    pub max_size: Option<u64>,
    /// The alloca's `size_expr`, or the one the runtime inferred (see `inferred`).
    pub size_expr: Option<SizeExpr>,
    /// The alloca had neither bound: `size_expr` comes from the sizing analysis.
    pub inferred: bool,
    /// False when `minimize-tape` elided the stack (its alloca is marked `primal_elided`): the
    /// reverse pass never reads its primal, the kernel keeps it in locals, and every launch
    /// gives it depth 0 and no memory.
    pub primal_kept: bool,
}

/// The stacks of a compiled kernel, by ascending id: the stack table a device compiles with.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct KernelStacks {
    pub kernel: String,
    pub stacks: Vec<StackInfo>,
}

/// One stack's size for one launch.
#[derive(Clone, PartialEq, Debug)]
pub struct StackPlan {
    /// The stack's id in its kernel.
    pub id: u32,
    pub alloca: OpId,
    pub loc: Location,
    pub elem: DType,
    pub size_expr: Option<SizeExpr>,
    /// The `size_expr` was inferred by the runtime (the alloca had no bound).
    pub inferred: bool,
    /// See [`StackInfo::primal_kept`]; an elided stack has depth 0 and takes no memory.
    pub primal_kept: bool,
    pub source: DepthSource,
    /// The capacity, in entries.
    pub depth: u64,
    /// The memory the stack takes per thread (count header and `depth` entries).
    pub bytes_per_thread: u64,
    /// After the launch, on a device that measures it ([`crate::Device::adstack_peaks`]: the
    /// interpreter), the most entries the stack held at once over every thread, counting pushes
    /// that overflowed (so a peak above `depth` means the launch overflowed). None before the
    /// launch and on devices that do not measure.
    pub measured_peak: Option<u64>,
}

/// Every stack's size for one launch of a kernel, by ascending id.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct AdstackPlan {
    pub kernel: String,
    pub stacks: Vec<StackPlan>,
}

impl AdstackPlan {
    /// The plan of a kernel without stacks.
    pub fn empty(kernel: &str) -> Self {
        AdstackPlan {
            kernel: kernel.to_string(),
            stacks: Vec::new(),
        }
    }
    /// The position of stack `id` in [`AdstackPlan::stacks`].
    pub fn position(&self, id: u32) -> Option<usize> {
        self.stacks.binary_search_by_key(&id, |s| s.id).ok()
    }
    /// The plan of stack `id`.
    pub fn stack(&self, id: u32) -> Option<&StackPlan> {
        self.position(id).map(|i| &self.stacks[i])
    }
    /// The depth of stack `id`.
    pub fn depth(&self, id: u32) -> Option<u64> {
        self.stack(id).map(|s| s.depth)
    }
    /// The memory all the kernel's stacks take per thread (saturating).
    pub fn bytes_per_thread(&self) -> u64 {
        self.stacks
            .iter()
            .fold(0u64, |a, s| a.saturating_add(s.bytes_per_thread))
    }
}

impl KernelStacks {
    /// The stack `id`.
    pub fn get(&self, id: u32) -> Option<&StackInfo> {
        self.stacks
            .binary_search_by_key(&id, |s| s.id)
            .ok()
            .map(|i| &self.stacks[i])
    }

    /// The stacks of `kernel` (named `name`, with parameters `params`), checked against the
    /// module's fields in `memory`. `forced`: the capacity every stack gets, when forced (then a
    /// stack needs no bound of its own). Every alloca needs a unique id (see
    /// [`ensure_stack_ids`]). Errors are located at the allocas.
    pub fn collect(
        ctx: &Context,
        kernel: OpId,
        name: &str,
        params: &[ParamType],
        memory: &Memory,
        forced: Option<usize>,
    ) -> Result<KernelStacks, Vec<Diagnostic>> {
        let mut stacks = Vec::new();
        let mut diags = Vec::new();
        for op in kernel_allocas(ctx, kernel) {
            match stack_info(ctx, op, name, params, memory, forced) {
                Ok(s) => stacks.push(s),
                Err(d) => diags.push(d),
            }
        }
        stacks.sort_by_key(|s| s.id);
        for w in stacks.windows(2) {
            if w[0].id == w[1].id {
                diags.push(
                    Diagnostic::error(
                        w[1].loc,
                        format!(
                            "adstack id {} is used twice in kernel @{name}: stack ids must be \
                             unique",
                            w[1].id
                        ),
                    )
                    .with_note(w[0].loc, format!("adstack id {} first used here", w[0].id)),
                );
            }
        }
        if diags.is_empty() {
            Ok(KernelStacks {
                kernel: name.to_string(),
                stacks,
            })
        } else {
            Err(diags)
        }
    }

    /// Sizes every stack for a launch with `args` over `memory` (see the module doc).
    /// `entry_bytes` gives the device's entry size per element type.
    pub fn plan(
        &self,
        args: &[Arg],
        memory: &Memory,
        forced: Option<usize>,
        entry_bytes: &dyn Fn(DType) -> u64,
    ) -> Result<AdstackPlan, Diagnostic> {
        let env = LaunchEnv { memory, args };
        let mut stacks = Vec::with_capacity(self.stacks.len());
        for s in &self.stacks {
            let id = s.id;
            if !s.primal_kept {
                stacks.push(s.planned(DepthSource::MaxSize, 0, entry_bytes));
                continue;
            }
            let (source, depth) = match (forced, &s.size_expr, s.max_size) {
                (Some(n), _, _) => (DepthSource::Forced, n as u64),
                (None, Some(e), _) => {
                    let d = e.eval_capacity(&env).map_err(|err| {
                        Diagnostic::error(
                            s.loc,
                            format!(
                                "cannot size adstack #{id} of kernel @{} for this launch: \
                                 {err} (size_expr: {e})",
                                self.kernel
                            ),
                        )
                    })?;
                    (DepthSource::SizeExpr, d)
                }
                (None, None, Some(n)) => (DepthSource::MaxSize, n),
                // `collect` gives every stack a bound unless the size is forced.
                (None, None, None) => {
                    return Err(Diagnostic::error(
                        s.loc,
                        format!(
                            "adstack #{id} of kernel @{} has no bound and no size is forced",
                            self.kernel
                        ),
                    ))
                }
            };
            stacks.push(s.planned(source, depth, entry_bytes));
        }
        Ok(AdstackPlan {
            kernel: self.kernel.clone(),
            stacks,
        })
    }

    /// The table of a kernel whose stacks are listed as `(id, element type)` rather than
    /// collected from allocas (lowered IR written by hand keeps none), each located at `loc`
    /// with `alloca` standing for its op, without bounds.
    pub fn listed(kernel: &str, alloca: OpId, loc: Location, stacks: &[(u32, DType)]) -> Self {
        KernelStacks {
            kernel: kernel.to_string(),
            stacks: stacks
                .iter()
                .map(|&(id, elem)| StackInfo {
                    id,
                    alloca,
                    loc,
                    elem,
                    max_size: None,
                    size_expr: None,
                    inferred: false,
                    primal_kept: true,
                })
                .collect(),
        }
    }

    /// A plan that forces each stack to its own depth, `depth(id)` entries (what `plan` does with
    /// one forced size, per stack).
    pub fn plan_with_depths(
        &self,
        depth: impl Fn(u32) -> u64,
        entry_bytes: &dyn Fn(DType) -> u64,
    ) -> AdstackPlan {
        AdstackPlan {
            kernel: self.kernel.clone(),
            stacks: self
                .stacks
                .iter()
                .map(|s| {
                    let d = if s.primal_kept { depth(s.id) } else { 0 };
                    s.planned(DepthSource::Forced, d, entry_bytes)
                })
                .collect(),
        }
    }
}

impl StackInfo {
    /// This stack's plan at `depth` entries, with its memory per thread on a device whose entries
    /// take `entry_bytes`.
    fn planned(
        &self,
        source: DepthSource,
        depth: u64,
        entry_bytes: &dyn Fn(DType) -> u64,
    ) -> StackPlan {
        StackPlan {
            id: self.id,
            alloca: self.alloca,
            loc: self.loc,
            elem: self.elem,
            size_expr: self.size_expr.clone(),
            inferred: self.inferred,
            primal_kept: self.primal_kept,
            source,
            depth,
            // An elided stack has no slice on any device (lowering drops its alloca).
            bytes_per_thread: if self.primal_kept {
                depth
                    .saturating_mul(entry_bytes(self.elem))
                    .saturating_add(COUNT_HEADER_BYTES)
            } else {
                0
            },
            measured_peak: None,
        }
    }
}

/// One stack's static description, or a located error.
fn stack_info(
    ctx: &Context,
    op: OpId,
    kernel: &str,
    params: &[ParamType],
    memory: &Memory,
    forced: Option<usize>,
) -> Result<StackInfo, Diagnostic> {
    let loc = ctx.loc(op);
    let error = |msg: String| Diagnostic::error(loc, format!("kernel @{kernel}: {msg}"));
    let elem = DType::from_type(ctx, AllocaOp(op).elem(ctx))
        .map_err(|e| error(format!("adstack element: {e}")))?;
    let id = stack_id_of(ctx, op).ok_or_else(|| {
        error("the adstack has no id (the runtime's compile pipeline gives every stack one)".into())
    })?;
    let max_size = max_size_of(ctx, op);
    if ctx.prop(op, qd_adstack::MAX_SIZE).is_some() && max_size.is_none() {
        return Err(error(
            "the adstack's max_size is not a non-negative integer".into(),
        ));
    }
    let mut size_expr = match ctx.prop(op, SIZE_EXPR) {
        Some(a) => Some(
            SizeExpr::from_attr(ctx, a)
                .map_err(|e| error(format!("the adstack's size_expr: {e}")))?
                .clone(),
        ),
        None => None,
    };
    let primal_kept = !AllocaOp(op).is_primal_elided(ctx);
    let mut inferred = false;
    if primal_kept && size_expr.is_none() && max_size.is_none() && forced.is_none() {
        let (e, _) = qd_adstack_passes::stack_bound(ctx, op).map_err(|d| {
            let mut d = d;
            d.message = format!(
                "kernel @{kernel}: this adstack has neither max_size nor size_expr, and the \
                 sizing analysis cannot bound it: {}; size it with determine-ad-stack-size or \
                 force a capacity with ad_stack_size (qd-run --ad-stack-size N)",
                d.message
            );
            d
        })?;
        size_expr = Some(e);
        inferred = true;
    }
    if let Some(e) = &size_expr {
        check::check(e, params, memory)
            .map_err(|m| error(format!("the adstack's size_expr {e}: {m}")))?;
    }
    Ok(StackInfo {
        id,
        alloca: op,
        loc,
        elem,
        max_size,
        size_expr,
        inferred,
        primal_kept,
    })
}
