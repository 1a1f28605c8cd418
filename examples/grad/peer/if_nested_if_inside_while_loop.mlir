// Port of test_ad_if.py::test_ad_nested_if_inside_while_loop (strict xfail in the peer: its
// reverse mode has no while loops): for i in w: step = 0; while step < 1: if w > 0: if w < 10:
// loss += w^2; step += 1. Inputs at least 1 from the thresholds 0 and 10.
// GRAD-KERNEL: compute
// GRAD-COVERS: while-exit, if-else, atomic-scalar
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
      %sp = qd.alloca : !qd.ptr<i32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      qd.local_store %c0, %sp : !qd.ptr<i32>
      qd.while {
        %s = qd.local_load %sp : !qd.ptr<i32>
        %go = arith.cmpi slt, %s, %c1 : i32
        qd.condition %go
      } do {
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
        %s = qd.local_load %sp : !qd.ptr<i32>
        %s1 = arith.addi %s, %c1 : i32
        qd.local_store %s1, %sp : !qd.ptr<i32>
      }
    }
  }
}
