// ndarray form (gen_ndarray.py) of for_mixed_inner_loops.mlir, for test_ad_ndarray.py::test_mixed_inner_loops, ::test_mixed_inner_loops_tape.
// Port of test_ad_for.py::test_mixed_inner_loops and ::test_mixed_inner_loops_tape (kernel.grad
// and the Tape are one gradient here): for i in arr: loss += sin(x); for j in range(2):
// loss += sin(x) + 1. x.grad = 15 cos(x).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: mixed_inner_loops
// GRAD-COVERS: atomic-scalar, nested-loops
// GRAD-ARG: x=0:1
// GRAD-ARG: arr=fill(0):5
// GRAD-ARG: loss=fill(0):1
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin): truncation ~1e-11
// GRAD-STACKS: 0
module {

  qd.kernel @mixed_inner_loops(%x: !qd.ndarray<?xf32>, %arr: !qd.ndarray<?xf32>, %loss: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %sf_n = qd.ndarray_shape %arr, 0 : !qd.ndarray<?xf32>
    qd.range_for %i = %nd_c0 to %sf_n : i32 {
      %x_v = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
      %s = math.sin %x_v : f32
      qd.ndarray_atomic_add %s, %loss[%nd_c0] : !qd.ndarray<?xf32>
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      qd.range_for %j = %c0 to %c2 : i32 {
        %x2 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
        %s2 = math.sin %x2 : f32
        %one = arith.constant 1.0 : f32
        %t = arith.addf %s2, %one : f32
        qd.ndarray_atomic_add %t, %loss[%nd_c0] : !qd.ndarray<?xf32>
      }
    }
  }
}
