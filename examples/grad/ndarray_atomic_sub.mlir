// A rank-2 ndarray as the output of atomic subs: thread i subtracts sin(x[i]) * x[i] from
// out[i % 2, q[i]] (q data-dependent, elements shared by several threads). The output's adjoint
// is seeded per element; x's gradient is -(sin x + x cos x) times the seed of its element, and
// the output's own gradient is its seed.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: drain
// GRAD-COVERS: ndarray-atomic-sub, ndarray-output
// GRAD-ARG: x=linspace(-1.4,1.9):9
// GRAD-ARG: q=1,0,2,1,1,2,0,0,2
// GRAD-ARG: out=fill(0.5):2x3
// GRAD-SEED: out=1,2,-1,0.5,-3,0.25
// GRAD-WRT: x
// GRAD-WRT: out
// GRAD-TOL: default ; smooth (sin, cos, products) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.kernel @drain(%x: !qd.ndarray<?xf32>, %q: !qd.ndarray<?xi32>, %out: !qd.ndarray<?x?xf32>) {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %n = qd.ndarray_shape %x, 0 : !qd.ndarray<?xf32>
    qd.range_for %i = %c0 to %n : i32 {
      %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
      %b = qd.ndarray_load %q[%i] : !qd.ndarray<?xi32>
      %r = arith.remsi %i, %c2 : i32
      %s = math.sin %xi : f32
      %v = arith.mulf %s, %xi : f32
      qd.ndarray_atomic_sub %v, %out[%r, %b] : !qd.ndarray<?x?xf32>
    }
  }
}
