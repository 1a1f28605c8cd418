// A store after atomic adds to the same element: three atomic adds p[i] += x[i]^2, a read
// y[i] = 2 p[i], then p[i] = cos(x[i]) overwrites p[i]. The last write wins: in reverse the
// store takes p's adjoint and zeroes it, so the adds (and p's initial value) only get gradient
// through y. The read's value is not needed by the gradient (a product by a constant), so the
// write after it is allowed. Item 3 of issue #14.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: store-after-write
// GRAD-SET: x=linspace(-1.1,0.9)
// GRAD-SET: p=0.2,-0.3,0.5,0.1,0.7
// GRAD-SEED: p=1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: p
// GRAD-TOL: default ; smooth (cos, powers) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @p : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<5xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      %v = qd.load @x[%i] : f32
      qd.range_for %j = %c0 to %c3 : i32 {
        %sq = arith.mulf %v, %v : f32
        qd.atomic_add %sq, @p[%i] : f32
      }
      %t = qd.load @p[%i] : f32
      %two = arith.constant 2.0 : f32
      %d = arith.mulf %two, %t : f32
      qd.store %d, @y[%i] : f32
      %c = math.cos %v : f32
      qd.store %c, @p[%i] : f32
    }
  }
}
