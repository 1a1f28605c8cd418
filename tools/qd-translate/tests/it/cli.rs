//! The command line: each --emit kind, -o, the gradient, and errors (located, exit 1; bad usage,
//! exit 2).

use std::path::Path;
use std::process::{Command, Output};

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qd-translate"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("qd-translate runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const MAIN: &str = "examples/dynamic_loop.mlir";

#[test]
fn every_kind_is_emitted() {
    let o = run(&[MAIN, "--kernel", "compute", "--emit=llvm"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("@compute_task0("));
    let o = run(&[MAIN, "--kernel", "compute", "--grad", "--emit", "asm"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("compute_grad_task0:"));
    let dir = std::env::temp_dir().join(format!("qd-translate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("k.o");
    let o = run(&[
        MAIN,
        "--kernel",
        "compute",
        "--emit=obj",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());
    assert_eq!(&std::fs::read(&out).unwrap()[..4], b"\x7fELF");
}

#[test]
fn errors_are_located_with_exit_1() {
    let dir = std::env::temp_dir().join(format!("qd-translate-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.mlir");
    std::fs::write(
        &bad,
        "module {\n  qd.kernel @k() {\n    %x = arith.addi\n  }\n}\n",
    )
    .unwrap();
    let o = run(&[bad.to_str().unwrap(), "--kernel", "k", "--emit=llvm"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("bad.mlir:4:3: error"),
        "{}",
        text(&o.stderr)
    );
    let o = run(&[MAIN, "--kernel", "nope", "--emit=llvm"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("unknown kernel 'nope'"),
        "{}",
        text(&o.stderr)
    );
    let o = run(&["missing.mlir", "--kernel", "k", "--emit=llvm"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("cannot read 'missing.mlir'"));
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &[MAIN, "--kernel", "compute"][..],
        &[MAIN, "--emit=llvm"][..],
        &[MAIN, "--kernel", "compute", "--emit=wasm"][..],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
    }
}

#[test]
fn inputs_past_the_size_cap_are_errors() {
    let size = std::fs::metadata(root().join(MAIN)).unwrap().len();
    let cap = (size - 1).to_string();
    let o = run(&[
        MAIN,
        "--kernel",
        "compute",
        "--emit=llvm",
        "--max-input-bytes",
        &cap,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        format!(
            "error: cannot read '{MAIN}': input is larger than {cap} bytes, the input size cap \
             (raise it with --max-input-bytes)\n"
        )
    );
    let o = run(&[
        "/dev/zero",
        "--kernel",
        "k",
        "--emit=llvm",
        "--max-input-bytes=64",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("larger than 64 bytes"),
        "{}",
        text(&o.stderr)
    );
    let exact = size.to_string();
    let o = run(&[
        MAIN,
        "--kernel",
        "compute",
        "--emit=llvm",
        "--max-input-bytes",
        &exact,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}
