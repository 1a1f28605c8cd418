// Reduced port of test_ad_gdar_diffmpm.py::test_gdar_mpm (the full 2-D MPM needs Vector/Matrix
// fields and polar_decompose; what the test checks is its access pattern, kept here in scalar
// form). The peer's validation must raise on g2p's `v[f, p] = new_v`: v[f, p] was read by the
// earlier p2g launch of the same tape. Sequence: set_v; p2g; g2p; advance; p2g; g2p; compute_loss,
//   set_v:   v[0, p] = init_v
//   p2g:     g[f, q[p]] += v[f, p] x[f, p]            (f read from the field @f)
//   g2p:     v[f, p] = 0.5 g[f, q[p]] + 0.1 x[f, p];  x[f + 1, p] = x[f, p] + 0.3 v[f, p]
//   advance: f += 1
//   compute_loss: loss += x[2, p]^2
// g2p overwrites v[f, p], which p2g read (its value needed: x's adjoint is v g.grad): qd's
// sequence tape restores v before replaying p2g's gradient, so the sequence differentiates.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: set_v
// GRAD-KERNEL: p2g
// GRAD-KERNEL: g2p
// GRAD-KERNEL: advance
// GRAD-KERNEL: p2g
// GRAD-KERNEL: g2p
// GRAD-KERNEL: compute_loss
// GRAD-COVERS: kernel-sequence, overwritten-input, multi-task, atomic-scatter
// GRAD-SET: x=0.3,-0.5,0.8,1.1,0,0,0,0,0,0,0,0
// GRAD-SET: init_v=0.7
// GRAD-SET: q=0,2,0,1
// GRAD-SET: f=0
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-WRT: init_v
// GRAD-TOL: default ; polynomial: truncation ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<3x4xf32> {needs_grad}
  qd.field @v : !qd.field<3x4xf32> {needs_grad}
  qd.field @g : !qd.field<3x3xf32> {needs_grad}
  qd.field @init_v : !qd.field<f32> {needs_grad}
  qd.field @q : !qd.field<4xi32>
  qd.field @f : !qd.field<i32>
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @set_v() {
    qd.struct_for (%p) in @q {
      %c0 = arith.constant 0 : i32
      %iv = qd.load @init_v[] : f32
      qd.store %iv, @v[%c0, %p] : f32
    }
  }
  qd.kernel @p2g() {
    qd.struct_for (%p) in @q {
      %f = qd.load @f[] : i32
      %b = qd.load @q[%p] : i32
      %vv = qd.load @v[%f, %p] : f32
      %xv = qd.load @x[%f, %p] : f32
      %m = arith.mulf %vv, %xv : f32
      qd.atomic_add %m, @g[%f, %b] : f32
    }
  }
  qd.kernel @g2p() {
    qd.struct_for (%p) in @q {
      %f = qd.load @f[] : i32
      %b = qd.load @q[%p] : i32
      %gv = qd.load @g[%f, %b] : f32
      %xv = qd.load @x[%f, %p] : f32
      %h = arith.constant 0.5 : f32
      %t = arith.constant 0.1 : f32
      %a = arith.mulf %gv, %h : f32
      %c = arith.mulf %xv, %t : f32
      %nv = arith.addf %a, %c : f32
      qd.store %nv, @v[%f, %p] : f32
      %vr = qd.load @v[%f, %p] : f32
      %dt = arith.constant 0.3 : f32
      %d = arith.mulf %vr, %dt : f32
      %nx = arith.addf %xv, %d : f32
      %c1 = arith.constant 1 : i32
      %f1 = arith.addi %f, %c1 : i32
      qd.store %nx, @x[%f1, %p] : f32
    }
  }
  qd.kernel @advance() {
    %f = qd.load @f[] : i32
    %c1 = arith.constant 1 : i32
    %f1 = arith.addi %f, %c1 : i32
    qd.store %f1, @f[] : i32
  }
  qd.kernel @compute_loss() {
    qd.struct_for (%p) in @q {
      %c2 = arith.constant 2 : i32
      %xv = qd.load @x[%c2, %p] : f32
      %sq = arith.mulf %xv, %xv : f32
      qd.atomic_add %sq, @loss[] : f32
    }
  }
}
