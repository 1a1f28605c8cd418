//! Exact semantics: integer wrapping, f32 arithmetic in f32, IEEE math, checked division and
//! shifts, located out-of-bounds errors, atomics, control flow, locals.

use super::common::*;
use qd_runtime::{Arg, DType, Ndarray, RuntimeErrorKind, Scalar, Storage};

/// A module with fields `@i` (8 x i32), `@f` (8 x f32), `@d` (8 x f64) and one kernel `@k`
/// whose body is `body`.
fn module(params: &str, body: &str) -> String {
    format!(
        "module {{
  qd.field @i : !qd.field<8xi32>
  qd.field @f : !qd.field<8xf32>
  qd.field @d : !qd.field<8xf64>
  qd.kernel @k({params}) {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
{body}
  }}
}}
"
    )
}

fn ints(p: &qd_runtime::Program) -> Vec<i32> {
    p.field("i").unwrap().as_i32().unwrap().to_vec()
}
fn f32s(p: &qd_runtime::Program) -> Vec<f32> {
    p.field("f").unwrap().as_f32().unwrap().to_vec()
}
fn f64s(p: &qd_runtime::Program) -> Vec<f64> {
    p.field("d").unwrap().as_f64().unwrap().to_vec()
}

#[test]
fn integers_wrap_at_their_width() {
    let src = module(
        "",
        "    %max = arith.constant 2147483647 : i32
    %w = arith.addi %max, %c1 : i32
    qd.store %w, @i[%c0] : i32
    %big = arith.constant 65536 : i32
    %sq = arith.muli %big, %big : i32
    qd.store %sq, @i[%c1] : i32
    %min = arith.constant -2147483648 : i32
    %neg = arith.subi %min, %c1 : i32
    qd.store %neg, @i[%c2] : i32
    %b = arith.constant 127 : i8
    %one8 = arith.constant 1 : i8
    %b1 = arith.addi %b, %one8 : i8
    %e = arith.extsi %b1 : i8 to i32
    qd.store %e, @i[%c3] : i32
    %u = arith.extui %b1 : i8 to i32
    %c4 = arith.constant 4 : i32
    qd.store %u, @i[%c4] : i32
    %m1 = arith.constant -1 : i32
    %q = arith.divsi %min, %m1 : i32
    %c5 = arith.constant 5 : i32
    qd.store %q, @i[%c5] : i32
    %r = arith.remsi %min, %m1 : i32
    %c6 = arith.constant 6 : i32
    qd.store %r, @i[%c6] : i32
    %l = arith.constant 8589934597 : i64
    %t = arith.trunci %l : i64 to i32
    %c7 = arith.constant 7 : i32
    qd.store %t, @i[%c7] : i32",
    );
    let mut p = program(&src);
    run_ok(&mut p, "k", &[]);
    assert_eq!(
        ints(&p),
        vec![i32::MIN, 0, i32::MAX, -128, 128, i32::MIN, 0, 5]
    );
}

#[test]
fn integer_ops() {
    let src = module(
        "%a: i32, %b: i32",
        "    %0 = arith.divsi %a, %b : i32
    qd.store %0, @i[%c0] : i32
    %1 = arith.remsi %a, %b : i32
    qd.store %1, @i[%c1] : i32
    %2 = arith.divui %a, %b : i32
    qd.store %2, @i[%c2] : i32
    %3 = arith.shrsi %a, %c1 : i32
    qd.store %3, @i[%c3] : i32
    %4 = arith.shrui %a, %c1 : i32
    %c4 = arith.constant 4 : i32
    qd.store %4, @i[%c4] : i32
    %5 = arith.minsi %a, %b : i32
    %c5 = arith.constant 5 : i32
    qd.store %5, @i[%c5] : i32
    %6 = arith.xori %a, %b : i32
    %c6 = arith.constant 6 : i32
    qd.store %6, @i[%c6] : i32
    %lt = arith.cmpi ult, %a, %b : i32
    %7 = arith.select %lt, %c1, %c0 : i32
    %c7 = arith.constant 7 : i32
    qd.store %7, @i[%c7] : i32",
    );
    let mut p = program(&src);
    run_ok(
        &mut p,
        "k",
        &[Arg::Scalar(Scalar::I32(-7)), Arg::Scalar(Scalar::I32(2))],
    );
    assert_eq!(
        ints(&p),
        vec![
            -3,
            -1,
            ((-7i32) as u32 / 2) as i32,
            -4,
            ((-7i32) as u32 >> 1) as i32,
            -7,
            -7 ^ 2,
            0 // -7 is a huge unsigned number
        ]
    );
}

