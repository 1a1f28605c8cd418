// ndarray form (gen_ndarray.py) of for_multiple_ib_multiple_outermost.mlir, for test_ad_ndarray.py::test_multiple_ib_multiple_outermost.
// Port of test_ad_for.py::test_multiple_ib_multiple_outermost: nests of constant-trip range_for loops whose statements are
// y += x (atomic adds); top-level loops are separate parallel tasks. x.grad = 24.
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
    %lo12 = arith.constant 0 : i32
    %hi13 = arith.constant 2 : i32
    qd.range_for %l14 = %lo12 to %hi13 : i32 {
      %lo15 = arith.constant 0 : i32
      %hi16 = arith.constant 3 : i32
      qd.range_for %l17 = %lo15 to %hi16 : i32 {
        %v18 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v18, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
      %lo19 = arith.constant 0 : i32
      %hi20 = arith.constant 3 : i32
      qd.range_for %l21 = %lo19 to %hi20 : i32 {
        %v22 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v22, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
    }
    %lo23 = arith.constant 0 : i32
    %hi24 = arith.constant 2 : i32
    qd.range_for %l25 = %lo23 to %hi24 : i32 {
      %lo26 = arith.constant 0 : i32
      %hi27 = arith.constant 3 : i32
      qd.range_for %l28 = %lo26 to %hi27 : i32 {
        %v29 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v29, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
      %lo30 = arith.constant 0 : i32
      %hi31 = arith.constant 3 : i32
      qd.range_for %l32 = %lo30 to %hi31 : i32 {
        %v33 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v33, %y[%nd_c0] : !qd.ndarray<?xf32>
      }
    }
  }
}
