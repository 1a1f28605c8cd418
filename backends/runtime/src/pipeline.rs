//! The one compile pipeline: every front end (qd-run, the Rust API, later bindings) gets kernels
//! and gradients through [`Program::kernel`] and [`Program::gradient`], which run
//!
//! 1. the frontend: the module is verified when the program is made (and after every pass);
//!    no canonicalize/cse, whose folds are not all bit-exact in floating point (the reference
//!    interpreter runs what the user wrote);
//! 2. for a gradient the module lacks ([`Program::build_gradient`]): `ad.reverse @k` declared when
//!    missing, `element-access-ad` on `@k`, `reverse-mode-ad{kernels=k}` on the module (the
//!    rewrite of `@k` changes nothing it computes, so a `@k` compiled before stays valid), then
//!    `minimize-tape` on the new gradient kernel (a stack whose primal the reverse pass never
//!    reads becomes plain locals; its alloca stays, marked `primal_elided`, sized 0);
//! 3. for a gradient kernel with a stack that has no bound yet (always, after reverse-mode-ad):
//!    `determine-ad-stack-size` (forced to N by [`crate::ProgramConfig::ad_stack_size`], N > 0),
//!    then `simplify-size-expr`; bounds written by hand are kept. A stack of another kernel left
//!    without a bound is bounded by the same analysis when the stack table is made (see
//!    [`crate::adstack`]);
//! 4. stack ids: every adstack gets a unique `id` (see [`crate::adstack::ensure_stack_ids`]),
//!    and the stack table ([`KernelStacks`], by id) is made from the qd-level kernel;
//! 5. the device's own [`Device::lowering_pipeline`](crate::Device::lowering_pipeline), on a
//!    copy of the module that holds this kernel and no other (so that the program's module stays
//!    at the qd level for later kernels and gradients, and another kernel cannot fail this one:
//!    [`clone_module_for_kernel`]), then `Device::compile` on the lowered kernel with the stack
//!    table.

use crate::adstack::{ensure_stack_ids, kernel_allocas, KernelStacks};
use crate::device::KernelIr;
use crate::error::Error;
use crate::program::{signature, ParamType, Program};
use qd_ad::{find_reverse, ReverseOp};
use qd_adstack::{MAX_SIZE, SIZE_EXPR};
use qd_frontend::KernelOp;
use qd_ir::{Builder, Context, Diagnostic, IRMapping, OpId};
use qd_pass::{PassManager, PassRegistry};

pub const ELEMENT_ACCESS_PASS: &str = "element-access-ad";
pub const REVERSE_PASS: &str = "reverse-mode-ad";
/// The pass that replaces stacks whose primal the reverse pass never reads by locals.
pub const MINIMIZE_PASS: &str = "minimize-tape";
/// The pass that sizes adstacks, and its option that forces every stack's capacity.
pub const SIZING_PASS: &str = "determine-ad-stack-size";
pub const FORCE_OPTION: &str = "ad-stack-size";
/// The pass that simplifies the captured SizeExprs.
pub const SIMPLIFY_PASS: &str = "simplify-size-expr";

/// The pipeline that makes the gradient kernel of `kernel` only (other kernels of the module are
/// not differentiated, so that they cannot fail); a name the option syntax cannot hold leaves the
/// choice to the pass (it differentiates every declared kernel).
pub fn reverse_pipeline(kernel: &str) -> String {
    let plain = !kernel.is_empty()
        && kernel
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'));
    if plain {
        format!("builtin.module({REVERSE_PASS}{{kernels={kernel}}})")
    } else {
        format!("builtin.module({REVERSE_PASS})")
    }
}

/// The sizing pipeline, run on a gradient kernel: `determine-ad-stack-size` (forced when `forced`
/// is a positive size; 0 is the pass's "not forced", and the runtime forces it alone), then
/// `simplify-size-expr`.
pub fn sizing_pipeline(forced: Option<usize>) -> String {
    let sizing = match forced {
        Some(n) if n > 0 => format!("{SIZING_PASS}{{{FORCE_OPTION}={n}}}"),
        _ => SIZING_PASS.to_string(),
    };
    format!("qd.kernel({sizing},{SIMPLIFY_PASS})")
}