#[test]
fn f32_arithmetic_is_done_in_f32() {
    // (1e8 + 1) - 1e8 is 0 in f32 (1e8 + 1 rounds back to 1e8) and 1 in f64: f32 ops must not
    // be computed in f64 and rounded at the end.
    let src = module(
        "",
        "    %x = arith.constant 1.0e8 : f32
    %one = arith.constant 1.0 : f32
    %s = arith.addf %x, %one : f32
    %r = arith.subf %s, %x : f32
    qd.store %r, @f[%c0] : f32
    %xd = arith.constant 1.0e8 : f64
    %oned = arith.constant 1.0 : f64
    %sd = arith.addf %xd, %oned : f64
    %rd = arith.subf %sd, %xd : f64
    qd.store %rd, @d[%c0] : f64
    %third = arith.divf %one, %x : f32
    qd.store %third, @f[%c1] : f32
    %e = arith.extf %third : f32 to f64
    qd.store %e, @d[%c1] : f64
    %t = arith.truncf %rd : f64 to f32
    qd.store %t, @f[%c2] : f32
    %m = arith.remf %x, %x : f32
    qd.store %m, @f[%c3] : f32",
    );
    let mut p = program(&src);
    run_ok(&mut p, "k", &[]);
    let f = f32s(&p);
    let d = f64s(&p);
    assert_eq!(f[0], 0.0);
    assert_eq!(d[0], 1.0);
    assert_eq!(f[1], 1.0f32 / 1e8f32);
    assert_eq!(d[1], (1.0f32 / 1e8f32) as f64);
    assert_eq!(f[2], 1.0);
    assert_eq!(f[3], 0.0);
}

#[test]
fn math_matches_rust_f32_functions() {
    let src = module(
        "%x: f32, %y: f32",
        "    %0 = math.sin %x : f32
    qd.store %0, @f[%c0] : f32
    %1 = math.exp %x : f32
    qd.store %1, @f[%c1] : f32
    %2 = math.tanh %x : f32
    qd.store %2, @f[%c2] : f32
    %3 = math.powf %x, %y : f32
    qd.store %3, @f[%c3] : f32
    %4 = math.atan2 %x, %y : f32
    %c4 = arith.constant 4 : i32
    qd.store %4, @f[%c4] : f32
    %5 = math.fma %x, %y, %x : f32
    %c5 = arith.constant 5 : i32
    qd.store %5, @f[%c5] : f32
    %6 = math.rsqrt %y : f32
    %c6 = arith.constant 6 : i32
    qd.store %6, @f[%c6] : f32
    %neg = arith.negf %x : f32
    %7 = math.sqrt %neg : f32
    %c7 = arith.constant 7 : i32
    qd.store %7, @f[%c7] : f32",
    );
    let mut p = program(&src);
    let (x, y) = (0.7f32, 2.5f32);
    run_ok(
        &mut p,
        "k",
        &[Arg::Scalar(Scalar::F32(x)), Arg::Scalar(Scalar::F32(y))],
    );
    let f = f32s(&p);
    let want = [
        x.sin(),
        x.exp(),
        x.tanh(),
        x.powf(y),
        x.atan2(y),
        x.mul_add(y, x),
        1.0 / y.sqrt(),
    ];
    assert_eq!(&f[..7], &want);
    assert!(f[7].is_nan(), "sqrt of a negative number is NaN (IEEE)");
}

