//! The compile cache: a kernel compiled once in the process is not compiled again, by the same
//! device or another one; a different kernel is; a failed compile is not cached.

use super::common::*;
use qd_runtime::{Arg, Scalar};

const SRC: &str = r#"module {
  qd.field @x : !qd.field<8xf32>
  qd.kernel @cache_probe(%a: f32) {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %w = arith.mulf %v, %a : f32
      %c = arith.constant 3.25 : f32
      %r = arith.addf %w, %c : f32
      qd.store %r, @x[%i] : f32
    }
  }
}"#;

/// Cached kernels named @cache_probe whose IR holds `constant`.
fn cached(constant: &str) -> usize {
    qd_llvm::cache::count_matching(|k| k.contains("@cache_probe(") && k.contains(constant))
}

#[test]
fn a_kernel_is_compiled_once_per_process() {
    let mut first = cpu(SRC, 2);
    first.kernel("cache_probe").unwrap();
    first.kernel("cache_probe").unwrap();
    let mut second = cpu(SRC, 3);
    run_ok(&mut second, "cache_probe", &[Arg::Scalar(Scalar::F32(2.0))]);
    assert_eq!(second.read_f64("x").unwrap(), vec![3.25; 8]);
    assert_eq!(cached("3.25"), 1);
    let other = SRC.replace("3.25", "4.75");
    let mut third = cpu(&other, 2);
    run_ok(&mut third, "cache_probe", &[Arg::Scalar(Scalar::F32(2.0))]);
    assert_eq!(third.read_f64("x").unwrap(), vec![4.75; 8]);
    assert_eq!(cached("4.75"), 1);
    assert_eq!(cached("3.25"), 1);
}

#[test]
fn a_failed_compile_is_not_cached() {
    let key = "test key: a kernel that does not compile".to_string();
    let mut calls = 0;
    for _ in 0..3 {
        let r = qd_llvm::cache::get_or_compile(key.clone(), || {
            calls += 1;
            Err::<qd_llvm::cache::CompiledCode, String>("no".into())
        });
        assert!(r.is_err());
    }
    assert_eq!(calls, 3);
    assert_eq!(qd_llvm::cache::count_matching(|k| k == key), 0);
}
