//! Program: kernel lookup and compile caching, signatures, argument checks, deferred errors.

use super::mock::{parse, program};
use qd_runtime::{signature, Arg, DType, Error, Ndarray, ParamType, Scalar};

const SRC: &str = "module {
  qd.field @count : !qd.field<i32>
  qd.kernel @k(%a: !qd.ndarray<?x?xi32>, %s: i64) {
  }
  qd.kernel @bad() {
  }
  qd.kernel @none() {
  }
}
";

#[test]
fn signatures() {
    let (ctx, m) = parse(SRC);
    let k = ctx
        .region_ops(ctx.region(m, 0))
        .into_iter()
        .find_map(|op| qd_frontend::KernelOp::from_op(&ctx, op))
        .unwrap();
    assert_eq!(
        signature(&ctx, k).unwrap(),
        vec![
            ParamType::Ndarray {
                dtype: DType::I32,
                rank: 2
            },
            ParamType::Scalar(DType::I64)
        ]
    );
    assert_eq!(ParamType::Scalar(DType::U8).to_string(), "ui8");
    assert_eq!(
        ParamType::Ndarray {
            dtype: DType::F32,
            rank: 0
        }
        .to_string(),
        "ndarray<f32>"
    );
}

#[test]
fn unsupported_parameter_types_are_located() {
    let (ctx, m) = parse("module {\n  qd.kernel @k(%h: f16) {\n  }\n}\n");
    let k = qd_frontend::KernelOp(ctx.region_ops(ctx.region(m, 0))[0]);
    let d = signature(&ctx, k).unwrap_err();
    assert!(
        d[0].message
            .starts_with("argument 0 of kernel @k: element type 'f16'"),
        "{}",
        d[0].message
    );
    assert_eq!(ctx.file_line_col(d[0].loc), Some(("m.mlir", 2, 16)));
}

#[test]
fn kernels_compile_once() {
    let (mut p, log) = program(SRC, false, false);
    let k = p.kernel("k").unwrap();
    assert_eq!(p.kernel("k").unwrap(), k);
    assert_eq!(log.borrow().compiled, vec!["k"]);
    let e = p.kernel("bad").unwrap_err();
    assert_eq!(e.diagnostics()[0].message, "mock cannot compile this");
    assert_eq!(
        p.kernel_op(k),
        Some(p.context().region_ops(p.context().region(p.module(), 0))[1])
    );
    assert_eq!(p.device_name(), "mock");
}

#[test]
fn launches_are_checked_before_the_device_runs() {
    let (mut p, log) = program(SRC, false, false);
    let k = p.kernel("k").unwrap();
    let good = p.add_ndarray(Ndarray::zeros(DType::I32, &[2, 3]).unwrap());
    let flat = p.add_ndarray(Ndarray::zeros(DType::I32, &[6]).unwrap());
    let s = Arg::Scalar(Scalar::I64(1));
    assert!(matches!(
        p.launch(k, &[s]),
        Err(Error::ArgCount {
            expected: 2,
            got: 1,
            ..
        })
    ));
    assert!(matches!(
        p.launch(k, &[Arg::Ndarray(flat), s]),
        Err(Error::ArgType { index: 0, .. })
    ));
    assert!(matches!(
        p.launch(k, &[Arg::Ndarray(good), Arg::Scalar(Scalar::I32(1))]),
        Err(Error::ArgType { index: 1, .. })
    ));
    // An ndarray whose data was resized behind the program's back is refused.
    let bad = p.add_ndarray(Ndarray::zeros(DType::I32, &[2, 3]).unwrap());
    *p.ndarray_mut(bad).unwrap().data_mut() = qd_runtime::Storage::I32(vec![0; 5].into());
    assert!(matches!(
        p.launch(k, &[Arg::Ndarray(bad), s]),
        Err(Error::Value(_))
    ));
    assert!(log.borrow().launched.is_empty());
    p.launch(k, &[Arg::Ndarray(good), s]).unwrap();
    assert_eq!(
        log.borrow().launched,
        vec![(0, vec![Arg::Ndarray(good), s])]
    );
    assert_eq!(p.read_f64("count").unwrap(), vec![1.0]);
}

#[test]
fn launch_errors_wait_for_sync_and_are_returned_once() {
    let (mut p, log) = program(SRC, true, false);
    let k = p.kernel("none").unwrap();
    p.launch(k, &[]).unwrap();
    p.launch(k, &[]).unwrap();
    assert_eq!(p.pending_errors(), 2);
    let errs = p.sync().unwrap_err();
    assert_eq!(errs.len(), 2);
    assert_eq!(
        errs[0].to_string(),
        "m.mlir:7:3: error: mock failure (in kernel @none)"
    );
    assert!(p.sync().is_ok());
    assert_eq!(log.borrow().syncs, 2);
}

#[test]
fn device_sync_errors_are_returned() {
    let (mut p, _) = program(SRC, false, true);
    let errs = p.sync().unwrap_err();
    assert_eq!(errs[0].to_string(), "error: lost device (in kernel @k)");
    assert!(errs[0].to_diagnostic().is_none());
}
