// Trip counts from a field read at the outer index: thread i runs counts[i] steps (0 to 9) of the
// non-linear recurrence v <- 0.6 sin(v) + 0.3 v + 0.1, then adds v^2 to y. Thread 0 runs no step
// (its gradient is 2 x[0]). The stack of v is sized by max over i of counts[i], read at launch.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: field-trip
// GRAD-SET: counts=0,4,9,2,7,1
// GRAD-SET: x=linspace(-0.5,1.0)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth O(1) values (|v| < 1.1): truncation h^2 |f'''| / 6 ~ 1e-11, rounding 1e-16 |y| / h ~ 1e-11
// GRAD-STACKS: 1
module {
  qd.field @counts : !qd.field<6xi32>
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @counts[%i] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %s = math.sin %a : f32
        %k1 = arith.constant 0.6 : f32
        %k2 = arith.constant 0.3 : f32
        %k3 = arith.constant 0.1 : f32
        %p = arith.mulf %s, %k1 : f32
        %q = arith.mulf %a, %k2 : f32
        %r = arith.addf %p, %q : f32
        %t = arith.addf %r, %k3 : f32
        qd.local_store %t, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      %f2 = arith.mulf %f, %f : f32
      qd.atomic_add %f2, @y[] : f32
    }
  }
}
