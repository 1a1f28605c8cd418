//! Vectorised tasks (SIMT on SIMD): each kernel runs on the interpreter, on the cpu device with
//! vectorised tasks and on it with scalar tasks; every field must match the interpreter's
//! (per-thread results bit for bit, float atomic sums within their reassociation) and errors
//! must read the same. Thread counts are not multiples of the lane count (a partial last
//! group). The vectorised device's task notes must say each range task ran W lanes, so that a
//! silent fallback to scalar code fails the test.

use super::common::*;
use qd_runtime::{Arg, Device, Program, ProgramConfig, Scalar, TaskNote};

/// W on this machine.
fn lanes() -> u32 {
    qd_llvm::lanes_for(&qd_llvm::Options::default().features)
}

fn cpu_dev(scalar: bool, threads: usize) -> Box<dyn Device> {
    Box::new(
        qd_llvm::CpuDevice::with_threads(threads)
            .unwrap()
            .with_check_bounds(true)
            .with_scalar_tasks(scalar),
    )
}

/// One kernel run: fields to set, the kernel and its arguments, an optional gradient seed.
struct Case<'a> {
    src: &'a str,
    kernel: &'a str,
    set: Vec<(&'a str, Vec<f64>)>,
    args: Vec<Arg>,
    seed: Option<&'a str>,
    /// Fields compared bit for bit, and fields of float atomic sums.
    exact: &'a [&'a str],
    sums: &'a [&'a str],
    config: ProgramConfig,
}

impl<'a> Case<'a> {
    fn new(src: &'a str, kernel: &'a str) -> Self {
        Case {
            src,
            kernel,
            set: Vec::new(),
            args: Vec::new(),
            seed: None,
            exact: &[],
            sums: &[],
            config: ProgramConfig::default(),
        }
    }
}

/// Runs `c` on `p`: the errors as text, and the task notes of the kernel and its gradient.
fn run_case(p: &mut Program, c: &Case) -> (Vec<String>, Vec<TaskNote>) {
    for (name, v) in &c.set {
        p.write_f64(name, v).unwrap();
    }
    let k = p.kernel(c.kernel).unwrap();
    p.launch(k, &c.args).unwrap();
    let mut notes = p.task_notes(k);
    if let Err(e) = p.sync() {
        return (e.iter().map(|e| e.to_string()).collect(), notes);
    }
    if let Some(seed) = c.seed {
        let g = p.gradient(c.kernel).unwrap();
        let n = p.read_f64(seed).unwrap().len();
        p.write_f64(&format!("{seed}.grad"), &vec![1.0; n]).unwrap();
        p.launch_grad(&g, &c.args).unwrap();
        notes.extend(p.task_notes(g.kernel));
        if let Err(e) = p.sync() {
            return (e.iter().map(|e| e.to_string()).collect(), notes);
        }
    }
    (Vec::new(), notes)
}

/// Runs `c` everywhere and compares; returns the vectorised run's errors and task notes.
fn check(c: &Case) -> (Vec<String>, Vec<TaskNote>) {
    let mut reference = program_on(
        c.src,
        Box::new(qd_interp::Interpreter::new()),
        c.config.clone(),
    );
    let (want_err, _) = run_case(&mut reference, c);
    let mut out = None;
    for scalar in [false, true] {
        let mut p = program_on(c.src, cpu_dev(scalar, 2), c.config.clone());
        let (err, notes) = run_case(&mut p, c);
        let mode = if scalar { "scalar" } else { "vectorised" };
        assert_eq!(err, want_err, "{mode}: errors");
        for f in c.exact {
            assert_eq!(
                p.field(f).unwrap(),
                reference.field(f).unwrap(),
                "{mode}: field {f}"
            );
        }
        for f in c.sums {
            let (got, want) = (p.read_f64(f).unwrap(), reference.read_f64(f).unwrap());
            let scale = want.iter().fold(1e-30f64, |m, v| m.max(v.abs()));
            for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-5 * scale,
                    "{mode}: {f}[{i}] = {a}, want {b}"
                );
            }
        }
        if !scalar {
            out = Some((err, notes));
        } else {
            assert!(notes
                .iter()
                .all(|n| n.lanes == 1 && n.scalar_reason.is_none()));
        }
    }
    out.unwrap()
}