#[test]
fn float_min_max_casts_and_compares() {
    let src = module(
        "%x: f32, %nan: f32",
        "    %z = arith.constant 0.0 : f32
    %nz = arith.constant -0.0 : f32
    %0 = arith.minimumf %z, %nz : f32
    qd.store %0, @f[%c0] : f32
    %1 = arith.maximumf %x, %nan : f32
    qd.store %1, @f[%c1] : f32
    %big = arith.constant 1.0e10 : f32
    %2 = arith.fptosi %big : f32 to i32
    qd.store %2, @i[%c0] : i32
    %3 = arith.fptosi %nan : f32 to i32
    qd.store %3, @i[%c1] : i32
    %m = arith.constant -2.75 : f32
    %4 = arith.fptosi %m : f32 to i32
    qd.store %4, @i[%c2] : i32
    %5 = arith.fptoui %m : f32 to i32
    qd.store %5, @i[%c3] : i32
    %6 = arith.bitcast %x : f32 to i32
    %c4 = arith.constant 4 : i32
    qd.store %6, @i[%c4] : i32
    %7 = arith.cmpf uno, %x, %nan : f32
    %8 = arith.extui %7 : i1 to i32
    %c5 = arith.constant 5 : i32
    qd.store %8, @i[%c5] : i32
    %9 = arith.cmpf olt, %x, %nan : f32
    %10 = arith.extsi %9 : i1 to i32
    %c6 = arith.constant 6 : i32
    qd.store %10, @i[%c6] : i32
    %n = arith.constant -3 : i32
    %11 = arith.sitofp %n : i32 to f32
    qd.store %11, @f[%c2] : f32
    %12 = arith.uitofp %n : i32 to f32
    qd.store %12, @f[%c3] : f32
    %13 = arith.index_cast %n : i32 to index
    %14 = arith.index_cast %13 : index to i32
    %c7 = arith.constant 7 : i32
    qd.store %14, @i[%c7] : i32",
    );
    let mut p = program(&src);
    run_ok(
        &mut p,
        "k",
        &[
            Arg::Scalar(Scalar::F32(1.5)),
            Arg::Scalar(Scalar::F32(f32::NAN)),
        ],
    );
    let f = f32s(&p);
    assert!(
        f[0] == 0.0 && f[0].is_sign_negative(),
        "minimumf(0, -0) = -0"
    );
    assert!(f[1].is_nan(), "maximumf propagates NaN");
    assert_eq!(f[2], -3.0);
    assert_eq!(f[3], 4294967293.0f32);
    assert_eq!(
        ints(&p),
        vec![i32::MAX, 0, -2, 0, 1.5f32.to_bits() as i32, 1, 0, -3]
    );
}

#[test]
fn division_by_zero_is_a_located_error() {
    let src = module(
        "%a: i32, %b: i32",
        "    %q = arith.divsi %a, %b : i32
    qd.store %q, @i[%c0] : i32",
    );
    let mut p = program(&src);
    let e = run_err(
        &mut p,
        "k",
        &[Arg::Scalar(Scalar::I32(1)), Arg::Scalar(Scalar::I32(0))],
    );
    assert_eq!(e.kind, RuntimeErrorKind::DivisionByZero);
    assert_eq!(line_of(&e), 10);
    assert_eq!(e.kernel, "k");
    assert!(
        e.to_string()
            .starts_with("test.mlir:10:10: error: integer division by zero (in kernel @k)"),
        "{e}"
    );
    // The launch stopped before the store.
    assert_eq!(ints(&p)[0], 0);
    // Unsigned remainder too.
    let src = module("%a: i32, %b: i32", "    %r = arith.remui %a, %b : i32");
    let mut p = program(&src);
    let e = run_err(
        &mut p,
        "k",
        &[Arg::Scalar(Scalar::I32(1)), Arg::Scalar(Scalar::I32(0))],
    );
    assert_eq!(e.kind, RuntimeErrorKind::DivisionByZero);
}

