//! Runs the whole lit suite (lit-tests/) as part of `cargo test`; fails on any lit failure.

use std::path::Path;
use std::process::Command;

const LIT: &str = "/usr/lib/llvm-22/bin/lit";

#[test]
fn lit_suite() {
    let qd_opt = Path::new(env!("CARGO_BIN_EXE_qd-opt"));
    let bin_dir = qd_opt.parent().expect("qd-opt has a parent directory");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    assert!(
        Path::new(LIT).exists(),
        "{LIT} is missing: run tools/setup.sh (the README's commands do)"
    );
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .to_string();
    let status = Command::new(LIT)
        .args(["-sv", "-j", &workers])
        .arg(root.join("lit-tests"))
        .env("QD_BIN_DIR", bin_dir)
        .status()
        .expect("failed to run lit");
    assert!(
        status.success(),
        "lit reported failures (see the output above)"
    );
}