/// Asserts that every task of `notes` ran W lanes.
fn all_vectorised(notes: &[TaskNote]) {
    assert!(!notes.is_empty());
    for n in notes {
        assert_eq!(n.lanes, lanes(), "{n:?}");
        assert_eq!(n.scalar_reason, None);
    }
}

fn linspace(n: usize, a: f64, b: f64) -> Vec<f64> {
    (0..n)
        .map(|i| a + (b - a) * i as f64 / (n - 1) as f64)
        .collect()
}

const CONTROL: &str = "module {
  qd.field @x : !qd.field<37xf32> {needs_grad}
  qd.field @y : !qd.field<37xf32> {needs_grad}
  qd.field @k : !qd.field<37xi32>
  qd.field @s : !qd.field<f32> {needs_grad}
  qd.kernel @branches() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %h = arith.constant 0.5 : f32
      %big = arith.cmpf ogt, %x_i, %h : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.if %big {
        %s = math.sin %x_i : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      } else {
        %t = arith.mulf %x_i, %x_i : f32
        qd.local_store %t, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
      qd.atomic_add %r, @s[] : f32
    }
  }
  qd.kernel @trips() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %c7 = arith.constant 7 : i32
      %n = arith.remsi %i, %c7 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %sn = math.sin %a : f32
        %k = arith.constant 0.9 : f32
        %m = arith.mulf %sn, %k : f32
        %b = arith.addf %m, %a : f32
        qd.local_store %b, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
      qd.store %n, @k[%i] : i32
      qd.atomic_add %r, @s[] : f32
    }
  }
  qd.kernel @breaks(%limit: f32) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      %kp = qd.alloca : !qd.ptr<i32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c30 = arith.constant 30 : i32
      qd.range_for %t = %c0 to %c30 : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %g = arith.constant 1.2 : f32
        %b = arith.constant 0.1 : f32
        %m = arith.mulf %o, %g : f32
        %a = arith.addf %m, %b : f32
        qd.local_store %a, %v : !qd.ptr<f32>
        %k = qd.local_load %kp : !qd.ptr<i32>
        %k1 = arith.addi %k, %c1 : i32
        qd.local_store %k1, %kp : !qd.ptr<i32>
        %over = arith.cmpf ogt, %a, %limit : f32
        qd.if %over {
          qd.break
        }
      }
      qd.while {
        %o = qd.local_load %v : !qd.ptr<f32>
        %go = arith.cmpf ogt, %o, %limit : f32
        qd.condition %go
      } do {
        %o = qd.local_load %v : !qd.ptr<f32>
        %h = arith.constant 0.75 : f32
        %r = arith.mulf %o, %h : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
      %k = qd.local_load %kp : !qd.ptr<i32>
      qd.store %k, @k[%i] : i32
      %sq = arith.mulf %r, %r : f32
      qd.atomic_add %sq, @s[] : f32
    }
  }
}";

#[test]
fn a_divergent_if_runs_both_arms_under_masks() {
    let mut c = Case::new(CONTROL, "branches");
    c.set = vec![("x", linspace(37, -1.0, 1.3))];
    c.seed = Some("s");
    c.exact = &["y", "x.grad"];
    c.sums = &["s"];
    all_vectorised(&check(&c).1);
}

#[test]
fn lanes_finish_a_loop_at_different_iterations() {
    let mut c = Case::new(CONTROL, "trips");
    c.set = vec![("x", linspace(37, -0.5, 1.0))];
    c.seed = Some("s");
    // Unequal per-lane stack counts in the gradient. x.grad goes through sin and cos, the
    // backend's (vmath, within an ulp), not libm's as in the interpreter: not always its bits.
    c.exact = &["y", "k"];
    c.sums = &["s", "x.grad"];
    all_vectorised(&check(&c).1);
}

