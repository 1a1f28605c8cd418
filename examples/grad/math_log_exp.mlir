// log1p, expm1 and log10 (with the existing exp2 and log2): y[i] = log1p(x^2) expm1(0.5 x) +
// log10(2 + x) + log2(exp2(x) + 1).
// Inputs: 2 + x >= 0.5 and exp2(x) + 1 > 1 keep the logarithms far from 0; no branch or jump.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops
// GRAD-SET: x=-1.5,-1.0,-0.55,-0.2,0.15,0.5,0.9,1.5
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
      %one = arith.constant 1.0 : f32
      %x2 = arith.mulf %x, %x : f32
      %l = math.log1p %x2 : f32
      %hx = arith.mulf %x, %half : f32
      %e = math.expm1 %hx : f32
      %p = arith.mulf %l, %e : f32
      %u = arith.addf %x, %two : f32
      %d = math.log10 %u : f32
      %e2 = math.exp2 %x : f32
      %v = arith.addf %e2, %one : f32
      %l2 = math.log2 %v : f32
      %r1 = arith.addf %p, %d : f32
      %r2 = arith.addf %r1, %l2 : f32
      qd.store %r2, @y[%i] : f32
    }
  }
}
