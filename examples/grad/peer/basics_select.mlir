// Port of test_ad_basics.py::test_select: for i in range(N): loss[i] += select(i % 2, x[i], y[i]).
// The select's condition is the thread index's parity (no input is near a threshold).
// GRAD-KERNEL: func
// GRAD-COVERS: select
// GRAD-SET: x=arange()
// GRAD-SET: y=-0.0,-1,-2,-3,-4
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-WRT: y
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<5xf32> {needs_grad}
  qd.field @loss : !qd.field<5xf32> {needs_grad}

  qd.kernel @func() {
    %c0 = arith.constant 0 : i32
    %c5 = arith.constant 5 : i32
    qd.range_for %i = %c0 to %c5 : i32 {
      %c2 = arith.constant 2 : i32
      %z = arith.constant 0 : i32
      %m = arith.remsi %i, %c2 : i32
      %odd = arith.cmpi ne, %m, %z : i32
      %a = qd.load @x[%i] : f32
      %b = qd.load @y[%i] : f32
      %s = arith.select %odd, %a, %b : f32
      qd.atomic_add %s, @loss[%i] : f32
    }
  }
}