const NEAR_MAX: &str = "module {
  qd.field @k : !qd.field<37xi32>
  qd.field @m : !qd.field<37xi32>
  qd.kernel @near_max() {
    qd.struct_for (%i) in @k {
      %c3 = arith.constant 3 : i32
      %r = arith.remsi %i, %c3 : i32
      %max = arith.constant 2147483647 : i32
      %c5 = arith.constant 5 : i32
      %lo0 = arith.subi %max, %c5 : i32
      %lo = arith.addi %lo0, %r : i32
      %n = qd.alloca : !qd.ptr<i32>
      qd.range_for %j = %lo to %max : i32 {
        %c = qd.local_load %n : !qd.ptr<i32>
        %c1 = arith.constant 1 : i32
        %s = arith.addi %c, %c1 : i32
        qd.local_store %s, %n : !qd.ptr<i32>
        qd.store %j, @m[%i] : i32
      }
      %t = qd.local_load %n : !qd.ptr<i32>
      qd.store %t, @k[%i] : i32
    }
  }
}";

#[test]
fn a_divergent_i32_loop_ends_at_the_types_max() {
    // Per-lane lower bounds 5, 4 or 3 below i32's max, up to the max: the induction variable
    // is an i32 vector, whose last step reaches the max exactly (without wrapping past it).
    let mut c = Case::new(NEAR_MAX, "near_max");
    c.exact = &["k", "m"];
    all_vectorised(&check(&c).1);
    let mut p = program_on(NEAR_MAX, cpu_dev(false, 1), ProgramConfig::default());
    run_ok(&mut p, "near_max", &[]);
    let k = p.read_f64("k").unwrap();
    let m = p.read_f64("m").unwrap();
    for i in 0..37 {
        assert_eq!(k[i], (5 - i % 3) as f64, "k[{i}]");
        assert_eq!(m[i], f64::from(i32::MAX - 1), "m[{i}]");
    }
}

#[test]
fn a_loop_with_break_and_a_while_run_until_every_lane_is_done() {
    let mut c = Case::new(CONTROL, "breaks");
    c.set = vec![("x", linspace(37, 0.0, 3.0))];
    c.args = vec![Arg::Scalar(Scalar::F32(4.0))];
    c.seed = Some("s");
    // The while's trip count has no provable bound.
    c.config.ad_stack_size = Some(64);
    c.exact = &["y", "k", "x.grad"];
    c.sums = &["s"];
    all_vectorised(&check(&c).1);
}

const ARRAYS: &str = "module {
  qd.field @x : !qd.field<21x8xf32> {needs_grad}
  qd.field @y : !qd.field<21xf32> {needs_grad}
  qd.field @n : !qd.field<i32>
  qd.kernel @arrays() {
    %c0 = arith.constant 0 : i32
    %rows = arith.constant 21 : i32
    qd.range_for %r = %c0 to %rows : i32 {
      %arr = qd.alloca : !qd.ptr<!qd.array<8xf32>>
      %c8 = arith.constant 8 : i32
      qd.range_for %k = %c0 to %c8 : i32 {
        %x_rk = qd.load @x[%r, %k] : f32
        %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<8xf32>>
        qd.local_store %x_rk, %p : !qd.ptr<f32>
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %tr = arith.addi %t, %r : i32
        %j = arith.remsi %tr, %c8 : i32
        %p = qd.elem_ptr %arr[%j] : !qd.ptr<!qd.array<8xf32>>
        %a = qd.local_load %p : !qd.ptr<f32>
        %sn = math.sin %a : f32
        %k9 = arith.constant 0.9 : f32
        %m = arith.mulf %sn, %k9 : f32
        %u = arith.remsi %t, %c8 : i32
        %q = qd.elem_ptr %arr[%u] : !qd.ptr<!qd.array<8xf32>>
        %b = qd.local_load %q : !qd.ptr<f32>
        %s = arith.addf %m, %b : f32
        qd.local_store %s, %p : !qd.ptr<f32>
      }
      %acc = qd.alloca : !qd.ptr<f32>
      qd.range_for %k = %c0 to %c8 : i32 {
        %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<8xf32>>
        %a = qd.local_load %p : !qd.ptr<f32>
        %o = qd.local_load %acc : !qd.ptr<f32>
        %s = arith.addf %o, %a : f32
        qd.local_store %s, %acc : !qd.ptr<f32>
      }
      %v = qd.local_load %acc : !qd.ptr<f32>
      qd.store %v, @y[%r] : f32
    }
  }
}";

