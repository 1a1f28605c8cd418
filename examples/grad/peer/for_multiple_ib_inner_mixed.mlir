// Port of test_ad_for.py::test_multiple_ib_inner_mixed: nests of constant-trip range_for loops whose statements are
// y += x (atomic adds); top-level loops are separate parallel tasks. x.grad = 78.
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
    %lo103 = arith.constant 0 : i32
    %hi104 = arith.constant 2 : i32
    qd.range_for %l105 = %lo103 to %hi104 : i32 {
      %lo106 = arith.constant 0 : i32
      %hi107 = arith.constant 3 : i32
      qd.range_for %l108 = %lo106 to %hi107 : i32 {
        %v109 = qd.load @x[] : f32
        qd.atomic_add %v109, @y[] : f32
      }
      %lo110 = arith.constant 0 : i32
      %hi111 = arith.constant 3 : i32
      qd.range_for %l112 = %lo110 to %hi111 : i32 {
        %lo113 = arith.constant 0 : i32
        %hi114 = arith.constant 2 : i32
        qd.range_for %l115 = %lo113 to %hi114 : i32 {
          %v116 = qd.load @x[] : f32
          qd.atomic_add %v116, @y[] : f32
        }
        %lo117 = arith.constant 0 : i32
        %hi118 = arith.constant 2 : i32
        qd.range_for %l119 = %lo117 to %hi118 : i32 {
          %v120 = qd.load @x[] : f32
          qd.atomic_add %v120, @y[] : f32
          %lo121 = arith.constant 0 : i32
          %hi122 = arith.constant 2 : i32
          qd.range_for %l123 = %lo121 to %hi122 : i32 {
            %v124 = qd.load @x[] : f32
            qd.atomic_add %v124, @y[] : f32
          }
        }
      }
      %lo125 = arith.constant 0 : i32
      %hi126 = arith.constant 3 : i32
      qd.range_for %l127 = %lo125 to %hi126 : i32 {
        %lo128 = arith.constant 0 : i32
        %hi129 = arith.constant 2 : i32
        qd.range_for %l130 = %lo128 to %hi129 : i32 {
          %lo131 = arith.constant 0 : i32
          %hi132 = arith.constant 2 : i32
          qd.range_for %l133 = %lo131 to %hi132 : i32 {
            %v134 = qd.load @x[] : f32
            qd.atomic_add %v134, @y[] : f32
          }
        }
      }
    }
  }
}
