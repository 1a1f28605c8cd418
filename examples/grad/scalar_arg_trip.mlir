// A trip count from a scalar kernel argument: n steps of v <- v - 0.1 (v^3 - 1) (a damped
// fixed-point iteration towards 1). A scalar argument is a leaf of the sizing grammar
// (`arg0:i32`), so determine-ad-stack-size bounds v's stack by n and the runtime reads n from
// each launch: no forced capacity.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: scalar-arg-trip
// GRAD-SET: x=linspace(0.2,1.6)
// GRAD-ARG: n=15
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (a cubic) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%n: i32) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %sq = arith.mulf %o, %o : f32
        %cube = arith.mulf %sq, %o : f32
        %one = arith.constant 1.0 : f32
        %d = arith.subf %cube, %one : f32
        %k = arith.constant 0.1 : f32
        %s = arith.mulf %d, %k : f32
        %r = arith.subf %o, %s : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
