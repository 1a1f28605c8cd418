// A sequence of two kernels differentiated as a whole (the runtime's Tape, qd-run's repeated
// --kernel): @spread writes the ndarray b[i] = sin(a[i]) * x[i], then @reduce reads b and
// accumulates loss += b[i]^2 + x[i] b[i]. The gradient runs reduce_grad, then spread_grad: b's
// adjoint ndarray carries d loss / d b from the second into the first, so a and x get gradient
// through both (x also directly through @reduce). The ndarray b is one argument shared by both
// kernels (GRAD-ARG b, unqualified). b is also an output, seeded per element (GRAD-SEED b: the
// loss is loss + s . b). With loss.grad = 1 and b's seed s:
//   b.grad = 2 b + x + s,  a.grad = b.grad x cos(a),  x.grad = b.grad sin(a) + b.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: spread
// GRAD-KERNEL: reduce
// GRAD-COVERS: kernel-sequence, ndarray-gradient
// GRAD-SET: x=linspace(0.5,2.0)
// GRAD-ARG: a=linspace(-1.0,1.2):4
// GRAD-ARG: b=fill(0):4
// GRAD-SEED: loss=1
// GRAD-SEED: b=0.5,0,-1,2
// GRAD-WRT: a
// GRAD-WRT: x
// GRAD-TOL: default ; smooth products of sin and cos with O(1) inputs: the central difference's truncation error is below 1e-10
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @spread(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %a_i = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %s = math.sin %a_i : f32
      %x_i = qd.load @x[%i] : f32
      %v = arith.mulf %s, %x_i : f32
      qd.ndarray_store %v, %b[%i] : !qd.ndarray<?xf32>
    }
  }

  qd.kernel @reduce(%b: !qd.ndarray<?xf32>) {
    qd.struct_for (%i) in @x {
      %b_i = qd.ndarray_load %b[%i] : !qd.ndarray<?xf32>
      %x_i = qd.load @x[%i] : f32
      %sq = arith.mulf %b_i, %b_i : f32
      %xb = arith.mulf %x_i, %b_i : f32
      %t = arith.addf %sq, %xb : f32
      qd.atomic_add %t, @loss[] : f32
    }
  }
}
