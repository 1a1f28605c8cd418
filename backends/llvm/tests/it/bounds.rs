//! Bounds checks on the cpu device: off by default (field and ndarray indices unchecked, the
//! lowering `convert-qd-to-lowered{check-bounds=false}`), on with `with_check_bounds(true)`;
//! local arrays are checked either way; the checked and unchecked kernels are two entries of the
//! compile cache.

use super::common::*;
use qd_runtime::{Arg, DType, Device, Ndarray, Program, Scalar};

const SRC: &str = r#"module {
  qd.field @x : !qd.field<16xf32>
  qd.field @y : !qd.field<16xf32>
  qd.kernel @bounds_probe(%a: !qd.ndarray<?xf32>, %off: i32) {
    qd.struct_for (%i) in @x {
      %j = arith.addi %i, %off : i32
      %v = qd.load @x[%j] : f32
      %w = qd.ndarray_load %a[%j] : !qd.ndarray<?xf32>
      %s = arith.addf %v, %w : f32
      qd.store %s, @y[%i] : f32
    }
  }
  qd.kernel @local_probe(%k: i32) {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    qd.range_for %t = %c0 to %c4 : i32 {
      %arr = qd.alloca : !qd.ptr<!qd.array<10xf32>>
      %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<10xf32>>
      %v = qd.local_load %p : !qd.ptr<f32>
      qd.store %v, @y[%c0] : f32
    }
  }
}"#;

fn probe_args(p: &mut Program, off: i32) -> Vec<Arg> {
    let values: Vec<f64> = (0..16).map(f64::from).collect();
    let a = Ndarray::from_f64(DType::F32, &[16], &values).unwrap();
    vec![
        Arg::Ndarray(p.add_ndarray(a)),
        Arg::Scalar(Scalar::I32(off)),
    ]
}

/// Cached kernels @bounds_probe, with or without a field bounds check.
fn cached(checked: bool) -> usize {
    qd_llvm::cache::count_matching(|k| {
        k.contains("@bounds_probe(")
            && k.contains("{what = \"field @x\"}") == checked
            && k.contains("{what = \"ndarray argument 0\"}") == checked
    })
}

#[test]
fn the_device_checks_bounds_only_when_asked() {
    let dev = qd_llvm::CpuDevice::with_threads(2).unwrap();
    assert!(!dev.check_bounds());
    assert_eq!(dev.lowering_pipeline(), qd_llvm::PIPELINE_UNCHECKED);
    let dev = dev.with_check_bounds(true);
    assert!(dev.check_bounds());
    assert_eq!(dev.lowering_pipeline(), qd_llvm::PIPELINE);
    assert_eq!(qd_llvm::pipeline(false), qd_llvm::PIPELINE_UNCHECKED);
    assert!(qd_llvm::PIPELINE_UNCHECKED.contains("check-bounds=false"));
}

#[test]
fn checked_and_unchecked_kernels_agree_in_range_and_are_cached_apart() {
    let mut want = interp(SRC);
    let args = probe_args(&mut want, 0);
    want.write_f64("x", &[0.5; 16]).unwrap();
    run_ok(&mut want, "bounds_probe", &args);
    let want = want.read_f64("y").unwrap();
    for checked in [false, true] {
        for _ in 0..2 {
            let mut p = cpu_with(SRC, 3, checked);
            let args = probe_args(&mut p, 0);
            p.write_f64("x", &[0.5; 16]).unwrap();
            run_ok(&mut p, "bounds_probe", &args);
            assert_eq!(p.read_f64("y").unwrap(), want, "checked: {checked}");
        }
    }
    // One compile each: the option is part of the key (through the lowered IR it gives).
    assert_eq!(cached(false), 1);
    assert_eq!(cached(true), 1);
}

#[test]
fn only_the_checked_device_reports_a_field_index_out_of_bounds() {
    let mut i = interp(SRC);
    let args = probe_args(&mut i, 1);
    let want = run_err(&mut i, "bounds_probe", &args);
    assert!(want[0].contains("out of bounds"), "{want:?}");
    let mut c = cpu_with(SRC, 3, true);
    let args = probe_args(&mut c, 1);
    assert_eq!(run_err(&mut c, "bounds_probe", &args), want);
}

#[test]
fn a_local_array_is_checked_either_way() {
    let mut i = interp(SRC);
    for checked in [false, true] {
        let mut c = cpu_with(SRC, 2, checked);
        for k in [10, -2] {
            let arg = [Arg::Scalar(Scalar::I32(k))];
            let want = run_err(&mut i, "local_probe", &arg);
            assert!(want[0].contains("out of bounds"), "{want:?}");
            assert_eq!(run_err(&mut c, "local_probe", &arg), want, "{k}");
        }
    }
}
