// Port of test_ad_for.py::test_inner_loops_local_variable_{fixed,adaptive}_stack_size_{tape,
// kernel_grad} (4 tests, one kernel: qd sizes every stack at
// launch, so the peer's forced ad_stack_size=32 needs no file of its own): for i in arr: for j in range(3): s = 0; t = 0; for k in range(3):
// s += sin(x) + 1; t += sin(x); loss += s + t. x.grad = 36 cos(x).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: nested-loops, accumulator, atomic-scalar
// GRAD-SET: x=0
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin): truncation ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<f32> {needs_grad}
  qd.field @arr : !qd.field<2xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @arr {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      qd.range_for %j = %c0 to %c3 : i32 {
        %sp = qd.alloca : !qd.ptr<f32>
        %tp = qd.alloca : !qd.ptr<f32>
        %z = arith.constant 0.0 : f32
        qd.local_store %z, %sp : !qd.ptr<f32>
        qd.local_store %z, %tp : !qd.ptr<f32>
        qd.range_for %k = %c0 to %c3 : i32 {
          %x = qd.load @x[] : f32
          %sn = math.sin %x : f32
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
        qd.atomic_add %st, @loss[] : f32
      }
    }
  }
}
