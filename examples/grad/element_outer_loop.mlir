// [element-ad] An array that lives across an outer loop, and one made afresh in it: a (5
// elements, allocated per thread) is updated through m outer iterations; b (3 elements) is
// allocated inside the outer loop. Per outer iteration o: b[k] <- 0.5 a[k]; then for n steps,
// with j = (t + o) mod 5 and k = t mod 3: a[j] <- 0.7 sin(a[j]) + 0.2 b[k]; b[k] <- b[k] cos(a_j)
// (a_j the value read before the write, taped); then a[0] <- a[0] + b[1] b[2]. Then y += a[i]^2.
// a's stores save what they overwrite; b, allocated afresh each outer iteration, cannot be
// restored in reverse: its loaded values are taped instead.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, outer-loop, nested-loops, field-trip
// GRAD-SET: m=3
// GRAD-SET: n=7
// GRAD-SET: x=linspace(-0.6,0.8)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin, cos) O(1) values: truncation ~1e-11, rounding 1e-16 |y| (~10) / h ~ 1e-10
// GRAD-STACKS: 5
module {
  qd.field @m : !qd.field<i32>
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<3x5xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c5 = arith.constant 5 : i32
    qd.range_for %r = %c0 to %c3 : i32 {
      %a = qd.alloca : !qd.ptr<!qd.array<5xf32>>
      qd.range_for %k = %c0 to %c5 : i32 {
        %v = qd.load @x[%r, %k] : f32
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<5xf32>>
        qd.local_store %v, %p : !qd.ptr<f32>
      }
      %m = qd.load @m[] : i32
      %n = qd.load @n[] : i32
      qd.range_for %o = %c0 to %m : i32 {
        %b = qd.alloca : !qd.ptr<!qd.array<3xf32>>
        qd.range_for %k = %c0 to %c3 : i32 {
          %pa = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<5xf32>>
          %v = qd.local_load %pa : !qd.ptr<f32>
          %h = arith.constant 0.5 : f32
          %vh = arith.mulf %v, %h : f32
          %pb = qd.elem_ptr %b[%k] : !qd.ptr<!qd.array<3xf32>>
          qd.local_store %vh, %pb : !qd.ptr<f32>
        }
        qd.range_for %t = %c0 to %n : i32 {
          %to = arith.addi %t, %o : i32
          %j = arith.remsi %to, %c5 : i32
          %k = arith.remsi %t, %c3 : i32
          %pa = qd.elem_ptr %a[%j] : !qd.ptr<!qd.array<5xf32>>
          %pb = qd.elem_ptr %b[%k] : !qd.ptr<!qd.array<3xf32>>
          %aj = qd.local_load %pa : !qd.ptr<f32>
          %bk = qd.local_load %pb : !qd.ptr<f32>
          %s = math.sin %aj : f32
          %k7 = arith.constant 0.7 : f32
          %k2 = arith.constant 0.2 : f32
          %u = arith.mulf %s, %k7 : f32
          %w = arith.mulf %bk, %k2 : f32
          %na = arith.addf %u, %w : f32
          qd.local_store %na, %pa : !qd.ptr<f32>
          %ca = math.cos %aj : f32
          %nb = arith.mulf %bk, %ca : f32
          qd.local_store %nb, %pb : !qd.ptr<f32>
        }
        %p0 = qd.elem_ptr %a[%c0] : !qd.ptr<!qd.array<5xf32>>
        %q1 = qd.elem_ptr %b[%c1] : !qd.ptr<!qd.array<3xf32>>
        %q2 = qd.elem_ptr %b[%c2] : !qd.ptr<!qd.array<3xf32>>
        %a0 = qd.local_load %p0 : !qd.ptr<f32>
        %b1 = qd.local_load %q1 : !qd.ptr<f32>
        %b2 = qd.local_load %q2 : !qd.ptr<f32>
        %bb = arith.mulf %b1, %b2 : f32
        %na0 = arith.addf %a0, %bb : f32
        qd.local_store %na0, %p0 : !qd.ptr<f32>
      }
      qd.range_for %k = %c0 to %c5 : i32 {
        %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<5xf32>>
        %v = qd.local_load %p : !qd.ptr<f32>
        %v2 = arith.mulf %v, %v : f32
        qd.atomic_add %v2, @y[] : f32
      }
    }
  }
}
