// Atomics into field elements chosen by data: thread i adds 0.5 x^2 + cos(x) to h[bins[i]]
// (bins an i32 ndarray: several threads share a bin, bin 3 gets none) and x^3 to the scalar s.
// Two outputs seeded differently: h.grad = 1.5, s.grad = -1.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: atomic-scatter, atomic-scalar, several-outputs
// GRAD-SET: x=linspace(-1.5,1.2)
// GRAD-ARG: bins=0,2,1,0,2,2,1,0,4,1
// GRAD-SEED: h=1.5
// GRAD-SEED: s=-1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (cos, powers) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<10xf32> {needs_grad}
  qd.field @h : !qd.field<5xf32> {needs_grad}
  qd.field @s : !qd.field<f32> {needs_grad}

  qd.kernel @compute(%bins: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %b = qd.ndarray_load %bins[%i] : !qd.ndarray<?xi32>
      %sq = arith.mulf %x_i, %x_i : f32
      %half = arith.constant 0.5 : f32
      %p = arith.mulf %sq, %half : f32
      %c = math.cos %x_i : f32
      %v = arith.addf %p, %c : f32
      qd.atomic_add %v, @h[%b] : f32
      %cube = arith.mulf %sq, %x_i : f32
      qd.atomic_add %cube, @s[] : f32
    }
  }
}
