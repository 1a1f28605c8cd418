// Port of test_ad_for.py::test_more_inner_loops_local_variable_{adaptive,fixed}_stack_size_tape:
// for i in arr: for j in range(2): s = 0; for k in range(3): u = 0; s += sin(x) + 1;
// for l in range(2): u += sin(x); loss += u; then loss += s. x.grad = 36 cos(x).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: forced-stack-size, nested-loops, accumulator, atomic-scalar
// GRAD-SET: x=0
// GRAD-SEED: loss=1
// GRAD-WRT: x
// GRAD-AD-STACK-SIZE: 32 ; the peer test forces ad_stack_size=32
// GRAD-TOL: default ; smooth (sin): truncation ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @x : !qd.field<f32> {needs_grad}
  qd.field @arr : !qd.field<2xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @arr {
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
          %x = qd.load @x[] : f32
          %sn = math.sin %x : f32
          %a = arith.addf %sn, %one : f32
          %s = qd.local_load %sp : !qd.ptr<f32>
          %s2 = arith.addf %s, %a : f32
          qd.local_store %s2, %sp : !qd.ptr<f32>
          qd.range_for %l = %c0 to %c2 : i32 {
            %x2 = qd.load @x[] : f32
            %sn2 = math.sin %x2 : f32
            %u = qd.local_load %up : !qd.ptr<f32>
            %u2 = arith.addf %u, %sn2 : f32
            qd.local_store %u2, %up : !qd.ptr<f32>
          }
          %uf = qd.local_load %up : !qd.ptr<f32>
          qd.atomic_add %uf, @loss[] : f32
        }
        %sf = qd.local_load %sp : !qd.ptr<f32>
        qd.atomic_add %sf, @loss[] : f32
      }
    }
  }
}
