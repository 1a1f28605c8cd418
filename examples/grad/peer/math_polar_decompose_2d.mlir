// Port of test_ad_math_func.py::test_polar_decompose_2D (Matrix fields as trailing 2x2 extents;
// qd has no matrix type, so qd.polar_decompose's 2-D formula is written out): with
// a = F00 + F11, b = F10 - F01, r = 1/sqrt(a^2 + b^2): R = [[a r, -b r], [b r, a r]];
// F_1 += R (loose statements). The peer's Tape is on an unused loss (its test checks that the
// gradient compiles); here F_1 is seeded per element.
// Inputs: F is a generic matrix (a^2 + b^2 = 4.1, away from the singular 0).
// GRAD-KERNEL: polar_decompose_2D
// GRAD-COVERS: math-ops
// GRAD-SET: F=1.2,-0.3,0.5,0.8
// GRAD-SEED: F_1=1,-2,0.5,3
// GRAD-WRT: F
// GRAD-TOL: default ; smooth away from a^2 + b^2 = 0: truncation ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @F : !qd.field<2x2xf32> {needs_grad}
  qd.field @F_1 : !qd.field<2x2xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @polar_decompose_2D() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %f00 = qd.load @F[%c0, %c0] : f32
    %f01 = qd.load @F[%c0, %c1] : f32
    %f10 = qd.load @F[%c1, %c0] : f32
    %f11 = qd.load @F[%c1, %c1] : f32
    %a = arith.addf %f00, %f11 : f32
    %b = arith.subf %f10, %f01 : f32
    %a2 = arith.mulf %a, %a : f32
    %b2 = arith.mulf %b, %b : f32
    %n = arith.addf %a2, %b2 : f32
    %r = math.rsqrt %n : f32
    %c = arith.mulf %a, %r : f32
    %s = arith.mulf %b, %r : f32
    %ns = arith.negf %s : f32
    qd.atomic_add %c, @F_1[%c0, %c0] : f32
    qd.atomic_add %ns, @F_1[%c0, %c1] : f32
    qd.atomic_add %s, @F_1[%c1, %c0] : f32
    qd.atomic_add %c, @F_1[%c1, %c1] : f32
  }
}
