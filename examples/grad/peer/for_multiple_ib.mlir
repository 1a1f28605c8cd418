// Port of test_ad_for.py::test_multiple_ib (and test_ad_ndarray.py's): nests of constant-trip range_for loops whose statements are
// y += x (atomic adds); top-level loops are separate parallel tasks. x.grad = 12.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_y
// GRAD-COVERS: nested-loops, sibling-loops, atomic-scalar
// GRAD-SET: x=1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<f32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute_y() {
    %lo1 = arith.constant 0 : i32
    %hi2 = arith.constant 2 : i32
    qd.range_for %l3 = %lo1 to %hi2 : i32 {
      %lo4 = arith.constant 0 : i32
      %hi5 = arith.constant 3 : i32
      qd.range_for %l6 = %lo4 to %hi5 : i32 {
        %v7 = qd.load @x[] : f32
        qd.atomic_add %v7, @y[] : f32
      }
      %lo8 = arith.constant 0 : i32
      %hi9 = arith.constant 3 : i32
      qd.range_for %l10 = %lo8 to %hi9 : i32 {
        %v11 = qd.load @x[] : f32
        qd.atomic_add %v11, @y[] : f32
      }
    }
  }
}
