//! `--verify-roundtrip`, as mlir-opt's: right after parsing, the module is printed in the
//! generic form with locations, parsed back into a fresh context and printed again; the two
//! texts must be equal. Failures are errors on the module, in mlir-opt's words.

use qd_ir::text::{parse_source, print_op, PrintOptions};
use qd_ir::{Context, Diagnostic, OpId};

/// Checks the round trip of `module`; the diagnostics of a failed re-parse come first.
pub fn verify(ctx: &Context, module: OpId, name: &str) -> Result<(), Vec<Diagnostic>> {
    let opts = PrintOptions {
        generic: true,
        debug_info: true,
    };
    let reference = print_op(ctx, module, &opts);
    let mut again = Context::new();
    qd_dialects::register_all_dialects(&mut again);
    again.allow_unregistered = ctx.allow_unregistered;
    let loc = ctx.loc(module);
    let error = |msg: String| Diagnostic::error(loc, format!("'builtin.module' op {msg}"));
    let Some(reparsed) = parse_source(&mut again, &reference, name) else {
        let mut diags = again.take_diagnostics();
        diags.push(error(
            "failed to parse text content back, cannot verify round-trip.\n".to_string(),
        ));
        return Err(diags);
    };
    let roundtrip = print_op(&again, reparsed, &opts);
    if roundtrip != reference {
        return Err(vec![error(format!(
            "text roundTrip testing roundtripped module differs from reference:\n<<<<<<Reference\n{reference}\n=====\n{roundtrip}\n>>>>>roundtripped\n"
        ))]);
    }
    Ok(())
}
