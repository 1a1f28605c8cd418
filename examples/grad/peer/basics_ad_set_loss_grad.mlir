// Port of test_ad_basics.py::test_ad_set_loss_grad: a Tape of three kernels each overwriting
// loss: loss = x; loss = 2x; loss = 4x. Only the last store reaches the result: x.grad = 4.
// (eval_x runs before the tape: GRAD-SET x=1.)
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_1
// GRAD-KERNEL: compute_2
// GRAD-KERNEL: compute_3
// GRAD-COVERS: kernel-sequence
// GRAD-SET: x=1
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<f32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @compute_1() {
    %v = qd.load @x[] : f32
    qd.store %v, @loss[] : f32
  }
  qd.kernel @compute_2() {
    %v = qd.load @x[] : f32
    %k = arith.constant 2.0 : f32
    %w = arith.mulf %v, %k : f32
    qd.store %w, @loss[] : f32
  }
  qd.kernel @compute_3() {
    %v = qd.load @x[] : f32
    %k = arith.constant 4.0 : f32
    %w = arith.mulf %v, %k : f32
    qd.store %w, @loss[] : f32
  }
}
