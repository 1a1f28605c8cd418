// Port of test_ad_for.py::test_ad_fibonacci: p = a[i]; q = b[i]; for j in range(c[i]):
// p, q = q, p + q; f[i] = q.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: fib
// GRAD-COVERS: field-trip, mixed-f32-i32
// GRAD-SET: a=linspace(-0.5,0.8)
// GRAD-SET: b=fill(1)
// GRAD-SET: c=arange()
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 2
module {
  qd.field @a : !qd.field<15xf32> {needs_grad}
  qd.field @b : !qd.field<15xf32> {needs_grad}
  qd.field @c : !qd.field<15xi32>
  qd.field @f : !qd.field<15xf32> {needs_grad}

  qd.kernel @fib() {
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 15 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %pp = qd.alloca : !qd.ptr<f32>
      %qp = qd.alloca : !qd.ptr<f32>
      %ai = qd.load @a[%i] : f32
      %bi = qd.load @b[%i] : f32
      qd.local_store %ai, %pp : !qd.ptr<f32>
      qd.local_store %bi, %qp : !qd.ptr<f32>
      %n = qd.load @c[%i] : i32
      qd.range_for %j = %c0 to %n : i32 {
        %p = qd.local_load %pp : !qd.ptr<f32>
        %q = qd.local_load %qp : !qd.ptr<f32>
        %s = arith.addf %p, %q : f32
        qd.local_store %q, %pp : !qd.ptr<f32>
        qd.local_store %s, %qp : !qd.ptr<f32>
      }
      %r = qd.local_load %qp : !qd.ptr<f32>
      qd.store %r, @f[%i] : f32
    }
  }
}
