// erf, erfc, cbrt, copysign and fpowi: y[i] = erf(x) + x erfc(0.5 x) + cbrt(x + 3) +
// copysign(x + 2.5, z) + z fpowi(x, n) + fpowi(z, -2), with n = 3 a kernel argument.
// copysign's derivative in its sign operand is 0 (the result is |x + 2.5| sign(z)); z's gradient
// comes from the other terms.
// Inputs: x + 3 >= 1.5 keeps cbrt away from its vertical tangent at 0; x + 2.5 >= 1 and
// |z| >= 0.3 keep copysign away from its kinks (magnitude 0) and jumps (sign operand 0), and
// fpowi(z, -2) away from its pole; no branch.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops
// GRAD-SET: x=-1.5,-1.0,-0.55,-0.2,0.15,0.5,0.9,1.5
// GRAD-SET: z=-1.2,0.8,-0.3,0.45,-0.7,1.1,0.35,-0.9
// GRAD-ARG: n=3
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: z
// GRAD-TOL: default ; smooth away from the kinks (margins >= 0.3), O(1) values and derivatives (|d fpowi(z,-2)/dz| <= 75): truncation ~1e-8 relative, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<8xf32> {needs_grad}
  qd.field @z : !qd.field<8xf32> {needs_grad}
  qd.field @y : !qd.field<8xf32> {needs_grad}

  qd.kernel @compute(%n: i32) {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %z = qd.load @z[%i] : f32
      %half = arith.constant 0.5 : f32
      %three = arith.constant 3.0 : f32
      %shift = arith.constant 2.5 : f32
      %m2 = arith.constant -2 : i32
      %ef = math.erf %x : f32
      %hx = arith.mulf %x, %half : f32
      %ec = math.erfc %hx : f32
      %xec = arith.mulf %x, %ec : f32
      %u = arith.addf %x, %three : f32
      %cb = math.cbrt %u : f32
      %v = arith.addf %x, %shift : f32
      %cs = math.copysign %v, %z : f32
      %pw = math.fpowi %x, %n : f32, i32
      %zp = arith.mulf %z, %pw : f32
      %iz = math.fpowi %z, %m2 : f32, i32
      %r1 = arith.addf %ef, %xec : f32
      %r2 = arith.addf %r1, %cb : f32
      %r3 = arith.addf %r2, %cs : f32
      %r4 = arith.addf %r3, %zp : f32
      %r5 = arith.addf %r4, %iz : f32
      qd.store %r5, @y[%i] : f32
    }
  }
}
