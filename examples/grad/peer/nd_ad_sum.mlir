// ndarray form (gen_ndarray.py) of for_ad_sum.mlir, for test_ad_ndarray.py::test_ad_sum, ::test_ad_sum_local_atomic.
// Port of test_ad_for.py::test_ad_sum and ::test_ad_sum_local_atomic (ret = ret + a[i] and
// ret += a[i] are the same IR here): ret = 1; for j in range(b[i]): ret = ret + a[i]; p[i] = ret.
// a.grad = b.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_sum
// GRAD-COVERS: field-trip, accumulator
// GRAD-ARG: a=fill(3):10
// GRAD-ARG: b=arange():10
// GRAD-ARG: p=fill(0):10
// GRAD-SEED: p=1
// GRAD-WRT: a
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {

  qd.kernel @compute_sum(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xi32>, %p: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 10 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %ret = qd.alloca : !qd.ptr<f32>
      %one = arith.constant 1.0 : f32
      qd.local_store %one, %ret : !qd.ptr<f32>
      %n = qd.ndarray_load %b[%i] : !qd.ndarray<?xi32>
      qd.range_for %j = %c0 to %n : i32 {
        %r = qd.local_load %ret : !qd.ptr<f32>
        %ai = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
        %s = arith.addf %r, %ai : f32
        qd.local_store %s, %ret : !qd.ptr<f32>
      }
      %f = qd.local_load %ret : !qd.ptr<f32>
      qd.ndarray_store %f, %p[%i] : !qd.ndarray<?xf32>
    }
  }
}
