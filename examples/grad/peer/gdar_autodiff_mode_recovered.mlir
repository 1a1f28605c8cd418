// Port of test_ad_global_data_access_rule_checker.py::test_autodiff_mode_recovered (the mode
// bookkeeping is Python-level; the kernels are ported): a Tape of kernel_1, kernel_2, each
// loss[None] = x[1] b[None]. The second store overwrites the first: x.grad[1] = b, b.grad = x[1].
// No branch: every input is away from a threshold.
// GRAD-KERNEL: kernel_1
// GRAD-KERNEL: kernel_2
// GRAD-COVERS: kernel-sequence
// GRAD-SET: x=arange()
// GRAD-SET: b=10
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-WRT: b
// GRAD-TOL: default ; bilinear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<16xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}
  qd.field @b : !qd.field<f32> {needs_grad}

  qd.kernel @kernel_1() {
    %c1 = arith.constant 1 : i32
    %xv = qd.load @x[%c1] : f32
    %bv = qd.load @b[] : f32
    %p = arith.mulf %xv, %bv : f32
    qd.store %p, @loss[] : f32
  }
  qd.kernel @kernel_2() {
    %c1 = arith.constant 1 : i32
    %xv = qd.load @x[%c1] : f32
    %bv = qd.load @b[] : f32
    %p = arith.mulf %xv, %bv : f32
    qd.store %p, @loss[] : f32
  }
}
