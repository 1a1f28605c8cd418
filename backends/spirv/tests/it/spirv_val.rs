//! Every module the code generator emits for the corpus passes `spirv-val --target-env
//! vulkan1.2`, with every capability (lavapipe's) and with none (32-bit indices, no float
//! atomics), and with each of Int64 and the float-atomic extension alone. A kernel the target
//! cannot run must be refused with an error naming the missing capability.

use crate::corpus::{compile_all, Compiled};
use qd_spirv::Options;
use std::path::PathBuf;
use std::process::Command;

/// spirv-val, or a clear failure (tools/setup.sh installs spirv-tools).
pub fn spirv_val() -> PathBuf {
    for dir in ["/usr/bin", "/usr/local/bin"] {
        let p = PathBuf::from(dir).join("spirv-val");
        if p.exists() {
            return p;
        }
    }
    panic!("spirv-val is missing: install spirv-tools (tools/setup.sh does)");
}

/// Validates `words`; the validator's message on failure.
pub fn validate(words: &[u32], tag: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("qd-spirv-val-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{tag}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&f, bytes).unwrap();
    let out = Command::new(spirv_val())
        .args(["--target-env", "vulkan1.2"])
        .arg(&f)
        .output()
        .expect("spirv-val runs");
    let _ = std::fs::remove_file(&f);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn option_sets() -> Vec<Options> {
    let full = Options::default();
    let none = Options::minimal();
    vec![
        full.clone(),
        Options {
            atomic_float_add: false,
            ..full.clone()
        },
        Options {
            int64: false,
            ..full
        },
        none.clone(),
        Options {
            atomic_float_add: true,
            ..none
        },
    ]
}

fn check(all: &[Compiled]) -> (usize, usize, Vec<String>) {
    let (mut valid, mut refused, mut bad) = (0, 0, Vec::new());
    for (i, c) in all.iter().enumerate() {
        match &c.result {
            Ok(k) => match validate(&k.words, &format!("m{i}")) {
                Ok(()) => valid += 1,
                Err(e) => bad.push(format!("{} with {:?}: spirv-val: {e}", c.what, c.options)),
            },
            Err(e) if e.contains("which the target lacks") => refused += 1,
            Err(e) => bad.push(format!("{} with {:?}: {e}", c.what, c.options)),
        }
    }
    (valid, refused, bad)
}

#[test]
fn corpus_passes_spirv_val_under_every_option_set() {
    let all = compile_all(&option_sets(), false);
    let (valid, refused, bad) = check(&all);
    eprintln!(
        "spirv-val: {valid} modules valid, {refused} refused for a missing capability, {} failed",
        bad.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // With every capability nothing may be refused.
    let full = Options::default();
    let refused_full: Vec<&str> = all
        .iter()
        .filter(|c| c.options == full && c.result.is_err())
        .map(|c| c.what.as_str())
        .collect();
    assert!(refused_full.is_empty(), "{refused_full:?}");
    // The corpus is not empty: kernels and gradients of every directory.
    assert!(valid >= 5 * 60, "only {valid} modules validated");
}

/// The f64 twins of the corpus with every capability: every module compiled passes spirv-val
/// (64-bit compare-exchange loops, f64 heaps, the f64 sin/cos/exp/tanh code); the only refusals
/// are the f64 transcendentals not emulated yet (GLSL.std.450 has them for 32-bit floats only;
/// `libm32`'s are f32 code).
#[test]
fn f64_twins_pass_spirv_val() {
    let no_ext = Options {
        atomic_float_add: false,
        ..Options::default()
    };
    let all = compile_all(&[Options::default(), no_ext], true);
    let (mut valid, mut no_f64_math, mut bad) = (0, 0, Vec::new());
    for (i, c) in all.iter().enumerate() {
        match &c.result {
            Ok(k) => match validate(&k.words, &format!("t{i}")) {
                Ok(()) => valid += 1,
                Err(e) => bad.push(format!("{}: spirv-val: {e}", c.what)),
            },
            Err(e) if e.contains("the SPIR-V backend has no f64") => no_f64_math += 1,
            Err(e) => bad.push(format!("{}: {e}", c.what)),
        }
    }
    eprintln!("f64 twins: {valid} modules valid, {no_f64_math} refused (f64 transcendental)");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(valid >= 2 * 80, "only {valid} f64 modules validated");
}
