//! Parse, verify and print arbitrary text: nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qd_ir::text::{parse_source, print_op, PrintOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for allow_unregistered in [false, true] {
        let mut ctx = qd_ir::Context::new();
        qd_dialects::register_all_dialects(&mut ctx);
        ctx.allow_unregistered = allow_unregistered;
        if let Some(module) = parse_source(&mut ctx, text, "fuzz.mlir") {
            if qd_ir::verifier::verify(&ctx, module).is_ok() {
                for generic in [false, true] {
                    let printed = print_op(&ctx, module, &PrintOptions { generic, debug_info: false });
                    // What we print must parse again.
                    let mut ctx2 = qd_ir::Context::new();
                    qd_dialects::register_all_dialects(&mut ctx2);
                    ctx2.allow_unregistered = allow_unregistered;
                    assert!(parse_source(&mut ctx2, &printed, "printed.mlir").is_some(), "{printed}");
                }
            }
        }
    }
});
