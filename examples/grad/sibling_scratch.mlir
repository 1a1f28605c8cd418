// Sibling serial loops in one thread through a scratch field: the first stores
// scratch[i, j] = x[i, j] cos(x[i, j]), the second sums y[i] += scratch[i, j]^2. The second
// loop's reverse needs scratch[i, j]'s value and re-reads it from memory (nothing writes it
// after the read); its adjoint flows into the first loop's stores. Item 3 of issue #14.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: in-thread-scratch, sibling-loops
// GRAD-SET: x=linspace(-1.2,1.3)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (cos, powers) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<3x5xf32> {needs_grad}
  qd.field @scratch : !qd.field<3x5xf32> {needs_grad}
  qd.field @y : !qd.field<3xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @y {
      %c0 = arith.constant 0 : i32
      %c5 = arith.constant 5 : i32
      qd.range_for %j = %c0 to %c5 : i32 {
        %v = qd.load @x[%i, %j] : f32
        %c = math.cos %v : f32
        %s = arith.mulf %v, %c : f32
        qd.store %s, @scratch[%i, %j] : f32
      }
      qd.range_for %j = %c0 to %c5 : i32 {
        %s = qd.load @scratch[%i, %j] : f32
        %sq = arith.mulf %s, %s : f32
        qd.atomic_add %sq, @y[%i] : f32
      }
    }
  }
}
