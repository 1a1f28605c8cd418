// (i = 1 launch) Port of test_ad_if.py::test_ad_if (and ::test_ad_if_mutable, where t = x[i] is a local: the
// same IR): func(i): if x[i] > 0: y[i] = x[i] else: y[i] = 2 x[i], loose statements at the
// element given by a scalar argument; the peer launches it with i = 0 and i = 1: if_ad_if.mlir
// (i = 0) and if_ad_if_i1.mlir (i = 1). Inputs -0.5 and 1 stay 0.5 from the threshold 0
// (the peer's x[0] = 0 sits on it). x.grad = 2, 1.
// GRAD-KERNEL: func
// GRAD-COVERS: if-else, scalar-arg
// GRAD-SET: x=-0.5,1
// GRAD-ARG: i=1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear, branches 0.5 away from the inputs: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<2xf32> {needs_grad}
  qd.field @y : !qd.field<2xf32> {needs_grad}

  qd.kernel @func(%i: i32) {
    %v = qd.load @x[%i] : f32
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %v, %z : f32
    qd.if %c {
      qd.store %v, @y[%i] : f32
    } else {
      %k = arith.constant 2.0 : f32
      %w = arith.mulf %v, %k : f32
      qd.store %w, @y[%i] : f32
    }
  }
}
