// Port of test_ad_ndarray.py::test_ad_vector_arg (a vec2 kernel argument z as two scalar
// arguments z0, z1; vec2 ndarrays as a trailing extent of 2): for i in p: p[i] = a[i] z[0].
// a.grad = z[0] p.grad.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_sum
// GRAD-COVERS: ndarray-store-output, scalar-arg
// GRAD-ARG: a=fill(3):10x2
// GRAD-ARG: p=fill(0):10x2
// GRAD-ARG: z0=2.0
// GRAD-ARG: z1=3.0
// GRAD-SEED: p=1
// GRAD-WRT: a
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.kernel @compute_sum(%a: !qd.ndarray<?x?xf32>, %p: !qd.ndarray<?x?xf32>, %z0: f32, %z1: f32) {
    %c0 = arith.constant 0 : i32
    %n = qd.ndarray_shape %p, 0 : !qd.ndarray<?x?xf32>
    %m = qd.ndarray_shape %p, 1 : !qd.ndarray<?x?xf32>
    qd.range_for %i = %c0 to %n : i32 {
      qd.range_for %j = %c0 to %m : i32 {
        %v = qd.ndarray_load %a[%i, %j] : !qd.ndarray<?x?xf32>
        %w = arith.mulf %v, %z0 : f32
        qd.ndarray_store %w, %p[%i, %j] : !qd.ndarray<?x?xf32>
      }
    }
  }
}
