//! The runtime API on the interpreter: argument checks at launch, deferred runtime errors,
//! field and ndarray access, compile errors.

use super::common::*;
use qd_interp::Interpreter;
use qd_runtime::{Arg, DType, Error, Ndarray, Program, ProgramConfig, Scalar, Storage};

const SRC: &str = "module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @n : !qd.field<i32>
  qd.kernel @k(%a: !qd.ndarray<?xf32>, %s: f32) {
    qd.struct_for (%i) in @x {
      %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %w = arith.mulf %v, %s : f32
      qd.store %w, @x[%i] : f32
    }
  }
  qd.kernel @empty() {
  }
}
";

#[test]
fn argument_count_and_types_are_checked_at_launch() {
    let mut p = program(SRC);
    let k = p.kernel("k").unwrap();
    let a = p.add_ndarray(Ndarray::from_f64(DType::F32, &[4], &[1.0, 2.0, 3.0, 4.0]).unwrap());
    let b = p.add_ndarray(Ndarray::zeros(DType::I32, &[4]).unwrap());
    let c = p.add_ndarray(Ndarray::zeros(DType::F32, &[2, 2]).unwrap());
    let s = Arg::Scalar(Scalar::F32(2.0));
    let cases: Vec<(Vec<Arg>, &str)> = vec![
        (vec![], "kernel @k takes 2 arguments, got 0"),
        (vec![Arg::Ndarray(a), s, s], "kernel @k takes 2 arguments, got 3"),
        (
            vec![Arg::Ndarray(a), Arg::Scalar(Scalar::F64(2.0))],
            "argument 1 of kernel @k must be f32, got a f64 scalar",
        ),
        (
            vec![s, s],
            "argument 0 of kernel @k must be ndarray<?xf32>, got a f32 scalar",
        ),
        (
            vec![Arg::Ndarray(a), Arg::Ndarray(a)],
            "argument 1 of kernel @k must be f32, got an ndarray",
        ),
        (
            vec![Arg::Ndarray(b), s],
            "argument 0 of kernel @k must be ndarray<?xf32>, got an ndarray of i32 with shape [4]",
        ),
        (
            vec![Arg::Ndarray(c), s],
            "argument 0 of kernel @k must be ndarray<?xf32>, got an ndarray of f32 with shape [2, 2]",
        ),
        (
            vec![Arg::Ndarray(qd_runtime::NdarrayId(99)), s],
            "ndarray handle 99 is not registered",
        ),
    ];
    for (args, want) in cases {
        let e = p.launch(k, &args).unwrap_err();
        assert_eq!(e.to_string(), want);
    }
    assert_eq!(p.pending_errors(), 0);
    assert_eq!(p.read_f64("x").unwrap(), vec![0.0; 4], "nothing ran");
    p.launch(k, &[Arg::Ndarray(a), s]).unwrap();
    assert!(p.sync().is_ok());
    assert_eq!(p.read_f64("x").unwrap(), vec![2.0, 4.0, 6.0, 8.0]);
    // A removed ndarray is no longer valid.
    p.remove_ndarray(a).unwrap();
    assert!(matches!(
        p.launch(k, &[Arg::Ndarray(a), s]),
        Err(Error::UnknownNdarray(_))
    ));
}

#[test]
fn runtime_errors_are_deferred_to_sync() {
    let mut p = program(SRC);
    let k = p.kernel("k").unwrap();
    let short = p.add_ndarray(Ndarray::zeros(DType::F32, &[2]).unwrap());
    let s = Arg::Scalar(Scalar::F32(1.0));
    p.launch(k, &[Arg::Ndarray(short), s]).unwrap();
    p.launch(k, &[Arg::Ndarray(short), s]).unwrap();
    assert_eq!(p.pending_errors(), 2);
    let errs = p.sync().unwrap_err();
    assert_eq!(errs.len(), 2);
    for e in &errs {
        assert_eq!(e.kernel, "k");
        assert_eq!(e.position, Some(("test.mlir".to_string(), 6, 12)));
        assert_eq!(
            e.full_message(),
            "index [2] is out of bounds for ndarray argument 0 of shape [2] (in kernel @k)"
        );
        assert!(e.to_diagnostic().is_some());
    }
    // A later sync is clean.
    assert!(p.sync().is_ok());
    assert_eq!(p.pending_errors(), 0);
}

