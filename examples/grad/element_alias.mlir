// [element-ad] Aliasing: two elem_ptr whose different index values always name the same
// element (j = t mod 4 and j2 = (t + 4) mod 4). Per step: u = a[j]; a[j] <- 1.1 sin(u); then,
// through the other pointer, v = a[j2] (the value just written) and a[j2] <- 0.3 v^2 + v; and
// a neighbour a[(t + 1) mod 4] <- a[(t + 1) mod 4] + 0.1 v. Three saved scalars per step on one
// stack; the reverse pass must undo the writes in exactly the reverse order to re-read v (after
// the first write) and u (before it) from the array.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, aliasing, dynamic-index, field-trip
// GRAD-SET: n=10
// GRAD-SET: x=linspace(-0.7,0.9)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding 1e-16 |y| (~10) / h ~ 1e-10
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<3x4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    qd.range_for %r = %c0 to %c3 : i32 {
      %a = qd.alloca : !qd.ptr<!qd.array<4xf32>>
      qd.range_for %k = %c0 to %c4 : i32 {
        %v = qd.load @x[%r, %k] : f32
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<4xf32>>
        qd.local_store %v, %p : !qd.ptr<f32>
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %j = arith.remsi %t, %c4 : i32
        %t4 = arith.addi %t, %c4 : i32
        %j2 = arith.remsi %t4, %c4 : i32
        %t1 = arith.addi %t, %c1 : i32
        %jn = arith.remsi %t1, %c4 : i32
        %p = qd.elem_ptr %a[%j] : !qd.ptr<!qd.array<4xf32>>
        %q = qd.elem_ptr %a[%j2] : !qd.ptr<!qd.array<4xf32>>
        %pn = qd.elem_ptr %a[%jn] : !qd.ptr<!qd.array<4xf32>>
        %u = qd.local_load %p : !qd.ptr<f32>
        %s = math.sin %u : f32
        %k11 = arith.constant 1.1 : f32
        %s11 = arith.mulf %s, %k11 : f32
        qd.local_store %s11, %p : !qd.ptr<f32>
        %v = qd.local_load %q : !qd.ptr<f32>
        %vv = arith.mulf %v, %v : f32
        %k3 = arith.constant 0.3 : f32
        %v3 = arith.mulf %vv, %k3 : f32
        %nv = arith.addf %v3, %v : f32
        qd.local_store %nv, %q : !qd.ptr<f32>
        %w = qd.local_load %pn : !qd.ptr<f32>
        %k1 = arith.constant 0.1 : f32
        %v1 = arith.mulf %v, %k1 : f32
        %nw = arith.addf %w, %v1 : f32
        qd.local_store %nw, %pn : !qd.ptr<f32>
      }
      qd.range_for %k = %c0 to %c4 : i32 {
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<4xf32>>
        %v = qd.local_load %p : !qd.ptr<f32>
        qd.atomic_add %v, @y[] : f32
      }
    }
  }
}
