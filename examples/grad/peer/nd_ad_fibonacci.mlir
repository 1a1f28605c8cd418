// ndarray form (gen_ndarray.py) of for_ad_fibonacci.mlir, for test_ad_ndarray.py::test_ad_fibonacci.
// Port of test_ad_for.py::test_ad_fibonacci: p = a[i]; q = b[i]; for j in range(c[i]):
// p, q = q, p + q; f[i] = q.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: fib
// GRAD-COVERS: field-trip, mixed-f32-i32
// GRAD-ARG: a=linspace(-0.5,0.8):15
// GRAD-ARG: b=fill(1):15
// GRAD-ARG: c=arange():15
// GRAD-ARG: f=fill(0):15
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 2
module {

  qd.kernel @fib(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>, %c: !qd.ndarray<?xi32>, %f: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 15 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %pp = qd.alloca : !qd.ptr<f32>
      %qp = qd.alloca : !qd.ptr<f32>
      %ai = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %bi = qd.ndarray_load %b[%i] : !qd.ndarray<?xf32>
      qd.local_store %ai, %pp : !qd.ptr<f32>
      qd.local_store %bi, %qp : !qd.ptr<f32>
      %n = qd.ndarray_load %c[%i] : !qd.ndarray<?xi32>
      qd.range_for %j = %c0 to %n : i32 {
        %p = qd.local_load %pp : !qd.ptr<f32>
        %q = qd.local_load %qp : !qd.ptr<f32>
        %s = arith.addf %p, %q : f32
        qd.local_store %q, %pp : !qd.ptr<f32>
        qd.local_store %s, %qp : !qd.ptr<f32>
      }
      %r = qd.local_load %qp : !qd.ptr<f32>
      qd.ndarray_store %r, %f[%i] : !qd.ndarray<?xf32>
    }
  }
}