/// Runs the textual pipeline `pipeline` on `op`. A pipeline that does not parse is
/// [`Error::Device`] naming `what`; a failure is the diagnostics the passes emitted (or one at
/// `op` saying `what` failed when they emitted none).
pub fn run_pipeline(
    ctx: &mut Context,
    passes: &PassRegistry,
    pipeline: &str,
    op: OpId,
    what: &str,
) -> Result<(), Error> {
    let mut pm = PassManager::parse(passes, pipeline)
        .map_err(|e| Error::Device(format!("{what}: bad pipeline '{pipeline}': {}", e.message)))?;
    if pm.run(ctx, op).is_ok() {
        return Ok(());
    }
    let mut diags = ctx.take_diagnostics();
    if diags.is_empty() {
        diags.push(Diagnostic::error(ctx.loc(op), format!("{what} failed")));
    }
    Err(Error::Diagnostics(diags))
}

/// A detached copy of `module` in the same context (locations kept) that holds the kernel
/// `name` and everything of the module but the other kernels and the `ad.reverse`
/// declarations, for a device's lowering to rewrite while the program's module stays at the qd
/// level. Only the kernel being compiled is lowered, so another kernel that the device could
/// not lower (or whose stacks have no ids yet) cannot fail it, and the cost is that of one kernel.
pub fn clone_module_for_kernel(ctx: &mut Context, module: OpId, name: &str) -> OpId {
    let mut mapping = IRMapping::new();
    let copy = ctx.clone_without_regions(module, &mut mapping);
    for (i, region) in ctx.regions(module).to_vec().into_iter().enumerate() {
        let to = ctx.region(copy, i);
        for block in ctx.region_blocks(region).to_vec() {
            let args: Vec<_> = ctx
                .block_args(block)
                .iter()
                .map(|&a| (ctx.value_type(a), ctx.value_loc(a)))
                .collect();
            let new_block = ctx.create_block(&args);
            for (&a, &b) in ctx
                .block_args(block)
                .to_vec()
                .iter()
                .zip(ctx.block_args(new_block))
            {
                mapping.map(a, b);
            }
            ctx.append_block(to, new_block);
            for op in ctx.block_op_vec(block) {
                let other_kernel = KernelOp::from_op(ctx, op).is_some_and(|k| k.name(ctx) != name);
                if other_kernel || ctx.name(op) == qd_ad::REVERSE_OP {
                    continue;
                }
                let c = ctx.clone_op(op, &mut mapping);
                ctx.append_op(new_block, c);
            }
        }
    }
    copy
}

/// The `qd.kernel` named `name` in `module`.
pub fn find_kernel(ctx: &Context, module: OpId, name: &str) -> Option<KernelOp> {
    ctx.regions(module)
        .iter()
        .flat_map(|&r| ctx.region_ops(r))
        .filter_map(|op| KernelOp::from_op(ctx, op))
        .find(|k| k.name(ctx) == name)
}

/// What compiling one kernel made.
pub(crate) struct Compiled {
    pub params: Vec<ParamType>,
    pub stacks: KernelStacks,
    pub compiled: crate::device::CompiledKernel,
}

impl Program {
    /// The name of the gradient kernel of kernel `name`, made when the module has none (steps 2
    /// and 3 of the module doc), without compiling it; [`Program::gradient`] compiles it.
    pub fn build_gradient(&mut self, name: &str) -> Result<String, Error> {
        let module = self.module;
        let Some(primal) = find_kernel(&self.ctx, module, name) else {
            return Err(Error::UnknownKernel {
                name: name.to_string(),
                known: self.kernel_names(),
            });
        };
        let existing = find_reverse(&self.ctx, module, name).and_then(|r| r.gradient(&self.ctx));
        let grad = match existing {
            Some(g) => g,
            None => {
                self.differentiate(primal, name)?;
                find_reverse(&self.ctx, module, name)
                    .and_then(|r| r.gradient(&self.ctx))
                    .ok_or_else(|| Error::NoGradient(name.to_string()))?
            }
        };
        let unbounded = kernel_allocas(&self.ctx, grad.0)
            .into_iter()
            .any(|a| self.ctx.prop(a, MAX_SIZE).is_none() && self.ctx.prop(a, SIZE_EXPR).is_none());
        if unbounded {
            let what = format!("{SIZING_PASS} on kernel @{}", grad.name(&self.ctx));
            let pipeline = sizing_pipeline(self.config.ad_stack_size);
            run_pipeline(&mut self.ctx, &self.passes, &pipeline, grad.0, &what)?;
        }
        Ok(grad.name(&self.ctx).to_string())
    }

