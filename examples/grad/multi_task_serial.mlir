// Two tasks through one field: task 1 accumulates b[i] += (i+1) a[p]^2 over a serial loop on p,
// task 2 reads b: y[i] = b[i] sin(b[i]). b's adjoint flows from task 2's reverse into task 1's,
// and b's initial values get gradient through both. Item 2 of issue #14.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: multi-task, accumulator
// GRAD-SET: a=linspace(-0.6,0.5)
// GRAD-SET: b=0.3,-0.2,0.1,0.4
// GRAD-SEED: y=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; smooth (sin, powers) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @a : !qd.field<6xf32> {needs_grad}
  qd.field @b : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<4xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @b {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c6 = arith.constant 6 : i32
      %i1 = arith.addi %i, %c1 : i32
      %w = arith.sitofp %i1 : i32 to f32
      qd.range_for %p = %c0 to %c6 : i32 {
        %v = qd.load @a[%p] : f32
        %sq = arith.mulf %v, %v : f32
        %t = arith.mulf %sq, %w : f32
        qd.atomic_add %t, @b[%i] : f32
      }
    }
    qd.struct_for (%i) in @b {
      %t = qd.load @b[%i] : f32
      %s = math.sin %t : f32
      %r = arith.mulf %t, %s : f32
      qd.store %r, @y[%i] : f32
    }
  }
}
