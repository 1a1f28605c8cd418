// Port of test_ad_dynamic_index.py::test_matrix_non_constant_index (Matrix fields as trailing
// 2x2 extents, the matrix indexed by the ndrange's loop variables): for i in range(5): for j, k
// in ndrange(2, 2): m[i][j, k] = (j + 1)(k + 1) n[i][j, k]; loss += m[i][j, k]. The peer runs
// func1.grad() without the forward; here the forward runs first. n.grad = (j + 1)(k + 1).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: func1
// GRAD-COVERS: nested-loops, atomic-scalar, in-thread-scratch
// GRAD-SET: n=linspace(-1,1)
// GRAD-SEED: loss=1
// GRAD-WRT: n
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @m : !qd.field<5x2x2xf32> {needs_grad}
  qd.field @n : !qd.field<5x2x2xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @func1() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c5 = arith.constant 5 : i32
    qd.range_for %i = %c0 to %c5 : i32 {
      qd.range_for %j = %c0 to %c2 : i32 {
        qd.range_for %k = %c0 to %c2 : i32 {
          %j1 = arith.addi %j, %c1 : i32
          %k1 = arith.addi %k, %c1 : i32
          %w = arith.muli %j1, %k1 : i32
          %wf = arith.sitofp %w : i32 to f32
          %nv = qd.load @n[%i, %j, %k] : f32
          %mv = arith.mulf %wf, %nv : f32
          qd.store %mv, @m[%i, %j, %k] : f32
          %r = qd.load @m[%i, %j, %k] : f32
          qd.atomic_add %r, @loss[] : f32
        }
      }
    }
  }
}
