//! Adstack sizing: every stack of a kernel is sized exactly, per launch, from the launch's data.
//! The runtime computes the sizes once for every device ([`AdstackPlan`]), and each device
//! gives each stack exactly its planned depth; a push past it is an overflow.
//!
//! - Numbering: the stacks of a kernel are its `adstack.alloca` ops in pre-order
//!   ([`kernel_allocas`]); a stack's position there is its number (`#0`, `#1`, ...), by which a
//!   device finds its entry in the plan.
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
//! - Memory ([`StackPlan::bytes_per_thread`]): what a device reserves per thread for a stack:
//!   an 8-byte count header plus `depth` entries; an entry of a float stack holds the primal and
//!   the adjoint (`2 * sizeof(T)`), of an integer or i1 stack the primal only (`sizeof(T)`, i1
//!   as 1 byte in the host layout; a device that widens it, as SPIR-V does to i32, says so
//!   through `Device::adstack_entry_bytes`). A kernel's total is the sum over its stacks.

mod check;
mod env;

pub use env::LaunchEnv;

use crate::device::Arg;
use crate::memory::Memory;
use crate::program::ParamType;
use crate::value::DType;
use qd_adstack::size_expr::SizeExpr;
use qd_adstack::{max_size_of, AllocaOp, ALLOCA_OP, SIZE_EXPR};
use qd_ir::{Context, Diagnostic, Location, OpId};

/// Bytes of the per-stack count header.
pub const COUNT_HEADER_BYTES: u64 = 8;

/// The `adstack.alloca` ops of a kernel in pre-order: index `i` is stack `#i`.
pub fn kernel_allocas(ctx: &Context, kernel: OpId) -> Vec<OpId> {
    ctx.walk_pre_order(kernel)
        .into_iter()
        .filter(|&op| ctx.name(op) == ALLOCA_OP && ctx.num_results(op) == 1)
        .collect()
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
    pub alloca: OpId,
    pub loc: Location,
    pub elem: DType,
    pub max_size: Option<u64>,
    /// The alloca's `size_expr`, or the one the runtime inferred (see `inferred`).
    pub size_expr: Option<SizeExpr>,
    /// The alloca had neither bound: `size_expr` comes from the sizing analysis.
    pub inferred: bool,
}

/// The stacks of a compiled kernel, by number.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct KernelStacks {
    pub kernel: String,
    pub stacks: Vec<StackInfo>,
}

/// One stack's size for one launch.
#[derive(Clone, PartialEq, Debug)]
pub struct StackPlan {
    /// The stack's number in its kernel.
    pub index: usize,
    pub alloca: OpId,
    pub loc: Location,
    pub elem: DType,
    pub size_expr: Option<SizeExpr>,
    /// The `size_expr` was inferred by the runtime (the alloca had no bound).
    pub inferred: bool,
    pub source: DepthSource,
    /// The capacity, in entries.
    pub depth: u64,
    /// The memory the stack takes per thread (count header and `depth` entries).
    pub bytes_per_thread: u64,
}

/// Every stack's size for one launch of a kernel.
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
    /// The depth of stack `#index`.
    pub fn depth(&self, index: usize) -> Option<u64> {
        self.stacks.get(index).map(|s| s.depth)
    }
    /// The memory all the kernel's stacks take per thread (saturating).
    pub fn bytes_per_thread(&self) -> u64 {
        self.stacks
            .iter()
            .fold(0u64, |a, s| a.saturating_add(s.bytes_per_thread))
    }
}

impl KernelStacks {
    /// The stacks of `kernel` (named `name`, with parameters `params`), checked against the
    /// module's fields in `memory`. `forced`: the capacity every stack gets, when forced (then a
    /// stack needs no bound of its own). Errors are located at the allocas.
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
        for (index, s) in self.stacks.iter().enumerate() {
            let (source, depth) = match (forced, &s.size_expr, s.max_size) {
                (Some(n), _, _) => (DepthSource::Forced, n as u64),
                (None, Some(e), _) => {
                    let d = e.eval_capacity(&env).map_err(|err| {
                        Diagnostic::error(
                            s.loc,
                            format!(
                                "cannot size adstack #{index} of kernel @{} for this launch: \
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
                            "adstack #{index} of kernel @{} has no bound and no size is forced",
                            self.kernel
                        ),
                    ))
                }
            };
            let bytes = depth
                .saturating_mul(entry_bytes(s.elem))
                .saturating_add(COUNT_HEADER_BYTES);
            stacks.push(StackPlan {
                index,
                alloca: s.alloca,
                loc: s.loc,
                elem: s.elem,
                size_expr: s.size_expr.clone(),
                inferred: s.inferred,
                source,
                depth,
                bytes_per_thread: bytes,
            });
        }
        Ok(AdstackPlan {
            kernel: self.kernel.clone(),
            stacks,
        })
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
    let mut inferred = false;
    if size_expr.is_none() && max_size.is_none() && forced.is_none() {
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
        alloca: op,
        loc,
        elem,
        max_size,
        size_expr,
        inferred,
    })
}
