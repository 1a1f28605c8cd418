// [element-ad] Two local arrays updated together: for n steps, with j = t mod 4 and
// k = (3t + 1) mod 5: a[j] <- sin(b[k]) + 0.5 a[j], then b[k] <- cos(a_j) b[k] with a_j the
// value a[j] held before (read again after a[j] was overwritten: taped). Then
// y += sum a[i]^2 + sum b[i]. Each array's stores save only the element they overwrite (one
// stack per array, plus the tape of a_j).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, two-arrays, dynamic-index, field-trip
// GRAD-SET: n=14
// GRAD-SET: x=linspace(-1.0,1.0)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin, cos) O(1) values: truncation ~1e-11, rounding 1e-16 |y| (~10) / h ~ 1e-10
// GRAD-STACKS: 3
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<2x9xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    qd.range_for %r = %c0 to %c2 : i32 {
      %a = qd.alloca : !qd.ptr<!qd.array<4xf32>>
      %b = qd.alloca : !qd.ptr<!qd.array<5xf32>>
      qd.range_for %k = %c0 to %c4 : i32 {
        %v = qd.load @x[%r, %k] : f32
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<4xf32>>
        qd.local_store %v, %p : !qd.ptr<f32>
      }
      qd.range_for %k = %c0 to %c5 : i32 {
        %k4 = arith.addi %k, %c4 : i32
        %v = qd.load @x[%r, %k4] : f32
        %p = qd.elem_ptr %b[%k] : !qd.ptr<!qd.array<5xf32>>
        qd.local_store %v, %p : !qd.ptr<f32>
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %j = arith.remsi %t, %c4 : i32
        %t3 = arith.muli %t, %c3 : i32
        %t31 = arith.addi %t3, %c1 : i32
        %k = arith.remsi %t31, %c5 : i32
        %pa = qd.elem_ptr %a[%j] : !qd.ptr<!qd.array<4xf32>>
        %pb = qd.elem_ptr %b[%k] : !qd.ptr<!qd.array<5xf32>>
        %aj = qd.local_load %pa : !qd.ptr<f32>
        %bk = qd.local_load %pb : !qd.ptr<f32>
        %sb = math.sin %bk : f32
        %h = arith.constant 0.5 : f32
        %ha = arith.mulf %aj, %h : f32
        %na = arith.addf %sb, %ha : f32
        qd.local_store %na, %pa : !qd.ptr<f32>
        %ca = math.cos %aj : f32
        %nb = arith.mulf %ca, %bk : f32
        qd.local_store %nb, %pb : !qd.ptr<f32>
      }
      qd.range_for %k = %c0 to %c4 : i32 {
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<4xf32>>
        %v = qd.local_load %p : !qd.ptr<f32>
        %v2 = arith.mulf %v, %v : f32
        qd.atomic_add %v2, @y[] : f32
      }
      qd.range_for %k = %c0 to %c5 : i32 {
        %p = qd.elem_ptr %b[%k] : !qd.ptr<!qd.array<5xf32>>
        %v = qd.local_load %p : !qd.ptr<f32>
        qd.atomic_add %v, @y[] : f32
      }
    }
  }
}
