// A sequence where a later kernel overwrites a field an earlier kernel read: @square stores
// y[i] = x[i]^2, @clobber overwrites x[i] = 3 z[i], then @combine accumulates
// loss += x[i] y[i] (reading the new x). So loss = sum 3 z x0^2 in the initial x0. The gradient
// runs combine_grad, clobber_grad (x's adjoint goes to z, and is zeroed: what x held before the
// store is dead), then square_grad, which must see the x it read: the tape puts x back (its
// snapshot before @clobber) before it runs. With loss.grad = 1 (per element seeds would work the
// same on y): x.grad = 6 z x0, z.grad = 3 x0^2.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: square
// GRAD-KERNEL: clobber
// GRAD-KERNEL: combine
// GRAD-COVERS: kernel-sequence, overwritten-input
// GRAD-SET: x=linspace(-1.0,1.5)
// GRAD-SET: z=0.5,-0.25,1.0,2.0
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-WRT: z
// GRAD-TOL: default ; cubic polynomials in O(1) inputs: the central difference is exact up to rounding
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<4xf32> {needs_grad}
  qd.field @z : !qd.field<4xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @square() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %s = arith.mulf %v, %v : f32
      qd.store %s, @y[%i] : f32
    }
  }

  qd.kernel @clobber() {
    qd.struct_for (%i) in @x {
      %z_i = qd.load @z[%i] : f32
      %c3 = arith.constant 3.0 : f32
      %v = arith.mulf %z_i, %c3 : f32
      qd.store %v, @x[%i] : f32
    }
  }

  qd.kernel @combine() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %y_i = qd.load @y[%i] : f32
      %p = arith.mulf %x_i, %y_i : f32
      qd.atomic_add %p, @loss[] : f32
    }
  }
}