#[test]
fn oversized_shift_is_an_error() {
    let src = module("%a: i32, %s: i32", "    %r = arith.shli %a, %s : i32");
    let mut p = program(&src);
    run_ok(
        &mut p,
        "k",
        &[Arg::Scalar(Scalar::I32(1)), Arg::Scalar(Scalar::I32(31))],
    );
    let e = run_err(
        &mut p,
        "k",
        &[Arg::Scalar(Scalar::I32(1)), Arg::Scalar(Scalar::I32(32))],
    );
    assert_eq!(e.kind, RuntimeErrorKind::InvalidOperation);
    assert!(e.message.contains("shift amount 32"), "{e}");
}

#[test]
fn field_out_of_bounds_is_located_and_stops_the_launch() {
    let src = "module {
  qd.field @x : !qd.field<4x3xf32>
  qd.field @done : !qd.field<8xi32>
  qd.kernel @k(%r: i32) {
    qd.struct_for (%i) in @done {
      %c1 = arith.constant 1 : i32
      qd.store %c1, @done[%i] : i32
      %c2 = arith.constant 2 : i32
      %v = qd.load @x[%r, %c2] : f32
    }
  }
}
";
    let mut p = program(src);
    run_ok(&mut p, "k", &[Arg::Scalar(Scalar::I32(3))]);
    let e = run_err(&mut p, "k", &[Arg::Scalar(Scalar::I32(4))]);
    assert_eq!(e.kind, RuntimeErrorKind::OutOfBounds);
    assert_eq!(
        e.message,
        "index [4, 2] is out of bounds for field @x of shape [4, 3]"
    );
    assert_eq!(e.position, Some(("test.mlir".to_string(), 9, 12)));
    // Thread 0 stored its flag, then failed: no later thread ran.
    let mut p = program(src);
    let e = run_err(&mut p, "k", &[Arg::Scalar(Scalar::I32(-1))]);
    assert!(e.message.starts_with("index [-1, 2]"), "{e}");
    assert_eq!(
        p.field("done").unwrap().as_i32().unwrap(),
        &[1, 0, 0, 0, 0, 0, 0, 0]
    );
}

#[test]
fn ndarray_out_of_bounds_is_located() {
    let src = "module {
  qd.field @x : !qd.field<8xf32>
  qd.kernel @k(%a: !qd.ndarray<?x?xf32>) {
    qd.struct_for (%i) in @x {
      %c0 = arith.constant 0 : i32
      %v = qd.ndarray_load %a[%c0, %i] : !qd.ndarray<?x?xf32>
      qd.store %v, @x[%i] : f32
      qd.ndarray_store %v, %a[%i, %c0] : !qd.ndarray<?x?xf32>
    }
  }
}
";
    let mut p = program(src);
    let vals: Vec<f64> = (0..16).map(|v| v as f64).collect();
    let a = p.add_ndarray(Ndarray::from_f64(DType::F32, &[2, 8], &vals).unwrap());
    let e = run_err(&mut p, "k", &[Arg::Ndarray(a)]);
    assert_eq!(
        e.message,
        "index [2, 0] is out of bounds for ndarray argument 0 of shape [2, 8]"
    );
    assert_eq!(line_of(&e), 8);
    // Threads 0 and 1 completed (loads and stores), thread 2 failed at its store.
    assert_eq!(
        &p.field("x").unwrap().as_f32().unwrap()[..3],
        &[0.0, 1.0, 2.0]
    );
    let data = p.ndarray(a).unwrap().data().as_f32().unwrap().to_vec();
    assert_eq!(data[8], 1.0, "a[1, 0] = x[1]");
    let b = p.add_ndarray(Ndarray::zeros(DType::F32, &[8, 4]).unwrap());
    let e = run_err(&mut p, "k", &[Arg::Ndarray(b)]);
    assert_eq!(
        e.message,
        "index [0, 4] is out of bounds for ndarray argument 0 of shape [8, 4]"
    );
    assert_eq!(line_of(&e), 6);
}

