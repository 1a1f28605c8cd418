//! The malformed-input corpus (tests/malformed/*.mlir): each file names its extra arguments
//! (`// ARGS: ...`) and expected exit status (`// EXIT: 1` for input errors, 2 for usage errors).
//! Every case must fail with that status and a diagnostic, never a panic; input errors must carry
//! a `file:line:col: error:` location.

use std::path::Path;
use std::process::Command;

fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .take(4)
        .find_map(|l| l.strip_prefix(&format!("// {key}: ")))
}

#[test]
fn malformed_corpus_fails_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 30, "corpus too small: {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let args: Vec<&str> = header(&text, "ARGS")
            .map(|a| a.split(' ').collect())
            .unwrap_or_default();
        let want: i32 = header(&text, "EXIT")
            .expect("every corpus file states its EXIT")
            .trim()
            .parse()
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_qd-opt"))
            .args(&args)
            .arg(path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let code = out.status.code();
        if code != Some(want) {
            failures.push(format!("{name}: exit {code:?}, want {want}\n{stderr}"));
            continue;
        }
        if stderr.contains("panicked") || !stderr.contains("error") {
            failures.push(format!("{name}: no clean diagnostic:\n{stderr}"));
            continue;
        }
        // Input errors point into the file.
        let located =
            stderr.contains(&format!("{}:", path.display())) && stderr.contains(": error:");
        if want == 1 && !located {
            failures.push(format!(
                "{name}: diagnostic without a file:line:col location:\n{stderr}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} malformed inputs misbehaved:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
