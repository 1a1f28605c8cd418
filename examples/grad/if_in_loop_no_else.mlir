// An if without else inside a loop over an ndarray's shape: v <- v + w[t] tanh(v) only when
// w[t] > 0, then v <- 0.9 v at every step. The branch depends on w alone: its inputs stay at
// least 0.2 away from 0, so no finite-difference step (1e-5) flips it.
// GRAD-KERNEL: compute
// GRAD-COVERS: branch-in-loop, shape-trip, ndarray-gradient
// GRAD-SET: x=linspace(-1.0,1.4)
// GRAD-ARG: w=0.6,-0.4,1.1,0.2,-0.9,0.75
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: default ; smooth (tanh) O(1) values and no branch within 0.2 of a step: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
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
        %pos = arith.cmpf ogt, %wt, %z : f32
        qd.if %pos {
          %o = qd.local_load %v : !qd.ptr<f32>
          %th = math.tanh %o : f32
          %m = arith.mulf %wt, %th : f32
          %r = arith.addf %o, %m : f32
          qd.local_store %r, %v : !qd.ptr<f32>
        }
        %o2 = qd.local_load %v : !qd.ptr<f32>
        %d = arith.constant 0.9 : f32
        %r2 = arith.mulf %o2, %d : f32
        qd.local_store %r2, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      %f2 = arith.mulf %f, %f : f32
      qd.atomic_add %f2, @y[] : f32
    }
  }
}