#[test]
fn local_arrays_at_per_lane_and_uniform_indices() {
    let mut c = Case::new(ARRAYS, "arrays");
    c.set = vec![("x", linspace(21 * 8, -1.0, 1.0)), ("n", vec![13.0])];
    c.seed = Some("y");
    // x.grad goes through sin and cos (vmath's, within an ulp of libm's).
    c.exact = &["y"];
    c.sums = &["x.grad"];
    all_vectorised(&check(&c).1);
}

const ATOMICS: &str = "module {
  qd.field @x : !qd.field<45xf32>
  qd.field @h : !qd.field<3xf32>
  qd.field @s : !qd.field<f32>
  qd.field @c : !qd.field<i32>
  qd.field @lo : !qd.field<i32>
  qd.field @hi : !qd.field<3xf32>
  qd.field @old : !qd.field<45xi32>
  qd.kernel @atomics() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %c3 = arith.constant 3 : i32
      %b = arith.remsi %i, %c3 : i32
      qd.atomic_add %x_i, @h[%b] : f32
      qd.atomic_add %x_i, @s[] : f32
      %one = arith.constant 1 : i32
      %slot = qd.atomic_add %one, @c[] : i32
      qd.store %slot, @old[%i] : i32
      %neg = arith.subi %b, %i : i32
      qd.atomic_min %neg, @lo[] : i32
      qd.atomic_max %x_i, @hi[%b] : f32
    }
  }
}";

#[test]
fn atomics_to_uniform_and_colliding_addresses() {
    let mut c = Case::new(ATOMICS, "atomics");
    c.set = vec![("x", linspace(45, -2.0, 2.5))];
    c.exact = &["c", "lo", "hi"];
    c.sums = &["h", "s"];
    all_vectorised(&check(&c).1);
    // With one worker, threads take their old values in thread order, as on the interpreter.
    let mut one = program_on(ATOMICS, cpu_dev(false, 1), ProgramConfig::default());
    let mut reference = interp(ATOMICS);
    for p in [&mut one, &mut reference] {
        p.write_f64("x", &linspace(45, -2.0, 2.5)).unwrap();
        run_ok(p, "atomics", &[]);
    }
    assert_eq!(one.field("old").unwrap(), reference.field("old").unwrap());
}

const ERRORS: &str = "module {
  qd.field @x : !qd.field<40xi32>
  qd.field @y : !qd.field<40xi32>
  qd.kernel @divide() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : i32
      %c100 = arith.constant 100 : i32
      %q = arith.divsi %c100, %x_i : i32
      qd.store %q, @y[%i] : i32
    }
  }
  qd.kernel @index() {
    qd.struct_for (%i) in @x {
      %arr = qd.alloca : !qd.ptr<!qd.array<4xi32>>
      %x_i = qd.load @x[%i] : i32
      %p = qd.elem_ptr %arr[%x_i] : !qd.ptr<!qd.array<4xi32>>
      qd.local_store %i, %p : !qd.ptr<i32>
      %v = qd.local_load %p : !qd.ptr<i32>
      qd.store %v, @y[%i] : i32
    }
  }
}";

