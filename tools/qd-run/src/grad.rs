//! `--grad`: the gradient kernel of the kernel being run, and its extra arguments.
//!
//! The gradient kernel is found through the module's `ad.reverse @k -> @k_grad` declaration. When
//! the file has none (or one without a gradient yet), qd-run declares `ad.reverse @k` if needed
//! and runs the `reverse-mode-ad` pass, which makes `@k_grad` and sets the declaration's
//! gradient. Then, when a stack of the gradient kernel has no bound yet (always, after
//! reverse-mode-ad), the sizing pipeline runs on the gradient kernel alone:
//! `determine-ad-stack-size` (forced to N by `--ad-stack-size N`, N > 0), then
//! `simplify-size-expr` when this build has it; bounds written by hand are kept. The runtime
//! evaluates each stack's SizeExpr before every launch. It launches the gradient kernel
//! (`Program::gradient`, `Program::launch_grad`): by the convention of the ad dialect, `@k_grad`
//! takes the arguments of `@k` followed by one adjoint ndarray per active ndarray argument, in
//! argument order.

use qd_ad::{find_reverse, ReverseOp};
use qd_adstack::{MAX_SIZE, SIZE_EXPR};
use qd_ir::{Builder, Context, Diagnostic, OpId};
use qd_pass::{PassManager, PassRegistry};
use qd_runtime::adstack::kernel_allocas;

/// The pass that sizes adstacks, and its option that forces every stack's capacity.
pub const SIZING_PASS: &str = "determine-ad-stack-size";
pub const FORCE_OPTION: &str = "ad-stack-size";
/// The pass that simplifies the captured SizeExprs (run when the build registers it).
pub const SIMPLIFY_PASS: &str = "simplify-size-expr";

/// Why the gradient kernel could not be made: located diagnostics, or a message.
pub enum GradError {
    Diagnostics(Vec<Diagnostic>),
    Message(String),
}

/// The pipeline that makes the gradient kernel of `kernel` only (other kernels of the file are
/// not differentiated, so that they cannot fail the run); a name the option syntax cannot hold
/// leaves the choice to the pass (it differentiates every declared kernel).
pub fn pipeline(kernel: &str) -> String {
    let plain = !kernel.is_empty()
        && kernel
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'));
    if plain {
        format!("builtin.module(reverse-mode-ad{{kernels={kernel}}})")
    } else {
        "builtin.module(reverse-mode-ad)".to_string()
    }
}

/// The sizing pipeline, run on the gradient kernel: `determine-ad-stack-size` (with its force
/// option when `forced` is a positive size and the pass has the option), then
/// `simplify-size-expr` when `registry` has it.
pub fn sizing_pipeline(registry: &PassRegistry, forced: Option<usize>) -> String {
    let has_force = registry
        .lookup(SIZING_PASS)
        .is_some_and(|p| p.options.iter().any(|o| o.name == FORCE_OPTION));
    let mut passes = vec![match forced {
        Some(n) if n > 0 && has_force => format!("{SIZING_PASS}{{{FORCE_OPTION}={n}}}"),
        _ => SIZING_PASS.to_string(),
    }];
    if registry.lookup(SIMPLIFY_PASS).is_some() {
        passes.push(SIMPLIFY_PASS.to_string());
    }
    format!("qd.kernel({})", passes.join(","))
}

/// Makes sure that the module has a gradient kernel of `kernel` whose adstacks are all bounded:
/// the one its declaration names, or one made by reverse-mode-ad; stacks without a bound are
/// sized by the sizing pipeline (`forced`: `--ad-stack-size`). The program then finds the
/// kernel with `Program::gradient`.
pub fn prepare(
    ctx: &mut Context,
    module: OpId,
    kernel: &str,
    forced: Option<usize>,
) -> Result<(), GradError> {
    let registry = qd_passes::all_passes();
    make_gradient(ctx, module, kernel, &registry)?;
    let Some(grad) = find_reverse(ctx, module, kernel).and_then(|r| r.gradient(ctx)) else {
        return Err(GradError::Message(format!(
            "reverse-mode-ad made no gradient kernel for @{kernel}"
        )));
    };
    let unbounded = kernel_allocas(ctx, grad.0)
        .into_iter()
        .any(|a| ctx.prop(a, MAX_SIZE).is_none() && ctx.prop(a, SIZE_EXPR).is_none());
    if !unbounded {
        return Ok(());
    }
    let mut pm =
        PassManager::parse(&registry, &sizing_pipeline(&registry, forced)).map_err(|e| {
            GradError::Message(format!(
                "--grad needs the {SIZING_PASS} pass, which this build cannot run: {}",
                e.message
            ))
        })?;
    let what = format!("{SIZING_PASS} failed on kernel @{}", grad.name(ctx));
    run(ctx, &mut pm, grad.0, || what.clone())
}