#[test]
fn local_array_out_of_bounds_is_located() {
    let src = "module {
  qd.field @y : !qd.field<f32>
  qd.kernel @k(%n: i32) {
    %arr = qd.alloca : !qd.ptr<!qd.array<3x!qd.array<2xf32>>>
    %c0 = arith.constant 0 : i32
    qd.range_for %t = %c0 to %n : i32 {
      %row = qd.elem_ptr %arr[%t] : !qd.ptr<!qd.array<3x!qd.array<2xf32>>>
      %p = qd.elem_ptr %row[%c0] : !qd.ptr<!qd.array<2xf32>>
      %one = arith.constant 1.0 : f32
      qd.local_store %one, %p : !qd.ptr<f32>
      %v = qd.local_load %p : !qd.ptr<f32>
      qd.atomic_add %v, @y[] : f32
    }
  }
}
";
    let mut p = program(src);
    run_ok(&mut p, "k", &[Arg::Scalar(Scalar::I32(3))]);
    assert_eq!(p.read_f64("y").unwrap(), vec![3.0]);
    let e = run_err(&mut p, "k", &[Arg::Scalar(Scalar::I32(5))]);
    assert_eq!(e.kind, RuntimeErrorKind::OutOfBounds);
    assert_eq!(
        e.message,
        "index 3 is out of bounds for local array '!qd.array<3x2xf32>' of length 3"
    );
    assert_eq!(e.position, Some(("test.mlir".to_string(), 7, 14)));
    assert_eq!(
        p.read_f64("y").unwrap(),
        vec![6.0],
        "three iterations ran before the error"
    );
}

#[test]
fn atomics_return_the_old_value() {
    let src = "module {
  qd.field @acc : !qd.field<i32>
  qd.field @olds : !qd.field<4xi32>
  qd.field @lo : !qd.field<f32>
  qd.field @hi : !qd.field<f32>
  qd.field @u : !qd.field<ui32>
  qd.field @v : !qd.field<4xi32>
  qd.kernel @k(%x: !qd.ndarray<?xf32>, %uv: ui32) {
    qd.struct_for (%i) in @olds {
      %c10 = arith.constant 10 : i32
      %old = qd.atomic_add %c10, @acc[] : i32
      qd.store %old, @olds[%i] : i32
      %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
      qd.atomic_min %xi, @lo[] : f32
      qd.atomic_max %xi, @hi[] : f32
      %m = arith.constant -5 : i32
      %o = qd.atomic_max %m, @v[%i] : i32
    }
    qd.atomic_min %uv, @u[] : ui32
  }
}
";
    let mut p = program(src);
    p.write_f64("lo", &[100.0]).unwrap();
    p.write_f64("hi", &[-100.0]).unwrap();
    p.write_scalars("u", &[Scalar::U32(7)]).unwrap();
    let x =
        p.add_ndarray(Ndarray::from_f64(DType::F32, &[4], &[3.0, -2.0, 8.0, f64::NAN]).unwrap());
    run_ok(
        &mut p,
        "k",
        &[Arg::Ndarray(x), Arg::Scalar(Scalar::U32(u32::MAX))],
    );
    assert_eq!(p.field("acc").unwrap().as_i32().unwrap(), &[40]);
    assert_eq!(p.field("olds").unwrap().as_i32().unwrap(), &[0, 10, 20, 30]);
    // A NaN operand loses to the number (minNum / maxNum).
    assert_eq!(p.read_f64("lo").unwrap(), vec![-2.0]);
    assert_eq!(p.read_f64("hi").unwrap(), vec![8.0]);
    // ui32 compares unsigned: u32::MAX is not below 7.
    assert_eq!(p.field("u").unwrap().get(0), Some(Scalar::U32(7)));
    assert_eq!(p.field("v").unwrap().as_i32().unwrap(), &[0, 0, 0, 0]);
}

