//! The func dialect through text: custom and generic forms round-trip and print as mlir-opt 22
//! does (tests/func/roundtrip.rs), and the verifiers give mlir-opt's messages (verify.rs).

mod build;
mod roundtrip;
mod verify;

use qd_ir::text::{parse_source, print_op, PrintOptions};
use qd_ir::{Context, OpId};

pub fn ctx() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_func::dialect());
    ctx.register_dialect(qd_arith::dialect());
    ctx.allow_unregistered = true;
    ctx
}

/// Parses `src` (panicking with the diagnostics when it does not parse).
pub fn parse(ctx: &mut Context, src: &str) -> OpId {
    match parse_source(ctx, src, "t.mlir") {
        Some(m) => m,
        None => panic!("parse failed: {:?}\n{src}", ctx.diagnostics()),
    }
}

pub fn print(ctx: &Context, m: OpId, generic: bool) -> String {
    let opts = PrintOptions {
        generic,
        ..PrintOptions::default()
    };
    print_op(ctx, m, &opts)
}

/// The verifier's messages as `line:col: message` (notes as `note line:col: message`).
pub fn errors(src: &str) -> Vec<String> {
    let mut ctx = ctx();
    let m = parse(&mut ctx, src);
    match qd_ir::verifier::verify(&ctx, m) {
        Ok(()) => Vec::new(),
        Err(diags) => diags
            .iter()
            .flat_map(|d| {
                let at = |l| {
                    ctx.file_line_col(l)
                        .map(|(_, l, c)| format!("{l}:{c}"))
                        .unwrap_or_default()
                };
                std::iter::once(format!("{}: {}", at(d.loc), d.message)).chain(
                    d.notes
                        .iter()
                        .map(move |n| format!("note {}: {}", at(n.loc), n.message)),
                )
            })
            .collect(),
    }
}