#[test]
fn an_error_in_a_middle_lane_is_reported_as_in_scalar_mode() {
    // Thread 21 (lane 5 of its group of 16) fails first, thread 35 later: 21 is reported.
    let mut xs: Vec<f64> = (0..40).map(|i| f64::from(i % 3 + 1)).collect();
    xs[35] = 0.0;
    xs[21] = 0.0;
    let mut c = Case::new(ERRORS, "divide");
    c.set = vec![("x", xs.clone())];
    let (err, notes) = check(&c);
    assert!(err[0].contains("division by zero"), "{err:?}");
    all_vectorised(&notes);
    for (i, x) in xs.iter_mut().enumerate() {
        *x = (i % 4) as f64;
    }
    xs[26] = 4.0;
    xs[30] = -1.0;
    let mut c = Case::new(ERRORS, "index");
    c.set = vec![("x", xs)];
    c.exact = &["y"];
    let (err, notes) = check(&c);
    assert!(
        err[0].contains("out of bounds") || err[0].contains("out of range"),
        "{err:?}"
    );
    all_vectorised(&notes);
}

/// 1024 threads: the pool's calls (2 workers) run 64 threads each, four full groups of 16.
const FULL_GROUPS: &str = "module {
  qd.field @x : !qd.field<1024xi32>
  qd.field @y : !qd.field<1024xi32>
  qd.field @z : !qd.field<1024xi32>
  qd.kernel @divide() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : i32
      %c100 = arith.constant 100 : i32
      %q = arith.divsi %c100, %x_i : i32
      qd.store %q, @y[%i] : i32
    }
  }
  qd.kernel @divide_late() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : i32
      qd.store %x_i, @y[%i] : i32
      %c100 = arith.constant 100 : i32
      %q = arith.divsi %c100, %x_i : i32
      qd.store %q, @y[%i] : i32
    }
  }
  qd.kernel @gather() {
    qd.struct_for (%i) in @x {
      %j = qd.load @x[%i] : i32
      %v = qd.load @y[%j] : i32
      qd.store %v, @z[%i] : i32
    }
  }
  qd.kernel @gather_late() {
    qd.struct_for (%i) in @x {
      %j = qd.load @x[%i] : i32
      qd.store %j, @z[%i] : i32
      %v = qd.load @y[%j] : i32
      qd.store %v, @z[%i] : i32
    }
  }
}";

#[test]
fn an_error_in_a_full_group_is_the_lowest_lanes() {
    // Threads 518 and 520 (lanes 6 and 8 of the full group at 512) and 700 fail: 518 is
    // reported. `divide` fails before the group stored anything (the group runs again as a
    // partial one, which records); `divide_late` after it stored y (it records in the full group).
    let mut xs: Vec<f64> = (0..1024).map(|i| f64::from(i % 3 + 1)).collect();
    for t in [518, 520, 700] {
        xs[t] = 0.0;
    }
    for kernel in ["divide", "divide_late"] {
        let mut c = Case::new(FULL_GROUPS, kernel);
        c.set = vec![("x", xs.clone())];
        let (err, notes) = check(&c);
        assert!(err[0].contains("division by zero"), "{kernel}: {err:?}");
        all_vectorised(&notes);
    }
    // The same threads read y out of bounds, each at its own index: 518's is reported.
    let mut ix: Vec<f64> = (0..1024).map(|i| f64::from((i * 7) % 1024)).collect();
    for (t, j) in [(518, 5180.0), (520, 5200.0), (700, 7000.0)] {
        ix[t] = j;
    }
    for kernel in ["gather", "gather_late"] {
        let mut c = Case::new(FULL_GROUPS, kernel);
        c.set = vec![("x", ix.clone())];
        let (err, notes) = check(&c);
        assert!(err[0].contains("5180"), "{kernel}: {err:?}");
        all_vectorised(&notes);
    }
    // No failure: every thread's quotient.
    let xs: Vec<f64> = (0..1024).map(|i| f64::from(i % 7 + 1)).collect();
    let mut c = Case::new(FULL_GROUPS, "divide");
    c.set = vec![("x", xs)];
    c.exact = &["y"];
    let (err, _) = check(&c);
    assert!(err.is_empty(), "{err:?}");
}

