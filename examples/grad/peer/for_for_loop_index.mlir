// Port of test_ad_for.py::test_for_loop_index: for i in range(N): x_sum = 0; for j in range(M):
// x_sum += x[i, j]; loss += exp(x_sum). (The peer's hand-written compute_grad kernel is its
// reference; here finite differences are.)
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: accumulator, rank-2, atomic-scalar
// GRAD-SET: x=-0.57279384,0.7815071,0.45064202,-0.299493
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (exp) O(1): truncation ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<2x2xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    qd.range_for %i = %c0 to %c2 : i32 {
      %sp = qd.alloca : !qd.ptr<f32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %sp : !qd.ptr<f32>
      qd.range_for %j = %c0 to %c2 : i32 {
        %v = qd.load @x[%i, %j] : f32
        %s = qd.local_load %sp : !qd.ptr<f32>
        %s2 = arith.addf %s, %v : f32
        qd.local_store %s2, %sp : !qd.ptr<f32>
      }
      %sf = qd.local_load %sp : !qd.ptr<f32>
      %e = math.exp %sf : f32
      qd.atomic_add %e, @loss[] : f32
    }
  }
}
