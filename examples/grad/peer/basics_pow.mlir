// Port of test_ad_basics.py::test_pow and ::test_pow_f64 (0.4**x, x**0.4): grad_test(f), y[i] = f(x[i]) for each parametrized f, here row k of y.
// x > 0 keeps x**0.4 smooth.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops
// GRAD-SET: x=0.234,0.7,1.3,2.1
// GRAD-SEED: y=linspace(0.5,3.0)
// GRAD-WRT: x
// GRAD-TOL: default ; smooth O(1) functions away from their poles and kinks: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<2x4xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %f0_c = arith.constant 0.4 : f32
      %f0_r = math.powf %f0_c, %x : f32
      %row0 = arith.constant 0 : i32
      qd.store %f0_r, @y[%row0, %i] : f32
      %f1_c = arith.constant 0.4 : f32
      %f1_r = math.powf %x, %f1_c : f32
      %row1 = arith.constant 1 : i32
      qd.store %f1_r, @y[%row1, %i] : f32
    }
  }
}
