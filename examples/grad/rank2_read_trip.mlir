// Trip counts read from a rank-2 i32 ndarray: for r in range(rows): for c in range(cols):
// 2 + a[r, c] steps of v <- tanh(0.8 v + 0.3 x) (x in every step keeps the gradient alive). With a = [[49, 1, 0, 3, 7], [2, 9, 4, 6, 9]] each
// thread keeps one value of v per step, 2 * 5 * 2 + (49 + 1 + ... + 9) = 110, and two outside
// the loops: 112. The bound is the sum over both indices of 2 + a[r, c], exactly 112 (rows * cols
// * (2 + max a) would give 512), and a capacity of 111 overflows.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: ndarray-read-trip, rank-2, nested-loops, exact-sizing
// GRAD-SET: x=linspace(-0.7,0.9)
// GRAD-ARG: a=49,1,0,3,7,2,9,4,6,9:2x5
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (tanh) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<3xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%a: !qd.ndarray<?x?xi32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      %rows = qd.ndarray_shape %a, 0 : !qd.ndarray<?x?xi32>
      %cols = qd.ndarray_shape %a, 1 : !qd.ndarray<?x?xi32>
      qd.range_for %r = %c0 to %rows : i32 {
        qd.range_for %c = %c0 to %cols : i32 {
          %arc = qd.ndarray_load %a[%r, %c] : !qd.ndarray<?x?xi32>
          %n = arith.addi %arc, %c2 : i32
          qd.range_for %k = %c0 to %n : i32 {
            %o = qd.local_load %v : !qd.ptr<f32>
            %m = arith.constant 0.8 : f32
            %p = arith.mulf %o, %m : f32
            %w = arith.constant 0.3 : f32
            %b = arith.mulf %x_i, %w : f32
            %s = arith.addf %p, %b : f32
            %th = math.tanh %s : f32
            qd.local_store %th, %v : !qd.ptr<f32>
          }
        }
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
