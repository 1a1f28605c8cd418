// ndarray form (gen_ndarray.py) of for_complex_body.mlir, for test_ad_ndarray.py::test_complex_body.
// Port of test_ad_for.py::test_complex_body: weight = 2; tot = 0; tot_weight = 0;
// for j in range(c[i]): tot_weight += weight + 1; tot += (weight + 1) a[i];
// weight = (weight + 1) 4; weight = f32(f64(weight)); g[i] = tot_weight; f[i] = tot.
// The f64 round trip is written as extf/truncf through f64 (the corpus's f64 twin cannot hold
// it, so this file runs the cast-free body; the cast form is in qdrun_only/for_complex_body_cast.mlir).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: complex
// GRAD-COVERS: field-trip, accumulator, several-outputs
// GRAD-ARG: a=fill(2):5
// GRAD-ARG: c=arange():5
// GRAD-ARG: f=fill(0):5
// GRAD-ARG: g=fill(0):5
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-TOL: default ; linear in a: truncation 0
// GRAD-STACKS: 1
module {

  qd.kernel @complex(%a: !qd.ndarray<?xf32>, %c: !qd.ndarray<?xi32>, %f: !qd.ndarray<?xf32>, %g: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 5 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %wp = qd.alloca : !qd.ptr<f32>
      %tp = qd.alloca : !qd.ptr<f32>
      %twp = qd.alloca : !qd.ptr<f32>
      %two = arith.constant 2.0 : f32
      %z = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %four = arith.constant 4.0 : f32
      qd.local_store %two, %wp : !qd.ptr<f32>
      qd.local_store %z, %tp : !qd.ptr<f32>
      qd.local_store %z, %twp : !qd.ptr<f32>
      %n = qd.ndarray_load %c[%i] : !qd.ndarray<?xi32>
      qd.range_for %j = %c0 to %n : i32 {
        %w = qd.local_load %wp : !qd.ptr<f32>
        %w1 = arith.addf %w, %one : f32
        %tw = qd.local_load %twp : !qd.ptr<f32>
        %tw2 = arith.addf %tw, %w1 : f32
        qd.local_store %tw2, %twp : !qd.ptr<f32>
        %ai = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
        %m = arith.mulf %w1, %ai : f32
        %t = qd.local_load %tp : !qd.ptr<f32>
        %t2 = arith.addf %t, %m : f32
        qd.local_store %t2, %tp : !qd.ptr<f32>
        %w4 = arith.mulf %w1, %four : f32
        qd.local_store %w4, %wp : !qd.ptr<f32>
      }
      %g_v = qd.local_load %twp : !qd.ptr<f32>
      qd.ndarray_store %g_v, %g[%i] : !qd.ndarray<?xf32>
      %f_v = qd.local_load %tp : !qd.ptr<f32>
      qd.ndarray_store %f_v, %f[%i] : !qd.ndarray<?xf32>
    }
  }
}
