// Mixed f32 and i32 loop-carried values: an i32 local k <- (5 k + 3) mod 7 (starting at the
// thread index) and an f32 local v <- 0.8 v + w[k] sin(v) + 0.05 k evolve together; k indexes
// the active ndarray w and enters v's update as a float (sitofp stops its gradient). The reverse
// pass needs each iteration's k (an i32 stack, no adjoint) and v (an f32 stack).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: mixed-f32-i32, field-trip, ndarray-gradient
// GRAD-SET: n=8
// GRAD-SET: x=linspace(-0.6,0.9)
// GRAD-ARG: w=0.3,-0.2,0.45,0.1,-0.35,0.25,0.05
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 2
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%w: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %kp = qd.alloca : !qd.ptr<i32>
      %x_i = qd.load @x[%i] : f32
      qd.local_store %x_i, %v : !qd.ptr<f32>
      qd.local_store %i, %kp : !qd.ptr<i32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %k = qd.local_load %kp : !qd.ptr<i32>
        %c5 = arith.constant 5 : i32
        %c3 = arith.constant 3 : i32
        %c7 = arith.constant 7 : i32
        %k5 = arith.muli %k, %c5 : i32
        %k8 = arith.addi %k5, %c3 : i32
        %kn = arith.remsi %k8, %c7 : i32
        qd.local_store %kn, %kp : !qd.ptr<i32>
        %wk = qd.ndarray_load %w[%kn] : !qd.ndarray<?xf32>
        %kf = arith.sitofp %kn : i32 to f32
        %o = qd.local_load %v : !qd.ptr<f32>
        %sn = math.sin %o : f32
        %m = arith.mulf %wk, %sn : f32
        %d = arith.constant 0.8 : f32
        %p = arith.mulf %o, %d : f32
        %e = arith.constant 0.05 : f32
        %q = arith.mulf %kf, %e : f32
        %r0 = arith.addf %p, %m : f32
        %r = arith.addf %r0, %q : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
