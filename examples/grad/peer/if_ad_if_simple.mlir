// Port of test_ad_if.py::test_ad_if_simple: loose statements: if x[None] > 0: y[None] = x[None].
// x = 1 (1 away from the threshold 0): x.grad = 1.
// GRAD-KERNEL: func
// GRAD-COVERS: if-else
// GRAD-SET: x=1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear, branch 1 away from the input: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<f32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @func() {
    %v = qd.load @x[] : f32
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %v, %z : f32
    qd.if %c {
      %w = qd.load @x[] : f32
      qd.store %w, @y[] : f32
    }
  }
}
