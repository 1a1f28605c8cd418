//! The command line end to end: generated --help (and the README's copy of it), shell
//! completions, mlir-opt's single-dash spellings, and bad usage (exit 2, a clap message, no
//! panic, nothing on stdout).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn qd_opt(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qd-opt"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qd-opt starts");
    // qd-opt may exit before reading stdin (usage errors): a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn help_lists_every_documented_flag() {
    for flag in ["--help", "-h", "-help"] {
        let out = qd_opt(&[flag], "");
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let help = text(&out.stdout);
        for documented in [
            "--pass <",
            "-p, --passes",
            "--pass-pipeline",
            "--list-passes",
            "--allow-unregistered-dialect",
            "--split-input-file",
            "--verify-diagnostics",
            "--print-op-generic",
            "--mlir-print-op-generic",
            "--mlir-print-debuginfo",
            "--print-ir-after-all",
            "--print-ir-after <",
            "--pass-timing",
            "--mlir-timing",
            "--pass-statistics",
            "--verify-each[=<BOOL>]",
            "-o, --output",
            "--completions <SHELL>",
            "--max-input-bytes <N>",
        ] {
            assert!(
                help.contains(documented),
                "{flag}: no {documented} in\n{help}"
            );
        }
    }
}

/// The README shows `qd-opt --help`; it must be what the binary prints.
#[test]
fn readme_shows_the_current_help() {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(readme).unwrap();
    let help = text(&qd_opt(&["--help"], "").stdout);
    let marker = "$ qd-opt --help\n";
    let start = readme
        .find(marker)
        .expect("the README shows `$ qd-opt --help`")
        + marker.len();
    let shown = &readme[start..];
    let shown = &shown[..shown.find("```").expect("the help block is closed")];
    assert_eq!(
        shown.trim_end(),
        help.trim_end(),
        "README.md's qd-opt --help is stale"
    );
}

#[test]
fn completions_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef qd-opt"),
        ("fish", "complete -c qd-opt"),
        ("elvish", "qd-opt"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = qd_opt(&["--completions", shell], "");
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        assert!(script.contains(marker), "{shell}: no {marker}");
        assert!(script.contains("pass-pipeline"), "{shell}: no options");
    }
}

#[test]
fn bad_usage_exits_2_with_a_message() {
    for (args, says) in [
        (&["--frobnicate"][..], "unexpected argument '--frobnicate'"),
        (&["-frobnicate"], "unexpected argument '-f'"),
        (&["a.mlir", "b.mlir"], "unexpected argument 'b.mlir'"),
        (&["-o"], "a value is required for '--output <FILE>'"),
        (&["-p", "cse,,dce"], "empty pass name"),
        (&["-p", "canonicalize{x=1"], "unbalanced '{'"),
        (&["--verify-each=maybe"], "expected true or false"),
        (
            &["--pass=cse", "--pass-pipeline=builtin.module(cse)"],
            "cannot be used with",
        ),
        (
            &[
                "--pass-pipeline=builtin.module(cse)",
                "-pass-pipeline=builtin.module(dce)",
            ],
            "cannot be used multiple times",
        ),
        (&["--completions", "tcsh"], "invalid value 'tcsh'"),
        (
            &["--pass-timng"],
            "a similar argument exists: '--pass-timing'",
        ),
        // Pass names, options and pipelines are checked before the input is read.
        (
            &["--pass=no-such-pass"],
            "does not refer to a registered pass",
        ),
        (
            &["-p", "cse,no-such-pass"],
            "does not refer to a registered pass",
        ),
        (
            &["--pass=canonicalize{max-iterations=lots}"],
            "expected an integer",
        ),
        (&["--pass=canonicalize{bogus=1}"], "unknown option 'bogus'"),
        (
            &["--pass-pipeline=builtin.module(cse"],
            "missing closing ')'",
        ),
    ] {
        let out = qd_opt(args, "module {}\n");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
        assert!(
            stderr.contains(says),
            "{args:?}: want {says:?} in\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    }
}

#[test]
fn mlir_opt_single_dash_spellings_work() {
    let input = "module {\n  %0 = \"t.a\"() : () -> i32\n}\n// -----\nmodule {\n}\n";
    let out = qd_opt(
        &[
            "-allow-unregistered-dialect",
            "-split-input-file",
            "-pass-pipeline=builtin.module(cse)",
            "-mlir-print-op-generic",
            "-",
        ],
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains("\"t.a\"() : () -> i32"), "{printed}");
    assert!(printed.contains("// -----"), "{printed}");
    assert!(printed.contains("\"builtin.module\"()"), "{printed}");
}

#[test]
fn passes_from_both_flags_run_in_command_line_order() {
    let input = "module {\n  %0 = \"t.a\"() : () -> i32\n}\n";
    let out = qd_opt(
        &[
            "--allow-unregistered-dialect",
            "--pass=cse",
            "-p",
            "dce,canonicalize{max-iterations=2}",
            "--pass",
            "symbol-dce",
            "--print-ir-after-all",
        ],
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = text(&out.stderr);
    let order: Vec<&str> = log
        .lines()
        .filter_map(|l| l.strip_prefix("// -----// IR Dump After "))
        .filter_map(|l| l.split(['(', ')']).nth(1))
        .collect();
    assert_eq!(order, ["cse", "dce", "canonicalize", "symbol-dce"], "{log}");
}

#[test]
fn inputs_past_the_size_cap_are_errors() {
    let too_large = |name: &str, cap: u64| {
        format!(
            "{name}: error: input is larger than {cap} bytes, the input size cap (raise it with \
             --max-input-bytes)\n"
        )
    };
    // An endless input stops at the cap.
    let out = qd_opt(&["--max-input-bytes", "4096", "/dev/zero"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr), too_large("/dev/zero", 4096));
    assert!(out.stdout.is_empty());
    // stdin too, and mlir-opt's single-dash spelling.
    let module = "module {\n}\n";
    let out = qd_opt(&["-max-input-bytes=10"], module);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr), too_large("<stdin>", 10));
    let out = qd_opt(&["--max-input-bytes", &module.len().to_string()], module);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = qd_opt(&["--max-input-bytes=-5"], module);
    assert_eq!(out.status.code(), Some(2));
}

/// `qd-opt /dev/zero` with the default cap (1 GiB) ends with the error instead of reading until
/// memory runs out.
#[test]
fn an_endless_input_ends_at_the_default_cap() {
    let start = std::time::Instant::now();
    let out = qd_opt(&["/dev/zero"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("input is larger than 1073741824 bytes"),
        "{}",
        text(&out.stderr)
    );
    assert!(start.elapsed().as_secs() < 120, "{:?}", start.elapsed());
}
