//! `ad.load_element` / `ad.store_element` on the interpreter: they address exactly the cells the
//! `qd.elem_ptr`/`qd.member_ptr` chain of their path does (nested arrays of structs, literal and
//! dynamic indices), and check dynamic indices as `qd.elem_ptr` does.

use super::common::*;
use qd_runtime::{Arg, RuntimeErrorKind, Scalar};

/// Writes through element paths, reads back through the equivalent pointer chains (and the
/// other way round) into @out.
const NESTED: &str = r#"
qd.field @out : !qd.field<6xf32>
qd.kernel @k(%i: i32) {
  %arr = qd.alloca : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  %one = arith.constant 1.5 : f32
  %two = arith.constant 2.5 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %k7 = arith.constant 7 : i32
  ad.store_element %one, %arr[%i, 1, 1] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  ad.store_element %two, %arr[2, 0] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  ad.store_element %k7, %arr[0, 2] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  // The same cells through pointer chains.
  %e = qd.elem_ptr %arr[%i] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  %m = qd.member_ptr %e[1] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
  %q = qd.elem_ptr %m[%c1] : !qd.ptr<!qd.array<2xf32>>
  %a = qd.local_load %q : !qd.ptr<f32>
  qd.store %a, @out[%c0] : f32
  %e2 = qd.elem_ptr %arr[%c2] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  %m2 = qd.member_ptr %e2[0] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
  %b = qd.local_load %m2 : !qd.ptr<f32>
  qd.store %b, @out[%c1] : f32
  %e0 = qd.elem_ptr %arr[%c0] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  %m0 = qd.member_ptr %e0[2] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
  %n = qd.local_load %m0 : !qd.ptr<i32>
  %nf = arith.sitofp %n : i32 to f32
  qd.store %nf, @out[%c2] : f32
  // A chain store read back by a path load; an untouched cell reads 0.
  %q0 = qd.elem_ptr %m[%c0] : !qd.ptr<!qd.array<2xf32>>
  qd.local_store %two, %q0 : !qd.ptr<f32>
  %c = ad.load_element %arr[%i, 1, 0] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  qd.store %c, @out[%c3] : f32
  %d = ad.load_element %arr[1, 1, %c1] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  qd.store %d, @out[%c4] : f32
  %f = ad.load_element %arr[%i, 1, 1] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
  qd.store %f, @out[%c5] : f32
}
"#;

#[test]
fn element_paths_address_the_cells_of_pointer_chains() {
    let mut p = program(NESTED);
    run_ok(&mut p, "k", &[Arg::Scalar(Scalar::I32(0))]);
    assert_eq!(
        p.read_f64("out").unwrap(),
        vec![1.5, 2.5, 7.0, 2.5, 0.0, 1.5]
    );
    let mut p = program(NESTED);
    run_ok(&mut p, "k", &[Arg::Scalar(Scalar::I32(1))]);
    // %i = 1: element [1].1[1] is written, so the load of [1, 1, %c1] sees it.
    assert_eq!(
        p.read_f64("out").unwrap(),
        vec![1.5, 2.5, 7.0, 2.5, 1.5, 1.5]
    );
}

#[test]
fn dynamic_element_indices_are_checked() {
    let src = r#"
qd.kernel @k(%i: i32) {
  %arr = qd.alloca : !qd.ptr<!qd.array<2x!qd.array<4xf32>>>
  %c0 = arith.constant 0 : i32
  %v = ad.load_element %arr[%c0, %i] : !qd.ptr<!qd.array<2x!qd.array<4xf32>>>
}
"#;
    for i in [4, -1] {
        let mut p = program(src);
        let e = run_err(&mut p, "k", &[Arg::Scalar(Scalar::I32(i))]);
        assert_eq!(e.kind, RuntimeErrorKind::OutOfBounds);
        assert_eq!(
            e.message,
            format!("index {i} is out of bounds for local array '!qd.array<4xf32>' of length 4")
        );
        assert_eq!(line_of(&e), 5);
    }
}
