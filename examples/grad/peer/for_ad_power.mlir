// Port of test_ad_for.py::test_ad_power: ret = 1; for j in range(b[i]): ret = ret * a[i];
// p[i] = ret. a.grad = b a^(b-1). (a = 1.1 instead of 3 keeps a^9 O(1) for the f32 check.)
// No branch: every input is away from a threshold.
// GRAD-KERNEL: power
// GRAD-COVERS: field-trip
// GRAD-SET: a=linspace(0.8,1.2)
// GRAD-SET: b=arange()
// GRAD-SEED: p=1
// GRAD-WRT: a
// GRAD-TOL: default ; polynomial: truncation ~1e-10
// GRAD-STACKS: 1
module {
  qd.field @a : !qd.field<10xf32> {needs_grad}
  qd.field @b : !qd.field<10xi32>
  qd.field @p : !qd.field<10xf32> {needs_grad}

  qd.kernel @power() {
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
        %s = arith.mulf %r, %ai : f32
        qd.local_store %s, %ret : !qd.ptr<f32>
      }
      %f = qd.local_load %ret : !qd.ptr<f32>
      qd.store %f, @p[%i] : f32
    }
  }
}
