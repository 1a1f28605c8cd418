//! Deadlines (`Program::set_launch_timeout`, `Program::set_deadline`) on every device: a
//! `qd.while` that never ends is cancelled, every thread of it, with an error naming the kernel
//! and located at the loop; the program stays usable; a kernel that ends before its deadline
//! gives exactly what it gives without one. A device that cannot stop a launch refuses a
//! deadline.

use super::common::*;
use qd_runtime::{Arg, Error, RuntimeErrorKind, Scalar};
use std::time::{Duration, Instant};

/// `@spin` runs forever in every one of its 64 threads (v -> v/2 + 1/4 stays below 10, whatever
/// the limit); `@count` runs thread i's loop `i % 7 + limit` times and stores what it summed.
const SRC: &str = r#"module {
  qd.field @y : !qd.field<64xf32>
  qd.kernel @spin(%limit: f32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    qd.range_for %i = %c0 to %c64 : i32 {
      %v = qd.alloca : !qd.ptr<f32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %v : !qd.ptr<f32>
      qd.while {
        %o = qd.local_load %v : !qd.ptr<f32>
        %ten = arith.constant 10.0 : f32
        %go = arith.cmpf olt, %o, %ten : f32
        qd.condition %go
      } do {
        %o = qd.local_load %v : !qd.ptr<f32>
        %h = arith.constant 0.5 : f32
        %q = arith.constant 0.25 : f32
        %m = arith.mulf %o, %h : f32
        %n = arith.addf %m, %q : f32
        %l = arith.mulf %n, %limit : f32
        %s = arith.subf %l, %limit : f32
        %w = arith.addf %n, %s : f32
        %u = arith.subf %w, %s : f32
        qd.local_store %u, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
    }
  }
  qd.kernel @count(%limit: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    qd.range_for %i = %c0 to %c64 : i32 {
      %k = qd.alloca : !qd.ptr<i32>
      %acc = qd.alloca : !qd.ptr<f32>
      qd.local_store %c0, %k : !qd.ptr<i32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %acc : !qd.ptr<f32>
      %c7 = arith.constant 7 : i32
      %r = arith.remsi %i, %c7 : i32
      %n = arith.addi %r, %limit : i32
      qd.while {
        %kk = qd.local_load %k : !qd.ptr<i32>
        %go = arith.cmpi slt, %kk, %n : i32
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
      %res = qd.local_load %acc : !qd.ptr<f32>
      qd.store %res, @y[%i] : f32
    }
  }
}"#;

/// The line and column of the first `qd.while` of `SRC` (1-based).
fn spin_loop() -> (u32, u32) {
    let (l, line) = SRC
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("qd.while"))
        .unwrap();
    (l as u32 + 1, line.find("qd.while").unwrap() as u32 + 1)
}

#[test]
fn a_runaway_loop_is_cancelled_at_its_deadline_on_every_device() {
    let (line, col) = spin_loop();
    for c in configs() {
        let Some(device) = c.device() else { continue };
        let cancellable = device.supports_cancel();
        let mut p = program_on(SRC, device);
        let set = p.set_launch_timeout(Some(Duration::from_millis(300)));
        if !cancellable {
            // vulkan: refused, naming the device.
            let Err(Error::Device(msg)) = set else {
                panic!(
                    "{}: a deadline on a device that cannot stop a launch: {set:?}",
                    c.label
                )
            };
            assert_eq!(
                msg,
                format!(
                    "device '{}' cannot stop a running launch: it takes no deadline or timeout",
                    p.device_name()
                ),
                "{}",
                c.label
            );
            assert!(p.set_deadline(Some(Instant::now())).is_err());
            continue;
        }
        set.unwrap();
        let t0 = Instant::now();
        let errors = run(&mut p, "spin", &[Arg::Scalar(Scalar::F32(1.0))]);
        let took = t0.elapsed();
        assert!(took < Duration::from_secs(5), "{}: took {took:?}", c.label);
        assert!(took >= Duration::from_millis(300), "{}: {took:?}", c.label);
        assert_eq!(errors.len(), 1, "{}: {errors:?}", c.label);
        let e = &errors[0];
        assert_eq!(e.kind, RuntimeErrorKind::Cancelled, "{}: {e}", c.label);
        assert_eq!(e.kernel, "spin", "{}", c.label);
        assert_eq!(
            e.position,
            Some(("test.mlir".to_string(), line, col)),
            "{}: {e}",
            c.label
        );
        let text = e.to_string();
        assert!(
            text.contains("deadline passed") && text.contains("@spin"),
            "{}: {text}",
            c.label
        );
        // Still usable: the next launch runs, and an earlier deadline that has passed cancels
        // the runaway at once (its first back edge).
        p.set_launch_timeout(None).unwrap();
        run_ok(&mut p, c.label, "count", &[Arg::Scalar(Scalar::I32(3))]);
        p.set_deadline(Some(Instant::now())).unwrap();
        let t0 = Instant::now();
        let errors = run(&mut p, "spin", &[Arg::Scalar(Scalar::F32(1.0))]);
        assert!(t0.elapsed() < Duration::from_secs(5), "{}", c.label);
        assert_eq!(errors.len(), 1, "{}: {errors:?}", c.label);
        assert_eq!(errors[0].kind, RuntimeErrorKind::Cancelled, "{}", c.label);
        // Cleared, the deadline cancels nothing more.
        p.set_deadline(None).unwrap();
        run_ok(&mut p, c.label, "count", &[Arg::Scalar(Scalar::I32(3))]);
        assert_eq!(p.read_f64("y").unwrap()[5], 36.0, "{}", c.label);
    }
}

#[test]
fn a_kernel_that_ends_in_time_gives_what_it_gives_without_a_deadline() {
    for c in configs() {
        let Some(device) = c.device() else { continue };
        if !device.supports_cancel() {
            continue;
        }
        let mut plain = program_on(SRC, device);
        let mut timed = program_on(SRC, c.device().unwrap());
        timed
            .set_launch_timeout(Some(Duration::from_secs(600)))
            .unwrap();
        let args = [Arg::Scalar(Scalar::I32(1000))];
        run_ok(&mut plain, c.label, "count", &args);
        run_ok(&mut timed, c.label, "count", &args);
        let y = bits(&plain, "y");
        assert_eq!(y, bits(&timed, "y"), "{}", c.label);
        // Thread 5 summed 1..=1005.
        assert_eq!(plain.read_f64("y").unwrap()[5], 1005.0 * 1006.0 / 2.0);
    }
}
