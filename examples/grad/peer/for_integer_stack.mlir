// Port of test_ad_for.py::test_integer_stack: weight = 1 (i32); s = 0; for j in range(c[i]):
// s += weight a[i] + b[i]; weight *= 10; f[i] = s.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: int_stack
// GRAD-COVERS: field-trip, mixed-f32-i32, accumulator
// GRAD-SET: a=fill(1)
// GRAD-SET: b=fill(1)
// GRAD-SET: c=arange()
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 1
module {
  qd.field @a : !qd.field<5xf32> {needs_grad}
  qd.field @b : !qd.field<5xf32> {needs_grad}
  qd.field @c : !qd.field<5xi32>
  qd.field @f : !qd.field<5xf32> {needs_grad}

  qd.kernel @int_stack() {
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 5 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %wp = qd.alloca : !qd.ptr<i32>
      %sp = qd.alloca : !qd.ptr<f32>
      %c1 = arith.constant 1 : i32
      %z = arith.constant 0.0 : f32
      qd.local_store %c1, %wp : !qd.ptr<i32>
      qd.local_store %z, %sp : !qd.ptr<f32>
      %n = qd.load @c[%i] : i32
      qd.range_for %j = %c0 to %n : i32 {
        %w = qd.local_load %wp : !qd.ptr<i32>
        %wf = arith.sitofp %w : i32 to f32
        %ai = qd.load @a[%i] : f32
        %bi = qd.load @b[%i] : f32
        %t = arith.mulf %wf, %ai : f32
        %u = arith.addf %t, %bi : f32
        %s = qd.local_load %sp : !qd.ptr<f32>
        %s2 = arith.addf %s, %u : f32
        qd.local_store %s2, %sp : !qd.ptr<f32>
        %c10 = arith.constant 10 : i32
        %w2 = arith.muli %w, %c10 : i32
        qd.local_store %w2, %wp : !qd.ptr<i32>
      }
      %r = qd.local_load %sp : !qd.ptr<f32>
      qd.store %r, @f[%i] : f32
    }
  }
}
