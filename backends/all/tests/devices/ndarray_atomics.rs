//! Every ndarray atomic on every device, from 8 and from 4096 threads contending on a few
//! elements: float add/sub of dyadic values (exact in any order), minNum/maxNum, integer sub
//! returning the old value (each thread gets a distinct one), signed and unsigned min/max,
//! wrapping unsigned add; the float sub into a rank-2 ndarray of f64 and of f32 (vulkan only the
//! f32 one: lavapipe has no f64 atomic add).

use super::common::*;
use qd_runtime::{Arg, DType, Ndarray, Program, Scalar};

/// The kernel, over `n` threads, with a rank-2 ndarray `%g` of `g` ("f32" or "f64").
fn src(n: usize, g: &str) -> String {
    let ext = if g == "f64" {
        "%xg = arith.extf %xi : f32 to f64"
    } else {
        "%xg = arith.addf %xi, %xi0 : f32"
    };
    format!(
        r#"module {{
  qd.field @olds : !qd.field<{n}xi32>
  qd.kernel @k(%x: !qd.ndarray<?xf32>, %f: !qd.ndarray<?xf32>, %g: !qd.ndarray<?x?x{g}>, %c: !qd.ndarray<?xi32>, %u: !qd.ndarray<?xui32>, %w: ui32) {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %xi0 = arith.constant 0.0 : f32
    %n = qd.ndarray_shape %x, 0 : !qd.ndarray<?xf32>
    qd.range_for %i = %c0 to %n : i32 {{
      %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
      qd.ndarray_atomic_add %xi, %f[%c0] : !qd.ndarray<?xf32>
      qd.ndarray_atomic_sub %xi, %f[%c1] : !qd.ndarray<?xf32>
      qd.ndarray_atomic_min %xi, %f[%c2] : !qd.ndarray<?xf32>
      qd.ndarray_atomic_max %xi, %f[%c3] : !qd.ndarray<?xf32>
      {ext}
      %r = arith.remsi %i, %c2 : i32
      qd.ndarray_atomic_sub %xg, %g[%r, %c1] : !qd.ndarray<?x?x{g}>
      %old = qd.ndarray_atomic_sub %c1, %c[%c0] : !qd.ndarray<?xi32>
      qd.store %old, @olds[%i] : i32
      %k = arith.fptosi %xi : f32 to i32
      qd.ndarray_atomic_max %k, %c[%c1] : !qd.ndarray<?xi32>
      qd.ndarray_atomic_min %k, %c[%c2] : !qd.ndarray<?xi32>
      qd.ndarray_atomic_min %w, %u[%c0] : !qd.ndarray<?xui32>
      qd.ndarray_atomic_add %w, %u[%c1] : !qd.ndarray<?xui32>
    }}
  }}
}}"#
    )
}

/// Runs the kernel of `src(n, g)` on `p` and checks every result.
fn check(p: &mut Program, label: &str, n: usize, g: DType) {
    assert_eq!(n % 8, 0);
    let pattern = [3.0, -2.0, 8.0, 0.5, -7.25, 1.5, 4.0, 2.0];
    let xs: Vec<f64> = (0..n).map(|i| pattern[i % 8]).collect();
    let mut nd = |dt, shape: &[usize], v: &[f64]| {
        Arg::Ndarray(p.add_ndarray(Ndarray::from_f64(dt, shape, v).unwrap()))
    };
    let args = [
        nd(DType::F32, &[n], &xs),
        nd(DType::F32, &[4], &[0.0, 0.0, 100.0, -100.0]),
        nd(g, &[2, 2], &[0.0; 4]),
        nd(DType::I32, &[3], &[0.0, -100.0, 100.0]),
        nd(DType::U32, &[2], &[5.0, 0.0]),
        Arg::Scalar(Scalar::U32(u32::MAX)),
    ];
    run_ok(p, label, "k", &args);
    let arr = |a: &Arg| match a {
        Arg::Ndarray(id) => p.ndarray(*id).unwrap().to_f64_vec(),
        _ => unreachable!(),
    };
    // Per 8 threads: the pattern sums to 9.75, its even places to 7.75, its odd ones to 2.
    let m = (n / 8) as f64;
    assert_eq!(
        arr(&args[1]),
        vec![9.75 * m, -9.75 * m, -7.25, 8.0],
        "{label}"
    );
    assert_eq!(
        arr(&args[2]),
        vec![0.0, -7.75 * m, 0.0, -2.0 * m],
        "{label}"
    );
    // n subs of 1 from 0; fptosi(-7.25) = -7.
    assert_eq!(arr(&args[3]), vec![-(n as f64), 8.0, -7.0], "{label}");
    // u32::MAX is not below 5 unsigned; n (2^32 - 1) wraps to 2^32 - n.
    assert_eq!(arr(&args[4]), vec![5.0, 4294967296.0 - n as f64], "{label}");
    let mut olds = p.field("olds").unwrap().as_i32().unwrap().to_vec();
    olds.sort();
    assert_eq!(olds, (1 - n as i32..=0).collect::<Vec<i32>>(), "{label}");
}

#[test]
fn ndarray_atomics_combine_and_return_the_old_value_on_every_device() {
    for c in configs() {
        for n in [8, 4096] {
            for (g, dt) in [("f32", DType::F32), ("f64", DType::F64)] {
                if c.name == "vulkan" && g == "f64" {
                    continue;
                }
                let Some(dev) = c.device() else { continue };
                let mut p = program_on(&src(n, g), dev);
                check(&mut p, c.label, n, dt);
            }
        }
    }
}
