// Port of test_ad_if.py::test_ad_nested_for_loops_global_load: for i in x: a = x[i];
// for _ in range(3): y += a. x.grad = 3.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: nested-loops, atomic-scalar
// GRAD-SET: x=fill(1)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %a = qd.load @x[%i] : f32
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      qd.range_for %j = %c0 to %c3 : i32 {
        qd.atomic_add %a, @y[] : f32
      }
    }
  }
}
