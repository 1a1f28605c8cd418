//! The `convert-qd-to-lowered` pass: every `qd.kernel` of a module (forward kernels and gradient
//! kernels alike) becomes a `lowered.kernel` of tasks. `qd.field` and `ad.reverse` declarations
//! stay. Per kernel, on a clone (so that a failure leaves the module as it was), or in place
//! when `precheck` proves that its lowering cannot fail (most kernels: no copy to make):
//!
//! 1. `facts`: what the patterns need from the original structure (constant and in-range
//!    indices, adstack ids);
//! 2. `structurize`: `qd.break` / `qd.continue` become private flags (qd to qd);
//! 3. `partition` and `outline`: the top-level code moves into tasks, values crossing tasks are
//!    rematerialized or spilled;
//! 4. `patterns`: qd-ir's dialect-conversion driver converts every qd, ad and adstack op (full
//!    conversion: an op left is a located `failed to legalize operation` error).
//!
//! Option `check-bounds` (default true): with `false`, field and ndarray accesses (adjoints
//! included) get no `lowered.bounds_check`, so an out-of-range index is undefined behaviour on
//! a compiled device (the `cpu` device without `--check-bounds`). Local-array accesses keep
//! their check whatever the option: their storage is private memory, where LLVM may assume
//! every access in range and delete or move the code around it, so an unchecked bad index
//! could corrupt the stack or the adstack heap rather than only read a wrong value; and their
//! checks are cheap (a static length) and removed when the index is provably in range.

use crate::facts::collect;
use crate::marks::ValueMarks;
use crate::outline::{discard, outline};
use crate::partition::partition;
use crate::patterns::{patterns, target, type_converter};
use crate::precheck::lowering_cannot_fail_in;
use crate::structurize::remove_jumps;
use qd_frontend::{KernelOp, KERNEL_OP};
use qd_ir::conversion::apply_full_conversion;
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{Context, Diagnostic, IRMapping, OpId};
use qd_pass::{OptionDecl, Pass, PassFailure, PassInfo, PassOutcome, PassResult, Statistic};

pub const PASS_NAME: &str = "convert-qd-to-lowered";
const DESCRIPTION: &str =
    "Convert qd kernels (with ad and adstack ops) to lowered kernels of tasks, pointers and structured control flow";

/// The option that keeps (true, the default) or drops the field and ndarray bounds checks.
pub const CHECK_BOUNDS_OPTION: &str = "check-bounds";

pub fn convert_qd_to_lowered_pass_info() -> PassInfo {
    PassInfo::new(PASS_NAME, DESCRIPTION, |opts| {
        Ok(Box::new(ConvertQdToLowered::new(LoweringOptions {
            check_bounds: opts.get_bool(CHECK_BOUNDS_OPTION),
        })))
    })
    .option(OptionDecl::bool(
        CHECK_BOUNDS_OPTION,
        true,
        "emit lowered.bounds_check on field and ndarray accesses (false: an out-of-range index is undefined behaviour; local-array accesses are checked either way)",
    ))
}

/// What the conversion emits, from the pass's options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LoweringOptions {
    /// Check field and ndarray indices (local arrays are always checked).
    pub check_bounds: bool,
}

impl Default for LoweringOptions {
    fn default() -> Self {
        LoweringOptions { check_bounds: true }
    }
}

#[derive(Default)]
pub struct ConvertQdToLowered {
    options: LoweringOptions,
    kernels: u64,
    tasks: u64,
}

impl ConvertQdToLowered {
    pub fn new(options: LoweringOptions) -> Self {
        ConvertQdToLowered {
            options,
            ..Default::default()
        }
    }
}

