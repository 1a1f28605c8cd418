// [element-ad] A 6-element local array updated at the dynamic index j = t mod 6 for n steps:
// a[j] <- 0.8 a[j] + 0.3 sin(a[(t + 1) mod 6]); each step reads its neighbour, which a later
// step overwrites. Then y += a[k]^2. Element mode: each store saves the one element it
// overwrites (one f32 stack); the fill stores save nothing.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, dynamic-index, field-trip
// GRAD-SET: n=20
// GRAD-SET: x=linspace(-0.9,1.2)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding 1e-16 |y| (~10) / h ~ 1e-10
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<3x6xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c6 = arith.constant 6 : i32
    qd.range_for %r = %c0 to %c3 : i32 {
      %a = qd.alloca : !qd.ptr<!qd.array<6xf32>>
      qd.range_for %k = %c0 to %c6 : i32 {
        %v = qd.load @x[%r, %k] : f32
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<6xf32>>
        qd.local_store %v, %p : !qd.ptr<f32>
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %j = arith.remsi %t, %c6 : i32
        %t1 = arith.addi %t, %c1 : i32
        %jn = arith.remsi %t1, %c6 : i32
        %pj = qd.elem_ptr %a[%j] : !qd.ptr<!qd.array<6xf32>>
        %pn = qd.elem_ptr %a[%jn] : !qd.ptr<!qd.array<6xf32>>
        %aj = qd.local_load %pj : !qd.ptr<f32>
        %an = qd.local_load %pn : !qd.ptr<f32>
        %s = math.sin %an : f32
        %k8 = arith.constant 0.8 : f32
        %k3 = arith.constant 0.3 : f32
        %u = arith.mulf %aj, %k8 : f32
        %w = arith.mulf %s, %k3 : f32
        %nv = arith.addf %u, %w : f32
        qd.local_store %nv, %pj : !qd.ptr<f32>
      }
      qd.range_for %k = %c0 to %c6 : i32 {
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<6xf32>>
        %v = qd.local_load %p : !qd.ptr<f32>
        %v2 = arith.mulf %v, %v : f32
        qd.atomic_add %v2, @y[] : f32
      }
    }
  }
}
