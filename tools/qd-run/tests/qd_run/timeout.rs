//! `--timeout SECONDS` on every device that can stop a launch (interp, interp-lowered, cpu, and
//! mlir-cpu with feature `mlir`): a `qd.while` that never ends exits 1 soon after the timeout
//! with the kernel's name and the loop's FILE:LINE:COL; a run that ends in time prints what it
//! prints without the flag; a device that cannot stop a launch (vulkan) is a usage error naming
//! those that can; a timeout that is not a positive number of seconds is a usage error.

use super::common::*;
use std::time::{Duration, Instant};

/// The devices that take `--timeout`.
#[cfg(not(feature = "mlir"))]
const TIMEOUT_DEVICES: &[&str] = &["interp", "interp-lowered", "cpu"];
#[cfg(feature = "mlir")]
const TIMEOUT_DEVICES: &[&str] = &["interp", "interp-lowered", "cpu", "mlir-cpu"];

/// `@spin`: thread i's v -> v/2 + 1/4 never reaches %limit = 10. `@count`: thread i sums
/// 1..=i+%n in a while loop.
const SRC: &str = r#"module {
  qd.field @y : !qd.field<8xf32>
  qd.kernel @spin(%limit: f32) {
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    qd.range_for %i = %c0 to %c8 : i32 {
      %v = qd.alloca : !qd.ptr<f32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %v : !qd.ptr<f32>
      qd.while {
        %o = qd.local_load %v : !qd.ptr<f32>
        %go = arith.cmpf olt, %o, %limit : f32
        qd.condition %go
      } do {
        %o = qd.local_load %v : !qd.ptr<f32>
        %h = arith.constant 0.5 : f32
        %q = arith.constant 0.25 : f32
        %m = arith.mulf %o, %h : f32
        %n = arith.addf %m, %q : f32
        qd.local_store %n, %v : !qd.ptr<f32>
      }
    }
  }
  qd.kernel @count(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    qd.range_for %i = %c0 to %c8 : i32 {
      %k = qd.alloca : !qd.ptr<i32>
      %acc = qd.alloca : !qd.ptr<f32>
      qd.local_store %c0, %k : !qd.ptr<i32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %acc : !qd.ptr<f32>
      %trip = arith.addi %i, %n : i32
      qd.while {
        %kk = qd.local_load %k : !qd.ptr<i32>
        %go = arith.cmpi slt, %kk, %trip : i32
        qd.condition %go
      } do {
        %kk = qd.local_load %k : !qd.ptr<i32>
        %c1 = arith.constant 1 : i32
        %k1 = arith.addi %kk, %c1 : i32
        qd.local_store %k1, %k : !qd.ptr<i32>
        %a = qd.local_load %acc : !qd.ptr<f32>
        %f = arith.sitofp %k1 : i32 to f32
        %a1 = arith.addf %a, %f : f32
        qd.local_store %a1, %acc : !qd.ptr<f32>
      }
      %r = qd.local_load %acc : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
    }
  }
}"#;

fn kernel_file(test: &str) -> String {
    write(&scratch(test), "loops.mlir", SRC.as_bytes())
}

/// `FILE:LINE:COL` of the first `qd.while` of [`SRC`] in `file`.
fn spin_loop(file: &str) -> String {
    let (l, line) = SRC
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("qd.while"))
        .unwrap();
    format!("{file}:{}:{}", l + 1, line.find("qd.while").unwrap() + 1)
}

#[test]
fn a_runaway_loop_stops_at_the_timeout_with_the_kernel_and_the_loop() {
    let file = kernel_file("runaway");
    let at = spin_loop(&file);
    for device in TIMEOUT_DEVICES {
        let t0 = Instant::now();
        let o = qd_run(&[
            &file,
            "--kernel",
            "spin",
            "--arg",
            "limit=10",
            "--timeout",
            "0.5",
            "--device",
            device,
        ]);
        let took = t0.elapsed();
        assert_eq!(o.code, 1, "{device}: {}", o.stderr);
        assert!(took < Duration::from_secs(10), "{device}: took {took:?}");
        assert!(took >= Duration::from_millis(500), "{device}: {took:?}");
        assert!(
            o.stderr.starts_with(&format!(
                "{at}: error: launch cancelled: its deadline passed while this loop was running \
                 (in kernel @spin)"
            )),
            "{device}: {}",
            o.stderr
        );
        // The source line with a caret under the loop.
        assert!(o.stderr.contains("qd.while {"), "{device}: {}", o.stderr);
    }
}

#[test]
fn a_run_that_ends_in_time_prints_what_it_prints_without_a_timeout() {
    let file = kernel_file("in-time");
    for device in TIMEOUT_DEVICES {
        let args = [
            file.as_str(),
            "--kernel",
            "count",
            "--arg",
            "n=100",
            "--print",
            "y",
            "--device",
            device,
        ];
        let plain = ok(&args);
        let mut timed = args.to_vec();
        timed.extend(["--timeout", "60"]);
        assert_eq!(ok(&timed), plain, "{device}");
        // Thread 7 summed 1..=107.
        assert!(plain.contains("5778"), "{device}: {plain}");
    }
}

#[test]
fn a_device_that_cannot_stop_a_launch_refuses_the_timeout() {
    let file = kernel_file("vulkan");
    let o = qd_run(&[
        &file,
        "--kernel",
        "count",
        "--arg",
        "n=1",
        "--timeout",
        "1",
        "--device",
        "vulkan",
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    let want = format!(
        "--timeout is supported on the devices {}; device 'vulkan' cannot stop a running launch",
        TIMEOUT_DEVICES.join(", ")
    );
    assert!(o.stderr.contains(&want), "{}", o.stderr);
}

#[test]
fn a_timeout_must_be_a_positive_number_of_seconds() {
    let file = kernel_file("bad-timeout");
    for (bad, why) in [
        ("0", "must be positive"),
        ("-1", "must be positive"),
        ("NaN", "must be positive"),
        ("soon", "is not a number of seconds"),
        ("1e300", "is too large"),
    ] {
        let flag = format!("--timeout={bad}");
        let o = qd_run(&[&file, "--kernel", "count", "--arg", "n=1", &flag]);
        assert_eq!(o.code, 2, "{bad}: {}", o.stderr);
        assert!(o.stderr.contains(why), "{bad}: {}", o.stderr);
    }
}
