// Port of test_ad_for.py::test_double_for_loops: weight = 1; for j in range(c[i]):
// weight *= a[i]; s = 0; for j in range(2 c[i]): s += weight + b[i]; f[i] = s.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: double_for
// GRAD-COVERS: sibling-loops, field-trip
// GRAD-SET: a=linspace(0.9,1.3)
// GRAD-SET: b=fill(1)
// GRAD-SET: c=arange()
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; polynomial: truncation ~1e-10
// GRAD-STACKS: 1
module {
  qd.field @a : !qd.field<5xf32> {needs_grad}
  qd.field @b : !qd.field<5xf32> {needs_grad}
  qd.field @c : !qd.field<5xi32>
  qd.field @f : !qd.field<5xf32> {needs_grad}

  qd.kernel @double_for() {
    %c0 = arith.constant 0 : i32
    %cn = arith.constant 5 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      %wp = qd.alloca : !qd.ptr<f32>
      %one = arith.constant 1.0 : f32
      qd.local_store %one, %wp : !qd.ptr<f32>
      %n = qd.load @c[%i] : i32
      qd.range_for %j = %c0 to %n : i32 {
        %w = qd.local_load %wp : !qd.ptr<f32>
        %ai = qd.load @a[%i] : f32
        %w2 = arith.mulf %w, %ai : f32
        qd.local_store %w2, %wp : !qd.ptr<f32>
      }
      %sp = qd.alloca : !qd.ptr<f32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %sp : !qd.ptr<f32>
      %c2 = arith.constant 2 : i32
      %n2 = arith.muli %n, %c2 : i32
      qd.range_for %j = %c0 to %n2 : i32 {
        %w = qd.local_load %wp : !qd.ptr<f32>
        %bi = qd.load @b[%i] : f32
        %t = arith.addf %w, %bi : f32
        %s = qd.local_load %sp : !qd.ptr<f32>
        %s2 = arith.addf %s, %t : f32
        qd.local_store %s2, %sp : !qd.ptr<f32>
      }
      %r = qd.local_load %sp : !qd.ptr<f32>
      qd.store %r, @f[%i] : f32
    }
  }
}
