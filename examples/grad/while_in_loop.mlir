// A while loop nested in a dynamic serial loop: for each j in range(shape(lim, 0)), while
// v < lim[j] (and fewer than 20 steps) v <- 1.3 v + 0.1; then v <- 0.4 v + 0.2 sin(v). The
// while's trip count differs per outer step (lim[2] = 1 is always skipped): it is kept on an
// i32 stack, one entry per outer step, beside v's stack.
// Inputs: at every test of `v < lim[j]`, v is at least 0.024 away from lim[j] (a float64 replay),
// far beyond what the step h = 1e-5 moves it (|dv/dx| < 1.3^6 < 5, so under 5e-5) or f32
// rounding does. lim only steers branches (its gradient is zero), so it is not checked.
// GRAD-KERNEL: compute
// GRAD-COVERS: while-exit, nested-loops, shape-trip
// GRAD-SET: x=0.2,0.3,0.9,1.1,1.6,2.7
// GRAD-ARG: lim=1.5,2.5,1.0,2.0
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; trip counts fixed under the step (margin 0.024 >> 5e-5), smooth in between: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 2
module {
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%lim: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %kp = qd.alloca : !qd.ptr<i32>
      %x_i = qd.load @x[%i] : f32
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %len = qd.ndarray_shape %lim, 0 : !qd.ndarray<?xf32>
      qd.range_for %j = %c0 to %len : i32 {
        %lj = qd.ndarray_load %lim[%j] : !qd.ndarray<?xf32>
        qd.local_store %c0, %kp : !qd.ptr<i32>
        qd.while {
          %o = qd.local_load %v : !qd.ptr<f32>
          %k = qd.local_load %kp : !qd.ptr<i32>
          %small = arith.cmpf olt, %o, %lj : f32
          %c20 = arith.constant 20 : i32
          %few = arith.cmpi slt, %k, %c20 : i32
          %go = arith.andi %small, %few : i1
          qd.condition %go
        } do {
          %o = qd.local_load %v : !qd.ptr<f32>
          %g = arith.constant 1.3 : f32
          %m = arith.mulf %o, %g : f32
          %b = arith.constant 0.1 : f32
          %r = arith.addf %m, %b : f32
          qd.local_store %r, %v : !qd.ptr<f32>
          %k = qd.local_load %kp : !qd.ptr<i32>
          %c1 = arith.constant 1 : i32
          %k1 = arith.addi %k, %c1 : i32
          qd.local_store %k1, %kp : !qd.ptr<i32>
        }
        %o = qd.local_load %v : !qd.ptr<f32>
        %sn = math.sin %o : f32
        %a = arith.constant 0.4 : f32
        %b = arith.constant 0.2 : f32
        %p = arith.mulf %o, %a : f32
        %q = arith.mulf %sn, %b : f32
        %r = arith.addf %p, %q : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
