// ndarray form (gen_ndarray.py) of if_ad_if_nested.mlir, for test_ad_ndarray.py::test_ad_if_nested.
// Port of test_ad_if.py::test_ad_if_nested: for i in x: if x[i] < 2: (if x[i] == 0: y[i] = 0
// else y[i] = z[i]) else: (if x[i] == 2: y[i] = 2 z[i] else y[i] = 3 z[i]). x = i % 4 only
// steers (not differentiated: its values sit on the == thresholds); z.grad = i % 4.
// GRAD-KERNEL: func
// GRAD-COVERS: if-else, store-in-both-arms
// GRAD-ARG: x=0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3:20
// GRAD-ARG: z=linspace(0.5,1.5):20
// GRAD-ARG: y=fill(0):20
// GRAD-SEED: y=1
// GRAD-WRT: z
// GRAD-TOL: default ; linear in z, branches on x only: truncation 0
// GRAD-STACKS: 0
module {

  qd.kernel @func(%x: !qd.ndarray<?xf32>, %y: !qd.ndarray<?xf32>, %z: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %sf_n = qd.ndarray_shape %x, 0 : !qd.ndarray<?xf32>
    qd.range_for %i = %nd_c0 to %sf_n : i32 {
      %v = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
      %zv = qd.ndarray_load %z[%i] : !qd.ndarray<?xf32>
      %k0 = arith.constant 0.0 : f32
      %k2 = arith.constant 2.0 : f32
      %k3 = arith.constant 3.0 : f32
      %lt = arith.cmpf olt, %v, %k2 : f32
      qd.if %lt {
        %e0 = arith.cmpf oeq, %v, %k0 : f32
        qd.if %e0 {
          qd.ndarray_store %k0, %y[%i] : !qd.ndarray<?xf32>
        } else {
          qd.ndarray_store %zv, %y[%i] : !qd.ndarray<?xf32>
        }
      } else {
        %e2 = arith.cmpf oeq, %v, %k2 : f32
        qd.if %e2 {
          %a = arith.mulf %zv, %k2 : f32
          qd.ndarray_store %a, %y[%i] : !qd.ndarray<?xf32>
        } else {
          %b = arith.mulf %zv, %k3 : f32
          qd.ndarray_store %b, %y[%i] : !qd.ndarray<?xf32>
        }
      }
    }
  }
}
