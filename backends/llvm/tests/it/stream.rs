//! Streaming stores (`simd::driver`): a loop-free task's full-group stores to a field or ndarray
//! it does not read are non-temporal when the launch writes at least the device's threshold and
//! the address is 64-byte aligned. Results must be the interpreter's bit for bit whichever path
//! runs: streamed (threshold 0: every launch), plain (threshold off), and a store that is never
//! aligned (a field written one element on, an ndarray over unaligned external memory), which
//! takes the plain path inside a streaming launch. Runtime storage is cache-line aligned, so that
//! fields and ndarrays of the runtime's own stream.

use super::common::*;
use qd_runtime::{Arg, DType, Ndarray, Program, ProgramConfig, Storage};

const N: usize = 4099;

fn src(n: usize) -> String {
    format!(
        "module {{
  qd.field @x : !qd.field<{n}xf32>
  qd.field @y : !qd.field<{n}xf32>
  qd.field @z : !qd.field<{n}xf32>
  qd.kernel @affine() {{
    qd.struct_for (%i) in @x {{
      %v = qd.load @x[%i] : f32
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1.0 : f32
      %m = arith.mulf %v, %two : f32
      %a = arith.addf %m, %one : f32
      qd.store %a, @y[%i] : f32
    }}
  }}
  qd.kernel @shifted() {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %n = arith.constant {last} : i32
    qd.range_for %i = %c0 to %n : i32 {{
      %v = qd.load @x[%i] : f32
      %k = arith.constant 0.75 : f32
      %m = arith.mulf %v, %k : f32
      %j = arith.addi %i, %c1 : i32
      qd.store %m, @z[%j] : f32
    }}
  }}
  qd.kernel @nd(%a: !qd.ndarray<?xf64>, %b: !qd.ndarray<?xf64>) {{
    %c0 = arith.constant 0 : i32
    %len = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf64>
    qd.range_for %i = %c0 to %len : i32 {{
      %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf64>
      %k = arith.constant 3.0 : f64
      %h = arith.constant 0.5 : f64
      %m = arith.mulf %v, %k : f64
      %r = arith.subf %m, %h : f64
      qd.ndarray_store %r, %b[%i] : !qd.ndarray<?xf64>
    }}
  }}
}}",
        last = n - 1
    )
}

fn values(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 7919) % 1013) as f64 / 97.0 - 5.0)
        .collect()
}

fn cpu_streaming(src: &str, threshold: Option<u64>) -> Program {
    let dev = qd_llvm::CpuDevice::with_threads(2)
        .unwrap()
        .with_stream_threshold(threshold);
    program_on(src, Box::new(dev), ProgramConfig::default())
}

/// `n` f64 over memory of our own that starts 8 bytes past a 64-byte boundary (never aligned
/// for a streaming store), as external memory such as a NumPy view's; the Vec keeps it alive.
fn unaligned(values: &[f64]) -> (Ndarray, Vec<f64>) {
    let mut mem = vec![0f64; values.len() + 8];
    let skip = (0..8)
        .find(|&k| (mem.as_ptr() as usize + 8 * k) % 64 == 8)
        .unwrap();
    mem[skip..skip + values.len()].copy_from_slice(values);
    let ptr = mem[skip..].as_mut_ptr();
    // SAFETY: `mem` outlives the program that uses the storage (the caller keeps both) and is
    // not touched while the program runs.
    let s = unsafe { Storage::from_external(DType::F64, ptr.cast(), values.len(), Box::new(())) }
        .unwrap();
    (Ndarray::new(&[values.len()], s).unwrap(), mem)
}

/// The kernels run on `p`; returns y, z and the two ndarray outputs (aligned, unaligned).
fn run_all(p: &mut Program) -> (Storage, Storage, Vec<f64>, Vec<f64>) {
    p.write_f64("x", &values(N)).unwrap();
    run_ok(p, "affine", &[]);
    run_ok(p, "shifted", &[]);
    let a = p.add_ndarray(Ndarray::from_f64(DType::F64, &[N], &values(N)).unwrap());
    let b = p.add_ndarray(Ndarray::zeros(DType::F64, &[N]).unwrap());
    run_ok(p, "nd", &[Arg::Ndarray(a), Arg::Ndarray(b)]);
    let (ua, _keep_a) = unaligned(&values(N));
    let (ub, _keep_b) = unaligned(&vec![0.0; N]);
    let (ua, ub) = (p.add_ndarray(ua), p.add_ndarray(ub));
    run_ok(p, "nd", &[Arg::Ndarray(ua), Arg::Ndarray(ub)]);
    let out = p.ndarray(b).unwrap().to_f64_vec();
    let uout = p.ndarray(ub).unwrap().to_f64_vec();
    // The external memory must not outlive its storage's users: drop the ndarrays first.
    p.remove_ndarray(ua).unwrap();
    p.remove_ndarray(ub).unwrap();
    let y = p.field("y").unwrap().clone();
    let z = p.field("z").unwrap().clone();
    (y, z, out, uout)
}

#[test]
fn streamed_and_plain_stores_match_the_interpreter() {
    let s = src(N);
    let (y, z, out, uout) = run_all(&mut interp(&s));
    for threshold in [Some(0), None] {
        let mut p = cpu_streaming(&s, threshold);
        let (cy, cz, cout, cuout) = run_all(&mut p);
        assert_eq!(cy, y, "{threshold:?}: y");
        assert_eq!(cz, z, "{threshold:?}: z (stores one element on)");
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&cout), bits(&out), "{threshold:?}: aligned ndarray");
        assert_eq!(
            bits(&cuout),
            bits(&uout),
            "{threshold:?}: unaligned ndarray"
        );
        assert_eq!(bits(&out), bits(&uout));
    }
}

/// Past the default threshold (16 MiB written): the device streams on its own.
#[test]
fn a_large_launch_streams_exactly() {
    let n = (qd_llvm::CpuDevice::STREAM_BYTES / 4) as usize + 3;
    let mut p = cpu_streaming(&src(n), Some(qd_llvm::CpuDevice::STREAM_BYTES));
    let x = values(n);
    p.write_f64("x", &x).unwrap();
    run_ok(&mut p, "affine", &[]);
    let y = p.field("y").unwrap().as_f32().unwrap();
    for (i, (&a, &b)) in x.iter().zip(y).enumerate() {
        let want = (a as f32) * 2.0 + 1.0;
        assert_eq!(b.to_bits(), want.to_bits(), "y[{i}]");
    }
}

#[test]
fn runtime_storage_is_cache_line_aligned() {
    let mut p = cpu_streaming(&src(N), None);
    for f in ["x", "y", "z"] {
        assert_eq!(p.field(f).unwrap().as_ptr() as usize % 64, 0, "field {f}");
    }
    p.write_f64("x", &values(N)).unwrap();
    assert_eq!(p.field("x").unwrap().as_ptr() as usize % 64, 0, "written");
    for len in [1, 3, N, 1 << 20] {
        let a = p.add_ndarray(Ndarray::zeros(DType::F32, &[len]).unwrap());
        let ptr = p.ndarray(a).unwrap().data().as_ptr();
        assert_eq!(
            ptr as usize % qd_runtime::BLOCK_ALIGN,
            0,
            "ndarray of {len}"
        );
    }
}
