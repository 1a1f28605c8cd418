// Port of test_ad_for.py::test_ib_global_load: val = a[i]; for j in range(b[i]): p[i] += i;
// p[i] = val * i. A store after atomic adds to the same element: a.grad[i] = i.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: store-after-write, field-trip
// GRAD-SET: a=arange()
// GRAD-SET: b=fill(2)
// GRAD-SEED: p=1
// GRAD-WRT: a
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @a : !qd.field<10xf32> {needs_grad}
  qd.field @b : !qd.field<10xi32>
  qd.field @p : !qd.field<10xf32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 10 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %val = qd.load @a[%i] : f32
      %fi = arith.sitofp %i : i32 to f32
      %n = qd.load @b[%i] : i32
      qd.range_for %j = %c0 to %n : i32 {
        qd.atomic_add %fi, @p[%i] : f32
      }
      %r = arith.mulf %val, %fi : f32
      qd.store %r, @p[%i] : f32
    }
  }
}
