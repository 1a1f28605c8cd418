// The hyperbolic functions and their inverses: y[i] = sinh(x) + cosh(0.5 x) + asinh(2 x) +
// acosh(1.5 + x^2) + atanh(0.6 x).
// Inputs: acosh's operand is at least 1.5 (its edge is 1) and |0.6 x| <= 0.72 stays inside
// atanh's (-1, 1); |x| <= 1.2 keeps every value and derivative O(1); no branch or jump.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops
// GRAD-SET: x=-1.2,-0.8,-0.45,-0.15,0.1,0.4,0.75,1.2
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth, O(1) values and derivatives: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<8xf32> {needs_grad}
  qd.field @y : !qd.field<8xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %half = arith.constant 0.5 : f32
      %two = arith.constant 2.0 : f32
      %base = arith.constant 1.5 : f32
      %k = arith.constant 0.6 : f32
      %s = math.sinh %x : f32
      %hx = arith.mulf %x, %half : f32
      %c = math.cosh %hx : f32
      %tx = arith.mulf %x, %two : f32
      %as = math.asinh %tx : f32
      %x2 = arith.mulf %x, %x : f32
      %u = arith.addf %x2, %base : f32
      %ac = math.acosh %u : f32
      %kx = arith.mulf %x, %k : f32
      %at = math.atanh %kx : f32
      %r1 = arith.addf %s, %c : f32
      %r2 = arith.addf %r1, %as : f32
      %r3 = arith.addf %r2, %ac : f32
      %r4 = arith.addf %r3, %at : f32
      qd.store %r4, @y[%i] : f32
    }
  }
}
