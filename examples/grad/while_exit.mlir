// A while loop with a data-dependent exit: while v < limit (and fewer than 40 steps),
// v <- 1.15 v + 0.1 sin(v) + 0.05; then y += v^2. Threads run 12, 8, 6, 3, 2, 1 and 0 steps.
// The i32 step counter is what bounds v's stack (40 entries, from the `k < 40` conjunct).
// Inputs: at every test of `v < limit`, v is at least 0.044 away from limit = 3 (a float64 replay
// of the loop), far beyond what the step h = 1e-5 moves it (|dv/dx| < 10 before the exit, so
// under 1e-4) or f32 rounding does: every thread keeps its trip count under the perturbation.
// GRAD-KERNEL: compute
// GRAD-COVERS: while-exit, mixed-f32-i32
// GRAD-SET: x=0.1,0.5,1.0,1.7,2.2,2.9,3.4
// GRAD-ARG: limit=3.0
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; trip counts fixed under the step (margin 0.044 >> 1e-4), smooth in between: truncation ~1e-11 * |y''' | (~1e3 for 12 steps of growth 1.2) ~ 1e-8 relative to |y| ~ 76, rounding 1e-16 * 76 / h ~ 1e-9
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<7xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%limit: f32) {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %kp = qd.alloca : !qd.ptr<i32>
      %x_i = qd.load @x[%i] : f32
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      qd.local_store %c0, %kp : !qd.ptr<i32>
      qd.while {
        %o = qd.local_load %v : !qd.ptr<f32>
        %k = qd.local_load %kp : !qd.ptr<i32>
        %small = arith.cmpf olt, %o, %limit : f32
        %c40 = arith.constant 40 : i32
        %few = arith.cmpi slt, %k, %c40 : i32
        %go = arith.andi %small, %few : i1
        qd.condition %go
      } do {
        %o = qd.local_load %v : !qd.ptr<f32>
        %g = arith.constant 1.15 : f32
        %m = arith.mulf %o, %g : f32
        %sn = math.sin %o : f32
        %t = arith.constant 0.1 : f32
        %q = arith.mulf %sn, %t : f32
        %b = arith.constant 0.05 : f32
        %r0 = arith.addf %m, %q : f32
        %r = arith.addf %r0, %b : f32
        qd.local_store %r, %v : !qd.ptr<f32>
        %k = qd.local_load %kp : !qd.ptr<i32>
        %c1 = arith.constant 1 : i32
        %k1 = arith.addi %k, %c1 : i32
        qd.local_store %k1, %kp : !qd.ptr<i32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      %f2 = arith.mulf %f, %f : f32
      qd.atomic_add %f2, @y[] : f32
    }
  }
}
