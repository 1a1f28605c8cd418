// Port of test_ad_atomic.py::test_ad_reduce: for i in x: loss += x[i]^2. x.grad = 2x.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: func
// GRAD-COVERS: atomic-scalar
// GRAD-SET: x=arange()
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-TOL: default ; polynomial: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<16xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @func() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %two = arith.constant 2 : i32
      %sq = math.fpowi %v, %two : f32, i32
      qd.atomic_add %sq, @loss[] : f32
    }
  }
}
