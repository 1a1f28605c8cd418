//! Parse and verify arbitrary text, then run every registered pass (default options) and a few
//! pipelines (the runtime's gradient pipeline among them) on what verified. Properties:
//! - nothing panics;
//! - after a pass that reported success the module verifies;
//! - a pass that fails says why (at least one error diagnostic), as `PassFailure` promises.
//!
//! Each pass runs in its own pass manager with `verify_each` off, so that a verifier failure is
//! blamed on the pass that caused it rather than reported as that pass's failure.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qd_ir::text::{parse_source, print_op, PrintOptions, SourceMgr};
use qd_ir::{Builder, Context, OpId, Severity};
use qd_pass::{PassManager, PassRegistry};

/// Inputs larger than this are skipped: the passes' cost grows with the op count (some are still
/// superlinear, issue 16), and a slow input that is merely big would be reported as a timeout.
const MAX_INPUT: usize = 64 * 1024;

/// A pipeline run besides each registered pass alone, one pass at a time in order.
struct Pipeline {
    name: &'static str,
    /// Declare `ad.reverse` for every kernel first, as the runtime does (see `declare_reverses`).
    declare_reverses: bool,
    passes: &'static [&'static str],
}

const PIPELINES: &[Pipeline] = &[
    // What the runtime does to make and compile a gradient (backends/runtime/src/pipeline.rs).
    Pipeline {
        name: "runtime-gradient",
        declare_reverses: true,
        passes: &[
            "element-access-ad",
            "reverse-mode-ad",
            "minimize-tape",
            "determine-ad-stack-size",
            "simplify-size-expr",
            "convert-qd-to-lowered",
        ],
    },
    // qd-opt's usual clean-up, then again after differentiation and after lowering.
    Pipeline {
        name: "cleanup",
        declare_reverses: false,
        passes: &["canonicalize", "cse", "dce", "symbol-dce"],
    },
    Pipeline {
        name: "grad-then-cleanup",
        declare_reverses: true,
        passes: &[
            "reverse-mode-ad",
            "canonicalize",
            "cse",
            "dce",
            "determine-ad-stack-size",
        ],
    },
    Pipeline {
        name: "lower-then-cleanup",
        declare_reverses: false,
        passes: &["convert-qd-to-lowered", "canonicalize", "cse", "dce"],
    },
];

fn new_context(allow_unregistered: bool) -> Context {
    let mut ctx = Context::new();
    qd_dialects::register_all_dialects(&mut ctx);
    ctx.allow_unregistered = allow_unregistered;
    ctx
}

/// The verified module parsed from `text` (registered ops only, else with unregistered ops
/// allowed), or None.
fn parse_verified(text: &str) -> Option<(Context, OpId)> {
    for allow_unregistered in [false, true] {
        let mut ctx = new_context(allow_unregistered);
        if let Some(module) = parse_source(&mut ctx, text, "fuzz.mlir") {
            if qd_ir::verifier::verify(&ctx, module).is_ok() {
                ctx.take_diagnostics();
                return Some((ctx, module));
            }
            return None;
        }
    }
    None
}

/// Declares `ad.reverse @k` for every kernel that has none, as the runtime does before
/// differentiating, so that reverse-mode-ad has work on inputs written for qd-run.
fn declare_reverses(ctx: &mut Context, module: OpId) {
    let Some(body) = ctx
        .regions(module)
        .first()
        .and_then(|&r| ctx.entry_block(r))
    else {
        return;
    };
    let kernels: Vec<String> = ctx
        .block_op_vec(body)
        .into_iter()
        .filter_map(|op| qd_frontend::KernelOp::from_op(ctx, op))
        .map(|k| k.name(ctx).to_string())
        .collect();
    for name in kernels {
        if qd_ad::find_reverse(ctx, module, &name).is_none() {
            let loc = ctx.loc(module);
            qd_ad::ReverseOp::build(&mut Builder::at_end(ctx, body), &name, loc);
        }
    }
}

fn render(ctx: &Context, text: &str, diags: &[qd_ir::Diagnostic]) -> String {
    let mut sm = SourceMgr::new();
    sm.add_buffer("fuzz.mlir", text);
    diags.iter().map(|d| sm.render(ctx, d)).collect()
}

/// Runs `passes` one at a time on a fresh parse of `text`; stops at the first pass that fails.
fn run_pipeline(reg: &PassRegistry, text: &str, what: &str, passes: &[&str], declare: bool) {
    let Some((mut ctx, module)) = parse_verified(text) else {
        return;
    };
    if declare {
        declare_reverses(&mut ctx, module);
        // A declaration the module cannot take (a kernel name declared twice, say) is refused
        // by the runtime too: nothing to run.
        if qd_ir::verifier::verify(&ctx, module).is_err() {
            return;
        }
    }
    for &name in passes {
        let info = reg.lookup(name).unwrap_or_else(|| panic!("no pass {name}"));
        let pass = info
            .create_default()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut pm = PassManager::new("builtin.module");
        pm.verify_each = false;
        pm.add_pass(pass);
        if pm.run(&mut ctx, module).is_err() {
            let errors = ctx
                .diagnostics()
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count();
            assert!(
                errors > 0,
                "{what}: pass '{name}' failed without an error diagnostic"
            );
            return;
        }
        if let Err(diags) = qd_ir::verifier::verify(&ctx, module) {
            let printed = print_op(
                &ctx,
                module,
                &PrintOptions {
                    generic: true,
                    debug_info: false,
                },
            );
            panic!(
                "{what}: the module does not verify after pass '{name}' succeeded:\n{}\n{printed}",
                render(&ctx, text, &diags)
            );
        }
        // Warnings and remarks of a successful pass are fine; keep the context's list short.
        ctx.take_diagnostics();
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Inputs that do not verify are the parse_verify target's business; skip them cheaply.
    if parse_verified(text).is_none() {
        return;
    }
    let reg = qd_passes::all_passes();
    let names: Vec<&str> = reg.iter().map(|p| p.name).collect();
    for name in names {
        run_pipeline(&reg, text, name, &[name], false);
    }
    for p in PIPELINES {
        run_pipeline(&reg, text, p.name, p.passes, p.declare_reverses);
    }
});
