// A loop with break: up to n steps of v <- v + 0.3 sin(v) + 0.2, leaving the loop as soon as
// v > thr, else v <- 1.02 v (an op after the break, which the reverse pass guards). Threads stop
// after 12 (never breaking), 11, 7, 6, 5, 4, 2 and 1 steps; the reverse loop runs exactly the
// iterations the forward one ran, the last one only up to its break.
// Inputs: each test of `v > thr` sees v at least 0.032 away from thr = 2 (a float64 replay), far
// beyond what the step h = 1e-5 moves it (|dv/dx| < 4) or f32 rounding does.
// GRAD-KERNEL: compute
// GRAD-COVERS: break, branch-in-loop, field-trip
// GRAD-SET: n=12
// GRAD-SET: x=-1.0,-0.5,-0.2,0.0,0.3,0.6,1.4,1.9
// GRAD-ARG: thr=2.0
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; trip counts fixed under the step (margin 0.032 >> 4e-5), smooth in between: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<8xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%thr: f32) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %t = %c0 to %n : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %sn = math.sin %o : f32
        %k = arith.constant 0.3 : f32
        %q = arith.mulf %sn, %k : f32
        %b = arith.constant 0.2 : f32
        %a0 = arith.addf %o, %q : f32
        %a = arith.addf %a0, %b : f32
        qd.local_store %a, %v : !qd.ptr<f32>
        %big = arith.cmpf ogt, %a, %thr : f32
        qd.if %big {
          qd.break
        }
        %g = arith.constant 1.02 : f32
        %r = arith.mulf %a, %g : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
