// Variant of refused/if_condition_depend_on_for_loop_index.mlir without the final pos += t
// (which qd refuses: see there). Port of test_ad_if.py::test_if_condition_depend_on_for_loop_index (Vector fields as a trailing
// extent of 3): for i, j in pos: for n in range(12): f = (1, 1, 1) if n < 4 else
// f_bend[0] pos[i, j]; F[i, j] += f; then pos[i, j] += t. The peer's Tape is on an unused loss
// (its test only checks that the gradient compiles); here F is seeded. pos[i, j] is read (its
// value needed: f_bend's adjoint is pos F.grad) and then incremented by the same thread.
// Branch on the loop index only.
// GRAD-KERNEL: simulation
// GRAD-COVERS: branch-in-loop, rank-2
// GRAD-SET: pos=linspace(-0.5,1)
// GRAD-SET: f_bend=0.7
// GRAD-ARG: t=5
// GRAD-SEED: F=1
// GRAD-WRT: pos
// GRAD-WRT: f_bend
// GRAD-TOL: default ; bilinear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @pos : !qd.field<4x4x3xf32> {needs_grad}
  qd.field @F : !qd.field<4x4x3xf32> {needs_grad}
  qd.field @f_bend : !qd.field<1xf32> {needs_grad}

  qd.kernel @simulation(%t: i32) {
    qd.struct_for (%i, %j, %c) in @pos {
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %c12 = arith.constant 12 : i32
      qd.range_for %n = %c0 to %c12 : i32 {
        %f = qd.alloca : !qd.ptr<f32>
        %z = arith.constant 0.0 : f32
        qd.local_store %z, %f : !qd.ptr<f32>
        %lt = arith.cmpi slt, %n, %c4 : i32
        qd.if %lt {
          %one = arith.constant 1.0 : f32
          qd.local_store %one, %f : !qd.ptr<f32>
        } else {
          %fb = qd.load @f_bend[%c0] : f32
          %p = qd.load @pos[%i, %j, %c] : f32
          %m = arith.mulf %fb, %p : f32
          qd.local_store %m, %f : !qd.ptr<f32>
        }
        %fv = qd.local_load %f : !qd.ptr<f32>
        qd.atomic_add %fv, @F[%i, %j, %c] : f32
      }
    }
  }
}