/// Runs `pm` on `op`; a failure is the diagnostics it emitted (or `what` when it emitted none).
fn run(
    ctx: &mut Context,
    pm: &mut PassManager,
    op: OpId,
    what: impl Fn() -> String,
) -> Result<(), GradError> {
    if pm.run(ctx, op).is_ok() {
        return Ok(());
    }
    let mut diags = ctx.take_diagnostics();
    if diags.is_empty() {
        diags.push(Diagnostic::error(ctx.loc(op), what()));
    }
    Err(GradError::Diagnostics(diags))
}

/// The gradient kernel its declaration names, or one made by reverse-mode-ad.
fn make_gradient(
    ctx: &mut Context,
    module: OpId,
    kernel: &str,
    registry: &PassRegistry,
) -> Result<(), GradError> {
    if has_gradient(ctx, module, kernel) {
        return Ok(());
    }
    if find_reverse(ctx, module, kernel).is_none() {
        let body = match ctx
            .regions(module)
            .first()
            .and_then(|&r| ctx.entry_block(r))
        {
            Some(b) => b,
            None => return Err(GradError::Message("the module has no body".into())),
        };
        let loc = ctx.loc(module);
        ReverseOp::build(&mut Builder::at_end(ctx, body), kernel, loc);
    }
    let mut pm = PassManager::parse(registry, &pipeline(kernel)).map_err(|e| {
        GradError::Message(format!(
            "--grad needs the reverse-mode-ad pass, which this build cannot run: {}",
            e.message
        ))
    })?;
    run(ctx, &mut pm, module, || {
        format!("reverse-mode-ad failed on kernel @{kernel}")
    })
}

/// Whether a declaration names an existing gradient kernel of `kernel`.
fn has_gradient(ctx: &Context, module: OpId, kernel: &str) -> bool {
    find_reverse(ctx, module, kernel).is_some_and(|r| r.gradient(ctx).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pipeline_names_the_kernel_when_it_can() {
        assert_eq!(
            pipeline("compute"),
            "builtin.module(reverse-mode-ad{kernels=compute})"
        );
        assert_eq!(pipeline("a,b}"), "builtin.module(reverse-mode-ad)");
        assert_eq!(pipeline(""), "builtin.module(reverse-mode-ad)");
    }

    #[test]
    fn the_sizing_pipeline_forces_a_positive_size_only() {
        let reg = qd_passes::all_passes();
        let simplify = if reg.lookup(SIMPLIFY_PASS).is_some() {
            ",simplify-size-expr"
        } else {
            ""
        };
        assert_eq!(
            sizing_pipeline(&reg, None),
            format!("qd.kernel(determine-ad-stack-size{simplify})")
        );
        assert_eq!(
            sizing_pipeline(&reg, Some(32)),
            format!("qd.kernel(determine-ad-stack-size{{ad-stack-size=32}}{simplify})")
        );
        // 0 is the pass's "not forced": the runtime forces it alone.
        assert_eq!(sizing_pipeline(&reg, Some(0)), sizing_pipeline(&reg, None));
        // Every form parses against the registry.
        for f in [None, Some(7)] {
            assert!(PassManager::parse(&reg, &sizing_pipeline(&reg, f)).is_ok());
        }
        // Without the passes: the bare pass name, which the caller's parse then refuses.
        let empty = PassRegistry::new();
        assert_eq!(
            sizing_pipeline(&empty, Some(3)),
            "qd.kernel(determine-ad-stack-size)"
        );
    }
}
