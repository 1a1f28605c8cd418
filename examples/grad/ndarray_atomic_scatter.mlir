// An ndarray as the output of atomic adds at data-dependent indices: thread i adds
// a[i] * x[i] to out[q[i]] (q an i32 ndarray: several threads share an element, element 3 gets
// none). The output starts non-zero; its gradient is its seed (an atomic add keeps the earlier
// contributions), a's is out.grad[q[i]] * x[i], x's is out.grad[q[i]] * a[i].
// No branch: every input is away from a threshold.
// GRAD-KERNEL: scatter
// GRAD-COVERS: ndarray-atomic-add, ndarray-output
// GRAD-ARG: a=linspace(-1.5,1.2):10
// GRAD-ARG: x=0.3,-1.2,0.8,2,-0.5,1.1,0.25,-0.75,1.5,0.6
// GRAD-ARG: q=0,2,1,0,2,2,1,0,4,1
// GRAD-ARG: out=0.5,-1,0.25,2,1.5
// GRAD-SEED: out=1
// GRAD-WRT: a
// GRAD-WRT: x
// GRAD-WRT: out
// GRAD-TOL: default ; products of O(1) values: truncation 0 (bilinear), rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.kernel @scatter(%a: !qd.ndarray<?xf32>, %x: !qd.ndarray<?xf32>, %q: !qd.ndarray<?xi32>, %out: !qd.ndarray<?xf32>) {
    %c0 = arith.constant 0 : i32
    %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
    qd.range_for %i = %c0 to %n : i32 {
      %ai = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
      %b = qd.ndarray_load %q[%i] : !qd.ndarray<?xi32>
      %p = arith.mulf %ai, %xi : f32
      qd.ndarray_atomic_add %p, %out[%b] : !qd.ndarray<?xf32>
    }
  }
}
