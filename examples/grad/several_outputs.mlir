// Several outputs with different seeds, from two inputs x and z: y[] += x z (an atomic),
// u[i] := sin(x) exp(z) (a store), and w[i] := v after n steps of v <- 0.5 v x + z (a loop-carried
// recurrence that reads both inputs). Seeds: y.grad = 1, u.grad = -0.5, w.grad = 2, so each
// input's gradient is the seed-weighted sum over the three outputs.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: several-outputs, atomic-scalar, field-trip
// GRAD-SET: n=6
// GRAD-SET: x=linspace(-1.2,1.6)
// GRAD-SET: z=0.4,-0.3,0.8,0.1,-0.6
// GRAD-SEED: y=1
// GRAD-SEED: u=-0.5
// GRAD-SEED: w=2
// GRAD-WRT: x
// GRAD-WRT: z
// GRAD-TOL: default ; smooth (sin, exp, products) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @z : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.field @u : !qd.field<5xf32> {needs_grad}
  qd.field @w : !qd.field<5xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %a = qd.load @x[%i] : f32
      %b = qd.load @z[%i] : f32
      %ab = arith.mulf %a, %b : f32
      qd.atomic_add %ab, @y[] : f32
      %sn = math.sin %a : f32
      %eb = math.exp %b : f32
      %ue = arith.mulf %sn, %eb : f32
      qd.store %ue, @u[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %a, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %h = arith.constant 0.5 : f32
        %m = arith.mulf %o, %a : f32
        %m2 = arith.mulf %m, %h : f32
        %r = arith.addf %m2, %b : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.store %f, @w[%i] : f32
    }
  }
}