#[test]
fn an_overflow_matches_the_scalar_report() {
    // A kept stack of 40 entries forced to 32: the report is the lowest overflowing thread's.
    let src = example("local_array.mlir");
    let mut c = Case::new(&src, "compute");
    c.set = vec![("n", vec![40.0]), ("x", linspace(40, 0.0, 1.0))];
    c.seed = Some("y");
    c.config = ProgramConfig {
        ad_stack_size: Some(32),
        ..ProgramConfig::default()
    };
    let (err, notes) = check(&c);
    assert!(err[0].contains("adstack overflow"), "{err:?}");
    all_vectorised(&notes);
}

#[test]
fn task_notes_say_lanes_or_why_not() {
    let src = "module {
  qd.field @x : !qd.field<8xf32>
  qd.field @y : !qd.field<f32>
  qd.kernel @k() {
    %v = qd.load @y[] : f32
    qd.struct_for (%i) in @x {
      qd.store %v, @x[%i] : f32
    }
  }
}";
    let mut p = program_on(src, cpu_dev(false, 2), ProgramConfig::default());
    let k = p.kernel("k").unwrap();
    let notes = p.task_notes(k);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(notes[0].lanes, 1);
    assert_eq!(
        notes[0].scalar_reason.as_deref(),
        Some("a serial task runs one thread")
    );
    assert_eq!(notes[1].lanes, lanes());
    assert!(lanes() >= 4);
    let mut p = program_on(src, cpu_dev(true, 2), ProgramConfig::default());
    let k = p.kernel("k").unwrap();
    assert!(p
        .task_notes(k)
        .iter()
        .all(|n| n.lanes == 1 && n.scalar_reason.is_none()));
}

#[test]
fn the_lane_count_follows_the_cpu_features() {
    assert_eq!(qd_llvm::lanes_for("+sse2,+avx512f,+avx2"), 16);
    assert_eq!(qd_llvm::lanes_for("+sse2,-avx512f,+avx2"), 8);
    assert_eq!(qd_llvm::lanes_for("+sse2,-avx2"), 4);
}

/// Indices blocked by lanes (a fused partial kernel's tiles: element (t / 16) * 16 * 4 +
/// j * 16 + t % 16 of thread t in iteration j): the quotient is one value in every lane of a
/// group that lies in one block, so the accesses stay contiguous; a range that starts off a
/// block boundary (3) puts groups across blocks, where the run-time test sends them to gathers.
/// Both agree with the interpreter bit for bit.
const TILES: &str = "module {
  qd.field @x : !qd.field<256xf32>
  qd.field @y : !qd.field<256xf32>
  qd.kernel @aligned() {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 64 : i32
    qd.range_for %t = %c0 to %n : i32 {
      qd.call @body(%t) : (i32) -> ()
    }
  }
  qd.kernel @misaligned() {
    %c3 = arith.constant 3 : i32
    %n = arith.constant 64 : i32
    qd.range_for %t = %c3 to %n : i32 {
      qd.call @body(%t) : (i32) -> ()
    }
  }
}";

#[test]
fn indices_blocked_by_lanes_load_contiguously_or_gather_across_blocks() {
    let body = "%c16 = arith.constant 16 : i32
      %span = arith.constant 64 : i32
      %q = arith.divsi %t, %c16 : i32
      %r = arith.remsi %t, %c16 : i32
      %start = arith.muli %q, %span : i32
      %z = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      qd.range_for %j = %z to %c4 : i32 {
        %jb = arith.muli %j, %c16 : i32
        %a = arith.addi %start, %jb : i32
        %i = arith.addi %a, %r : i32
        %v = qd.load @x[%i] : f32
        %two = arith.constant 2.0 : f32
        %w = arith.mulf %v, %two : f32
        qd.store %w, @y[%i] : f32
      }";
    let src = TILES.replace("qd.call @body(%t) : (i32) -> ()", body);
    for kernel in ["aligned", "misaligned"] {
        let mut c = Case::new(&src, kernel);
        c.set = vec![("x", linspace(256, -3.0, 5.0))];
        c.exact = &["y"];
        all_vectorised(&check(&c).1);
    }
}
