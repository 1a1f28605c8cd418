//! Runs lit-tests/translate (the emitted LLVM IR checked with FileCheck) with this build's
//! qd-translate; fails on any lit failure or if the tests cannot find qd-translate.

use std::path::Path;
use std::process::Command;

const LIT: &str = "/usr/lib/llvm-22/bin/lit";

#[test]
fn lit_translate() {
    let exe = Path::new(env!("CARGO_BIN_EXE_qd-translate"));
    let bin_dir = exe.parent().expect("qd-translate has a parent directory");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    assert!(
        Path::new(LIT).exists(),
        "{LIT} is missing: run tools/setup.sh"
    );
    let status = Command::new(LIT)
        .args(["-sv"])
        .arg(root.join("lit-tests/translate"))
        .env("QD_BIN_DIR", bin_dir)
        .env("QD_REQUIRE_TRANSLATE", "1")
        .status()
        .expect("failed to run lit");
    assert!(
        status.success(),
        "lit reported failures (see the output above)"
    );
}
