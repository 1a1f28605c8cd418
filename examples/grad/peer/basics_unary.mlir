// Port of test_ad_basics.py::test_unary (sqrt rsqrt exp log): grad_test(f), y[i] = f(x[i]) for each parametrized f, here row k of y.
// x >= 0.234 keeps sqrt, rsqrt and log smooth.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops
// GRAD-SET: x=0.234,0.5,1.1,2.3
// GRAD-SEED: y=linspace(0.5,3.0)
// GRAD-WRT: x
// GRAD-TOL: default ; smooth O(1) functions away from their poles and kinks: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<4x4xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %f0_r = math.sqrt %x : f32
      %row0 = arith.constant 0 : i32
      qd.store %f0_r, @y[%row0, %i] : f32
      %f1_r = math.rsqrt %x : f32
      %row1 = arith.constant 1 : i32
      qd.store %f1_r, @y[%row1, %i] : f32
      %f2_r = math.exp %x : f32
      %row2 = arith.constant 2 : i32
      qd.store %f2_r, @y[%row2, %i] : f32
      %f3_r = math.log %x : f32
      %row3 = arith.constant 3 : i32
      qd.store %f3_r, @y[%row3, %i] : f32
    }
  }
}
