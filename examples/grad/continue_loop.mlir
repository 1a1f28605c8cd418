// A loop with continue, on two conditions: skip step t when w[t] < 0 (data, not x), and when
// v > 1.8 (so the iterations skipped depend on x). Otherwise v <- v + 0.5 w[t] sin(v), then
// v <- 0.95 v + 0.05 (an op after a continue, which the reverse pass guards per iteration).
// Inputs: each test of `v > 1.8` sees v at least 0.03 away from 1.8 (a float64 replay), far
// beyond what the step h = 1e-5 moves it (|dv/dx| < 3) or f32 rounding does; w stays 0.3 or more
// away from 0. Threads skip 2 to 8 of the 8 steps.
// GRAD-KERNEL: compute
// GRAD-COVERS: continue, branch-in-loop, shape-trip, ndarray-gradient
// GRAD-SET: x=-0.6,-0.1,0.3,0.7,1.0,1.2,2.1
// GRAD-ARG: w=0.7,-0.3,0.9,0.4,-0.8,0.6,0.5,1.1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: default ; skipped steps fixed under the step (margin 0.03 >> 3e-5), smooth in between: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 2
module {
  qd.field @x : !qd.field<7xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%w: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %len = qd.ndarray_shape %w, 0 : !qd.ndarray<?xf32>
      qd.range_for %t = %c0 to %len : i32 {
        %wt = qd.ndarray_load %w[%t] : !qd.ndarray<?xf32>
        %z = arith.constant 0.0 : f32
        %neg = arith.cmpf olt, %wt, %z : f32
        qd.if %neg {
          qd.continue
        }
        %o = qd.local_load %v : !qd.ptr<f32>
        %cap = arith.constant 1.8 : f32
        %high = arith.cmpf ogt, %o, %cap : f32
        qd.if %high {
          qd.continue
        }
        %sn = math.sin %o : f32
        %h = arith.constant 0.5 : f32
        %hw = arith.mulf %wt, %h : f32
        %m = arith.mulf %hw, %sn : f32
        %a = arith.addf %o, %m : f32
        %d = arith.constant 0.95 : f32
        %e = arith.constant 0.05 : f32
        %p = arith.mulf %a, %d : f32
        %r = arith.addf %p, %e : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
