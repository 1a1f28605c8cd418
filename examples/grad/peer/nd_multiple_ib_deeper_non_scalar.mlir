// ndarray form (gen_ndarray.py) of for_multiple_ib_deeper_non_scalar.mlir, for test_ad_ndarray.py::test_multiple_ib_deeper_non_scalar.
// Port of test_ad_for.py::test_multiple_ib_deeper_non_scalar: for j in range(N) (parallel):
// for i in range(j): y[j] += x[j]; for i in range(3): for ii in range(j): y[j] += x[j];
// for i in range(3): for ii in range(2): for iii in range(j): y[j] += x[j]. x.grad[j] = 10 j.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute_y
// GRAD-COVERS: nested-loops, sibling-loops, triangular
// GRAD-ARG: x=linspace(0.5,1.5):10
// GRAD-ARG: y=fill(0):10
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {

  qd.kernel @compute_y(%x: !qd.ndarray<?xf32>, %y: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %cn = arith.constant 10 : i32
    qd.range_for %j = %c0 to %cn : i32 {
      qd.range_for %i = %c0 to %j : i32 {
        %v = qd.ndarray_load %x[%j] : !qd.ndarray<?xf32>
        qd.ndarray_atomic_add %v, %y[%j] : !qd.ndarray<?xf32>
      }
      qd.range_for %i = %c0 to %c3 : i32 {
        qd.range_for %ii = %c0 to %j : i32 {
          %v = qd.ndarray_load %x[%j] : !qd.ndarray<?xf32>
          qd.ndarray_atomic_add %v, %y[%j] : !qd.ndarray<?xf32>
        }
      }
      qd.range_for %i = %c0 to %c3 : i32 {
        qd.range_for %ii = %c0 to %c2 : i32 {
          qd.range_for %iii = %c0 to %j : i32 {
            %v = qd.ndarray_load %x[%j] : !qd.ndarray<?xf32>
            qd.ndarray_atomic_add %v, %y[%j] : !qd.ndarray<?xf32>
          }
        }
      }
    }
  }
}
