// Port of test_ad_for.py::test_double_for_loops_more_nests: for i in range(N) (parallel): for k
// in range(N // 2): weight = 1; for j in range(c[i, k]): weight *= a[i]; s = 0;
// for j in range(2 c[i, k]): s += weight + b[i]; f[i, k] = s. (a near 1 keeps a^8 O(1).)
// No branch: every input is away from a threshold.
// GRAD-KERNEL: double_for
// GRAD-COVERS: sibling-loops, nested-loops, field-trip, rank-2
// GRAD-SET: a=linspace(0.85,1.15)
// GRAD-SET: b=fill(1)
// GRAD-SET: c=0,1,2,1,2,3,2,3,4,3,4,5,4,5,6,5,6,7
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; polynomial: truncation ~1e-10
// GRAD-STACKS: 1
module {
  qd.field @a : !qd.field<6xf32> {needs_grad}
  qd.field @b : !qd.field<6xf32> {needs_grad}
  qd.field @c : !qd.field<6x3xi32>
  qd.field @f : !qd.field<6x3xf32> {needs_grad}

  qd.kernel @double_for() {
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %cn = arith.constant 6 : i32
    qd.range_for %i = %c0 to %cn : i32 {
      qd.range_for %k = %c0 to %c3 : i32 {
        %wp = qd.alloca : !qd.ptr<f32>
        %one = arith.constant 1.0 : f32
        qd.local_store %one, %wp : !qd.ptr<f32>
        %n = qd.load @c[%i, %k] : i32
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
        qd.store %r, @f[%i, %k] : f32
      }
    }
  }
}
