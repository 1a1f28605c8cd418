// ndarray form (gen_ndarray.py) of for_multiple_ib_multiple_outermost_mixed.mlir, for test_ad_ndarray.py::test_multiple_ib_multiple_outermost_mixed.
// Port of test_ad_for.py::test_multiple_ib_multiple_outermost_mixed: nests of constant-trip range_for loops whose statements are
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
    %lo34 = arith.constant 0 : i32
    %hi35 = arith.constant 2 : i32
    qd.range_for %l36 = %lo34 to %hi35 : i32 {
      %lo37 = arith.constant 0 : i32
      %hi38 = arith.constant 3 : i32
      qd.range_for %l39 = %lo37 to %hi38 : i32 {
        %v40 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v40, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
      %lo41 = arith.constant 0 : i32
      %hi42 = arith.constant 3 : i32
      qd.range_for %l43 = %lo41 to %hi42 : i32 {
        %v44 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v44, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
    }
    %lo45 = arith.constant 0 : i32
    %hi46 = arith.constant 2 : i32
    qd.range_for %l47 = %lo45 to %hi46 : i32 {
      %lo48 = arith.constant 0 : i32
      %hi49 = arith.constant 3 : i32
      qd.range_for %l50 = %lo48 to %hi49 : i32 {
        %v51 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v51, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
      %lo52 = arith.constant 0 : i32
      %hi53 = arith.constant 3 : i32
      qd.range_for %l54 = %lo52 to %hi53 : i32 {
        %v55 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v55, %y[%nd_c0] : !qd.ndarray<?xf32>
        %lo56 = arith.constant 0 : i32
        %hi57 = arith.constant 3 : i32
        qd.range_for %l58 = %lo56 to %hi57 : i32 {
          %v59 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
          qd.ndarray_atomic_add %v59, %y[%nd_c0] : !qd.ndarray<?xf32>
        }
      }
    }
  }
}
