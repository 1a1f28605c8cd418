// Port of test_ad_ndarray.py::test_ad_sum_vector (vec2 ndarrays as a trailing extent of 2):
// for i in p: p[i] = 2 a[i]. a.grad = 2 p.grad.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_sum
// GRAD-COVERS: ndarray-store-output, rank-2
// GRAD-ARG: a=fill(3):10x2
// GRAD-ARG: p=fill(0):10x2
// GRAD-SEED: p=1
// GRAD-WRT: a
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.kernel @compute_sum(%a: !qd.ndarray<?x?xf32>, %p: !qd.ndarray<?x?xf32>) {
    %c0 = arith.constant 0 : i32
    %n = qd.ndarray_shape %p, 0 : !qd.ndarray<?x?xf32>
    %m = qd.ndarray_shape %p, 1 : !qd.ndarray<?x?xf32>
    qd.range_for %i = %c0 to %n : i32 {
      qd.range_for %j = %c0 to %m : i32 {
        %v = qd.ndarray_load %a[%i, %j] : !qd.ndarray<?x?xf32>
        %two = arith.constant 2.0 : f32
        %w = arith.mulf %v, %two : f32
        qd.ndarray_store %w, %p[%i, %j] : !qd.ndarray<?x?xf32>
      }
    }
  }
}
