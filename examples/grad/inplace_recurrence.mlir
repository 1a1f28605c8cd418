// An in-place recurrence through a field: x[k, i+1] = 2 x[k, i] in a serial loop over i inside
// the parallel loop over k. Each element is written once, before it is read, so the reverse
// pass (re-reading x as the forward pass left it) sees the values the forward pass read. The
// output is x itself: x[k, 0] gets the whole gradient, the overwritten elements none. Item 4
// of issue #14.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: in-place
// GRAD-SET: x=linspace(-1,1)
// GRAD-SEED: x=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear O(1) values: truncation 0, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<3x6xf32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c5 = arith.constant 5 : i32
    qd.range_for %k = %c0 to %c3 : i32 {
      qd.range_for %i = %c0 to %c5 : i32 {
        %v = qd.load @x[%k, %i] : f32
        %two = arith.constant 2.0 : f32
        %w = arith.mulf %two, %v : f32
        %n = arith.addi %i, %c1 : i32
        qd.store %w, @x[%k, %n] : f32
      }
    }
  }
}
