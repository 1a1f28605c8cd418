// Port of test_ad_for.py::test_mixed_inner_loops and ::test_mixed_inner_loops_tape (kernel.grad
// and the Tape are one gradient here): for i in arr: loss += sin(x); for j in range(2):
// loss += sin(x) + 1. x.grad = 15 cos(x).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: mixed_inner_loops
// GRAD-COVERS: atomic-scalar, nested-loops
// GRAD-SET: x=0
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin): truncation ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<f32> {needs_grad}
  qd.field @arr : !qd.field<5xf32>
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @mixed_inner_loops() {
    qd.struct_for (%i) in @arr {
      %x = qd.load @x[] : f32
      %s = math.sin %x : f32
      qd.atomic_add %s, @loss[] : f32
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      qd.range_for %j = %c0 to %c2 : i32 {
        %x2 = qd.load @x[] : f32
        %s2 = math.sin %x2 : f32
        %one = arith.constant 1.0 : f32
        %t = arith.addf %s2, %one : f32
        qd.atomic_add %t, @loss[] : f32
      }
    }
  }
}
