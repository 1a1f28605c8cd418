// Port of test_ad_basics.py::test_ad_global_store_forwarding: loose statements, a chain of
// stores and reads of scalar fields: a = x; b = 2a; c = 3b; d = 4c; e = 5d. x.grad = 120 and the
// intermediates' adjoints are consumed (a.grad = ... = 0 after the gradient).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: func
// GRAD-COVERS: store-after-write
// GRAD-SET: x=1
// GRAD-SEED: e=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<f32> {needs_grad}
  qd.field @a : !qd.field<f32> {needs_grad}
  qd.field @b : !qd.field<f32> {needs_grad}
  qd.field @c : !qd.field<f32> {needs_grad}
  qd.field @d : !qd.field<f32> {needs_grad}
  qd.field @e : !qd.field<f32> {needs_grad}

  qd.kernel @func() {
    %k2 = arith.constant 2.0 : f32
    %k3 = arith.constant 3.0 : f32
    %k4 = arith.constant 4.0 : f32
    %k5 = arith.constant 5.0 : f32
    %x = qd.load @x[] : f32
    qd.store %x, @a[] : f32
    %a = qd.load @a[] : f32
    %a2 = arith.mulf %a, %k2 : f32
    qd.store %a2, @b[] : f32
    %b = qd.load @b[] : f32
    %b3 = arith.mulf %b, %k3 : f32
    qd.store %b3, @c[] : f32
    %c = qd.load @c[] : f32
    %c4 = arith.mulf %c, %k4 : f32
    qd.store %c4, @d[] : f32
    %d = qd.load @d[] : f32
    %d5 = arith.mulf %d, %k5 : f32
    qd.store %d5, @e[] : f32
  }
}
