// Two tasks through one field: task 1 atomically accumulates b[q] += a[q] at data-dependent q
// (q an i32 ndarray: bins 0 and 2 get several contributions, bin 4 none), task 2 sums
// f += b[k]^2. b's adjoint flows from task 2's reverse (which re-reads b as task 1 left it:
// nothing writes b after task 2 reads it) into task 1's. Item 2 of issue #14.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: multi-task, atomic-scatter
// GRAD-SET: a=linspace(-0.9,1.2)
// GRAD-SET: b=0.5,-0.25,0.75,0.1,-0.4
// GRAD-ARG: q=0,2,1,0,2,2,3,0
// GRAD-SEED: f=1
// GRAD-WRT: a
// GRAD-WRT: b
// GRAD-TOL: default ; polynomial O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @a : !qd.field<8xf32> {needs_grad}
  qd.field @b : !qd.field<5xf32> {needs_grad}
  qd.field @f : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%q: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @a {
      %j = qd.ndarray_load %q[%i] : !qd.ndarray<?xi32>
      %v = qd.load @a[%j] : f32
      qd.atomic_add %v, @b[%j] : f32
    }
    qd.struct_for (%k) in @b {
      %t = qd.load @b[%k] : f32
      %sq = arith.mulf %t, %t : f32
      qd.atomic_add %sq, @f[] : f32
    }
  }
}