    /// Declares `ad.reverse @name` when missing and runs element-access-ad on the primal kernel,
    /// then reverse-mode-ad on the module for it.
    fn differentiate(&mut self, primal: KernelOp, name: &str) -> Result<(), Error> {
        let module = self.module;
        if find_reverse(&self.ctx, module, name).is_none() {
            let Some(body) = self
                .ctx
                .regions(module)
                .first()
                .and_then(|&r| self.ctx.entry_block(r))
            else {
                return Err(Error::Value("the module has no body".into()));
            };
            let loc = self.ctx.loc(module);
            ReverseOp::build(&mut Builder::at_end(&mut self.ctx, body), name, loc);
        }
        let what = format!("{ELEMENT_ACCESS_PASS} on kernel @{name}");
        let pipeline = format!("qd.kernel({ELEMENT_ACCESS_PASS})");
        run_pipeline(&mut self.ctx, &self.passes, &pipeline, primal.0, &what)?;
        let what = format!("{REVERSE_PASS} on kernel @{name}");
        run_pipeline(
            &mut self.ctx,
            &self.passes,
            &reverse_pipeline(name),
            module,
            &what,
        )?;
        let Some(grad) = find_reverse(&self.ctx, module, name).and_then(|r| r.gradient(&self.ctx))
        else {
            return Ok(());
        };
        let what = format!("{MINIMIZE_PASS} on kernel @{}", grad.name(&self.ctx));
        let pipeline = format!("qd.kernel({MINIMIZE_PASS})");
        run_pipeline(&mut self.ctx, &self.passes, &pipeline, grad.0, &what)
    }

    /// Steps 4 and 5 of the module doc for the kernel `k`.
    pub(crate) fn compile_kernel(&mut self, k: KernelOp) -> Result<Compiled, Error> {
        let name = k.name(&self.ctx).to_string();
        ensure_stack_ids(&mut self.ctx, k.0).map_err(|d| Error::Diagnostics(vec![d]))?;
        let params = signature(&self.ctx, k).map_err(Error::Diagnostics)?;
        let stacks = KernelStacks::collect(
            &self.ctx,
            k.0,
            &name,
            &params,
            &self.memory,
            self.config.ad_stack_size,
        )
        .map_err(Error::Diagnostics)?;
        let (module, op) = self.lower(&name, k.0)?;
        let ir = KernelIr {
            name: &name,
            module,
            op,
        };
        let compiled = self
            .device
            .compile(&self.ctx, ir, &stacks, &self.memory)
            .map_err(Error::Diagnostics)?;
        Ok(Compiled {
            params,
            stacks,
            compiled,
        })
    }

    /// The device's lowering pipeline on a copy of the module; returns the module it ran on and
    /// the op named like the kernel there (the program's own module and `kernel` when the device
    /// needs no lowering).
    fn lower(&mut self, name: &str, kernel: OpId) -> Result<(OpId, OpId), Error> {
        let pipeline = self.device.lowering_pipeline().trim().to_string();
        if pipeline.is_empty() {
            return Ok((self.module, kernel));
        }
        let copy = clone_module_for_kernel(&mut self.ctx, self.module, name);
        let what = format!(
            "the lowering pipeline of device '{}' on kernel @{name}",
            self.device.name()
        );
        run_pipeline(&mut self.ctx, &self.passes, &pipeline, copy, &what)?;
        match qd_ir::symbol_table::lookup_symbol_in(&self.ctx, copy, name) {
            Some(op) => Ok((copy, op)),
            None => Err(Error::Diagnostics(vec![Diagnostic::error(
                self.ctx.loc(kernel),
                format!("{what} left no op named @{name}"),
            )])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reverse_pipeline_names_the_kernel_when_it_can() {
        assert_eq!(
            reverse_pipeline("compute"),
            "builtin.module(reverse-mode-ad{kernels=compute})"
        );
        assert_eq!(reverse_pipeline("a,b}"), "builtin.module(reverse-mode-ad)");
        assert_eq!(reverse_pipeline(""), "builtin.module(reverse-mode-ad)");
    }

    #[test]
    fn the_sizing_pipeline_forces_a_positive_size_only() {
        let reg = qd_passes::all_passes();
        assert_eq!(
            sizing_pipeline(None),
            "qd.kernel(determine-ad-stack-size,simplify-size-expr)"
        );
        assert_eq!(
            sizing_pipeline(Some(32)),
            "qd.kernel(determine-ad-stack-size{ad-stack-size=32},simplify-size-expr)"
        );
        assert_eq!(sizing_pipeline(Some(0)), sizing_pipeline(None));
        for f in [None, Some(7)] {
            assert!(PassManager::parse(&reg, &sizing_pipeline(f)).is_ok());
        }
        assert!(PassManager::parse(&reg, &reverse_pipeline("k")).is_ok());
        assert!(PassManager::parse(&reg, &format!("qd.kernel({MINIMIZE_PASS})")).is_ok());
    }
}
