//! Limits: the memory limit on fields and ndarrays (`--memory-limit`), the input size cap
//! (`--max-input-bytes`), the range of `--ad-stack-size`, and the peak memory of printing a
//! large field (streamed, text and --json).

use super::common::{npy, qd_run, root, scratch, write, KERNELS};
use std::process::{Command, Stdio};

const TWO_FIELDS: &[u8] = b"module {\n  qd.field @a : !qd.field<100xf32>\n  qd.field @g : !qd.field<10xf64> {needs_grad}\n  qd.kernel @k() {\n  }\n}\n";

#[test]
fn fields_past_the_memory_limit_are_located_errors() {
    let dir = scratch("memory-limit");
    let f = write(&dir, "m.mlir", TWO_FIELDS);
    // @a: 400 bytes; @g: 80 and 80 for its adjoint.
    let o = qd_run(&[&f, "--kernel", "k", "--memory-limit", "500"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "m.mlir:3:3: error: field @g: cannot allocate 160 bytes (its values and its \
             adjoint): 100 bytes are left under the memory limit of 500 bytes"
        ),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .contains("  qd.field @g : !qd.field<10xf64> {needs_grad}\n  ^"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains("field @a"), "{}", o.stderr);
    for ok in ["560", "1KiB", "auto"] {
        let o = qd_run(&[&f, "--kernel", "k", "--memory-limit", ok, "--print", "g"]);
        assert_eq!(o.code, 0, "--memory-limit {ok}: {}", o.stderr);
    }
    for bad in ["lots", "-1", "1.5G", "99999999999999999999"] {
        let o = qd_run(&[&f, "--kernel", "k", &format!("--memory-limit={bad}")]);
        assert_eq!(o.code, 2, "--memory-limit {bad}: {}", o.stderr);
        assert!(o.stderr.contains("--memory-limit"), "{}", o.stderr);
    }
}

#[test]
fn the_copy_that_repeat_keeps_counts_against_the_limit() {
    let dir = scratch("memory-repeat");
    let f = write(&dir, "m.mlir", TWO_FIELDS);
    // 560 bytes of fields, and as many again for the copy --repeat restarts from.
    let o = qd_run(&[
        &f,
        "--kernel",
        "k",
        "--memory-limit",
        "1000",
        "--repeat",
        "1",
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "qd-run: error: --repeat: a copy of the inputs: cannot allocate 560 bytes: 440 bytes are \
         left under the memory limit of 1000 bytes (as set; qd-run --memory-limit, \
         ProgramConfig::memory_limit)\n"
    );
    let o = qd_run(&[
        &f,
        "--kernel",
        "k",
        "--memory-limit",
        "1120",
        "--repeat",
        "1",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn a_field_larger_than_the_machine_is_refused_by_default() {
    let dir = scratch("memory-auto");
    // 2^48 f64 elements (2 PiB) with an adjoint: no machine has that.
    let f = write(
        &dir,
        "huge.mlir",
        b"module {\n  qd.field @x : !qd.field<16777216x16777216xf64> {needs_grad}\n  qd.kernel @k() {\n  }\n}\n",
    );
    let o = qd_run(&[&f, "--kernel", "k"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "huge.mlir:2:3: error: field @x: cannot allocate 4503599627370496 bytes (its values \
             and its adjoint)"
        ),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("(auto: "), "{}", o.stderr);
}

#[test]
fn ndarray_arguments_past_the_memory_limit_are_refused() {
    let dir = scratch("memory-ndarray");
    let f = write(&dir, "k.mlir", KERNELS.as_bytes());
    // The fields take 74 bytes; an i32 ndarray of 1000 elements 4000.
    let o = qd_run(&[
        &f,
        "--kernel",
        "count",
        "--arg",
        "a=fill(1):1000",
        "--memory-limit",
        "1000",
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "--arg a: ndarray of shape [1000]: cannot allocate 4000 bytes: 926 bytes are left \
             under the memory limit of 1000 bytes"
        ),
        "{}",
        o.stderr
    );
    let o = qd_run(&[
        &f,
        "--kernel",
        "count",
        "--arg",
        "a=fill(1):100",
        "--memory-limit",
        "1000",
        "--print",
        "n",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout, "n = [1, 1, 1, 1]\n");
}

#[test]
fn inputs_past_the_size_cap_are_errors() {
    let dir = scratch("input-cap");
    let f = write(&dir, "k.mlir", KERNELS.as_bytes());
    let cap = (KERNELS.len() - 1).to_string();
    let o = qd_run(&[&f, "--kernel", "noop", "--max-input-bytes", &cap]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        format!(
            "qd-run: error: cannot read '{f}': input is larger than {cap} bytes, the input size \
             cap (raise it with --max-input-bytes)\n"
        )
    );
    let exact = KERNELS.len().to_string();
    let o = qd_run(&[&f, "--kernel", "noop", "--max-input-bytes", &exact]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // A .npy file counts too: 64 bytes of data and a 128-byte header.
    let data = npy("<f4", &[16], &[0; 64]);
    let x = write(&dir, "x.npy", &data);
    let set = format!("x={x}");
    let k = write(
        &dir,
        "x.mlir",
        b"module {\n  qd.field @x : !qd.field<16xf32>\n  qd.kernel @k() {\n  }\n}\n",
    );
    let base = [k.as_str(), "--kernel", "k", "--set", &set];
    let small = (data.len() - 1).to_string();
    let o = qd_run(&[&base[..], &["--max-input-bytes", &small]].concat());
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!(
            "--set x: cannot read '{x}': input is larger than {small} bytes"
        )),
        "{}",
        o.stderr
    );
    let o = qd_run(&base);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // An endless input stops at the cap.
    let o = qd_run(&["/dev/zero", "--kernel", "k", "--max-input-bytes", "4096"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("larger than 4096 bytes"), "{}", o.stderr);
}

#[test]
fn ad_stack_sizes_out_of_range_are_usage_errors() {
    let base = ["examples/dynamic_loop.mlir", "--kernel", "compute"];
    for n in [
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "-1",
    ] {
        let o = qd_run(&[&base[..], &[format!("--ad-stack-size={n}").as_str()]].concat());
        assert_eq!(o.code, 2, "--ad-stack-size {n}: {}", o.stderr);
        assert!(
            o.stderr.contains("'--ad-stack-size <N>'"),
            "--ad-stack-size {n}: {}",
            o.stderr
        );
    }
    let o = qd_run(&[&base[..], &["--ad-stack-size", "9223372036854775808"]].concat());
    assert!(
        o.stderr
            .contains("9223372036854775808 is not in 0..=9223372036854775807"),
        "{}",
        o.stderr
    );
    // The largest is accepted (this kernel has no adstack to size).
    let o = qd_run(&[&base[..], &["--ad-stack-size", "9223372036854775807"]].concat());
    assert_eq!(o.code, 0, "{}", o.stderr);
}

/// Runs qd-run with `args` (stdout and stderr discarded) and returns whether it succeeded and
/// its peak resident memory in bytes (wait4's ru_maxrss, for this child only).
// The child is reaped by wait4 (for its rusage), not by std's Child::wait.
#[allow(clippy::zombie_processes)]
fn peak_rss(args: &[&str]) -> (bool, u64) {
    let child = Command::new(env!("CARGO_BIN_EXE_qd-run"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("qd-run starts");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for the child `pid`, which std has not
    // reaped (the Child is never waited on).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    (ok, usage.ru_maxrss as u64 * 1024)
}

#[test]
fn printing_a_large_field_streams_it() {
    const N: u64 = 10_000_000;
    let field_bytes = 4 * N;
    let dir = scratch("print-peak");
    let file = |n: u64| {
        let text = format!(
            "module {{\n  qd.field @x : !qd.field<{n}xf32>\n  qd.kernel @k() {{\n  }}\n}}\n"
        );
        write(&dir, &format!("f{n}.mlir"), text.as_bytes())
    };
    let (small, big) = (file(10), file(N));
    for json in [false, true] {
        let run = |f: &str| {
            let mut args = vec![f, "--kernel", "k", "--device", "interp"];
            args.extend(["--set", "x=fill(1.5)", "--print", "x"]);
            if json {
                args.push("--json");
            }
            let (ok, peak) = peak_rss(&args);
            if !ok {
                panic!("qd-run {args:?} failed:\n{}", qd_run(&args).stderr);
            }
            peak
        };
        let baseline = run(&small);
        let peak = run(&big);
        // The set values (the field itself) and the output buffer: well under twice the field.
        assert!(
            peak < baseline + 2 * field_bytes,
            "--print x{}: peak {peak} bytes, baseline {baseline}, field {field_bytes}",
            if json { " --json" } else { "" }
        );
    }
}
