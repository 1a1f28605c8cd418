// ndarray form (gen_ndarray.py) of if_ad_if.mlir, for test_ad_ndarray.py::test_ad_if, ::test_ad_if_mutable (i = 0).
// Port of test_ad_if.py::test_ad_if (and ::test_ad_if_mutable, where t = x[i] is a local: the
// same IR): func(i): if x[i] > 0: y[i] = x[i] else: y[i] = 2 x[i], loose statements at the
// element given by a scalar argument; the peer launches it with i = 0 and i = 1: if_ad_if.mlir
// (i = 0) and if_ad_if_i1.mlir (i = 1). Inputs -0.5 and 1 stay 0.5 from the threshold 0
// (the peer's x[0] = 0 sits on it). x.grad = 2, 1.
// GRAD-KERNEL: func
// GRAD-COVERS: if-else, scalar-arg
// GRAD-ARG: x=-0.5,1:2
// GRAD-ARG: i=0
// GRAD-ARG: y=fill(0):2
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear, branches 0.5 away from the inputs: truncation 0
// GRAD-STACKS: 0
module {

  qd.kernel @func(%i: i32, %x: !qd.ndarray<?xf32>, %y: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %v = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %v, %z : f32
    qd.if %c {
      qd.ndarray_store %v, %y[%i] : !qd.ndarray<?xf32>
    } else {
      %k = arith.constant 2.0 : f32
      %w = arith.mulf %v, %k : f32
      qd.ndarray_store %w, %y[%i] : !qd.ndarray<?xf32>
    }
  }
}
