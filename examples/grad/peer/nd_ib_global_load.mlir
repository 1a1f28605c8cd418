// ndarray form (gen_ndarray.py) of for_ib_global_load.mlir, for test_ad_ndarray.py::test_ib_global_load.
// Port of test_ad_for.py::test_ib_global_load: val = a[i]; for j in range(b[i]): p[i] += i;
// p[i] = val * i. A store after atomic adds to the same element: a.grad[i] = i.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: store-after-write, field-trip
// GRAD-ARG: a=arange():10
// GRAD-ARG: b=fill(2):10
// GRAD-ARG: p=fill(0):10
// GRAD-SEED: p=1
// GRAD-WRT: a
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {

  qd.kernel @compute(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xi32>, %p: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 10 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %val = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %fi = arith.sitofp %i : i32 to f32
      %n = qd.ndarray_load %b[%i] : !qd.ndarray<?xi32>
      qd.range_for %j = %c0 to %n : i32 {
        qd.ndarray_atomic_add %fi, %p[%i] : !qd.ndarray<?xf32>
      }
      %r = arith.mulf %val, %fi : f32
      qd.ndarray_store %r, %p[%i] : !qd.ndarray<?xf32>
    }
  }
}