#[test]
fn break_continue_and_while() {
    let src = "module {
  qd.field @sum : !qd.field<i32>
  qd.field @count : !qd.field<i32>
  qd.field @log : !qd.field<16xi32>
  qd.kernel @k() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c100 = arith.constant 100 : i32
    // A struct_for over a scalar field: one thread, whose inner loops are serial.
    qd.struct_for () in @sum {
      %s = qd.alloca : !qd.ptr<i32>
      qd.range_for %t = %c0 to %c100 : i32 {
        %odd = arith.remsi %t, %c2 : i32
        %is_odd = arith.cmpi ne, %odd, %c0 : i32
        qd.if %is_odd {
          qd.continue
        }
        %stop = arith.cmpi sgt, %t, %c7 : i32
        qd.if %stop {
          qd.break
        }
        %a = qd.local_load %s : !qd.ptr<i32>
        %b = arith.addi %a, %t : i32
        qd.local_store %b, %s : !qd.ptr<i32>
        qd.store %t, @log[%t] : i32
      }
      %r = qd.local_load %s : !qd.ptr<i32>
      qd.store %r, @sum[] : i32
      %n = qd.alloca : !qd.ptr<i32>
      qd.while {
        %k = qd.local_load %n : !qd.ptr<i32>
        %go = arith.cmpi slt, %k, %c100 : i32
        qd.condition %go
      } do {
        %k = qd.local_load %n : !qd.ptr<i32>
        %k1 = arith.addi %k, %c1 : i32
        qd.local_store %k1, %n : !qd.ptr<i32>
        %at = arith.cmpi eq, %k1, %c7 : i32
        qd.if %at {
          qd.break
        } else {
          qd.continue
        }
      }
      %cnt = qd.local_load %n : !qd.ptr<i32>
      qd.store %cnt, @count[] : i32
    }
  }
}
";
    let mut p = program(src);
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.read_f64("sum").unwrap(), vec![12.0], "0 + 2 + 4 + 6");
    assert_eq!(p.read_f64("count").unwrap(), vec![7.0]);
    let log = p.field("log").unwrap().as_i32().unwrap().to_vec();
    assert_eq!(&log[..9], &[0, 0, 2, 0, 4, 0, 6, 0, 0]);
}

#[test]
fn locals_are_zeroed_each_time_their_alloca_runs() {
    // The struct's count restarts at 0 in every iteration of the outer serial loop, and each
    // parallel thread gets fresh locals.
    let src = "module {
  qd.field @out : !qd.field<3x4xi32>
  qd.kernel @k() {
    qd.struct_for (%i, %j) in @out {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      qd.range_for %t = %c0 to %c3 : i32 {
        %st = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
        %pc = qd.member_ptr %st[1] : !qd.ptr<!qd.struct<f32, i32>>
        %k = qd.local_load %pc : !qd.ptr<i32>
        %k1 = arith.addi %k, %c1 : i32
        qd.local_store %k1, %pc : !qd.ptr<i32>
        %ij = arith.addi %i, %j : i32
        %v = arith.addi %k1, %ij : i32
        qd.atomic_add %v, @out[%i, %j] : i32
      }
    }
  }
}
";
    let mut p = program(src);
    run_ok(&mut p, "k", &[]);
    let out = p.field("out").unwrap().as_i32().unwrap().to_vec();
    let want: Vec<i32> = (0..3)
        .flat_map(|i| (0..4).map(move |j| 3 * (1 + i + j)))
        .collect();
    assert_eq!(out, want);
}

