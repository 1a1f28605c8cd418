// ndarray form (gen_ndarray.py) of for_multiple_ib_mixed.mlir, for test_ad_ndarray.py::test_multiple_ib_mixed.
// Port of test_ad_for.py::test_multiple_ib_mixed: nests of constant-trip range_for loops whose statements are
// y += x (atomic adds); top-level loops are separate parallel tasks. x.grad = 30.
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
    %lo60 = arith.constant 0 : i32
    %hi61 = arith.constant 2 : i32
    qd.range_for %l62 = %lo60 to %hi61 : i32 {
      %lo63 = arith.constant 0 : i32
      %hi64 = arith.constant 3 : i32
      qd.range_for %l65 = %lo63 to %hi64 : i32 {
        %v66 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v66, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
      %lo67 = arith.constant 0 : i32
      %hi68 = arith.constant 3 : i32
      qd.range_for %l69 = %lo67 to %hi68 : i32 {
        %v70 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v70, %y[%nd_c0] : !qd.ndarray<?xf32>
        %lo71 = arith.constant 0 : i32
        %hi72 = arith.constant 2 : i32
        qd.range_for %l73 = %lo71 to %hi72 : i32 {
          %v74 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
          qd.ndarray_atomic_add %v74, %y[%nd_c0] : !qd.ndarray<?xf32>
        }
      }
      %lo75 = arith.constant 0 : i32
      %hi76 = arith.constant 3 : i32
      qd.range_for %l77 = %lo75 to %hi76 : i32 {
        %v78 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v78, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
    }
  }
}
