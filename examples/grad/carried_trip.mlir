// A loop-carried integer as a trip count: m = 1; for j in range(4): for t in range(m):
// v <- tanh(0.8 v + 0.3 x); m = m + 1. m is 1 + j at iteration j, so the stack of v holds
// 1 + 2 + 3 + 4 = 10 steps plus two values outside the loops: the bound is exactly the peak.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: carried-trip, triangular, nested-loops, exact-sizing
// GRAD-SET: x=linspace(-1.0,0.8)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (tanh) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 2
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c4 = arith.constant 4 : i32
      %m = qd.alloca : !qd.ptr<i32>
      qd.local_store %c1, %m : !qd.ptr<i32>
      qd.range_for %j = %c0 to %c4 : i32 {
        %mv = qd.local_load %m : !qd.ptr<i32>
        qd.range_for %t = %c0 to %mv : i32 {
          %o = qd.local_load %v : !qd.ptr<f32>
          %a = arith.constant 0.8 : f32
          %p = arith.mulf %o, %a : f32
          %w = arith.constant 0.3 : f32
          %b = arith.mulf %x_i, %w : f32
          %s = arith.addf %p, %b : f32
          %th = math.tanh %s : f32
          qd.local_store %th, %v : !qd.ptr<f32>
        }
        %m1 = arith.addi %mv, %c1 : i32
        qd.local_store %m1, %m : !qd.ptr<i32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
