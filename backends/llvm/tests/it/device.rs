//! The cpu device through the Program API: the README's main job (forward and gradient), its
//! overflow when the stack is forced too small (the interpreter's error, the gradient not
//! returned, a later sync clean), adstack heaps of workers x stride, and small tasks run on the
//! calling thread with the pool's results and errors.

use super::common::*;
use qd_runtime::{Program, ProgramConfig};

fn main_job(p: &mut Program) -> Result<(), Vec<qd_runtime::RuntimeError>> {
    p.write_f64("n", &[512.0]).unwrap();
    let xs: Vec<f64> = (0..16).map(|i| 1.5 * f64::from(i) / 15.0).collect();
    p.write_f64("x", &xs).unwrap();
    run(p, "compute", &[])?;
    let g = p.gradient("compute").unwrap();
    p.write_f64("y.grad", &[1.0]).unwrap();
    p.launch_grad(&g, &[]).unwrap();
    p.sync()
}

#[test]
fn the_main_job_matches_the_interpreter() {
    let src = example("dynamic_loop.mlir");
    let (mut c, mut i) = (cpu(&src, 4), interp(&src));
    main_job(&mut c).unwrap();
    main_job(&mut i).unwrap();
    // Each x.grad[i] is one thread's own result: bit for bit.
    assert_eq!(c.field("x.grad").unwrap(), i.field("x.grad").unwrap());
    assert!((c.read_f64("x.grad").unwrap()[3] - 3.930816e-12).abs() < 1e-17);
    // y sums 16 threads' values by atomic adds, in the order the workers reach them.
    let (yc, yi) = (c.read_f64("y").unwrap()[0], i.read_f64("y").unwrap()[0]);
    assert!((yc - yi).abs() <= 1e-6 * yi.abs(), "{yc} vs {yi}");
}

#[test]
fn a_forced_small_stack_overflows_as_on_the_interpreter() {
    // v = v*v keeps its primals (minimize-tape elides the linear body's stack).
    let src = example("dynamic_loop.mlir").replace("arith.mulf %a, %k", "arith.mulf %a, %a");
    assert!(src.contains("arith.mulf %a, %a"));
    let config = ProgramConfig {
        ad_stack_size: Some(32),
        ..ProgramConfig::default()
    };
    let dev = Box::new(qd_llvm::CpuDevice::with_threads(3).unwrap());
    let mut c = program_on(&src, dev, config.clone());
    let mut i = program_on(&src, Box::new(qd_interp::Interpreter::new()), config);
    let (ec, ei) = (main_job(&mut c).unwrap_err(), main_job(&mut i).unwrap_err());
    let text = |e: &[qd_runtime::RuntimeError]| e.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    assert_eq!(text(&ec), text(&ei));
    assert!(
        text(&ec)[0].contains("adstack overflow in kernel 'compute_grad'")
            && text(&ec)[0].contains("exceeded its capacity of 32"),
        "{:?}",
        text(&ec)
    );
    assert!(c.sync().is_ok(), "a later sync is clean");
}

/// `one`: a task of one thread. `div`: thread i of n stores 100 / ((i - d) * (i - d - 2)),
/// which fails in threads d and d + 2 (the lowest, d, is the error).
const SMALL: &str = r#"module {
  qd.field @y : !qd.field<64xi32>
  qd.kernel @one(%d: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      %c100 = arith.constant 100 : i32
      %k = arith.subi %i, %d : i32
      %q = arith.divsi %c100, %k : i32
      qd.store %q, @y[%i] : i32
    }
  }
  qd.kernel @div(%n: i32, %d: i32) {
    %c0 = arith.constant 0 : i32
    qd.range_for %i = %c0 to %n : i32 {
      %c2 = arith.constant 2 : i32
      %c100 = arith.constant 100 : i32
      %a = arith.subi %i, %d : i32
      %b = arith.subi %a, %c2 : i32
      %k = arith.muli %a, %b : i32
      %q = arith.divsi %c100, %k : i32
      qd.store %q, @y[%i] : i32
    }
  }
}"#;

fn i32s(v: &[i32]) -> Vec<qd_runtime::Arg> {
    v.iter()
        .map(|&x| qd_runtime::Arg::Scalar(qd_runtime::Scalar::I32(x)))
        .collect()
}

/// A device with 4 workers and its counter of tasks handed to the pool.
fn counted() -> (Program, std::sync::Arc<std::sync::atomic::AtomicU64>) {
    let dev = qd_llvm::CpuDevice::with_threads(4)
        .unwrap()
        .with_check_bounds(true);
    let runs = dev.pool_runs();
    (
        program_on(SMALL, Box::new(dev), ProgramConfig::default()),
        runs,
    )
}

fn pool_runs(r: &std::sync::atomic::AtomicU64) -> u64 {
    r.load(std::sync::atomic::Ordering::Relaxed)
}

#[test]
fn a_one_thread_task_runs_on_the_calling_thread_and_fails_as_on_the_interpreter() {
    let (mut c, runs) = counted();
    let mut i = interp(SMALL);
    for _ in 0..3 {
        run_ok(&mut c, "one", &i32s(&[-4]));
        run_ok(&mut i, "one", &i32s(&[-4]));
    }
    assert_eq!(c.field("y").unwrap(), i.field("y").unwrap());
    let (ec, ei) = (
        run_err(&mut c, "one", &i32s(&[0])),
        run_err(&mut i, "one", &i32s(&[0])),
    );
    assert_eq!(ec, ei);
    assert!(ec[0].contains("division by zero"), "{ec:?}");
    assert_eq!(pool_runs(&runs), 0, "never handed to the pool");
    // The device is usable after the error, on the same path.
    run_ok(&mut c, "one", &i32s(&[-1]));
    assert_eq!(c.read_f64("y").unwrap()[0], 100.0);
}

#[test]
fn a_cheap_range_task_moves_off_the_pool_and_keeps_its_results_and_errors() {
    let (mut c, runs) = counted();
    let mut i = interp(SMALL);
    let ok = i32s(&[64, -9]);
    // Unmeasured, 64 threads go to the pool; once measured cheap (a launch or a few, as a
    // descheduled worker can make one measure look costly), they run on the calling thread.
    run_ok(&mut c, "div", &ok);
    assert_eq!(pool_runs(&runs), 1);
    let mut inline = false;
    for _ in 0..50 {
        let before = pool_runs(&runs);
        run_ok(&mut c, "div", &ok);
        if pool_runs(&runs) == before {
            inline = true;
            break;
        }
    }
    assert!(inline, "a task of 64 cheap threads still goes to the pool");
    run_ok(&mut i, "div", &ok);
    assert_eq!(c.field("y").unwrap(), i.field("y").unwrap());
    // The lowest failing thread (5, not 7) is the error, as on the interpreter.
    let bad = i32s(&[64, 5]);
    let (ec, ei) = (run_err(&mut c, "div", &bad), run_err(&mut i, "div", &bad));
    assert_eq!(ec, ei);
}
