//! With feature `mlir`: runs lit-tests/mlir-export (every example and gradient kernel exported
//! to upstream MLIR and verified by mlir-opt) and lit-tests/mlir-import (upstream MLIR imported,
//! differentiated and run) with this build's qd-translate; fails on any lit failure, and (through
//! QD_REQUIRE_MLIR) if qd-translate lacks the feature instead of skipping.

use std::path::Path;
use std::process::Command;

const LIT: &str = "/usr/lib/llvm-22/bin/lit";

#[test]
fn lit_mlir_export_and_import() {
    let exe = Path::new(env!("CARGO_BIN_EXE_qd-translate"));
    let bin_dir = exe.parent().expect("qd-translate has a parent directory");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    assert!(
        Path::new(LIT).exists(),
        "{LIT} is missing: run tools/setup.sh"
    );
    let status = Command::new(LIT)
        .args(["-sv"])
        .arg(root.join("lit-tests/mlir-export"))
        .arg(root.join("lit-tests/mlir-import"))
        .env("QD_BIN_DIR", bin_dir)
        .env("QD_REQUIRE_TRANSLATE", "1")
        .env("QD_REQUIRE_MLIR", "1")
        .status()
        .expect("failed to run lit");
    assert!(
        status.success(),
        "lit reported failures (see the output above)"
    );
}
