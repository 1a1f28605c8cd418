// [element-ad] An element read twice and written once per iteration: for n steps, with
// j = t mod 5, u and w are two loads of a[j] (through two elem_ptr of the same index), then
// a[j] <- sin(u) w + 0.1. Both loads are re-read in reverse from the restored array: one saved
// scalar per iteration (one stack), where taping the loads would save two.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, read-twice, dynamic-index, field-trip
// GRAD-SET: n=17
// GRAD-SET: x=linspace(0.2,1.4)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding 1e-16 |y| (~10) / h ~ 1e-10
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<2x5xf32> {needs_grad}
  qd.field @y : !qd.field<2xf32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c5 = arith.constant 5 : i32
    qd.range_for %r = %c0 to %c2 : i32 {
      %a = qd.alloca : !qd.ptr<!qd.array<5xf32>>
      qd.range_for %k = %c0 to %c5 : i32 {
        %v = qd.load @x[%r, %k] : f32
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<5xf32>>
        qd.local_store %v, %p : !qd.ptr<f32>
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %j = arith.remsi %t, %c5 : i32
        %p = qd.elem_ptr %a[%j] : !qd.ptr<!qd.array<5xf32>>
        %u = qd.local_load %p : !qd.ptr<f32>
        %q = qd.elem_ptr %a[%j] : !qd.ptr<!qd.array<5xf32>>
        %w = qd.local_load %q : !qd.ptr<f32>
        %s = math.sin %u : f32
        %sw = arith.mulf %s, %w : f32
        %k1 = arith.constant 0.1 : f32
        %nv = arith.addf %sw, %k1 : f32
        qd.local_store %nv, %p : !qd.ptr<f32>
      }
      qd.range_for %k = %c0 to %c5 : i32 {
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<5xf32>>
        %v = qd.local_load %p : !qd.ptr<f32>
        qd.atomic_add %v, @y[%r] : f32
      }
    }
  }
}
