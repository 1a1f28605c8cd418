//! Shared helpers: contexts with every dialect the pass reads or writes, parsing, running the
//! pass, verifying and printing.

use qd_autodiff::{reverse_mode_ad, Options, Report};
use qd_ir::text::{parse_source, print_op, PrintOptions, SourceMgr};
use qd_ir::{Context, OpId};

pub fn context() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_arith::dialect());
    ctx.register_dialect(qd_math::dialect());
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(qd_ad::dialect());
    ctx.register_dialect(qd_adstack::dialect());
    ctx
}

/// Renders the context's diagnostics against `src`.
pub fn rendered(ctx: &Context, src: &str, name: &str) -> String {
    let mut sm = SourceMgr::new();
    sm.add_buffer(name, src);
    ctx.diagnostics()
        .iter()
        .map(|d| sm.render(ctx, d))
        .collect()
}

/// Parses and verifies `src`.
pub fn parse(src: &str) -> (Context, OpId) {
    let mut ctx = context();
    let Some(m) = parse_source(&mut ctx, src, "input.mlir") else {
        panic!("parse failed:\n{}", rendered(&ctx, src, "input.mlir"));
    };
    if let Err(d) = qd_ir::verifier::verify(&ctx, m) {
        for x in d {
            ctx.emit(x);
        }
        panic!(
            "the input does not verify:\n{}",
            rendered(&ctx, src, "input.mlir")
        );
    }
    (ctx, m)
}

/// Runs reverse-mode-ad (default options) and verifies the result; panics on any error.
pub fn differentiate(src: &str) -> (Context, OpId, Report) {
    let (mut ctx, m) = parse(src);
    let report = match reverse_mode_ad(&mut ctx, m, &Options::default()) {
        Ok(r) => r,
        Err(_) => panic!(
            "reverse-mode-ad failed:\n{}",
            rendered(&ctx, src, "input.mlir")
        ),
    };
    if let Err(d) = qd_ir::verifier::verify(&ctx, m) {
        let mut ctx2 = ctx;
        for x in d {
            ctx2.emit(x);
        }
        panic!(
            "the produced module does not verify:\n{}\n{}",
            rendered(&ctx2, src, "input.mlir"),
            print(&ctx2, m)
        );
    }
    (ctx, m, report)
}

/// The errors reverse-mode-ad reports on `src` (which must fail), as `line: message`.
pub fn errors(src: &str) -> Vec<String> {
    let (mut ctx, m) = parse(src);
    assert!(
        reverse_mode_ad(&mut ctx, m, &Options::default()).is_err(),
        "reverse-mode-ad was expected to fail"
    );
    ctx.diagnostics()
        .iter()
        .map(|d| {
            let line = ctx.file_line_col(d.loc).map(|(_, l, _)| l).unwrap_or(0);
            format!("{line}: {}", d.message)
        })
        .collect()
}

pub fn print(ctx: &Context, op: OpId) -> String {
    print_op(
        ctx,
        op,
        &PrintOptions {
            generic: false,
            debug_info: false,
        },
    )
}

/// The text of `examples/NAME` at the workspace root.
pub fn example(name: &str) -> String {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The number of `adstack.alloca` ops in kernel `name` of `module`.
pub fn stacks_in(ctx: &Context, module: OpId, name: &str) -> usize {
    let k = ctx
        .walk_pre_order(module)
        .into_iter()
        .find(|&o| qd_frontend::KernelOp::from_op(ctx, o).is_some_and(|k| k.name(ctx) == name))
        .unwrap_or_else(|| panic!("no kernel @{name}"));
    ctx.walk_pre_order(k)
        .into_iter()
        .filter(|&o| ctx.name(o) == qd_adstack::ALLOCA_OP)
        .count()
}
