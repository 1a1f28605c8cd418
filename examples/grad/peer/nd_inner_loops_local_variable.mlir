// ndarray form (gen_ndarray.py) of for_inner_loops_local_variable.mlir, for test_ad_ndarray.py::test_inner_loops_local_variable_adaptive_stack_size_tape.
// Port of test_ad_for.py::test_inner_loops_local_variable_{fixed,adaptive}_stack_size_{tape,
// kernel_grad} (4 tests, one kernel: qd sizes every stack at
// launch, so the peer's forced ad_stack_size=32 needs no file of its own): for i in arr: for j in range(3): s = 0; t = 0; for k in range(3):
// s += sin(x) + 1; t += sin(x); loss += s + t. x.grad = 36 cos(x).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: nested-loops, accumulator, atomic-scalar
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
      qd.range_for %j = %c0 to %c3 : i32 {
        %sp = qd.alloca : !qd.ptr<f32>
        %tp = qd.alloca : !qd.ptr<f32>
        %z = arith.constant 0.0 : f32
        qd.local_store %z, %sp : !qd.ptr<f32>
        qd.local_store %z, %tp : !qd.ptr<f32>
        qd.range_for %k = %c0 to %c3 : i32 {
          %x_v = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
          %sn = math.sin %x_v : f32
          %one = arith.constant 1.0 : f32
          %a = arith.addf %sn, %one : f32
          %s = qd.local_load %sp : !qd.ptr<f32>
          %s2 = arith.addf %s, %a : f32
          qd.local_store %s2, %sp : !qd.ptr<f32>
          %t = qd.local_load %tp : !qd.ptr<f32>
          %t2 = arith.addf %t, %sn : f32
          qd.local_store %t2, %tp : !qd.ptr<f32>
        }
        %s = qd.local_load %sp : !qd.ptr<f32>
        %t = qd.local_load %tp : !qd.ptr<f32>
        %st = arith.addf %s, %t : f32
        qd.ndarray_atomic_add %st, %loss[%nd_c0] : !qd.ndarray<?xf32>
      }
    }
  }
}
