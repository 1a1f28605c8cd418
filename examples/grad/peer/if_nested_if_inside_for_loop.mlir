// Port of test_ad_if.py::test_ad_nested_if_inside_for_loop and ::..._f64 (the f64 twin):
// for i in w: if w[i] > 0: if w[i] < 10: loss += w[i]^2. Inputs as the peer's (-2, 1, ..., 6,
// 20): at least 1 from the thresholds 0 and 10. w.grad = 2w inside (0, 10), else 0.
// GRAD-KERNEL: compute
// GRAD-COVERS: if-else, atomic-scalar
// GRAD-SET: w=-2,1,2,3,4,5,6,20
// GRAD-SEED: loss=1
// GRAD-WRT: w
// GRAD-TOL: default ; polynomial, branches at least 1 from every input: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @w : !qd.field<8xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @w {
      %v = qd.load @w[%i] : f32
      %z = arith.constant 0.0 : f32
      %ten = arith.constant 10.0 : f32
      %p = arith.cmpf ogt, %v, %z : f32
      qd.if %p {
        %q = arith.cmpf olt, %v, %ten : f32
        qd.if %q {
          %sq = arith.mulf %v, %v : f32
          qd.atomic_add %sq, @loss[] : f32
        }
      }
    }
  }
}
