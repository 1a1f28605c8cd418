//! The cpu device computes what the reference interpreter computes: integer wraparound, checked
//! division and shifts (the same errors), `INT_MIN / -1`, saturating float-to-int casts,
//! NaN-propagating minimumf, minNum atomics, loops with dynamic bounds, local arrays, and the
//! same out-of-bounds error (text and location), whatever the number of workers.

use super::common::*;
use qd_runtime::{Arg, Scalar};

const ARITH: &str = r#"module {
  qd.field @o : !qd.field<8xi32>
  qd.field @f : !qd.field<4xf32>
  qd.field @m : !qd.field<f32>
  qd.kernel @k(%a: i32, %b: i32, %x: f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %min = arith.constant -2147483648 : i32
    %m1 = arith.constant -1 : i32
    %q = arith.divsi %min, %m1 : i32
    %r = arith.remsi %min, %m1 : i32
    %w = arith.addi %min, %m1 : i32
    %d = arith.divsi %a, %b : i32
    %u = arith.divui %a, %b : i32
    %s = arith.shli %a, %c1 : i32
    %big = arith.constant 1.0e20 : f32
    %sat = arith.fptosi %big : f32 to i32
    %z = arith.subf %x, %x : f32
    %nan = arith.divf %z, %z : f32
    %nsat = arith.fptosi %nan : f32 to i32
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i4 = arith.constant 4 : i32
    %i5 = arith.constant 5 : i32
    %i6 = arith.constant 6 : i32
    %i7 = arith.constant 7 : i32
    qd.store %q, @o[%i0] : i32
    qd.store %r, @o[%i1] : i32
    qd.store %w, @o[%i2] : i32
    qd.store %d, @o[%i3] : i32
    qd.store %u, @o[%i4] : i32
    qd.store %s, @o[%i5] : i32
    qd.store %sat, @o[%i6] : i32
    qd.store %nsat, @o[%i7] : i32
    %mn = arith.minimumf %nan, %x : f32
    %sn = math.sin %x : f32
    %e = math.exp %x : f32
    %p = math.powf %x, %x : f32
    qd.store %mn, @f[%i0] : f32
    qd.store %sn, @f[%i1] : f32
    qd.store %e, @f[%i2] : f32
    qd.store %p, @f[%i3] : f32
    qd.atomic_min %nan, @m[] : f32
  }
}"#;

fn args(a: i32, b: i32, x: f32) -> Vec<Arg> {
    vec![
        Arg::Scalar(Scalar::I32(a)),
        Arg::Scalar(Scalar::I32(b)),
        Arg::Scalar(Scalar::F32(x)),
    ]
}

#[test]
fn arithmetic_matches_the_interpreter_bit_for_bit() {
    let (mut c, mut i) = (cpu(ARITH, 2), interp(ARITH));
    for p in [&mut c, &mut i] {
        p.write_f64("m", &[5.0]).unwrap();
        run_ok(p, "k", &args(-7, 2, 0.5));
    }
    // Bits, so that NaNs compare too; a NaN's sign and payload are left unspecified (x86
    // makes 0/0 negative, the interpreter's minimumf returns Rust's positive NaN).
    let bits = |p: &qd_runtime::Program, f: &str| -> Vec<u64> {
        let s = p.field(f).unwrap().to_scalars();
        s.iter()
            .map(|x| if x.to_f64().is_nan() { 1 } else { x.to_bits() })
            .collect()
    };
    for f in ["o", "f", "m"] {
        assert_eq!(bits(&c, f), bits(&i, f), "field {f}");
    }
    let o = c.read_f64("o").unwrap();
    assert_eq!(o[..3], [-2147483648.0, 0.0, 2147483647.0]);
    assert_eq!(o[3], -3.0);
    assert_eq!(o[6..], [2147483647.0, 0.0]);
    assert!(
        c.read_f64("f").unwrap()[0].is_nan(),
        "minimumf propagates NaN"
    );
    // minNum: the NaN loses to the field's 5.
    assert_eq!(c.read_f64("m").unwrap(), [5.0]);
}

#[test]
fn division_by_zero_is_the_interpreters_error() {
    let (mut c, mut i) = (cpu(ARITH, 2), interp(ARITH));
    let e = run_err(&mut c, "k", &args(1, 0, 1.0));
    assert_eq!(e, run_err(&mut i, "k", &args(1, 0, 1.0)));
    assert!(e[0].contains("integer division by zero"), "{e:?}");
    assert!(e[0].starts_with("test.mlir:"), "{e:?}");
    // A later sync is clean, and the kernel runs again.
    assert!(c.sync().is_ok());
    run_ok(&mut c, "k", &args(1, 1, 1.0));
}

