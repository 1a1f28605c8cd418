// ndarray form (gen_ndarray.py) of if_ad_if_simple.mlir, for test_ad_ndarray.py::test_ad_if_simple.
// Port of test_ad_if.py::test_ad_if_simple: loose statements: if x[None] > 0: y[None] = x[None].
// x = 1 (1 away from the threshold 0): x.grad = 1.
// GRAD-KERNEL: func
// GRAD-COVERS: if-else
// GRAD-ARG: x=1:1
// GRAD-ARG: y=fill(0):1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear, branch 1 away from the input: truncation 0
// GRAD-STACKS: 0
module {

  qd.kernel @func(%x: !qd.ndarray<?xf32>, %y: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %v = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %v, %z : f32
    qd.if %c {
      %w = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
      qd.ndarray_store %w, %y[%nd_c0] : !qd.ndarray<?xf32>
    }
  }
}
