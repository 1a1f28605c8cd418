// Port of test_ad_basics.py::test_minmax (min/max with 0 and 1, both orders): grad_test(f), y[i] = f(x[i]) for each parametrized f, here row k of y.
// Inputs stay at least 0.234 from the ties at 0 and 1 (no min/max flips under the step).
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops
// GRAD-SET: x=-0.8,0.234,0.6,1.5
// GRAD-SEED: y=linspace(0.5,3.0)
// GRAD-WRT: x
// GRAD-TOL: default ; smooth O(1) functions away from their poles and kinks: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<8x4xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %f0_c = arith.constant 0.0 : f32
      %f0_r = arith.minimumf %x, %f0_c : f32
      %row0 = arith.constant 0 : i32
      qd.store %f0_r, @y[%row0, %i] : f32
      %f1_c = arith.constant 1.0 : f32
      %f1_r = arith.minimumf %x, %f1_c : f32
      %row1 = arith.constant 1 : i32
      qd.store %f1_r, @y[%row1, %i] : f32
      %f2_c = arith.constant 0.0 : f32
      %f2_r = arith.minimumf %f2_c, %x : f32
      %row2 = arith.constant 2 : i32
      qd.store %f2_r, @y[%row2, %i] : f32
      %f3_c = arith.constant 1.0 : f32
      %f3_r = arith.minimumf %f3_c, %x : f32
      %row3 = arith.constant 3 : i32
      qd.store %f3_r, @y[%row3, %i] : f32
      %f4_c = arith.constant 0.0 : f32
      %f4_r = arith.maximumf %x, %f4_c : f32
      %row4 = arith.constant 4 : i32
      qd.store %f4_r, @y[%row4, %i] : f32
      %f5_c = arith.constant 1.0 : f32
      %f5_r = arith.maximumf %x, %f5_c : f32
      %row5 = arith.constant 5 : i32
      qd.store %f5_r, @y[%row5, %i] : f32
      %f6_c = arith.constant 0.0 : f32
      %f6_r = arith.maximumf %f6_c, %x : f32
      %row6 = arith.constant 6 : i32
      qd.store %f6_r, @y[%row6, %i] : f32
      %f7_c = arith.constant 1.0 : f32
      %f7_r = arith.maximumf %f7_c, %x : f32
      %row7 = arith.constant 7 : i32
      qd.store %f7_r, @y[%row7, %i] : f32
    }
  }
}
