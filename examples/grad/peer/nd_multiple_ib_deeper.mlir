// ndarray form (gen_ndarray.py) of for_multiple_ib_deeper.mlir, for test_ad_ndarray.py::test_multiple_ib_deeper.
// Port of test_ad_for.py::test_multiple_ib_deeper: nests of constant-trip range_for loops whose statements are
// y += x (atomic adds); top-level loops are separate parallel tasks. x.grad = 42.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_y
// GRAD-COVERS: nested-loops, sibling-loops, atomic-scalar
// GRAD-ARG: x=1:1
// GRAD-ARG: y=fill(0):1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {

  qd.kernel @compute_y(%x: !qd.ndarray<?xf32>, %y: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %lo79 = arith.constant 0 : i32
    %hi80 = arith.constant 2 : i32
    qd.range_for %l81 = %lo79 to %hi80 : i32 {
      %lo82 = arith.constant 0 : i32
      %hi83 = arith.constant 3 : i32
      qd.range_for %l84 = %lo82 to %hi83 : i32 {
        %v85 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v85, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
      %lo86 = arith.constant 0 : i32
      %hi87 = arith.constant 3 : i32
      qd.range_for %l88 = %lo86 to %hi87 : i32 {
        %lo89 = arith.constant 0 : i32
        %hi90 = arith.constant 2 : i32
        qd.range_for %l91 = %lo89 to %hi90 : i32 {
          %v92 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
          qd.ndarray_atomic_add %v92, %y[%nd_c0] : !qd.ndarray<?xf32>
        }
      }
      %lo93 = arith.constant 0 : i32
      %hi94 = arith.constant 3 : i32
      qd.range_for %l95 = %lo93 to %hi94 : i32 {
        %lo96 = arith.constant 0 : i32
        %hi97 = arith.constant 2 : i32
        qd.range_for %l98 = %lo96 to %hi97 : i32 {
          %lo99 = arith.constant 0 : i32
          %hi100 = arith.constant 2 : i32
          qd.range_for %l101 = %lo99 to %hi100 : i32 {
            %v102 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
            qd.ndarray_atomic_add %v102, %y[%nd_c0] : !qd.ndarray<?xf32>
          }
        }
      }
    }
  }
}
