// ndarray form (gen_ndarray.py) of for_more_inner_loops_local_variable_fixed32.mlir, for test_ad_ndarray.py::test_more_inner_loops_local_variable_fixed_stack_size_tape.
// Port of test_ad_for.py::test_more_inner_loops_local_variable_{adaptive,fixed}_stack_size_tape:
// for i in arr: for j in range(2): s = 0; for k in range(3): u = 0; s += sin(x) + 1;
// for l in range(2): u += sin(x); loss += u; then loss += s. x.grad = 36 cos(x).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: forced-stack-size, nested-loops, accumulator, atomic-scalar
// GRAD-ARG: x=0:1
// GRAD-ARG: arr=fill(0):2
// GRAD-ARG: loss=fill(0):1
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-AD-STACK-SIZE: 32 ; the peer test forces ad_stack_size=32
// GRAD-TOL: default ; smooth (sin): truncation ~1e-11
// GRAD-STACKS: 0
module {

  qd.kernel @compute(%x: !qd.ndarray<?xf32>, %arr: !qd.ndarray<?xf32>, %loss: !qd.ndarray<?xf32>) {
    %nd_c0 = arith.constant 0 : i32
    %sf_n = qd.ndarray_shape %arr, 0 : !qd.ndarray<?xf32>
    qd.range_for %i = %nd_c0 to %sf_n : i32 {
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %z = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      qd.range_for %j = %c0 to %c2 : i32 {
        %sp = qd.alloca : !qd.ptr<f32>
        qd.local_store %z, %sp : !qd.ptr<f32>
        qd.range_for %k = %c0 to %c3 : i32 {
          %up = qd.alloca : !qd.ptr<f32>
          qd.local_store %z, %up : !qd.ptr<f32>
          %x_v = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
          %sn = math.sin %x_v : f32
          %a = arith.addf %sn, %one : f32
          %s = qd.local_load %sp : !qd.ptr<f32>
          %s2 = arith.addf %s, %a : f32
          qd.local_store %s2, %sp : !qd.ptr<f32>
          qd.range_for %l = %c0 to %c2 : i32 {
            %x2 = qd.ndarray_load %x[%nd_c0] : !qd.ndarray<?xf32>
            %sn2 = math.sin %x2 : f32
            %u = qd.local_load %up : !qd.ptr<f32>
            %u2 = arith.addf %u, %sn2 : f32
            qd.local_store %u2, %up : !qd.ptr<f32>
          }
          %uf = qd.local_load %up : !qd.ptr<f32>
          qd.ndarray_atomic_add %uf, %loss[%nd_c0] : !qd.ndarray<?xf32>
        }
        %sf = qd.local_load %sp : !qd.ptr<f32>
        qd.ndarray_atomic_add %sf, %loss[%nd_c0] : !qd.ndarray<?xf32>
      }
    }
  }
}
