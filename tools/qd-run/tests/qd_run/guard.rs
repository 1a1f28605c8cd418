//! No adstack write lands outside its stack's slice on the `cpu` device, for every kernel of
//! the gradient corpus and the shared examples (their `.grad` sidecars), with stacks as sized
//! and forced too small (where pushes at capacity must write nothing and pops clamp at 0).
//!
//! Two guards of the device (qd-llvm's `guard`, chosen by `QD_CPU_ADSTACK_GUARD`), because in
//! the normal layout a stray write lands in a neighbouring slice or row of the same allocation,
//! which valgrind cannot see:
//!
//! - `canary`: red zones of a known pattern around every slice, checked by the device after
//!   every task (a changed byte is an error naming the stack). Native speed, so it runs the
//!   whole corpus at every size here.
//! - `exact`: every slice its own allocation of exactly its bytes, under valgrind's memcheck,
//!   which flags any read or write past it. Valgrind costs about 10 s per qd-run here (it
//!   translates LLVM's code in every process), so the whole corpus would take about 4 minutes
//!   on two cores; it runs the smallest set of files that covers every construct tag
//!   (`GRAD-COVERS`) instead, with stacks forced to 1 entry: the runs where pushes meet the
//!   capacity, the case a guard is for. qd-llvm's `guard` test shows both guards catch a
//!   planted write.

use super::common::*;
use super::corpus::{command, own_corpus_files};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

const GUARD_ENV: &str = "QD_CPU_ADSTACK_GUARD";

/// The words of a guard's error (qd_llvm::guard::Violation::message).
const GUARD_ERROR: &str = "adstack guard:";

/// A corpus file's `qd-run --grad` arguments on the cpu device, its stacks forced to `size`
/// entries when given (replacing the file's own `GRAD-AD-STACK-SIZE`).
fn cpu_args(path: &Path, size: Option<u32>) -> Vec<String> {
    let mut args = Vec::new();
    let mut it = command(path).args.into_iter();
    while let Some(a) = it.next() {
        if a == "--ad-stack-size" && size.is_some() {
            it.next();
        } else {
            args.push(a);
        }
    }
    if let Some(n) = size {
        args.extend(["--ad-stack-size".into(), n.to_string()]);
    }
    args.extend(["--device".into(), "cpu".into()]);
    args
}

/// Runs `program` (qd-run, or valgrind on it) with `args` and the guard `guard`.
fn run_guarded(program: &Path, args: &[String], guard: &str) -> Out {
    let out = Command::new(program)
        .args(args)
        .env(GUARD_ENV, guard)
        .current_dir(root())
        .output()
        .expect("the program starts");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn qd_run_exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_qd-run"))
}

/// What is wrong with a run: a sized run must succeed quietly; a forced one may instead stop
/// at an adstack overflow (exit 1); neither may report a guard error or die of a signal.
fn problem(o: &Out, forced: bool) -> Option<String> {
    let overflow = o.code == 1 && o.stderr.contains("error: adstack overflow in kernel");
    let fine = (o.code == 0 && o.stderr.is_empty()) || (forced && overflow);
    (!fine || o.stderr.contains(GUARD_ERROR)).then(|| format!("exit {}:\n{}", o.code, o.stderr))
}