const OOB: &str = r#"module {
  qd.field @x : !qd.field<64xf32>
  qd.field @y : !qd.field<64xf32>
  qd.kernel @k(%off: i32) {
    qd.struct_for (%i) in @x {
      %j = arith.addi %i, %off : i32
      %v = qd.load @x[%j] : f32
      qd.store %v, @y[%i] : f32
    }
  }
  qd.kernel @local(%k: i32) {
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

#[test]
fn out_of_bounds_reports_the_lowest_thread_as_the_interpreter() {
    let mut i = interp(OOB);
    for threads in [1, 3, 8] {
        let mut c = cpu(OOB, threads);
        for (k, a) in [("k", 5), ("k", -9), ("local", 10), ("local", -2)] {
            let arg = [Arg::Scalar(Scalar::I32(a))];
            let want = run_err(&mut i, k, &arg);
            assert_eq!(
                run_err(&mut c, k, &arg),
                want,
                "{k}({a}) on {threads} workers"
            );
            assert!(want[0].contains("out of bounds"), "{want:?}");
        }
    }
}

const PER_ELEMENT: &str = r#"module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<1000xf32>
  qd.field @y : !qd.field<1000xf32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %x_i = qd.load @x[%i] : f32
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %s = math.sin %a : f32
        %k = arith.constant 0.9 : f32
        %b = arith.constant 0.1 : f32
        %m = arith.mulf %s, %k : f32
        %r = arith.addf %m, %b : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
    }
  }
}"#;

#[test]
fn results_do_not_depend_on_the_number_of_workers() {
    let xs: Vec<f64> = (0..1000).map(|i| f64::from(i) * 0.01 - 3.0).collect();
    let mut reference = interp(PER_ELEMENT);
    let setup = |p: &mut qd_runtime::Program| {
        p.write_f64("n", &[17.0]).unwrap();
        p.write_f64("x", &xs).unwrap();
    };
    setup(&mut reference);
    run_ok(&mut reference, "k", &[]);
    let want = reference.read_f64("y").unwrap();
    let mut first = None;
    for threads in [1, 2, 5] {
        let mut c = cpu(PER_ELEMENT, threads);
        setup(&mut c);
        run_ok(&mut c, "k", &[]);
        let y = c.field("y").unwrap().clone();
        // Bit for bit whatever the workers.
        assert_eq!(
            first.get_or_insert_with(|| y.clone()),
            &y,
            "{threads} workers"
        );
        // The vectorized f32 sin is libm's but for rare one-ulp differences (17 steps here).
        for (a, b) in c.read_f64("y").unwrap().iter().zip(&want) {
            assert!((a - b).abs() <= 1e-6 * b.abs(), "{a} vs {b}");
        }
    }
}

/// The f32 sin and cos are within one ulp of the exact value (f64's, rounded).
#[test]
fn f32_sin_and_cos_are_within_an_ulp() {
    let src = r#"module {
  qd.field @x : !qd.field<4096xf32>
  qd.field @s : !qd.field<4096xf32>
  qd.field @c : !qd.field<4096xf32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %a = math.sin %v : f32
      %b = math.cos %v : f32
      qd.store %a, @s[%i] : f32
      qd.store %b, @c[%i] : f32
    }
  }
}"#;
    let xs: Vec<f64> = (0..4096)
        .map(|i| {
            let t = f64::from(i) / 4096.0;
            match i % 4 {
                0 => (t - 0.5) * 20.0,
                1 => (t - 0.5) * 2e4,
                2 => (t - 0.5) * 1e-3,
                _ => (t - 0.5) * 1e6,
            }
        })
        .map(|v| f64::from(v as f32))
        .collect();
    let mut c = cpu(src, 2);
    c.write_f64("x", &xs).unwrap();
    run_ok(&mut c, "k", &[]);
    let (s, co) = (c.read_f64("s").unwrap(), c.read_f64("c").unwrap());
    let ulp = |v: f64| f64::from(f32::from_bits((v as f32).abs().to_bits() + 1) - (v as f32).abs());
    for (i, &x) in xs.iter().enumerate() {
        for (got, want) in [(s[i], x.sin()), (co[i], x.cos())] {
            assert!((got - want).abs() <= ulp(want), "x = {x}: {got} vs {want}");
        }
    }
}
