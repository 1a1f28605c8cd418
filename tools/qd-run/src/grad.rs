//! `--grad`: the gradient kernel of the kernel being run, and its extra arguments.
//!
//! The gradient kernel is found through the module's `ad.reverse @k -> @k_grad` declaration. When
//! the file has none (or one without a gradient yet), qd-run declares `ad.reverse @k` if needed
//! and runs the `reverse-mode-ad` pass, which makes `@k_grad` and sets the declaration's
//! gradient. The runtime launches it (`Program::gradient`, `Program::launch_grad`): by the
//! convention of the ad dialect, `@k_grad` takes the arguments of `@k` followed by one adjoint
//! ndarray per active ndarray argument, in argument order.

use qd_ad::{find_reverse, ReverseOp};
use qd_ir::{Builder, Context, Diagnostic, OpId};

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

/// Makes sure that the module has a gradient kernel of `kernel`: the one its declaration names,
/// or one made by reverse-mode-ad. The program then finds it with `Program::gradient`.
pub fn prepare(ctx: &mut Context, module: OpId, kernel: &str) -> Result<(), GradError> {
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
    let registry = qd_passes::all_passes();
    let mut pm = qd_pass::PassManager::parse(&registry, &pipeline(kernel)).map_err(|e| {
        GradError::Message(format!(
            "--grad needs the reverse-mode-ad pass, which this build cannot run: {}",
            e.message
        ))
    })?;
    if pm.run(ctx, module).is_err() {
        let mut diags = ctx.take_diagnostics();
        if diags.is_empty() {
            diags.push(Diagnostic::error(
                ctx.loc(module),
                format!("reverse-mode-ad failed on kernel @{kernel}"),
            ));
        }
        return Err(GradError::Diagnostics(diags));
    }
    if has_gradient(ctx, module, kernel) {
        Ok(())
    } else {
        Err(GradError::Message(format!(
            "reverse-mode-ad made no gradient kernel for @{kernel}"
        )))
    }
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
}
