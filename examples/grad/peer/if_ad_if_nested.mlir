// Port of test_ad_if.py::test_ad_if_nested: for i in x: if x[i] < 2: (if x[i] == 0: y[i] = 0
// else y[i] = z[i]) else: (if x[i] == 2: y[i] = 2 z[i] else y[i] = 3 z[i]). x = i % 4 only
// steers (not differentiated: its values sit on the == thresholds); z.grad = i % 4.
// GRAD-KERNEL: func
// GRAD-COVERS: if-else, store-in-both-arms
// GRAD-SET: x=0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3
// GRAD-SET: z=linspace(0.5,1.5)
// GRAD-SEED: y=1
// GRAD-WRT: z
// GRAD-TOL: default ; linear in z, branches on x only: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<20xf32> {needs_grad}
  qd.field @y : !qd.field<20xf32> {needs_grad}
  qd.field @z : !qd.field<20xf32> {needs_grad}

  qd.kernel @func() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %zv = qd.load @z[%i] : f32
      %k0 = arith.constant 0.0 : f32
      %k2 = arith.constant 2.0 : f32
      %k3 = arith.constant 3.0 : f32
      %lt = arith.cmpf olt, %v, %k2 : f32
      qd.if %lt {
        %e0 = arith.cmpf oeq, %v, %k0 : f32
        qd.if %e0 {
          qd.store %k0, @y[%i] : f32
        } else {
          qd.store %zv, @y[%i] : f32
        }
      } else {
        %e2 = arith.cmpf oeq, %v, %k2 : f32
        qd.if %e2 {
          %a = arith.mulf %zv, %k2 : f32
          qd.store %a, @y[%i] : f32
        } else {
          %b = arith.mulf %zv, %k3 : f32
          qd.store %b, @y[%i] : f32
        }
      }
    }
  }
}