impl Pass for ConvertQdToLowered {
    fn name(&self) -> &'static str {
        PASS_NAME
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn anchor(&self) -> Option<&'static str> {
        Some("builtin.module")
    }
    fn run(&mut self, ctx: &mut Context, module: OpId) -> PassResult {
        let kernels: Vec<OpId> = ctx
            .regions(module)
            .iter()
            .flat_map(|&r| ctx.region_blocks(r).to_vec())
            .flat_map(|b| ctx.block_op_vec(b))
            .filter(|&o| ctx.name(o) == KERNEL_OP)
            .collect();
        // Fields resolve through tables built once per run: the pass adds and removes kernels
        // only, never fields. The module's table is built now, before any kernel changes.
        let mut symbols = SymbolTableCollection::new();
        symbols.table(ctx, module);
        let mut marks = ValueMarks::default();
        // Kernels that might fail are lowered first, on copies; the others only once none
        // failed, in place, so that a failure leaves every kernel as it was.
        let (safe, unsure): (Vec<OpId>, Vec<OpId>) = kernels
            .iter()
            .partition(|&&k| lowering_cannot_fail_in(ctx, &mut symbols, &mut marks, k));
        let mut lowered = Vec::new();
        let mut failed = false;
        for &k in &unsure {
            match lower_kernel_in(ctx, &mut symbols, &mut marks, k, self.options) {
                Ok(l) => lowered.push((k, l)),
                Err(d) => {
                    // The driver has emitted its own errors; others are emitted here.
                    if !ctx.diagnostics().contains(&d) {
                        ctx.emit(d);
                    }
                    failed = true;
                }
            }
        }
        if failed {
            for (_, l) in lowered {
                ctx.erase_op(l);
            }
            return Err(PassFailure);
        }
        for &k in &safe {
            match lower_in_place(ctx, &mut symbols, &mut marks, k, self.options) {
                Ok(l) => lowered.push((k, l)),
                Err(d) => {
                    // The precheck is wrong: the kernel is partly converted. Said as an
                    // internal error, so that it is never taken for a user's mistake.
                    if !ctx.diagnostics().contains(&d) {
                        ctx.emit(d);
                    }
                    let loc = ctx.loc(k);
                    ctx.emit(Diagnostic::error(
                        loc,
                        "convert-qd-to-lowered internal error: a kernel the precheck accepted failed to lower",
                    ));
                    return Err(PassFailure);
                }
            }
        }
        for (k, l) in lowered {
            self.kernels += 1;
            self.tasks += qd_lowered::KernelOp(l).tasks(ctx).len() as u64;
            ctx.erase_op(k);
        }
        Ok(PassOutcome::changed(!kernels.is_empty()))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-kernels",
                description: "Number of qd kernels converted",
                value: self.kernels,
            },
            Statistic {
                name: "num-tasks",
                description: "Number of lowered tasks made",
                value: self.tasks,
            },
        ]
    }
}

/// The lowered kernel of qd kernel `kernel`, inserted just before it (which stays: the caller
/// erases it), as `options` say. On failure nothing is left of the attempt. The work is done on
/// a copy; the pass lowers the kernels `lowering_cannot_fail` accepts in place instead.
pub fn lower_kernel(
    ctx: &mut Context,
    kernel: OpId,
    options: LoweringOptions,
) -> Result<OpId, Diagnostic> {
    let mut symbols = SymbolTableCollection::new();
    lower_kernel_in(
        ctx,
        &mut symbols,
        &mut ValueMarks::default(),
        kernel,
        options,
    )
}

/// As [`lower_kernel`], resolving fields through the pass's `symbols` (with its scratch
/// `marks`).
fn lower_kernel_in(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    marks: &mut ValueMarks,
    kernel: OpId,
    options: LoweringOptions,
) -> Result<OpId, Diagnostic> {
    let mut map = IRMapping::new();
    let clone = ctx.clone_op(kernel, &mut map);
    // The clone sits where the kernel does, so that its symbol uses resolve.
    ctx.insert_op_before(kernel, clone);
    let r = lower_in_place(ctx, symbols, marks, clone, options);
    ctx.erase_op(clone);
    r
}

/// Lowers `kernel` itself (the copy `lower_kernel` makes, or a kernel the precheck accepted):
/// its code moves into the lowered kernel, inserted before it. On failure `kernel` may be left
/// partly converted.
fn lower_in_place(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    marks: &mut ValueMarks,
    kernel: OpId,
    options: LoweringOptions,
) -> Result<OpId, Diagnostic> {
    let body = KernelOp(kernel).body(ctx);
    let mut facts = collect(ctx, symbols, kernel, body)?;
    if facts.has_jumps {
        remove_jumps(ctx, symbols, kernel)?;
    }
    let plan = partition(ctx, symbols, KernelOp(kernel))?;
    // The adstacks each top-level op allocates, by their ids: as the facts saw them, unless
    // removing jumps may have moved ops (then by a walk of each).
    let mut stacks = std::mem::take(&mut facts.stacks_of_top);
    let alloca = ctx.lookup_op_name(qd_adstack::ALLOCA_OP);
    if let (Some(b), Some(alloca), true) = (body, alloca, facts.has_stacks && facts.has_jumps) {
        stacks.clear();
        for top in ctx.block_op_vec(b) {
            let ids: Vec<u32> = ctx
                .walk_pre_order(top)
                .into_iter()
                .filter_map(|o| {
                    (ctx.op_name_of(o) == alloca)
                        .then(|| facts.stacks.get(o).map(|f| f.id))
                        .flatten()
                })
                .collect();
            stacks.insert(top, ids);
        }
    }
    let lk = outline(ctx, symbols, marks, kernel, &plan, &stacks)?;
    ctx.insert_op_before(kernel, lk);
    facts.outlined_into(ctx, lk);
    let converted = apply_full_conversion(
        ctx,
        lk,
        &target(),
        &patterns(facts, options),
        &type_converter(),
    );
    if let Err(d) = converted {
        discard(ctx, lk, kernel);
        return Err(d);
    }
    Ok(lk)
}
