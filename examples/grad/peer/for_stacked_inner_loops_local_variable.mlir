// Port of test_ad_for.py::test_stacked_inner_loops_local_variable_{fixed,adaptive}_stack_size_
// kernel_grad: for i in arr: loss += sin(x); twice: for j in range(3): s = 0; for k in range(3):
// s += sin(x) + 1; loss += s. x.grad = 2 (1 + 18) cos(x) = 38 at x = 0.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: sibling-loops, nested-loops, accumulator, atomic-scalar
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
      %z = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %x0 = qd.load @x[] : f32
      %s0 = math.sin %x0 : f32
      qd.atomic_add %s0, @loss[] : f32
      qd.range_for %j = %c0 to %c3 : i32 {
        %sp = qd.alloca : !qd.ptr<f32>
        qd.local_store %z, %sp : !qd.ptr<f32>
        qd.range_for %k = %c0 to %c3 : i32 {
          %x = qd.load @x[] : f32
          %sn = math.sin %x : f32
          %a = arith.addf %sn, %one : f32
          %s = qd.local_load %sp : !qd.ptr<f32>
          %s2 = arith.addf %s, %a : f32
          qd.local_store %s2, %sp : !qd.ptr<f32>
        }
        %sf = qd.local_load %sp : !qd.ptr<f32>
        qd.atomic_add %sf, @loss[] : f32
      }
      qd.range_for %j = %c0 to %c3 : i32 {
        %sp = qd.alloca : !qd.ptr<f32>
        qd.local_store %z, %sp : !qd.ptr<f32>
        qd.range_for %k = %c0 to %c3 : i32 {
          %x = qd.load @x[] : f32
          %sn = math.sin %x : f32
          %a = arith.addf %sn, %one : f32
          %s = qd.local_load %sp : !qd.ptr<f32>
          %s2 = arith.addf %s, %a : f32
          qd.local_store %s2, %sp : !qd.ptr<f32>
        }
        %sf = qd.local_load %sp : !qd.ptr<f32>
        qd.atomic_add %sf, @loss[] : f32
      }
    }
  }
}
