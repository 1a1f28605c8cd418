// ndarray form (gen_ndarray.py) of for_stacked_inner_loops_local_variable.mlir, for test_ad_ndarray.py::test_stacked_inner_loops_local_variable_{fixed,adaptive}_stack_size_kernel_grad.
// Port of test_ad_for.py::test_stacked_inner_loops_local_variable_{fixed,adaptive}_stack_size_
// kernel_grad: for i in arr: loss += sin(x); twice: for j in range(3): s = 0; for k in range(3):
// s += sin(x) + 1; loss += s. x.grad = 2 (1 + 18) cos(x) = 38 at x = 0.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: sibling-loops, nested-loops, accumulator, atomic-scalar
// GRAD-ARG: x=0:1
// GRAD-ARG: arr=fill(0):2
// GRAD-ARG: loss=fill(0):1
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin): truncation ~1e-11
// GRAD-STACKS: 0
module {

  qd.kernel @compute(%x: !qd.ndarray<?xf32>, %arr: !qd.ndarray<?xf32>, %loss: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %sf_n = qd.ndarray_shape %arr, 0 : !qd.ndarray<?xf32>
    qd.range_for %i = %nd_c0 to %sf_n : i32 {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      %z = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %x0 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
      %s0 = math.sin %x0 : f32
      qd.ndarray_atomic_add %s0, %loss[%nd_c0] : !qd.ndarray<?xf32>
      qd.range_for %j = %c0 to %c3 : i32 {
        %sp = qd.alloca : !qd.ptr<f32>
        qd.local_store %z, %sp : !qd.ptr<f32>
        qd.range_for %k = %c0 to %c3 : i32 {
          %x_v = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
          %sn = math.sin %x_v : f32
          %a = arith.addf %sn, %one : f32
          %s = qd.local_load %sp : !qd.ptr<f32>
          %s2 = arith.addf %s, %a : f32
          qd.local_store %s2, %sp : !qd.ptr<f32>
        }
        %sf = qd.local_load %sp : !qd.ptr<f32>
        qd.ndarray_atomic_add %sf, %loss[%nd_c0] : !qd.ndarray<?xf32>
      }
      qd.range_for %j = %c0 to %c3 : i32 {
        %sp = qd.alloca : !qd.ptr<f32>
        qd.local_store %z, %sp : !qd.ptr<f32>
        qd.range_for %k = %c0 to %c3 : i32 {
          %x_v = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
          %sn = math.sin %x_v : f32
          %a = arith.addf %sn, %one : f32
          %s = qd.local_load %sp : !qd.ptr<f32>
          %s2 = arith.addf %s, %a : f32
          qd.local_store %s2, %sp : !qd.ptr<f32>
        }
        %sf = qd.local_load %sp : !qd.ptr<f32>
        qd.ndarray_atomic_add %sf, %loss[%nd_c0] : !qd.ndarray<?xf32>
      }
    }
  }
}