#[test]
fn every_corpus_kernel_writes_only_in_its_stacks_slices() {
    let files = own_corpus_files();
    assert!(files.len() >= 30, "{} corpus files", files.len());
    let exe = qd_run_exe();
    let (mut failures, mut overflows, mut forced) = (Vec::new(), 0, 0);
    for path in &files {
        // A kernel without adstacks cannot overflow them: only the others count below.
        forced += if has_stacks(path) { 2 } else { 0 };
        let name = path.file_name().unwrap().to_string_lossy();
        for size in [None, Some(1), Some(2)] {
            let o = run_guarded(&exe, &cpu_args(path, size), "canary");
            overflows += usize::from(o.code == 1);
            if let Some(p) = problem(&o, size.is_some()) {
                failures.push(format!("{name}, stacks {size:?}: {p}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The forced runs of kernels with stacks must meet their capacity, not only pass.
    assert!(
        forced >= 40,
        "only {forced} forced runs of kernels with adstacks"
    );
    assert!(
        4 * overflows >= 3 * forced,
        "only {overflows} of {forced} forced runs overflowed"
    );
}

/// Whether a corpus file's gradient kernel has adstacks: its `GRAD-STACKS` (checked against
/// the pass by qd-autodiff's corpus test) is not 0.
fn has_stacks(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).expect("corpus file reads");
    !text.lines().any(|l| {
        l.trim_start()
            .strip_prefix("// GRAD-STACKS:")
            .is_some_and(|v| v.trim() == "0")
    })
}

#[test]
fn the_guard_variable_reaches_qd_runs_cpu_device() {
    // Without this, a renamed variable would leave every guarded run above unguarded.
    let path = root().join("examples/grad/dynamic_loop.grad");
    let o = run_guarded(&qd_run_exe(), &cpu_args(&path, None), "bogus");
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("QD_CPU_ADSTACK_GUARD='bogus': expected 'off', 'canary' or 'exact'"),
        "{}",
        o.stderr
    );
}

/// The construct tags of a corpus file (`GRAD-COVERS`).
fn tags(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("// GRAD-COVERS:"))
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// A greedy cover of every construct tag of `files`: the file adding the most
/// uncovered tags, the first in order on ties.
fn tag_cover(files: &[PathBuf]) -> Vec<PathBuf> {
    let tagged: Vec<(&PathBuf, BTreeSet<String>)> = files.iter().map(|f| (f, tags(f))).collect();
    let mut left: BTreeSet<String> = tagged.iter().flat_map(|(_, t)| t.clone()).collect();
    let mut chosen = Vec::new();
    while !left.is_empty() {
        let (f, t) = tagged
            .iter()
            .rev()
            .max_by_key(|(_, t)| t.intersection(&left).count())
            .unwrap();
        left = left.difference(t).cloned().collect();
        chosen.push((*f).clone());
    }
    chosen
}

#[test]
fn the_cover_names_every_tag() {
    let files = own_corpus_files();
    let cover = tag_cover(&files);
    let all: BTreeSet<String> = files.iter().flat_map(|f| tags(f)).collect();
    let covered: BTreeSet<String> = cover.iter().flat_map(|f| tags(f)).collect();
    assert!(all.len() >= 25, "{all:?}");
    assert_eq!(covered, all);
    assert!(cover.len() < files.len(), "{cover:?}");
}

/// A copy of qd-run without debug information in `dir`: valgrind 3.19 cannot read the DWARF 5
/// of this toolchain and gives up. Symbols stay, so its reports still name functions.
fn stripped_qd_run(dir: &Path) -> PathBuf {
    let out = dir.join("qd-run");
    let st = Command::new("objcopy")
        .arg("--strip-debug")
        .arg(qd_run_exe())
        .arg(&out)
        .status()
        .expect("objcopy (binutils) runs");
    assert!(st.success(), "objcopy --strip-debug failed");
    out
}

/// Valgrind's memcheck, addressability only (definedness tracking doubles the time and is not
/// what this test is about); 99 is its exit status when it reported an error.
fn memcheck(exe: &Path, args: &[String]) -> Vec<String> {
    let mut v: Vec<String> = [
        "--tool=memcheck",
        "--error-exitcode=99",
        "--undef-value-errors=no",
        "--leak-check=no",
        "--redzone-size=128",
        "-q",
    ]
    .map(String::from)
    .to_vec();
    v.push(exe.to_str().unwrap().to_string());
    v.extend_from_slice(args);
    v
}

#[test]
fn valgrind_sees_no_access_outside_an_exact_slice() {
    let valgrind = Command::new("valgrind").arg("--version").output();
    assert!(
        valgrind.is_ok_and(|o| o.status.success()),
        "valgrind is missing: tools/setup.sh installs it"
    );
    let dir = scratch("guard-valgrind");
    let exe = stripped_qd_run(&dir);
    let cover = tag_cover(&own_corpus_files());
    let queue = Mutex::new(cover.clone());
    let failures = Mutex::new(Vec::new());
    let overflows = Mutex::new(0);
    // Two at a time: the machines this runs on have two cores.
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(path) = queue.lock().unwrap().pop() else {
                    break;
                };
                let args = memcheck(&exe, &cpu_args(&path, Some(1)));
                let o = run_guarded(Path::new("valgrind"), &args, "exact");
                *overflows.lock().unwrap() += usize::from(o.code == 1);
                if let Some(p) = problem(&o, true) {
                    let name = path.file_name().unwrap().to_string_lossy().to_string();
                    failures.lock().unwrap().push(format!("{name}: {p}"));
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let overflows = overflows.into_inner().unwrap();
    assert!(
        overflows * 2 >= cover.len(),
        "only {overflows} of {} runs overflowed",
        cover.len()
    );
}