#[test]
fn range_for_bounds_of_every_integer_type() {
    let src = "module {
  qd.field @n : !qd.field<i64>
  qd.kernel @k(%lo: i64, %hi: i64) {
    %a = arith.constant -3 : index
    %b = arith.constant 2 : index
    qd.range_for %t = %a to %b : index {
      %one = arith.constant 1 : i64
      qd.atomic_add %one, @n[] : i64
    }
    qd.range_for %t = %lo to %hi : i64 {
      %one = arith.constant 100 : i64
      qd.atomic_add %one, @n[] : i64
    }
    %c5 = arith.constant 5 : i8
    %c2 = arith.constant 2 : i8
    qd.range_for %t = %c5 to %c2 : i8 {
      %one = arith.constant 10000 : i64
      qd.atomic_add %one, @n[] : i64
    }
  }
}
";
    let mut p = program(src);
    run_ok(
        &mut p,
        "k",
        &[Arg::Scalar(Scalar::I64(-1)), Arg::Scalar(Scalar::I64(2))],
    );
    assert_eq!(p.field("n").unwrap().as_i64().unwrap(), &[5 + 300]);
}

#[test]
fn struct_for_over_scalar_and_2d_fields() {
    let src = "module {
  qd.field @s : !qd.field<f32>
  qd.field @g : !qd.field<2x3xi32>
  qd.kernel @k() {
    qd.struct_for () in @s {
      %one = arith.constant 1.5 : f32
      qd.atomic_add %one, @s[] : f32
    }
    qd.struct_for (%i, %j) in @g {
      %c10 = arith.constant 10 : i32
      %t = arith.muli %i, %c10 : i32
      %v = arith.addi %t, %j : i32
      qd.store %v, @g[%i, %j] : i32
    }
  }
}
";
    let mut p = program(src);
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.read_f64("s").unwrap(), vec![1.5]);
    assert_eq!(
        p.field("g").unwrap().as_i32().unwrap(),
        &[0, 1, 2, 10, 11, 12]
    );
}

#[test]
fn fields_of_every_dtype_load_and_store() {
    let src = "module {
  qd.field @a : !qd.field<2xi1>
  qd.field @b : !qd.field<2xi8>
  qd.field @c : !qd.field<2xi16>
  qd.field @d : !qd.field<2xui8>
  qd.field @e : !qd.field<2xf64>
  qd.kernel @k() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = qd.load @a[%c0] : i1
    qd.store %a, @a[%c1] : i1
    %b = qd.load @b[%c0] : i8
    qd.store %b, @b[%c1] : i8
    %c = qd.load @c[%c0] : i16
    qd.store %c, @c[%c1] : i16
    %d = qd.load @d[%c0] : ui8
    qd.store %d, @d[%c1] : ui8
    %e = qd.load @e[%c0] : f64
    qd.store %e, @e[%c1] : f64
  }
}
";
    let mut p = program(src);
    p.write("a", Storage::I1(vec![true, false].into())).unwrap();
    p.write("b", Storage::I8(vec![-100, 0].into())).unwrap();
    p.write("c", Storage::I16(vec![-30000, 0].into())).unwrap();
    p.write("d", Storage::U8(vec![250, 0].into())).unwrap();
    p.write("e", Storage::F64(vec![0.1, 0.0].into())).unwrap();
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.field("a").unwrap(), &Storage::I1(vec![true, true].into()));
    assert_eq!(p.field("b").unwrap(), &Storage::I8(vec![-100, -100].into()));
    assert_eq!(
        p.field("c").unwrap(),
        &Storage::I16(vec![-30000, -30000].into())
    );
    assert_eq!(p.field("d").unwrap(), &Storage::U8(vec![250, 250].into()));
    assert_eq!(p.field("e").unwrap(), &Storage::F64(vec![0.1, 0.1].into()));
}
