//! A deterministic fuzz pass: every lit test and example, cut at many byte offsets and with bytes
//! flipped, goes through parse + verify + print in-process. Nothing may panic, and whatever
//! verifies must print text that parses again.

use qd_ir::text::{parse_source, print_op, PrintOptions};
use std::path::{Path, PathBuf};

fn mlir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            mlir_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "mlir") {
            out.push(p);
        }
    }
}

fn context(allow_unregistered: bool) -> qd_ir::Context {
    let mut ctx = qd_ir::Context::new();
    qd_dialects::register_all_dialects(&mut ctx);
    ctx.allow_unregistered = allow_unregistered;
    ctx
}

fn exercise(text: &str) {
    let mut ctx = context(true);
    let Some(module) = parse_source(&mut ctx, text, "t.mlir") else {
        return;
    };
    if qd_ir::verifier::verify(&ctx, module).is_err() {
        return;
    }
    let printed = print_op(&ctx, module, &PrintOptions::default());
    let mut again = context(true);
    assert!(
        parse_source(&mut again, &printed, "p.mlir").is_some(),
        "printed IR does not parse:\n{printed}"
    );
}

#[test]
fn truncated_and_mutated_inputs_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    mlir_files(&root.join("lit-tests"), &mut files);
    mlir_files(&root.join("examples"), &mut files);
    files.sort();
    assert!(!files.is_empty());
    let mut cases = 0usize;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let step = (text.len() / 64).max(1);
        for cut in (0..text.len())
            .step_by(step)
            .filter(|&c| text.is_char_boundary(c))
        {
            exercise(&text[..cut]);
            // Replace one byte with a structural character.
            for sub in ["}", "%", ":", "\"", "<"] {
                if text.is_char_boundary(cut + 1) && cut < text.len() {
                    let mutated = format!("{}{}{}", &text[..cut], sub, &text[cut + 1..]);
                    exercise(&mutated);
                }
            }
            cases += 1;
        }
    }
    eprintln!("exercised {cases} cut points over {} files", files.len());
}
