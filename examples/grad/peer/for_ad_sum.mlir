// Port of test_ad_for.py::test_ad_sum and ::test_ad_sum_local_atomic (ret = ret + a[i] and
// ret += a[i] are the same IR here): ret = 1; for j in range(b[i]): ret = ret + a[i]; p[i] = ret.
// a.grad = b.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_sum
// GRAD-COVERS: field-trip, accumulator
// GRAD-SET: a=fill(3)
// GRAD-SET: b=arange()
// GRAD-SEED: p=1
// GRAD-WRT: a
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @a : !qd.field<10xf32> {needs_grad}
  qd.field @b : !qd.field<10xi32>
  qd.field @p : !qd.field<10xf32> {needs_grad}

  qd.kernel @compute_sum() {
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 10 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %ret = qd.alloca : !qd.ptr<f32>
      %one = arith.constant 1.0 : f32
      qd.local_store %one, %ret : !qd.ptr<f32>
      %n = qd.load @b[%i] : i32
      qd.range_for %j = %c0 to %n : i32 {
        %r = qd.local_load %ret : !qd.ptr<f32>
        %ai = qd.load @a[%i] : f32
        %s = arith.addf %r, %ai : f32
        qd.local_store %s, %ret : !qd.ptr<f32>
      }
      %f = qd.local_load %ret : !qd.ptr<f32>
      qd.store %f, @p[%i] : f32
    }
  }
}
