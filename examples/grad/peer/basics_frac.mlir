// Port of test_ad_basics.py::test_frac (1/x, (x+1)/(x-1), (x+1)(x+2)/((x-1)(x+3))): grad_test(f), y[i] = f(x[i]) for each parametrized f, here row k of y.
// Inputs stay at least 0.234 from the poles 0, 1 and -3.
// GRAD-KERNEL: compute
// GRAD-COVERS: math-ops
// GRAD-SET: x=-2.2,-0.6,0.234,0.5,1.7
// GRAD-SEED: y=linspace(0.5,3.0)
// GRAD-WRT: x
// GRAD-TOL: default ; smooth O(1) functions away from their poles and kinks: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<3x5xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x = qd.load @x[%i] : f32
      %f0_o = arith.constant 1.0 : f32
      %f0_r = arith.divf %f0_o, %x : f32
      %row0 = arith.constant 0 : i32
      qd.store %f0_r, @y[%row0, %i] : f32
      %f1_o = arith.constant 1.0 : f32
      %f1_a = arith.addf %x, %f1_o : f32
      %f1_b = arith.subf %x, %f1_o : f32
      %f1_r = arith.divf %f1_a, %f1_b : f32
      %row1 = arith.constant 1 : i32
      qd.store %f1_r, @y[%row1, %i] : f32
      %f2_o = arith.constant 1.0 : f32
      %f2_t = arith.constant 2.0 : f32
      %f2_h = arith.constant 3.0 : f32
      %f2_a = arith.addf %x, %f2_o : f32
      %f2_b = arith.addf %x, %f2_t : f32
      %f2_n = arith.mulf %f2_a, %f2_b : f32
      %f2_c = arith.subf %x, %f2_o : f32
      %f2_d = arith.addf %x, %f2_h : f32
      %f2_e = arith.mulf %f2_c, %f2_d : f32
      %f2_r = arith.divf %f2_n, %f2_e : f32
      %row2 = arith.constant 2 : i32
      qd.store %f2_r, @y[%row2, %i] : f32
    }
  }
}
