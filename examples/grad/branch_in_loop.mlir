// A data-dependent branch inside a dynamic loop: each step takes v <- 0.8 v^2 + 0.1 when
// v > 0.5, else v <- sin(v) + 0.35, so the branch taken depends on x through v. Reverse mode
// must take, at each step, the branch the forward pass took: it re-evaluates the condition from
// v's value before the step, which it keeps on a second stack beside v's.
// Inputs: over all 10 steps of the 5 threads, v stays at least 0.025 away from 0.5 (checked by a
// float64 replay of the recurrence; every thread takes both branches), far beyond what the step
// h = 1e-5 moves it (|dv/dx| < 3, so under 3e-5) or what f32 rounding does: the finite
// differences never cross the threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: branch-in-loop, if-else, field-trip
// GRAD-SET: n=10
// GRAD-SET: x=-0.3,0.2,0.62,0.9,1.0
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; the step keeps every branch (margin 0.025 >> 3e-5), and between branches the function is smooth: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 2
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %half = arith.constant 0.5 : f32
        %big = arith.cmpf ogt, %o, %half : f32
        qd.if %big {
          %sq = arith.mulf %o, %o : f32
          %k = arith.constant 0.8 : f32
          %m = arith.mulf %sq, %k : f32
          %b = arith.constant 0.1 : f32
          %r = arith.addf %m, %b : f32
          qd.local_store %r, %v : !qd.ptr<f32>
        } else {
          %sn = math.sin %o : f32
          %b = arith.constant 0.35 : f32
          %r = arith.addf %sn, %b : f32
          qd.local_store %r, %v : !qd.ptr<f32>
        }
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
