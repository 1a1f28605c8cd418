// (a) linear body: v = v*0.95 + 0.01, n (= 64) iterations read from the field @n, N = 2^20 threads.
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<1048576xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %k = arith.constant 0.95 : f32
        %b = arith.constant 0.01 : f32
        %m = arith.mulf %a, %k : f32
        %s = arith.addf %m, %b : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[] : f32
    }
  }
}
