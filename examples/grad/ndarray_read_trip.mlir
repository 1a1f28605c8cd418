// Trip counts from an i32 ndarray read at the outer index: thread i runs a[i] steps (0 to 6) of
// v <- tanh(w[j] v + 0.2), whose weights w are an active f32 ndarray (w[j] is read at the serial
// index, so w[0] gets gradient from every thread that runs a step, w[5] from two).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: ndarray-read-trip, ndarray-gradient
// GRAD-SET: x=linspace(-0.8,0.9)
// GRAD-ARG: a=2,6,0,4,6
// GRAD-ARG: w=0.9,-1.2,1.5,0.7,-0.4,1.1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: default ; smooth (tanh) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%a: !qd.ndarray<?xi32>, %w: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %wj = qd.ndarray_load %w[%j] : !qd.ndarray<?xf32>
        %o = qd.local_load %v : !qd.ptr<f32>
        %m = arith.mulf %wj, %o : f32
        %b = arith.constant 0.2 : f32
        %s = arith.addf %m, %b : f32
        %t = math.tanh %s : f32
        qd.local_store %t, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
