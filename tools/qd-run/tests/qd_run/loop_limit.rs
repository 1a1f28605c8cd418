//! `--device vulkan` on lavapipe, whose driver stops a shader invocation's loops after 65535
//! iterations in all (Mesa gallivm's loop limiter): a launch whose thread reaches that count is
//! a located runtime error (exit 1, no output), never a cut-short result; under the limit the
//! results are the `cpu` device's. Forward loops, nested loops (the limit is shared), threads the
//! driver runs together (they share the count) and a gradient kernel whose replay and reverse
//! loops together pass it. The tests pin the loader to lavapipe and skip, with a note, where it
//! is not installed.

use super::common::*;
use std::process::Command;

const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// The reproducer of the bug: one thread, one serial loop of `n` steps adding 1 to a local and
/// atomically to `@cnt`.
const SERIAL: &str = "module {
  qd.field @loss : !qd.field<f32>
  qd.field @cnt : !qd.field<i32>

  qd.kernel @k(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      %p = qd.alloca : !qd.ptr<f32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %p : !qd.ptr<f32>
      qd.range_for %k = %c0 to %n : i32 {
        %one = arith.constant 1.0 : f32
        %v = qd.local_load %p : !qd.ptr<f32>
        %w = arith.addf %v, %one : f32
        qd.local_store %w, %p : !qd.ptr<f32>
        qd.atomic_add %c1, @cnt[] : i32
      }
      %f = qd.local_load %p : !qd.ptr<f32>
      qd.store %f, @loss[] : f32
    }
  }
}
";

/// `m` x `n` nested serial loops (bounds in fields) counting into `@cnt`.
const NESTED: &str = "module {
  qd.field @cnt : !qd.field<i32>
  qd.field @m : !qd.field<i32>
  qd.field @n : !qd.field<i32>

  qd.kernel @k() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %m = qd.load @m[] : i32
    %n = qd.load @n[] : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      qd.range_for %j = %c0 to %m : i32 {
        qd.range_for %k = %c0 to %n : i32 {
          qd.atomic_add %c1, @cnt[] : i32
        }
      }
    }
  }
}
";

/// 8 threads (one lavapipe subgroup): even ones run `n` steps in one loop, odd ones `n` steps
/// in another. No thread runs more than `n + 1` passes, but the subgroup runs both loops, one
/// after the other, and the driver counts the subgroup's passes.
const DIVERGENT: &str = "module {
  qd.field @cnt : !qd.field<8xi32>
  qd.field @n : !qd.field<i32>

  qd.kernel @k() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c8 = arith.constant 8 : i32
    %n = qd.load @n[] : i32
    qd.range_for %i = %c0 to %c8 : i32 {
      %r = arith.remsi %i, %c2 : i32
      %even = arith.cmpi eq, %r, %c0 : i32
      qd.if %even {
        qd.range_for %k = %c0 to %n : i32 {
          qd.atomic_add %c1, @cnt[%i] : i32
        }
      }
      %odd = arith.cmpi ne, %r, %c0 : i32
      qd.if %odd {
        qd.range_for %q = %c0 to %n : i32 {
          qd.atomic_add %c1, @cnt[%i] : i32
        }
      }
    }
  }
}
";

/// `loss = sin^n(x)`: the gradient replays the `n` steps (pushing each value) and runs them
/// back, about 2n loop passes where the forward runs n.
const GRAD: &str = "module {
  qd.field @x : !qd.field<f32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}
  qd.field @n : !qd.field<i32>

  qd.kernel @k() {
    %n = qd.load @n[] : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      %p = qd.alloca : !qd.ptr<f32>
      %x = qd.load @x[] : f32
      qd.local_store %x, %p : !qd.ptr<f32>
      qd.range_for %k = %c0 to %n : i32 {
        %v = qd.local_load %p : !qd.ptr<f32>
        %s = math.sin %v : f32
        qd.local_store %s, %p : !qd.ptr<f32>
      }
      %f = qd.local_load %p : !qd.ptr<f32>
      qd.store %f, @loss[] : f32
    }
  }
}
";

/// Runs qd-run on `device` with the loader pinned to lavapipe.
fn run(device: &str, args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_qd-run"))
        .args(args)
        .args(["--device", device])
        .env("VK_DRIVER_FILES", LAVAPIPE_ICD)
        .current_dir(root())
        .output()
        .expect("qd-run starts");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn lavapipe() -> bool {
    let here = std::path::Path::new(LAVAPIPE_ICD).exists();
    if !here {
        eprintln!("note: lavapipe is not installed: the loop-limit tests do not run");
    }
    here
}

/// The `file:line:col: error:` prefix of the loop `marker` opens (its line in `text`).
fn at(file: &str, text: &str, marker: &str) -> String {
    let (i, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(marker))
        .expect("the marker is in the text");
    let col = line.len() - line.trim_start().len() + 1;
    format!("{file}:{}:{col}: error:", i + 1)
}

/// Expects the located loop-limit error of kernel `kernel` at `loc`, and no output.
fn refused(o: &Out, loc: &str, kernel: &str) {
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.is_empty(), "printed {}", o.stdout);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    for want in [
        loc,
        "the Vulkan driver lavapipe (Mesa llvmpipe) stops a shader invocation after 65535 loop \
         iterations in all",
        "its results would be wrong; run this kernel on --device cpu",
        &format!("(in kernel @{kernel})"),
    ] {
        assert!(
            o.stderr.contains(want),
            "stderr lacks '{want}':\n{}",
            o.stderr
        );
    }
}

