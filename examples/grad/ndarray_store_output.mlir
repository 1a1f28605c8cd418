// An ndarray as the only output, written by qd.ndarray_store: out[i] = x[i]^2 exp(w[i]) with
// w a needs_grad field. The store overwrites, so the output's own gradient is zero (its old
// value does not reach the result); x's is 2 x exp(w) and w's x^2 exp(w), times the seed.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: square_exp
// GRAD-COVERS: ndarray-store-output, ndarray-output
// GRAD-SET: w=linspace(-0.8,0.6)
// GRAD-ARG: x=linspace(-1.2,1.5):6
// GRAD-ARG: out=fill(5):6
// GRAD-SEED: out=1
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: default ; smooth (exp, products) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @w : !qd.field<6xf32> {needs_grad}

  qd.kernel @square_exp(%x: !qd.ndarray<?xf32>, %out: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @w {
      %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
      %wi = qd.load @w[%i] : f32
      %sq = arith.mulf %xi, %xi : f32
      %e = math.exp %wi : f32
      %v = arith.mulf %sq, %e : f32
      qd.ndarray_store %v, %out[%i] : !qd.ndarray<?xf32>
    }
  }
}
