// Port of test_ad_if.py::test_ad_nested_if_elif_else_inside_for_loop: for i in w: if w > 0:
// (if w < 5: loss += 2 w^2 elif w < 10: loss += w^2 else: loss += 3 w) else: loss += -w.
// The peer's inputs 5.0 and 10.0 sit on thresholds; here 4.5 and 10.5 replace them (every input
// at least 0.5 from 0, 5, 10).
// GRAD-KERNEL: compute
// GRAD-COVERS: if-else, atomic-scalar
// GRAD-SET: w=-2,-0.5,1,3,4.5,7.5,10.5,20
// GRAD-SEED: loss=1
// GRAD-WRT: w
// GRAD-TOL: default ; polynomial, branches at least 0.5 from every input: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @w : !qd.field<8xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @w {
      %v = qd.load @w[%i] : f32
      %z = arith.constant 0.0 : f32
      %five = arith.constant 5.0 : f32
      %ten = arith.constant 10.0 : f32
      %two = arith.constant 2.0 : f32
      %three = arith.constant 3.0 : f32
      %p = arith.cmpf ogt, %v, %z : f32
      qd.if %p {
        %a = arith.cmpf olt, %v, %five : f32
        qd.if %a {
          %sq = arith.mulf %v, %v : f32
          %t = arith.mulf %sq, %two : f32
          qd.atomic_add %t, @loss[] : f32
        } else {
          %b = arith.cmpf olt, %v, %ten : f32
          qd.if %b {
            %sq = arith.mulf %v, %v : f32
            qd.atomic_add %sq, @loss[] : f32
          } else {
            %t = arith.mulf %v, %three : f32
            qd.atomic_add %t, @loss[] : f32
          }
        }
      } else {
        %n = arith.negf %v : f32
        qd.atomic_add %n, @loss[] : f32
      }
    }
  }
}
