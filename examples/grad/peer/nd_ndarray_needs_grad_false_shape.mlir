// The kernel of test_ad_ndarray.py::test_ndarray_needs_grad_false, without its annotation
// (qd has no per-argument needs_grad=False: every float ndarray argument is active, so x gets
// a gradient here where the peer's stays 0): for i in range(N): a = 2; for j in range(N):
// a += x[i] / shape(x, 0); y[0] += a. x.grad = 1 (N / N).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: test
// GRAD-COVERS: shape-trip, ndarray-atomic-add
// GRAD-ARG: x=0.5,-1,2:3
// GRAD-ARG: y=fill(0):1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.kernel @test(%x: !qd.ndarray<?xf32>, %y: !qd.ndarray<?xf32>) {
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    qd.range_for %i = %c0 to %c3 : i32 {
      %ap = qd.alloca : !qd.ptr<f32>
      %two = arith.constant 2.0 : f32
      qd.local_store %two, %ap : !qd.ptr<f32>
      qd.range_for %j = %c0 to %c3 : i32 {
        %xv = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
        %n = qd.ndarray_shape %x, 0 : !qd.ndarray<?xf32>
        %nf = arith.sitofp %n : i32 to f32
        %d = arith.divf %xv, %nf : f32
        %a = qd.local_load %ap : !qd.ptr<f32>
        %a2 = arith.addf %a, %d : f32
        qd.local_store %a2, %ap : !qd.ptr<f32>
      }
      %af = qd.local_load %ap : !qd.ptr<f32>
      qd.ndarray_atomic_add %af, %y[%c0] : !qd.ndarray<?xf32>
    }
  }
}
