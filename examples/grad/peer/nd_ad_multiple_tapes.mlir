// Port of test_ad_ndarray.py::test_ad_multiple_tapes (vec2 as a trailing extent of 2; the peer
// runs the same Tape twice with a.grad reset in between, which is host-level: each qd-run
// --grad is one such tape): for i in a: p[None] += 2 a[i][0] + 3 a[i][1]. a.grad = (2, 3).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_sum
// GRAD-COVERS: ndarray-atomic-add, ndarray-output
// GRAD-ARG: a=fill(3):10x2
// GRAD-ARG: p=fill(0):1
// GRAD-SEED: p=1
// GRAD-WRT: a
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.kernel @compute_sum(%a: !qd.ndarray<?x?xf32>, %p: !qd.ndarray<?xf32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?x?xf32>
    qd.range_for %i = %c0 to %n : i32 {
      %u = qd.ndarray_load %a[%i, %c0] : !qd.ndarray<?x?xf32>
      %v = qd.ndarray_load %a[%i, %c1] : !qd.ndarray<?x?xf32>
      %two = arith.constant 2.0 : f32
      %three = arith.constant 3.0 : f32
      %s = arith.mulf %u, %two : f32
      %t = arith.mulf %v, %three : f32
      %r = arith.addf %s, %t : f32
      qd.ndarray_atomic_add %r, %p[%c0] : !qd.ndarray<?xf32>
    }
  }
}
