// Port of test_ad_for.py::test_triple_for_loops_bls (qd.block_local is a cache hint with no qd
// counterpart; the loops are ported): for i in range(N - M), k in range(N) (parallel, parallel?
// only i is the top-level loop: k serial): weight = 1; for j in range(M): weight *= a[i + j];
// s = 0; for j in range(2M): s += weight + b[2i + j]; f[i, k] = s.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: triple_for
// GRAD-COVERS: sibling-loops, nested-loops, field-gather
// GRAD-SET: a=linspace(0.7,1.4)
// GRAD-SET: b=arange()
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; polynomial: truncation ~1e-10
// GRAD-STACKS: 1
module {
  qd.field @a : !qd.field<8xf32> {needs_grad}
  qd.field @b : !qd.field<16xf32> {needs_grad}
  qd.field @f : !qd.field<5x8xf32> {needs_grad}

  qd.kernel @triple_for() {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %cm = arith.constant 3 : i32
    %c2m = arith.constant 6 : i32
    %cnm = arith.constant 5 : i32
    %cn = arith.constant 8 : i32
    qd.range_for %i = %c0 to %cnm : i32 {
      qd.range_for %k = %c0 to %cn : i32 {
        %wp = qd.alloca : !qd.ptr<f32>
        %one = arith.constant 1.0 : f32
        qd.local_store %one, %wp : !qd.ptr<f32>
        qd.range_for %j = %c0 to %cm : i32 {
          %w = qd.local_load %wp : !qd.ptr<f32>
          %ij = arith.addi %i, %j : i32
          %av = qd.load @a[%ij] : f32
          %w2 = arith.mulf %w, %av : f32
          qd.local_store %w2, %wp : !qd.ptr<f32>
        }
        %sp = qd.alloca : !qd.ptr<f32>
        %z = arith.constant 0.0 : f32
        qd.local_store %z, %sp : !qd.ptr<f32>
        qd.range_for %j = %c0 to %c2m : i32 {
          %w = qd.local_load %wp : !qd.ptr<f32>
          %i2 = arith.muli %i, %c2 : i32
          %idx = arith.addi %i2, %j : i32
          %bv = qd.load @b[%idx] : f32
          %t = arith.addf %w, %bv : f32
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
