// (d) a local array of 64 f32 updated at a dynamic index: N = 4096 threads (rows of x), n (= 1024)
// steps from the field @n; step t updates element t mod 64 by a <- sin(a)*0.9 + 0.1.
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<4096x64xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %rows = arith.constant 4096 : i32
    qd.range_for %r = %c0 to %rows : i32 {
      %arr = qd.alloca : !qd.ptr<!qd.array<64xf32>>
      %c64 = arith.constant 64 : i32
      qd.range_for %k = %c0 to %c64 : i32 {
        %x_rk = qd.load @x[%r, %k] : f32
        %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<64xf32>>
        qd.local_store %x_rk, %p : !qd.ptr<f32>
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %j = arith.remsi %t, %c64 : i32
        %p = qd.elem_ptr %arr[%j] : !qd.ptr<!qd.array<64xf32>>
        %a = qd.local_load %p : !qd.ptr<f32>
        %sn = math.sin %a : f32
        %k9 = arith.constant 0.9 : f32
        %b = arith.constant 0.1 : f32
        %m = arith.mulf %sn, %k9 : f32
        %s = arith.addf %m, %b : f32
        qd.local_store %s, %p : !qd.ptr<f32>
      }
      qd.range_for %k = %c0 to %c64 : i32 {
        %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<64xf32>>
        %a = qd.local_load %p : !qd.ptr<f32>
        qd.atomic_add %a, @y[] : f32
      }
    }
  }
}
