//! Every kernel of the gradient corpus (`examples/grad/`, see its README.md) end to end through
//! `qd-run --grad`: its directives become the command line (`GRAD-SET` -> `--set`, `GRAD-ARG`
//! -> `--arg`, `GRAD-SEED` -> `--grad`, `GRAD-WRT` -> `--print NAME.grad`, `GRAD-AD-STACK-SIZE`
//! -> `--ad-stack-size`); qd-run must succeed and print each gradient with its input's shape,
//! finite and not all zero, on the default device (cpu). (qd-autodiff's corpus test checks the
//! values against finite differences; devices.rs compares every device with the interpreter.)

use super::common::*;
use std::path::{Path, PathBuf};

/// The qd-run arguments of a corpus file, and the checked inputs: (name, whether it is a field,
/// the expected element count for an ndarray).
pub(super) struct Command {
    pub(super) args: Vec<String>,
    wrt: Vec<(String, bool, usize)>,
}

/// The element count of an ndarray VALUES: its `:SHAPE`, else the list's length.
fn ndarray_count(values: &str) -> usize {
    match values.rsplit_once(':') {
        Some((_, shape)) => shape
            .split('x')
            .map(|d| d.parse::<usize>().unwrap())
            .product(),
        None => values.split(',').count(),
    }
}

pub(super) fn command(path: &Path) -> Command {
    let text = std::fs::read_to_string(path).unwrap();
    let mut file = path.to_path_buf();
    let mut args = Vec::new();
    let (mut sets, mut ndarrays, mut wrt_names) = (Vec::new(), Vec::new(), Vec::new());
    for line in text.lines() {
        let Some((key, value)) = line
            .trim_start()
            .strip_prefix("// GRAD-")
            .and_then(|d| d.split_once(':'))
        else {
            continue;
        };
        let value = value.trim();
        let before_reason = value.split(';').next().unwrap().trim();
        let name = value.split('=').next().unwrap().trim().to_string();
        match key {
            "SOURCE" => file = path.parent().unwrap().join(value),
            "KERNEL" => args.extend(["--kernel".into(), value.into()]),
            "SET" => {
                sets.push(name);
                args.extend(["--set".into(), value.into()]);
            }
            "ARG" => {
                let values = value.split_once('=').unwrap().1;
                ndarrays.push((name, ndarray_count(values)));
                args.extend(["--arg".into(), value.into()]);
            }
            "SEED" => args.extend(["--grad".into(), value.into()]),
            "WRT" => wrt_names.push(value.to_string()),
            "AD-STACK-SIZE" => args.extend(["--ad-stack-size".into(), before_reason.into()]),
            _ => {}
        }
    }
    let mut wrt = Vec::new();
    for w in wrt_names {
        args.extend(["--print".into(), format!("{w}.grad")]);
        if sets.contains(&w) {
            args.extend(["--print".into(), w.clone()]);
            wrt.push((w, true, 0));
        } else {
            let n = ndarrays
                .iter()
                .find(|(a, _)| *a == w)
                .expect("an ndarray")
                .1;
            wrt.push((w, false, n));
        }
    }
    args.insert(0, file.to_str().unwrap().to_string());
    Command { args, wrt }
}

/// The numbers qd-run printed for `name` (`name = [...]`, over one or several lines, or
/// `name = v` for a 0-d field).
fn printed(stdout: &str, name: &str) -> Vec<f64> {
    let start = stdout
        .find(&format!("\n{name} = "))
        .map(|i| i + 1)
        .or_else(|| stdout.starts_with(&format!("{name} = ")).then_some(0))
        .unwrap_or_else(|| panic!("no {name} in:\n{stdout}"));
    let rest = &stdout[start + name.len() + 3..];
    if !rest.starts_with('[') {
        let line = rest.lines().next().unwrap_or("");
        let v = line
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}: bad number {line}"));
        return vec![v];
    }
    let mut depth = 0;
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            _ => {}
        }
    }
    rest[..end]
        .split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .unwrap_or_else(|_| panic!("{name}: bad number {s}"))
        })
        .collect()
}

/// The gradient corpus: `examples/grad/` and the ports of the peer's autodiff tests in
/// `examples/grad/peer/`.
pub(super) fn corpus_files() -> Vec<PathBuf> {
    let mut files = own_corpus_files();
    files.extend(kernel_files(&root().join("examples/grad/peer")));
    files
}

/// `examples/grad/` without the peer ports (the guard tests run these: each file costs several
/// guarded runs, and the ports add no construct the guard would see differently).
pub(super) fn own_corpus_files() -> Vec<PathBuf> {
    kernel_files(&root().join("examples/grad"))
}

/// The `.mlir` and `.grad` files of `dir`, sorted by name.
fn kernel_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("mlir" | "grad")
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_kernel_runs_through_qd_run_grad() {
    let files = corpus_files();
    assert!(files.len() >= 25, "{} corpus files", files.len());
    let mut failures = Vec::new();
    for path in files {
        let c = command(&path);
        let argv: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let o = qd_run(&argv);
        let name = path.file_name().unwrap().to_string_lossy();
        if o.code != 0 || !o.stderr.is_empty() {
            failures.push(format!(
                "{name}: qd-run {argv:?} exited {}:\n{}",
                o.code, o.stderr
            ));
            continue;
        }
        for (w, field, n) in &c.wrt {
            let g = printed(&o.stdout, &format!("{w}.grad"));
            let want = if *field {
                printed(&o.stdout, w).len()
            } else {
                *n
            };
            if g.len() != want || g.iter().any(|v| !v.is_finite()) || g.iter().all(|&v| v == 0.0) {
                failures.push(format!(
                    "{name}: {w}.grad = {g:?} (want {want} finite values, not all 0)"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn printed_values_over_several_lines() {
    let out = "x.grad: shape [2, 2]\nx.grad = [[1, -2.5e-3],\n          [3, 4]]\nx = [0.5, 1]\n";
    assert_eq!(printed(out, "x.grad"), [1.0, -2.5e-3, 3.0, 4.0]);
    assert_eq!(printed(out, "x"), [0.5, 1.0]);
    assert_eq!(printed("x.grad = 120.0\nx = 1.0\n", "x.grad"), [120.0]);
    assert_eq!(printed("x.grad = 120.0\nx = 1.0\n", "x"), [1.0]);
    assert_eq!(ndarray_count("linspace(0,1):4x5"), 20);
    assert_eq!(ndarray_count("1,2,3"), 3);
}
