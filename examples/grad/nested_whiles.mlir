// A while loop nested in a while loop: 3 outer rounds (a counted while), each running the inner
// while `sin(v) < 0.8 and j < 10` of v <- 1.2 v + 0.05, then v <- 0.5 tanh(v). The inner trip
// count differs per round and per thread (0 to 10: x = 2.7 leaves by the counter); it is kept on
// an i32 stack, beside v's. Both loops are bounded by their counters (3 and 10).
// Inputs: at every test of `sin(v) < 0.8`, sin(v) is at least 0.034 away from 0.8 (a float64
// replay), far beyond what the step h = 1e-5 moves it (|dv/dx| < 1.2^10 < 7) or f32 rounding does.
// GRAD-KERNEL: compute
// GRAD-COVERS: while-exit, nested-loops, mixed-f32-i32
// GRAD-SET: x=0.1,0.35,0.8,1.05,1.8,2.5,2.7
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; trip counts fixed under the step (margin 0.034 >> 7e-5), smooth in between: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 2
module {
  qd.field @x : !qd.field<7xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %kp = qd.alloca : !qd.ptr<i32>
      %jp = qd.alloca : !qd.ptr<i32>
      %x_i = qd.load @x[%i] : f32
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      qd.local_store %c0, %kp : !qd.ptr<i32>
      qd.while {
        %k = qd.local_load %kp : !qd.ptr<i32>
        %c3 = arith.constant 3 : i32
        %go = arith.cmpi slt, %k, %c3 : i32
        qd.condition %go
      } do {
        qd.local_store %c0, %jp : !qd.ptr<i32>
        qd.while {
          %o = qd.local_load %v : !qd.ptr<f32>
          %s = math.sin %o : f32
          %lim = arith.constant 0.8 : f32
          %small = arith.cmpf olt, %s, %lim : f32
          %j = qd.local_load %jp : !qd.ptr<i32>
          %c10 = arith.constant 10 : i32
          %few = arith.cmpi slt, %j, %c10 : i32
          %go = arith.andi %small, %few : i1
          qd.condition %go
        } do {
          %o = qd.local_load %v : !qd.ptr<f32>
          %g = arith.constant 1.2 : f32
          %m = arith.mulf %o, %g : f32
          %b = arith.constant 0.05 : f32
          %r = arith.addf %m, %b : f32
          qd.local_store %r, %v : !qd.ptr<f32>
          %j = qd.local_load %jp : !qd.ptr<i32>
          %c1 = arith.constant 1 : i32
          %j1 = arith.addi %j, %c1 : i32
          qd.local_store %j1, %jp : !qd.ptr<i32>
        }
        %o = qd.local_load %v : !qd.ptr<f32>
        %t = math.tanh %o : f32
        %h = arith.constant 0.5 : f32
        %r = arith.mulf %t, %h : f32
        qd.local_store %r, %v : !qd.ptr<f32>
        %k = qd.local_load %kp : !qd.ptr<i32>
        %c1 = arith.constant 1 : i32
        %k1 = arith.addi %k, %c1 : i32
        qd.local_store %k1, %kp : !qd.ptr<i32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
