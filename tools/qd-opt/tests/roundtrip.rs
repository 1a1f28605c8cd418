//! Every valid chunk of every lit test and example round-trips in both forms, byte for byte:
//! print(parse(x)) is a fixed point of parse-then-print, custom and generic, and the generic form
//! re-parses to the same custom text. Where mlir-opt is installed, it accepts every generic output.

use qd_ir::text::{parse_source, print_op, PrintOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// Inputs that mlir-opt 22 does not round-trip either (its --verify-roundtrip fails on them):
/// affine maps that differ in structure but print alike merge when the text is parsed again, which
/// renumbers the #map aliases. They are still parsed, printed and re-parsed here, and mlir-opt
/// must still accept our generic output; where mlir-opt is installed, the test also checks that it
/// really fails to round-trip them (so an entry cannot outlive its reason).
const NOT_A_FIXED_POINT_IN_MLIR_OPT: &[&str] =
    &["lit-tests/dialect/builtin/Inputs/affine_maps.mlir"];

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

/// Parses and verifies; None when the chunk is (deliberately) invalid.
fn reparse(text: &str) -> Option<(qd_ir::Context, qd_ir::OpId)> {
    let mut ctx = qd_ir::Context::new();
    qd_dialects::register_all_dialects(&mut ctx);
    ctx.allow_unregistered = true;
    let m = parse_source(&mut ctx, text, "chunk.mlir")?;
    qd_ir::verifier::verify(&ctx, m).ok()?;
    Some((ctx, m))
}

fn print(ctx: &qd_ir::Context, m: qd_ir::OpId, generic: bool) -> String {
    print_op(
        ctx,
        m,
        &PrintOptions {
            generic,
            debug_info: false,
        },
    )
}

#[test]
fn every_lit_file_round_trips_in_both_forms() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    mlir_files(&root.join("lit-tests"), &mut files);
    mlir_files(&root.join("examples"), &mut files);
    files.sort();
    let have_mlir_opt = Path::new(MLIR_OPT).exists();
    let (mut checked, mut failures) = (0usize, Vec::new());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, chunk) in text.split("\n// -----\n").enumerate() {
            let Some((ctx, m)) = reparse(chunk) else {
                continue;
            };
            let where_ = format!("{} (chunk {i})", f.display());
            let custom = print(&ctx, m, false);
            let generic = print(&ctx, m, true);
            let Some((c2, m2)) = reparse(&custom) else {
                failures.push(format!(
                    "{where_}: custom output does not re-parse:\n{custom}"
                ));
                continue;
            };
            let upstream_too = NOT_A_FIXED_POINT_IN_MLIR_OPT.iter().any(|x| f.ends_with(x));
            if upstream_too && have_mlir_opt && mlir_opt_round_trips(chunk) {
                failures.push(format!(
                    "{where_}: listed in NOT_A_FIXED_POINT_IN_MLIR_OPT, but mlir-opt round-trips it"
                ));
            }
            if print(&c2, m2, false) != custom && !upstream_too {
                failures.push(format!("{where_}: custom printing is not a fixed point"));
            }
            let Some((g2, n2)) = reparse(&generic) else {
                failures.push(format!(
                    "{where_}: generic output does not re-parse:\n{generic}"
                ));
                continue;
            };
            if (print(&g2, n2, true) != generic || print(&g2, n2, false) != custom) && !upstream_too
            {
                failures.push(format!("{where_}: generic round trip changed the IR"));
            }
            if have_mlir_opt {
                if let Err(e) = mlir_opt_accepts(&generic) {
                    failures.push(format!(
                        "{where_}: mlir-opt rejects our generic output:\n{e}\n{generic}"
                    ));
                }
            }
            checked += 1;
        }
    }
    eprintln!(
        "round-tripped {checked} chunks of {} files (mlir-opt: {have_mlir_opt})",
        files.len()
    );
    assert!(checked >= 50, "too few chunks checked: {checked}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

fn mlir_opt_accepts(generic: &str) -> Result<(), String> {
    let mut child = Command::new(MLIR_OPT)
        .args(["--allow-unregistered-dialect", "-o", "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(generic.as_bytes())
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Whether `mlir-opt --verify-roundtrip` accepts the text.
fn mlir_opt_round_trips(text: &str) -> bool {
    let Ok(mut child) = Command::new(MLIR_OPT)
        .args([
            "--allow-unregistered-dialect",
            "--verify-roundtrip",
            "-o",
            "/dev/null",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    let wrote = child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .is_ok();
    wrote && child.wait().is_ok_and(|s| s.success())
}
