// The nest `for j in range(6): v = 0.5 v + x; for t in range(6 - j): v <- tanh(0.9 v + 0.1)`:
// per thread, the gradient kernel keeps one value of v per j (the restart overwrites v), one per
// inner step and two outside the loops: 2 + 6 + (6 + 5 + ... + 1) = 29 entries. The bound is the
// sum over j of the inner trip counts, so it is exactly 29 (6 iterations times the longest would
// be 44, 15 entries per thread wasted), and a capacity of 28 overflows.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: triangular, nested-loops, exact-sizing
// GRAD-SET: x=linspace(-0.9,1.1)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (tanh) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %c6 = arith.constant 6 : i32
      qd.range_for %j = %c0 to %c6 : i32 {
        %w = qd.local_load %v : !qd.ptr<f32>
        %half = arith.constant 0.5 : f32
        %h = arith.mulf %w, %half : f32
        %restart = arith.addf %h, %x_i : f32
        qd.local_store %restart, %v : !qd.ptr<f32>
        %len = arith.subi %c6, %j : i32
        qd.range_for %t = %c0 to %len : i32 {
          %o = qd.local_load %v : !qd.ptr<f32>
          %k = arith.constant 0.9 : f32
          %p = arith.mulf %o, %k : f32
          %b = arith.constant 0.1 : f32
          %s = arith.addf %p, %b : f32
          %th = math.tanh %s : f32
          qd.local_store %th, %v : !qd.ptr<f32>
        }
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
