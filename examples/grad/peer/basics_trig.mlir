// Port of test_ad_basics.py::test_trigonometric (tanh sin cos tan acos asin): grad_test(f), y[i] = f(x[i]) for each parametrized f, here row k of y.
// |x| <= 0.7 keeps acos/asin inside (-1, 1) and tan away from its poles.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops
// GRAD-SET: x=-0.7,-0.2,0.234,0.6
// GRAD-SEED: y=linspace(0.5,3.0)
// GRAD-WRT: x
// GRAD-TOL: default ; smooth O(1) functions away from their poles and kinks: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<6x4xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %f0_r = math.tanh %x : f32
      %row0 = arith.constant 0 : i32
      qd.store %f0_r, @y[%row0, %i] : f32
      %f1_r = math.sin %x : f32
      %row1 = arith.constant 1 : i32
      qd.store %f1_r, @y[%row1, %i] : f32
      %f2_r = math.cos %x : f32
      %row2 = arith.constant 2 : i32
      qd.store %f2_r, @y[%row2, %i] : f32
      %f3_r = math.tan %x : f32
      %row3 = arith.constant 3 : i32
      qd.store %f3_r, @y[%row3, %i] : f32
      %f4_r = math.acos %x : f32
      %row4 = arith.constant 4 : i32
      qd.store %f4_r, @y[%row4, %i] : f32
      %f5_r = math.asin %x : f32
      %row5 = arith.constant 5 : i32
      qd.store %f5_r, @y[%row5, %i] : f32
    }
  }
}