#[test]
fn a_serial_loop_past_the_limit_is_a_located_error() {
    if !lavapipe() {
        return;
    }
    let dir = scratch("loop-limit-serial");
    let f = write(&dir, "serial.mlir", SERIAL.as_bytes());
    let args = |n: &'static str| {
        vec![
            f.as_str(),
            "--kernel",
            "k",
            "--arg",
            n,
            "--print",
            "loss",
            "--print",
            "cnt",
        ]
    };
    let o = run("vulkan", &args("n=70000"));
    refused(&o, &at(&f, SERIAL, "qd.range_for %k"), "k");
    // The count the error names is at least the limit ("reached"): a for loop counts its
    // whole trip count (70000 iterations and the pass that leaves).
    assert!(
        o.stderr.contains("thread 0 reached 70001 by"),
        "{}",
        o.stderr
    );
    // The kernel itself is fine: cpu runs all 70000 steps.
    let o = run("cpu", &args("n=70000"));
    assert_eq!(o.stdout, "loss = 70000.0\ncnt = 70000\n", "{}", o.stderr);
    let o = run("vulkan", &args("n=1000"));
    assert_eq!(
        (o.code, o.stdout.as_str()),
        (0, "loss = 1000.0\ncnt = 1000\n"),
        "{}",
        o.stderr
    );
}

#[test]
fn nested_loops_share_the_limit() {
    if !lavapipe() {
        return;
    }
    let dir = scratch("loop-limit-nested");
    let f = write(&dir, "nested.mlir", NESTED.as_bytes());
    let args = |m: &'static str, n: &'static str| {
        vec![
            f.as_str(),
            "--kernel",
            "k",
            "--set",
            m,
            "--set",
            n,
            "--print",
            "cnt",
        ]
    };
    // 7 x 10000 steps: neither loop alone reaches 65535, together they do.
    let o = run("vulkan", &args("m=7", "n=10000"));
    refused(&o, &at(&f, NESTED, "qd.range_for %k"), "k");
    let o = run("vulkan", &args("m=6", "n=10000"));
    assert_eq!(
        (o.code, o.stdout.as_str()),
        (0, "cnt = 60000\n"),
        "{}",
        o.stderr
    );
}

#[test]
fn threads_run_together_share_the_limit() {
    if !lavapipe() {
        return;
    }
    let dir = scratch("loop-limit-divergent");
    let f = write(&dir, "divergent.mlir", DIVERGENT.as_bytes());
    let args = |n: &'static str| vec![f.as_str(), "--kernel", "k", "--set", n, "--print", "cnt"];
    // 2 x 40000 passes of the subgroup: the odd threads' loop is the one cut short.
    let o = run("vulkan", &args("n=40000"));
    refused(&o, &at(&f, DIVERGENT, "qd.range_for %q"), "k");
    let o = run("vulkan", &args("n=30000"));
    let want = format!("cnt = [{}]\n", ["30000"; 8].join(", "));
    assert_eq!(
        (o.code, o.stdout.as_str()),
        (0, want.as_str()),
        "{}",
        o.stderr
    );
}

#[test]
fn a_gradient_past_the_limit_is_an_error_not_a_wrong_gradient() {
    if !lavapipe() {
        return;
    }
    let dir = scratch("loop-limit-grad");
    let f = write(&dir, "grad.mlir", GRAD.as_bytes());
    let args = |n: &'static str| {
        vec![
            f.as_str(),
            "--kernel",
            "k",
            "--set",
            n,
            "--set",
            "x=0.5",
            "--grad",
            "loss=1",
            "--print",
            "loss",
            "--print",
            "x.grad",
        ]
    };
    // The forward's 40000 steps pass; the gradient's replay and reverse loops do not.
    let o = run("vulkan", &args("n=40000"));
    refused(&o, &at(&f, GRAD, "qd.range_for %k"), "k_grad");
    // Under the limit the gradient is cpu's.
    let values = |s: &str| -> Vec<f64> {
        s.lines()
            .map(|l| l.split(" = ").nth(1).unwrap().parse().unwrap())
            .collect()
    };
    let vk = run("vulkan", &args("n=1000"));
    let cpu = run("cpu", &args("n=1000"));
    assert_eq!((vk.code, cpu.code), (0, 0), "{}{}", vk.stderr, cpu.stderr);
    let (a, b) = (values(&vk.stdout), values(&cpu.stdout));
    assert_eq!(a.len(), 2);
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() <= 1e-5 * y.abs(), "vulkan {a:?} vs cpu {b:?}");
    }
    assert!(b[1] != 0.0, "{b:?}");
}
