// The inverse trigonometric functions of upstream's math dialect: y = sum over i of
// asin(0.8 x) acos(0.6 x) + atan(3 x), each thread adding its term with an atomic add.
// Inputs: |0.8 x| <= 0.72 and |0.6 x| <= 0.54 stay far inside (-1, 1), where asin and acos are
// smooth (their derivatives reach 1/sqrt(1 - 0.72^2) = 1.44 at most); no branch or jump.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops, atomic-scalar
// GRAD-SET: x=-0.9,-0.6,-0.35,-0.1,0.05,0.3,0.65,0.9
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth, O(1) values and derivatives: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<8xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %k1 = arith.constant 0.8 : f32
      %k2 = arith.constant 0.6 : f32
      %k3 = arith.constant 3.0 : f32
      %a = arith.mulf %x, %k1 : f32
      %b = arith.mulf %x, %k2 : f32
      %c = arith.mulf %x, %k3 : f32
      %as = math.asin %a : f32
      %ac = math.acos %b : f32
      %at = math.atan %c : f32
      %p = arith.mulf %as, %ac : f32
      %t = arith.addf %p, %at : f32
      qd.atomic_add %t, @y[] : f32
    }
  }
}