#[test]
fn fields_and_adjoints() {
    let mut p = program(SRC);
    assert_eq!(p.field_names(), vec!["x", "n"]);
    let info = p.field_info("x").unwrap();
    assert_eq!(
        (info.dtype, info.shape.clone(), info.needs_grad),
        (DType::F32, vec![4], true)
    );
    assert_eq!(p.field_info("n").unwrap().shape, Vec::<usize>::new());
    p.write_f64("x.grad", &[1.0, 2.0, 3.0, 4.0]).unwrap();
    assert_eq!(p.read_f64("x.grad").unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
    assert_eq!(p.read_f64("x").unwrap(), vec![0.0; 4]);
    p.clear_grads();
    assert_eq!(p.read_f64("x.grad").unwrap(), vec![0.0; 4]);
    assert_eq!(
        p.read_f64("n.grad").unwrap_err().to_string(),
        "field 'n' has no adjoint: 'n.grad' needs a field declared with {needs_grad}"
    );
    assert_eq!(
        p.read_f64("nope").unwrap_err().to_string(),
        "unknown field 'nope' (fields: x, n)"
    );
    assert_eq!(
        p.write_f64("x", &[1.0]).unwrap_err().to_string(),
        "field 'x' has 4 elements, got 1 value"
    );
    assert!(p
        .write_f64("n", &[1.5])
        .unwrap_err()
        .to_string()
        .contains("not an integer"));
    assert!(p.write("n", Storage::F32(vec![1.0].into())).is_err());
    p.write_scalars("n", &[Scalar::I64(7)]).unwrap();
    assert_eq!(p.field("n").unwrap().get(0), Some(Scalar::I32(7)));
}

#[test]
fn kernels_compile_once_and_unknown_ones_are_errors() {
    let mut p = program(SRC);
    assert_eq!(p.kernel_names(), vec!["k", "empty"]);
    let k = p.kernel("k").unwrap();
    assert_eq!(p.kernel("k").unwrap(), k);
    let e = p.kernel("empty").unwrap();
    assert_ne!(e, k);
    assert_eq!(p.kernel_name(e), Some("empty"));
    p.launch(e, &[]).unwrap();
    assert!(p.sync().is_ok());
    assert_eq!(
        p.kernel_params(k)
            .unwrap()
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>(),
        vec!["ndarray<?xf32>", "f32"]
    );
    assert_eq!(
        p.kernel("nope").unwrap_err().to_string(),
        "unknown kernel 'nope' (kernels: k, empty)"
    );
    assert!(matches!(
        p.launch(qd_runtime::KernelId(9), &[]),
        Err(Error::UnknownKernel { .. })
    ));
    assert_eq!(p.device_name(), "interp");
}

#[test]
fn unsupported_field_types_are_located_diagnostics() {
    let src = "module {\n  qd.field @h : !qd.field<4xf16>\n}\n";
    let (ctx, module) = parse(context(), src, "f16.mlir");
    let e = Program::new(
        ctx,
        module,
        Box::new(Interpreter::new()),
        ProgramConfig::default(),
    )
    .err()
    .expect("f16 fields are refused");
    let d = &e.diagnostics()[0];
    assert!(
        d.message
            .contains("field @h: element type 'f16' is not supported"),
        "{}",
        d.message
    );
}

#[test]
fn invalid_modules_are_refused_at_creation() {
    let src = "module {\n  qd.kernel @k() {\n    %c = arith.constant 1 : i32\n    qd.store %c, @missing[] : i32\n  }\n}\n";
    let (ctx, module) = parse(context(), src, "bad.mlir");
    let e = Program::new(
        ctx,
        module,
        Box::new(Interpreter::new()),
        ProgramConfig::default(),
    )
    .err()
    .expect("verification fails");
    assert!(!e.diagnostics().is_empty());
}

#[test]
fn ops_the_interpreter_cannot_run_are_compile_errors() {
    let src = "module {\n  qd.kernel @k() {\n    \"test.magic\"() : () -> ()\n  }\n}\n";
    let mut ctx = context();
    ctx.allow_unregistered = true;
    let (ctx, module) = parse(ctx, src, "u.mlir");
    let mut p = Program::new(
        ctx,
        module,
        Box::new(Interpreter::new()),
        ProgramConfig::default(),
    )
    .unwrap();
    let e = p.kernel("k").unwrap_err();
    let d = &e.diagnostics()[0];
    assert_eq!(
        d.message,
        "the interpreter cannot run 'test.magic': no interpreter for dialect 'test'"
    );
    assert_eq!(p.context().file_line_col(d.loc), Some(("u.mlir", 3, 5)));
}

#[test]
fn unsupported_features_are_located_compile_errors() {
    let cases = [
        (
            "module {\n  qd.kernel @k() {\n    %a = qd.alloca : !qd.ptr<!qd.array<20000000xf32>>\n  }\n}\n",
            "kernel @k needs more than 16777216 local scalars per thread",
        ),
        (
            "module {\n  qd.kernel @k(%x: f64) {\n    %a = arith.truncf %x upward : f64 to f32\n  }\n}\n",
            "the interpreter supports only arith.truncf's default rounding (to_nearest_even)",
        ),
        (
            "module {\n  qd.kernel @k(%x: i32) {\n    %h = arith.sitofp %x : i32 to f16\n  }\n}\n",
            "the interpreter does not support type 'f16' in 'arith.sitofp'",
        ),
    ];
    for (src, want) in cases {
        let mut p = program(src);
        let e = p.kernel("k").unwrap_err();
        let d = &e.diagnostics()[0];
        assert_eq!(d.message, want);
        assert_eq!(p.context().file_line_col(d.loc), Some(("test.mlir", 3, 10)));
    }
}

/// Counts its drops: the owner of external memory.
struct Owner(std::sync::Arc<std::sync::atomic::AtomicUsize>);
impl Drop for Owner {
    fn drop(&mut self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn kernels_compute_in_external_memory() {
    use std::sync::atomic::Ordering::SeqCst;
    let drops = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut x_mem = vec![0.0f32; 4];
    let mut a_mem = vec![1.0f32, 2.0, 3.0, 4.0];
    let (x_ptr, a_ptr) = (x_mem.as_mut_ptr(), a_mem.as_mut_ptr());
    {
        let mut p = program(SRC);
        let k = p.kernel("k").unwrap();
        // SAFETY: both vectors outlive the program and are only touched after it is dropped.
        let (x, a) = unsafe {
            (
                Storage::from_external(DType::F32, x_ptr.cast(), 4, Box::new(Owner(drops.clone()))),
                Storage::from_external(DType::F32, a_ptr.cast(), 4, Box::new(Owner(drops.clone()))),
            )
        };
        p.write("x", x.unwrap()).unwrap();
        let a = p.add_ndarray(Ndarray::new(&[4], a.unwrap()).unwrap());
        p.launch(k, &[Arg::Ndarray(a), Arg::Scalar(Scalar::F32(2.0))])
            .unwrap();
        p.sync().unwrap();
        let x = p.field("x").unwrap();
        assert!(x.is_external());
        assert_eq!(x.as_ptr(), x_ptr as *const u8);
        assert_eq!(p.read_f64("x").unwrap(), vec![2.0, 4.0, 6.0, 8.0]);
        drop(p.remove_ndarray(a).unwrap());
        assert_eq!(drops.load(SeqCst), 1);
    }
    assert_eq!(drops.load(SeqCst), 2);
    assert_eq!(x_mem, [2.0, 4.0, 6.0, 8.0]);
    assert_eq!(a_mem, [1.0, 2.0, 3.0, 4.0]);
}
