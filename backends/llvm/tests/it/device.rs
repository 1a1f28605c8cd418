//! The cpu device through the Program API: the README's main job (forward and gradient), its
//! overflow when the stack is forced too small (the interpreter's error, the gradient not
//! returned, a later sync clean), and adstack heaps of workers x stride.

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
