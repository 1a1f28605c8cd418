// Port of test_ad_for.py::test_ad_sibling_for_loops_with_body_use_of_between_stmt:
// for i in y: for _ in range(2): loss += y[i]; s = scale[i]; for _ in range(3): loss += y[i] s.
// y.grad = 2 + 3 scale.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: sibling-loops, atomic-scalar
// GRAD-SET: y=fill(1)
// GRAD-SET: scale=0.5,-0.25,1.5
// GRAD-SEED: loss=1
// GRAD-WRT: y
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @y : !qd.field<3xf32> {needs_grad}
  qd.field @scale : !qd.field<3xf32>
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @y {
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      qd.range_for %j = %c0 to %c2 : i32 {
        %v = qd.load @y[%i] : f32
        qd.atomic_add %v, @loss[] : f32
      }
      %s = qd.load @scale[%i] : f32
      qd.range_for %j = %c0 to %c3 : i32 {
        %v = qd.load @y[%i] : f32
        %w = arith.mulf %v, %s : f32
        qd.atomic_add %w, @loss[] : f32
      }
    }
  }
}
