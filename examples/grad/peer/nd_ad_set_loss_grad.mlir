// ndarray form (gen_ndarray.py) of basics_ad_set_loss_grad.mlir, for test_ad_ndarray.py::test_ad_set_loss_grad.
// Port of test_ad_basics.py::test_ad_set_loss_grad: a Tape of three kernels each overwriting
// loss: loss = x; loss = 2x; loss = 4x. Only the last store reaches the result: x.grad = 4.
// (eval_x runs before the tape: GRAD-SET x=1.)
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_1
// GRAD-KERNEL: compute_2
// GRAD-KERNEL: compute_3
// GRAD-COVERS: kernel-sequence
// GRAD-ARG: x=1:1
// GRAD-ARG: loss=fill(0):1
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {

  qd.kernel @compute_1(%x: !qd.ndarray<?xf32>, %loss: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %v = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
    qd.ndarray_store %v, %loss[%nd_c0] : !qd.ndarray<?xf32>
  }
  qd.kernel @compute_2(%x: !qd.ndarray<?xf32>, %loss: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %v = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
    %k = arith.constant 2.0 : f32
    %w = arith.mulf %v, %k : f32
    qd.ndarray_store %w, %loss[%nd_c0] : !qd.ndarray<?xf32>
  }
  qd.kernel @compute_3(%x: !qd.ndarray<?xf32>, %loss: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %v = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
    %k = arith.constant 4.0 : f32
    %w = arith.mulf %v, %k : f32
    qd.ndarray_store %w, %loss[%nd_c0] : !qd.ndarray<?xf32>
  }
}
