// Port of test_ad_basics.py::test_poly (10 lambdas): grad_test(f), y[i] = f(x[i]) for each parametrized f, here row k of y.
// abs(-x)'s kink at 0 is at least 0.234 away from every input.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops
// GRAD-SET: x=-0.9,-0.3,0.234,1.3
// GRAD-SEED: y=linspace(0.5,3.0)
// GRAD-WRT: x
// GRAD-TOL: default ; smooth O(1) functions away from their poles and kinks: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<10x4xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %f0_z = arith.constant 0.0 : f32
      %f0_r = arith.addf %x, %f0_z : f32
      %row0 = arith.constant 0 : i32
      qd.store %f0_r, @y[%row0, %i] : f32
      %f1_n = arith.negf %x : f32
      %f1_r = math.absf %f1_n : f32
      %row1 = arith.constant 1 : i32
      qd.store %f1_r, @y[%row1, %i] : f32
      %f2_r = arith.negf %x : f32
      %row2 = arith.constant 2 : i32
      qd.store %f2_r, @y[%row2, %i] : f32
      %f3_r = arith.mulf %x, %x : f32
      %row3 = arith.constant 3 : i32
      qd.store %f3_r, @y[%row3, %i] : f32
      %f4_two = arith.constant 2 : i32
      %f4_r = math.fpowi %x, %f4_two : f32, i32
      %row4 = arith.constant 4 : i32
      qd.store %f4_r, @y[%row4, %i] : f32
      %f5_a = arith.mulf %x, %x : f32
      %f5_r = arith.mulf %f5_a, %x : f32
      %row5 = arith.constant 5 : i32
      qd.store %f5_r, @y[%row5, %i] : f32
      %f6_a = arith.mulf %x, %x : f32
      %f6_b = arith.mulf %f6_a, %x : f32
      %f6_r = arith.mulf %f6_b, %x : f32
      %row6 = arith.constant 6 : i32
      qd.store %f6_r, @y[%row6, %i] : f32
      %f7_c = arith.constant 0.4 : f32
      %f7_t = arith.constant 3.0 : f32
      %f7_a = arith.mulf %f7_c, %x : f32
      %f7_b = arith.mulf %f7_a, %x : f32
      %f7_r = arith.subf %f7_b, %f7_t : f32
      %row7 = arith.constant 7 : i32
      qd.store %f7_r, @y[%row7, %i] : f32
      %f8_t = arith.constant 3.0 : f32
      %f8_o = arith.constant 1.0 : f32
      %f8_a = arith.subf %x, %f8_t : f32
      %f8_b = arith.subf %x, %f8_o : f32
      %f8_r = arith.mulf %f8_a, %f8_b : f32
      %row8 = arith.constant 8 : i32
      qd.store %f8_r, @y[%row8, %i] : f32
      %f9_t = arith.constant 3.0 : f32
      %f9_o = arith.constant 1.0 : f32
      %f9_a = arith.subf %x, %f9_t : f32
      %f9_b = arith.subf %x, %f9_o : f32
      %f9_p = arith.mulf %f9_a, %f9_b : f32
      %f9_s = arith.mulf %x, %x : f32
      %f9_r = arith.addf %f9_p, %f9_s : f32
      %row9 = arith.constant 9 : i32
      qd.store %f9_r, @y[%row9, %i] : f32
    }
  }
}
